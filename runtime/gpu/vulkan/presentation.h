#pragma once
// A window's Vulkan surface and swapchain, and guest frames blitted into it. FIFO by default (MAILBOX or
// IMMEDIATE when asked and offered); the swapchain is recreated when the surface changes size, is out of date
// or suboptimal, and nothing is presented while it has no area (minimised). One frame in flight per swapchain
// image: each slot has its fence, acquire semaphore, command buffer, staging buffer and source image, and each
// swapchain image its own semaphore for presentation.
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "runtime/gpu/vulkan/memory.h"
#include "runtime/gpu/vulkan/presentation_layout.h"

namespace kiln::vulkan {

enum class PresentMode { fifo, mailbox, immediate };
std::optional<PresentMode> present_mode_from_name(std::string_view name);

struct PresentOptions {
  PresentMode mode = PresentMode::fifo;
  Scaling scaling = Scaling::aspect;
};

/// A CPU frame: rows of RGBA8 pixels `pitch` bytes apart, top row first.
struct CpuImage {
  const uint8_t* pixels = nullptr;
  uint32_t width = 0, height = 0, pitch = 0;
};

class Presenter {
public:
  /// Takes ownership of `surface` (created on `context`'s instance). `drawable_size` gives the window's size in
  /// pixels for surfaces whose extent the window decides.
  Presenter(Context& context, vk::SurfaceKHR surface, PresentOptions options, std::function<vk::Extent2D()> drawable_size);
  ~Presenter();
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  /// Shows `image` with `display_aspect` (width:height; 0 = square pixels), black around it. False when
  /// nothing could be shown (minimised).
  bool present(const CpuImage& image, double display_aspect);
  /// The window changed size or mode: the next present builds a new swapchain.
  void surface_changed() { recreate_ = true; }
  vk::PresentModeKHR present_mode() const { return present_mode_; }
  uint64_t swapchains_created() const { return swapchains_created_; }

private:
  struct Slot {
    vk::UniqueFence fence;
    vk::UniqueSemaphore acquired;
    vk::UniqueCommandBuffer commands;
    Buffer staging;
    Image source;
  };
  /// False when the surface has no area now.
  bool create_swapchain();
  void record(Slot& slot, const CpuImage& image, uint32_t image_index, const PresentRect& rect);

  Context& context_;
  vk::SurfaceKHR surface_; ///< destroyed last, after the swapchain
  PresentOptions options_;
  std::function<vk::Extent2D()> drawable_size_;
  vk::UniqueCommandPool pool_;
  vk::UniqueSwapchainKHR swapchain_;
  std::vector<vk::Image> images_;
  std::vector<vk::UniqueSemaphore> rendered_; ///< per swapchain image
  std::vector<Slot> slots_;
  size_t next_slot_ = 0;
  vk::Format format_ = vk::Format::eUndefined;
  vk::Extent2D extent_;
  vk::PresentModeKHR present_mode_ = vk::PresentModeKHR::eFifo;
  bool recreate_ = true;
  uint64_t swapchains_created_ = 0;
};

} // namespace kiln::vulkan
