#pragma once
// A draw's decoded render state (maxwell::RenderState) as the Vulkan state a pipeline bakes in, and the
// topology plan of its BEGIN op. Only the mapping to Vulkan lives here; the 3D registers are decoded once, by
// the 3D engine, when the draw is snapshotted.
#include <array>
#include <cstdint>

#include "runtime/gpu/maxwell/draw_snapshot.h"
#include "runtime/gpu/vulkan/vulkan.h"

namespace kiln::vulkan {

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

enum class SecondSource : uint8_t {
  read,     ///< target 0's SRC1 factors read the pixel program's second colour output (dual-source blending)
  replaced, ///< hosts without dualSrcBlend: each SRC1 factor becomes its SRC counterpart (ordinary blending)
};

/// The render state of a draw with `attachment_count` colour attachments. A problem the decoder recorded in
/// state the draw uses (a selected target's blend equation, enabled depth, stencil or cull state) throws
/// kiln::Error with its text.
FixedFunctionState pipeline_fixed_state(const maxwell::RenderState& render, uint32_t attachment_count,
                                        SecondSource second_source);

/// BEGIN_OP -> Vulkan topology; quads, quad strips, polygons and line loops are drawn through generated
/// indices (`converted` says which). Throws for patches and reserved values.
struct TopologyPlan {
  vk::PrimitiveTopology topology = vk::PrimitiveTopology::eTriangleList;
  enum class Convert : uint8_t { none, quads, quad_strip, line_loop } convert = Convert::none;
  bool strip_or_fan = false; ///< primitive restart applies
};
TopologyPlan plan_topology(uint32_t begin_op);

} // namespace kiln::vulkan
