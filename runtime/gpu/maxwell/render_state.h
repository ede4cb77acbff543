#pragma once
// The 3D class's fixed-function state (blend, depth, stencil, rasterizer, primitive restart, reports) decoded
// once, when a draw is snapshotted, into API-neutral values. Register meanings: clb197.h; the class accepts both
// the OGL and the D3D enumerations of each value. A backend maps these values to its API and never reads 3D
// registers itself.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::maxwell {

class Engine;
inline constexpr uint32_t color_target_count = 8;

enum class BlendFactor : uint8_t {
  zero, one, source_color, one_minus_source_color, source_alpha, one_minus_source_alpha, destination_alpha,
  one_minus_destination_alpha, destination_color, one_minus_destination_color, source_alpha_saturate,
  constant_color, one_minus_constant_color, constant_alpha, one_minus_constant_alpha,
  source1_color, one_minus_source1_color, source1_alpha, one_minus_source1_alpha,
};
enum class BlendOp : uint8_t { add, subtract, reverse_subtract, min, max };
/// Both encodings list the functions in this order (OGL 0x200 + n, D3D n + 1).
enum class CompareFunc : uint8_t { never, less, equal, less_equal, greater, not_equal, greater_equal, always };
enum class StencilOp : uint8_t {
  keep, zero, replace, increment_and_clamp, decrement_and_clamp, invert, increment_and_wrap, decrement_and_wrap,
};
enum class CullFace : uint8_t { none, front, back, front_and_back };
enum class PolygonMode : uint8_t { fill, line, point };
/// SET_LOGIC_OP_FUNC: OGL's 0x1500 + n, in this order.
enum class LogicOp : uint8_t {
  clear, and_, and_reverse, copy, and_inverted, no_op, xor_, or_, nor, equivalent, invert, or_reverse,
  copy_inverted, or_inverted, nand, set,
};

struct BlendTarget {
  bool enable = false;
  BlendOp color_op = BlendOp::add;
  BlendFactor color_source = BlendFactor::one, color_dest = BlendFactor::zero;
  BlendOp alpha_op = BlendOp::add;   ///< equal to the colour equation unless SEPARATE_FOR_ALPHA
  BlendFactor alpha_source = BlendFactor::one, alpha_dest = BlendFactor::zero;
  uint8_t write_mask = 0xf;          ///< bit 0 R .. bit 3 A
  /// Set when the enabled equation holds a value the class does not define: drawing to this target is an error
  /// (a target the draw does not select may hold anything).
  std::string problem;
  /// Whether the enabled equation reads the pixel program's second colour output (SRC1 factors).
  bool reads_second_source() const;
  friend bool operator==(const BlendTarget&, const BlendTarget&) = default;
};

struct StencilFace {
  StencilOp fail = StencilOp::keep, depth_fail = StencilOp::keep, pass = StencilOp::keep;
  CompareFunc compare = CompareFunc::always;
  uint8_t reference = 0, compare_mask = 0, write_mask = 0;
  friend bool operator==(const StencilFace&, const StencilFace&) = default;
};

struct RenderState {
  std::array<BlendTarget, color_target_count> blend{}; ///< per fragment output (SET_CT_SELECT order)
  std::array<float, 4> blend_constants{};

  bool depth_test = false, depth_write = false;
  CompareFunc depth_compare = CompareFunc::always; ///< meaningful when depth_test
  bool stencil_test = false;
  StencilFace front{}, back{};                     ///< back = front unless two-sided; meaningful when stencil_test
  bool depth_bounds_test = false;
  float depth_bounds_min = 0, depth_bounds_max = 0;

  bool rasterize = false;                ///< SET_RASTER_ENABLE (not yet honoured by the Vulkan backend)
  CullFace cull = CullFace::none;
  /// OGL_SET_FRONT_FACE as GL means it: winding in y-up window space (counter-clockwise when never written).
  bool front_counter_clockwise = true;
  bool lower_left_origin = false;        ///< SET_WINDOW_ORIGIN: y grows upwards from the target's bottom
  PolygonMode polygon_mode = PolygonMode::fill;
  bool depth_bias_fill = false;          ///< SET_POLY_OFFSET_FILL
  float depth_bias_constant = 0;         ///< in API units (the register holds twice that, seed 002 §1.7)
  float depth_bias_slope = 0, depth_bias_clamp = 0;
  bool depth_clip_negative_one_to_one = false; ///< SET_VIEWPORT_Z_CLIP RANGE_NEGATIVE_W_TO_POSITIVE_W
  bool provoking_vertex_last = false;
  float line_width = 0, point_size = 0;  ///< SET_LINE_WIDTH_FLOAT, SET_POINT_SIZE (not yet honoured)

  bool primitive_restart = false;
  uint32_t primitive_restart_index = 0;

  bool alpha_test = false;               ///< alpha test and logic op: decoded, not yet honoured
  std::optional<CompareFunc> alpha_compare;  ///< empty for a value the class does not define
  float alpha_reference = 0;
  bool logic_op = false;
  std::optional<LogicOp> logic_op_function; ///< empty for a value the class does not define

  bool counts_samples = false;           ///< SET_ZPASS_PIXEL_COUNT ENABLE: the draw's samples feed ZPASS reports

  /// Set when enabled depth, stencil or cull state holds a value the class does not define: drawing is an error.
  std::string problem;

  friend bool operator==(const RenderState&, const RenderState&) = default;
};

/// The 3D methods RenderState is decoded from: a write to any of them rebuilds it at the next draw.
const std::vector<uint32_t>& render_state_methods();

/// Decodes the 3D registers of `engine` (the 3D class).
RenderState decode_render_state(const Engine& engine);

const char* name(BlendFactor factor);
const char* name(BlendOp op);
const char* name(CompareFunc func);
const char* name(StencilOp op);

} // namespace kiln::maxwell
