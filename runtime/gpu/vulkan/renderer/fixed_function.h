#pragma once
// The fixed-function registers of a draw snapshot (blend, depth, stencil, raster, viewport) decoded into the
// Vulkan state a pipeline bakes in. Register meanings: clb197.h (OGL and D3D enumerations are both accepted).
#include <array>
#include <cstdint>
#include <string>

#include "runtime/gpu/maxwell/draw_snapshot.h"
#include "runtime/gpu/vulkan/vulkan.h"

namespace kiln::vulkan {

/// The value a fixed-function method held at the draw (0 for methods not in the snapshot list).
uint32_t fixed_value(const maxwell::DrawSnapshot& draw, uint32_t method);

/// Everything a pipeline bakes in besides shaders, vertex input and attachment formats. Plain data: hashed and
/// compared bytewise, so it is zero-initialised and has no padding-sensitive members beyond uint32_t fields.
struct FixedFunctionState {
  struct Blend {
    uint32_t enable = 0;
    uint32_t color_op = 0, color_source = 0, color_dest = 0; ///< vk enums as integers
    uint32_t alpha_op = 0, alpha_source = 0, alpha_dest = 0;
    uint32_t write_mask = 0xf;
  };
  std::array<Blend, maxwell::color_target_count> blend{}; ///< per attachment (in SET_CT_SELECT order)
  std::array<float, 4> blend_constants{};
  uint32_t depth_test = 0, depth_write = 0, depth_compare = 0;
  uint32_t stencil_test = 0;
  struct Stencil {
    uint32_t fail = 0, depth_fail = 0, pass = 0, compare = 0, compare_mask = 0, write_mask = 0, reference = 0;
  };
  Stencil front{}, back{};
  uint32_t cull_mode = 0, front_face = 0, polygon_mode = 0;
  uint32_t depth_bias_enable = 0;
  float depth_bias_constant = 0, depth_bias_slope = 0, depth_bias_clamp = 0;
  uint32_t negative_one_to_one = 0; ///< SET_VIEWPORT_Z_CLIP -w..w
  uint32_t primitive_restart = 0;
  uint32_t lower_left_origin = 0;   ///< SET_WINDOW_ORIGIN: y flipped against the target height
  uint32_t provoking_last = 0;      ///< SET_PROVOKING_VERTEX LAST: flat outputs from the last vertex
};

/// Decodes the snapshot's fixed-function registers for `attachment_count` colour attachments. Unknown
/// enumerations of enabled state throw kiln::Error naming the method and value.
FixedFunctionState decode_fixed_function(const maxwell::DrawSnapshot& draw, uint32_t attachment_count);

/// Whether an enabled blend state reads the pixel program's second source (SRC1_* factors, colour or alpha).
bool uses_second_source(const FixedFunctionState::Blend& blend);
/// Hosts without dualSrcBlend: each SRC1_* factor becomes its SRC_* counterpart (ordinary blending).
void replace_second_source(FixedFunctionState::Blend& blend);

/// BEGIN_OP -> Vulkan topology; quads, quad strips, polygons and line loops are drawn through generated
/// indices (`converted` says which). Throws for patches and reserved values.
struct TopologyPlan {
  vk::PrimitiveTopology topology = vk::PrimitiveTopology::eTriangleList;
  enum class Convert : uint8_t { none, quads, quad_strip, line_loop } convert = Convert::none;
  bool strip_or_fan = false; ///< primitive restart applies
};
TopologyPlan plan_topology(uint32_t begin_op);

/// Vulkan compare op from SET_DEPTH_FUNC / SET_STENCIL_FUNC (OGL 0x200.. or D3D 1..8).
vk::CompareOp compare_op(uint32_t value);

} // namespace kiln::vulkan
