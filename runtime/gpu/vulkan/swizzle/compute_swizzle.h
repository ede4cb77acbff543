#pragma once
// Block-linear (de)swizzle on the GPU for large surfaces: a compute shader (blocklinear_copy.comp) moving one
// 32-bit word per invocation between a guest-layout buffer and a linear buffer. The layouts are kiln::textures'
// (CPU only); this Vulkan-side copy of their address arithmetic lives with the Vulkan layer.
#include <vector>

#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "runtime/gpu/vulkan/context.h"

namespace kiln::vulkan {

struct GpuSurfaceBuffers {
  vk::Buffer guest;              ///< storage buffer holding the surface
  vk::DeviceSize guest_offset = 0; ///< where the surface starts (multiple of 4)
  vk::DeviceSize guest_size = 0;   ///< bytes of the buffer from guest_offset (bounds check)
  vk::Buffer linear;
  vk::DeviceSize linear_offset = 0;
  vk::DeviceSize linear_size = 0;
};

class ComputeSwizzler {
public:
  explicit ComputeSwizzler(const Context& context);
  ~ComputeSwizzler();
  ComputeSwizzler(const ComputeSwizzler&) = delete;
  ComputeSwizzler& operator=(const ComputeSwizzler&) = delete;

  /// Records the copy of `region` of (layer, level) into `commands`. The caller orders it against other work
  /// with barriers. Word granularity: the region's byte x and width, the pitches and the offsets must be
  /// multiples of 4 (always true from 4 bytes per element up); otherwise, and for pitch-linear surfaces or
  /// regions the CPU path would reject, throws kiln::Error.
  void record_deswizzle(vk::CommandBuffer commands, const textures::SurfaceLayout& layout, uint32_t layer,
                        uint32_t level, const textures::Region& region, const GpuSurfaceBuffers& buffers,
                        textures::LinearImage pitches = {});
  void record_swizzle(vk::CommandBuffer commands, const textures::SurfaceLayout& layout, uint32_t layer,
                      uint32_t level, const textures::Region& region, const GpuSurfaceBuffers& buffers,
                      textures::LinearImage pitches = {});

  /// Frees the descriptor sets of recorded copies; call once their command buffers have completed.
  void release_recorded();

private:
  void record(vk::CommandBuffer commands, const textures::SurfaceLayout& layout, uint32_t layer, uint32_t level,
              const textures::Region& region, const GpuSurfaceBuffers& buffers, textures::LinearImage pitches,
              bool to_linear);
  vk::DescriptorSet allocate_set();

  const Context& context_;
  vk::UniqueDescriptorSetLayout set_layout_;
  vk::UniquePipelineLayout pipeline_layout_;
  vk::UniqueShaderModule shader_;
  vk::UniquePipeline pipeline_;
  std::vector<vk::UniqueDescriptorPool> pools_;
  uint32_t sets_in_last_pool_ = 0;
};

} // namespace kiln::vulkan
