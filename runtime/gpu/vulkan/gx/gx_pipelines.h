#pragma once
// Graphics pipelines for GX draws, cached by what shapes them: the XF and TEV programs (by their UIDs, each
// translated once) and the fixed-function state of the decoded RasterState (depth, blend or logic op, masks,
// culling). Viewport and scissor are dynamic. One pipeline layout: set 0 binding 0 the XF constants (vertex), set 1
// binding 0 the TEV constants (fragment), as translator/gx places them.
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/gpu/gx/raster_state.h"
#include "runtime/gpu/vulkan/context.h"
#include "translator/gx/pixel_program.h"
#include "translator/gx/vertex_program.h"

namespace kiln::gx {

/// The fixed-function part of a pipeline.
struct PipelineState {
  bool depth_test = false, depth_update = false;
  CompareFunction depth_function = CompareFunction::always;
  BlendMode blend = BlendMode::replace;
  BlendFactor src_factor = BlendFactor::one, dst_factor = BlendFactor::zero;
  uint8_t logic_op = 3;
  bool color_update = true, alpha_update = false;
  CullMode cull = CullMode::none;
  friend bool operator==(const PipelineState&, const PipelineState&) = default;
};
PipelineState pipeline_state(const RasterState& raster);

/// Bytes of one vertex in the renderer's vertex buffer: locations 0-4 (position, matrix index, normal, colour 0,
/// colour 1) as four floats each.
inline constexpr uint32_t vertex_locations = 5, vertex_stride = vertex_locations * 16;

class GxPipelines {
public:
  GxPipelines(const vulkan::Context& context, vk::Format color_format, vk::Format depth_format);
  ~GxPipelines();

  vk::Pipeline get(const VertexUid& vertex, const PixelUid& pixel, const PipelineState& state);
  vk::PipelineLayout layout() const;
  vk::DescriptorSetLayout set_layout(uint32_t set) const;
  uint64_t pipelines_built() const;

private:
  struct Cache;
  std::unique_ptr<Cache> cache_;
};

} // namespace kiln::gx
