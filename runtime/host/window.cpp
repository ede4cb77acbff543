#include "runtime/host/window.h"

#include <SDL.h>
#include <SDL_vulkan.h>

#include "runtime/base/error.h"
#include "runtime/base/log.h"

namespace kiln::host {

Window::Window(const std::string& title, uint32_t width, uint32_t height, bool fullscreen) : fullscreen_(fullscreen) {
  Uint32 flags = SDL_WINDOW_VULKAN | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  if (fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
  window_ = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, static_cast<int>(width),
                             static_cast<int>(height), flags);
  if (!window_) throw Error(std::string("host: cannot open a window: ") + SDL_GetError());
}

Window::~Window() {
  if (window_) SDL_DestroyWindow(window_);
}

std::vector<const char*> Window::instance_extensions() const {
  unsigned count = 0;
  if (!SDL_Vulkan_GetInstanceExtensions(window_, &count, nullptr))
    throw Error(std::string("host: SDL cannot name the Vulkan surface extensions: ") + SDL_GetError());
  std::vector<const char*> names(count);
  SDL_Vulkan_GetInstanceExtensions(window_, &count, names.data());
  return names;
}

vk::SurfaceKHR Window::create_surface(vk::Instance instance) const {
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  if (!SDL_Vulkan_CreateSurface(window_, instance, &surface))
    throw Error(std::string("host: cannot create a Vulkan surface for the window: ") + SDL_GetError());
  return surface;
}

vk::Extent2D Window::drawable_size() const {
  int width = 0, height = 0;
  SDL_Vulkan_GetDrawableSize(window_, &width, &height);
  if (SDL_GetWindowFlags(window_) & SDL_WINDOW_MINIMIZED) return {0, 0};
  return {static_cast<uint32_t>(width), static_cast<uint32_t>(height)};
}

uint32_t Window::id() const { return SDL_GetWindowID(window_); }

void Window::toggle_fullscreen() {
  fullscreen_ = !fullscreen_;
  if (SDL_SetWindowFullscreen(window_, fullscreen_ ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0) != 0)
    log::warning("host: cannot switch fullscreen: {}", SDL_GetError());
}

bool Window::handle(const SDL_Event& event) {
  switch (event.type) {
  case SDL_QUIT: close_requested_ = true; return false;
  case SDL_WINDOWEVENT:
    if (event.window.windowID != id()) return false;
    switch (event.window.event) {
    case SDL_WINDOWEVENT_CLOSE: close_requested_ = true; return false;
    case SDL_WINDOWEVENT_SIZE_CHANGED: case SDL_WINDOWEVENT_RESIZED: case SDL_WINDOWEVENT_MINIMIZED:
    case SDL_WINDOWEVENT_RESTORED: case SDL_WINDOWEVENT_MAXIMIZED: case SDL_WINDOWEVENT_EXPOSED:
      return true;
    default: return false;
    }
  case SDL_KEYDOWN:
    if (event.key.repeat) return false;
    if (event.key.keysym.sym == SDLK_F11 || (event.key.keysym.sym == SDLK_RETURN && (event.key.keysym.mod & KMOD_ALT))) {
      toggle_fullscreen();
      return true;
    }
    return false;
  default: return false;
  }
}

} // namespace kiln::host
