#pragma once
// What fills descriptor slots no guest texture or sampler occupies: one zeroed 1x1 image per view type the
// translated modules declare (1D, 2D, 3D, cube, with and without arrays) and a nearest clamp sampler.
#include <array>

#include "runtime/gpu/vulkan/memory.h"

namespace kiln::vulkan {

class DefaultResources {
public:
  explicit DefaultResources(Context& context);
  /// dim: 0 = 1D, 1 = 2D, 2 = 3D, 3 = cube (the translator's numbering).
  vk::ImageView view(uint32_t dim, bool array) const { return *views_.at(dim * 2 + (array ? 1 : 0)); }
  vk::Sampler sampler() const { return *sampler_; }

private:
  std::array<vk::UniqueImage, 3> images_; // 1D (2 layers), 2D (6 layers, cube-compatible), 3D
  std::array<vk::UniqueDeviceMemory, 3> memory_;
  std::array<vk::UniqueImageView, 8> views_;
  vk::UniqueSampler sampler_;
};

} // namespace kiln::vulkan
