#pragma once
// Clears that vkCmdClearAttachments cannot express (seed 002 §1.3): a colour clear with a partial channel
// mask, a stencil clear under a partial write mask. Drawn as one viewport-covering triangle whose pipeline
// carries the mask (colour write mask; stencil REPLACE with the write mask), cut by the clear rectangle as the
// scissor, as NVN-era drivers do with their clear triangles.
#include <cstdint>
#include <map>
#include <tuple>

#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/maxwell/formats.h"

namespace kiln::vulkan {

struct ClearPushConstants {
  float color[4];
  uint32_t color_bits[4];
  float depth;
};

class ClearPipelines {
public:
  explicit ClearPipelines(const Context& context);
  /// A pipeline for one colour attachment of `format` writing `mask` (bit 0 R .. bit 3 A).
  vk::Pipeline color(vk::Format format, maxwell_formats::ColorClass color_class, uint32_t mask);
  /// A pipeline for a depth/stencil attachment writing depth (when `depth`) and the stencil bits in `stencil_mask`.
  vk::Pipeline depth_stencil(vk::Format format, bool depth, bool stencil, uint32_t stencil_mask);
  vk::PipelineLayout layout() const { return *layout_; }

private:
  vk::Pipeline create(vk::Format color_format, vk::ShaderModule fragment, uint32_t mask, vk::Format depth_format, bool depth, bool stencil,
                      uint32_t stencil_mask);
  const Context& context_;
  vk::UniquePipelineLayout layout_;
  vk::UniqueShaderModule vertex_, float_, uint_, sint_, depth_only_;
  std::map<std::tuple<int, int, uint32_t, int, int>, vk::UniquePipeline> pipelines_;
};

} // namespace kiln::vulkan
