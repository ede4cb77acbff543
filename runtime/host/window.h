#pragma once
// The SDL window a title is shown in, its Vulkan surface, and the events that concern it: close, resize,
// minimise, and the fullscreen toggle (F11 or Alt+Return).
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/gpu/vulkan/vulkan.h"

union SDL_Event;
struct SDL_Window;

namespace kiln::host {

class Window {
public:
  /// Needs SDL's video subsystem initialised (with Vulkan support loaded).
  Window(const std::string& title, uint32_t width, uint32_t height, bool fullscreen);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  /// The instance extensions SDL needs for this window's surface.
  std::vector<const char*> instance_extensions() const;
  vk::SurfaceKHR create_surface(vk::Instance instance) const;
  vk::Extent2D drawable_size() const;

  /// Window events; true when the swapchain has to follow (size, mode or visibility changed).
  bool handle(const SDL_Event& event);
  void toggle_fullscreen();
  bool close_requested() const { return close_requested_; }
  uint32_t id() const;

private:
  SDL_Window* window_ = nullptr;
  bool fullscreen_ = false;
  bool close_requested_ = false;
};

} // namespace kiln::host
