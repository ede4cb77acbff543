#pragma once
// A render target that lives only in device memory and is read back to the CPU (no window, no swapchain).
#include <array>

#include "runtime/base/png_image.h"
#include "runtime/gpu/vulkan/memory.h"

namespace kiln::vulkan {

class HeadlessTarget {
public:
  HeadlessTarget(Context& context, vk::Extent2D extent);

  /// Clears the whole target to `rgba` (0..1 per channel) with a render pass load operation.
  void clear(const std::array<float, 4>& rgba);
  /// Copies the target into host memory as RGBA8.
  RgbaImage read_back();

  const Image& image() const { return image_; }

private:
  Context& context_;
  Image image_;
  vk::ImageLayout layout_ = vk::ImageLayout::eUndefined;
};

} // namespace kiln::vulkan
