#include "runtime/gpu/maxwell/render_state.h"

#include <bit>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/gpu/maxwell/classes/methods_b197.h"
#include "runtime/gpu/maxwell/engine.h"

namespace kiln::maxwell {
namespace {

namespace m3d = class_b197;

std::optional<BlendFactor> blend_factor(uint32_t value) {
  using B = BlendFactor;
  switch (value) {
  case 0x4000: case 0x01: return B::zero;
  case 0x4001: case 0x02: return B::one;
  case 0x4300: case 0x03: return B::source_color;
  case 0x4301: case 0x04: return B::one_minus_source_color;
  case 0x4302: case 0x05: return B::source_alpha;
  case 0x4303: case 0x06: return B::one_minus_source_alpha;
  case 0x4304: case 0x07: return B::destination_alpha;
  case 0x4305: case 0x08: return B::one_minus_destination_alpha;
  case 0x4306: case 0x09: return B::destination_color;
  case 0x4307: case 0x0a: return B::one_minus_destination_color;
  case 0x4308: case 0x0b: return B::source_alpha_saturate;
  case 0xc001: case 0x0e: return B::constant_color;
  case 0xc002: case 0x0f: return B::one_minus_constant_color;
  case 0xc003: return B::constant_alpha;
  case 0xc004: return B::one_minus_constant_alpha;
  case 0xc900: case 0x10: return B::source1_color;
  case 0xc901: case 0x11: return B::one_minus_source1_color;
  case 0xc902: case 0x12: return B::source1_alpha;
  case 0xc903: case 0x13: return B::one_minus_source1_alpha;
  default: return std::nullopt;
  }
}

std::optional<BlendOp> blend_op(uint32_t value) {
  switch (value) {
  case 0x8006: case 1: return BlendOp::add;
  case 0x800a: case 2: return BlendOp::subtract;
  case 0x800b: case 3: return BlendOp::reverse_subtract;
  case 0x8007: case 4: return BlendOp::min;
  case 0x8008: case 5: return BlendOp::max;
  default: return std::nullopt;
  }
}

std::optional<StencilOp> stencil_op(uint32_t value) {
  using S = StencilOp;
  switch (value) {
  case 0x1e00: case 1: return S::keep;
  case 0x0000: case 2: return S::zero;
  case 0x1e01: case 3: return S::replace;
  case 0x1e02: case 4: return S::increment_and_clamp;
  case 0x1e03: case 5: return S::decrement_and_clamp;
  case 0x150a: case 6: return S::invert;
  case 0x8507: case 7: return S::increment_and_wrap;
  case 0x8508: case 8: return S::decrement_and_wrap;
  default: return std::nullopt;
  }
}

std::optional<CompareFunc> compare_func(uint32_t value) {
  if (value >= 0x200 && value <= 0x207) return static_cast<CompareFunc>(value - 0x200); // OGL
  if (value >= 1 && value <= 8) return static_cast<CompareFunc>(value - 1);             // D3D
  return std::nullopt;
}

std::optional<LogicOp> logic_op(uint32_t value) {
  if (value >= 0x1500 && value <= 0x150f) return static_cast<LogicOp>(value - 0x1500);
  return std::nullopt;
}

/// Reads registers and decodes enumerations, keeping the first undefined value it meets in `problem`.
class Decoder {
public:
  Decoder(const Engine& engine, std::string& problem) : engine_(engine), problem_(problem) {}
  uint32_t value(uint32_t method) const { return engine_.reg(method); }
  bool flag(uint32_t method) const { return (value(method) & 1) != 0; }
  float real(uint32_t method) const { return std::bit_cast<float>(value(method)); }
  template <class T>
  T decode(uint32_t method, std::optional<T> (*decoder)(uint32_t), const char* kind, T fallback) {
    if (const std::optional<T> decoded = decoder(value(method))) return *decoded;
    report(fmt::format("3D method {:#06x} = {:#x} is not a known {}", method, value(method), kind));
    return fallback;
  }
  /// SET_DEPTH_FUNC / SET_*STENCIL_FUNC (the message names the value, as the backend always said).
  CompareFunc compare(uint32_t method) {
    if (const auto decoded = compare_func(value(method))) return *decoded;
    report(fmt::format("{:#x} is not a known compare function", value(method)));
    return CompareFunc::always;
  }
  void report(std::string message) {
    if (problem_.empty()) problem_ = std::move(message);
  }

private:
  const Engine& engine_;
  std::string& problem_;
};

void decode_blend(const Engine& engine, uint32_t k, BlendTarget& blend) {
  Decoder d(engine, blend.problem);
  const bool per_target = d.flag(m3d::set_blend_state_per_target);
  const bool shared_mask = d.flag(m3d::set_single_ct_write_control);
  const uint32_t mask = d.value(m3d::set_ct_write[shared_mask ? 0 : k]); // SET_CT_WRITE: R 0, G 4, B 8, A 12
  blend.write_mask = static_cast<uint8_t>(extract_bits(mask, 0, 1) | extract_bits(mask, 4, 1) << 1 |
                                          extract_bits(mask, 8, 1) << 2 | extract_bits(mask, 12, 1) << 3);
  blend.enable = d.flag(m3d::set_blend[k]);
  if (!blend.enable) return;
  // SET_BLEND_* for every target, or SET_BLEND_PER_TARGET_*(k) when blend state is per target.
  auto reg = [&](uint32_t common, MethodArray of_target) { return per_target ? of_target[k] : common; };
  blend.color_op = d.decode(reg(m3d::set_blend_color_op, m3d::set_blend_per_target_color_op), blend_op,
                            "blend operation", BlendOp::add);
  blend.color_source = d.decode(reg(m3d::set_blend_color_source_coeff, m3d::set_blend_per_target_color_source_coeff),
                                blend_factor, "blend coefficient", BlendFactor::one);
  blend.color_dest = d.decode(reg(m3d::set_blend_color_dest_coeff, m3d::set_blend_per_target_color_dest_coeff),
                              blend_factor, "blend coefficient", BlendFactor::zero);
  if (d.flag(reg(m3d::set_blend_separate_for_alpha, m3d::set_blend_per_target_separate_for_alpha))) {
    blend.alpha_op = d.decode(reg(m3d::set_blend_alpha_op, m3d::set_blend_per_target_alpha_op), blend_op,
                              "blend operation", BlendOp::add);
    blend.alpha_source = d.decode(reg(m3d::set_blend_alpha_source_coeff, m3d::set_blend_per_target_alpha_source_coeff),
                                  blend_factor, "blend coefficient", BlendFactor::one);
    blend.alpha_dest = d.decode(reg(m3d::set_blend_alpha_dest_coeff, m3d::set_blend_per_target_alpha_dest_coeff),
                                blend_factor, "blend coefficient", BlendFactor::zero);
  } else {
    blend.alpha_op = blend.color_op;
    blend.alpha_source = blend.color_source;
    blend.alpha_dest = blend.color_dest;
  }
}

StencilFace decode_stencil(Decoder& d, uint32_t fail, uint32_t zfail, uint32_t zpass, uint32_t func, uint32_t ref,
                           uint32_t func_mask, uint32_t mask) {
  StencilFace face;
  face.fail = d.decode(fail, stencil_op, "stencil operation", StencilOp::keep);
  face.depth_fail = d.decode(zfail, stencil_op, "stencil operation", StencilOp::keep);
  face.pass = d.decode(zpass, stencil_op, "stencil operation", StencilOp::keep);
  face.compare = d.compare(func);
  face.reference = static_cast<uint8_t>(d.value(ref));
  face.compare_mask = static_cast<uint8_t>(d.value(func_mask));
  face.write_mask = static_cast<uint8_t>(d.value(mask));
  return face;
}

bool is_second_source(BlendFactor factor) {
  using B = BlendFactor;
  return factor == B::source1_color || factor == B::one_minus_source1_color || factor == B::source1_alpha ||
         factor == B::one_minus_source1_alpha;
}

} // namespace

bool BlendTarget::reads_second_source() const {
  return enable && (is_second_source(color_source) || is_second_source(color_dest) || is_second_source(alpha_source) ||
                    is_second_source(alpha_dest));
}

const std::vector<uint32_t>& render_state_methods() {
  using namespace class_b197;
  static const std::vector<uint32_t> methods = [] {
    std::vector<uint32_t> list = {
        set_raster_enable, set_viewport_z_clip, set_front_polygon_mode, set_poly_offset_fill,
        set_single_ct_write_control, set_depth_bounds_test, set_depth_bounds_min, set_depth_bounds_max,
        set_depth_test, set_depth_write, set_depth_func, set_alpha_test, set_alpha_ref, set_alpha_func,
        set_blend_state_per_target, set_blend_const_red, set_blend_const_green, set_blend_const_blue,
        set_blend_const_alpha, set_blend_separate_for_alpha, set_blend_color_op, set_blend_color_source_coeff,
        set_blend_color_dest_coeff, set_blend_alpha_op, set_blend_alpha_source_coeff, set_blend_alpha_dest_coeff,
        set_stencil_test, set_stencil_op_fail, set_stencil_op_zfail, set_stencil_op_zpass, set_stencil_func,
        set_stencil_func_ref, set_stencil_func_mask, set_stencil_mask, set_two_sided_stencil_test,
        set_back_stencil_op_fail, set_back_stencil_op_zfail, set_back_stencil_op_zpass, set_back_stencil_func,
        set_back_stencil_func_ref, set_back_stencil_func_mask, set_back_stencil_mask, set_window_origin,
        set_line_width_float, set_point_size, set_slope_scale_depth_bias, set_depth_bias, set_depth_bias_clamp,
        set_da_primitive_restart, set_da_primitive_restart_index, set_provoking_vertex, ogl_set_cull,
        ogl_set_front_face, ogl_set_cull_face, set_logic_op, set_logic_op_func, set_zpass_pixel_count,
    };
    for (uint32_t i = 0; i < color_target_count; ++i) list.push_back(set_blend[i]);
    for (uint32_t i = 0; i < color_target_count; ++i) list.push_back(set_ct_write[i]);
    for (uint32_t j = 0; j < color_target_count; ++j) {
      for (const MethodArray& per_target :
           {set_blend_per_target_separate_for_alpha, set_blend_per_target_color_op,
            set_blend_per_target_color_source_coeff, set_blend_per_target_color_dest_coeff,
            set_blend_per_target_alpha_op, set_blend_per_target_alpha_source_coeff,
            set_blend_per_target_alpha_dest_coeff}) {
        list.push_back(per_target[j]);
      }
    }
    return list;
  }();
  return methods;
}

RenderState decode_render_state(const Engine& engine) {
  RenderState state;
  for (uint32_t k = 0; k < color_target_count; ++k) decode_blend(engine, k, state.blend[k]);
  Decoder d(engine, state.problem);
  const uint32_t blend_constants[] = {m3d::set_blend_const_red, m3d::set_blend_const_green, m3d::set_blend_const_blue,
                                      m3d::set_blend_const_alpha};
  for (uint32_t c = 0; c < 4; ++c) state.blend_constants[c] = d.real(blend_constants[c]);

  state.depth_test = d.flag(m3d::set_depth_test);
  state.depth_write = d.flag(m3d::set_depth_write);
  if (state.depth_test) state.depth_compare = d.compare(m3d::set_depth_func);
  state.stencil_test = d.flag(m3d::set_stencil_test);
  if (state.stencil_test) {
    state.front = decode_stencil(d, m3d::set_stencil_op_fail, m3d::set_stencil_op_zfail, m3d::set_stencil_op_zpass,
                                 m3d::set_stencil_func, m3d::set_stencil_func_ref, m3d::set_stencil_func_mask,
                                 m3d::set_stencil_mask);
    state.back = d.flag(m3d::set_two_sided_stencil_test)
                     ? decode_stencil(d, m3d::set_back_stencil_op_fail, m3d::set_back_stencil_op_zfail,
                                      m3d::set_back_stencil_op_zpass, m3d::set_back_stencil_func,
                                      m3d::set_back_stencil_func_ref, m3d::set_back_stencil_func_mask,
                                      m3d::set_back_stencil_mask)
                     : state.front;
  }
  state.depth_bounds_test = d.flag(m3d::set_depth_bounds_test);
  state.depth_bounds_min = d.real(m3d::set_depth_bounds_min);
  state.depth_bounds_max = d.real(m3d::set_depth_bounds_max);

  state.rasterize = d.flag(m3d::set_raster_enable);
  if (d.flag(m3d::ogl_set_cull)) {
    switch (d.value(m3d::ogl_set_cull_face)) {
    case 0x404: state.cull = CullFace::front; break;
    case 0x405: case 0: state.cull = CullFace::back; break;
    case 0x408: state.cull = CullFace::front_and_back; break;
    default:
      d.report(fmt::format("3D method {:#06x} = {:#x} is not a known cull face", m3d::ogl_set_cull_face,
                           d.value(m3d::ogl_set_cull_face)));
      break;
    }
  }
  state.front_counter_clockwise = d.value(m3d::ogl_set_front_face) != 0x900; // 0x900 CW, 0x901 CCW
  state.lower_left_origin = d.flag(m3d::set_window_origin);
  switch (d.value(m3d::set_front_polygon_mode)) {
  case 0x1b00: state.polygon_mode = PolygonMode::point; break;
  case 0x1b01: state.polygon_mode = PolygonMode::line; break;
  default: state.polygon_mode = PolygonMode::fill; break;
  }
  state.depth_bias_fill = d.flag(m3d::set_poly_offset_fill);
  state.depth_bias_constant = d.real(m3d::set_depth_bias) / 2.0f;
  state.depth_bias_slope = d.real(m3d::set_slope_scale_depth_bias);
  state.depth_bias_clamp = d.real(m3d::set_depth_bias_clamp);
  state.depth_clip_negative_one_to_one = !d.flag(m3d::set_viewport_z_clip);
  state.provoking_vertex_last = d.flag(m3d::set_provoking_vertex);
  state.line_width = d.real(m3d::set_line_width_float);
  state.point_size = d.real(m3d::set_point_size);

  state.primitive_restart = d.flag(m3d::set_da_primitive_restart);
  state.primitive_restart_index = d.value(m3d::set_da_primitive_restart_index);

  state.alpha_test = d.flag(m3d::set_alpha_test);
  state.alpha_compare = compare_func(d.value(m3d::set_alpha_func));
  state.alpha_reference = d.real(m3d::set_alpha_ref);
  state.logic_op = d.flag(m3d::set_logic_op);
  state.logic_op_function = logic_op(d.value(m3d::set_logic_op_func));
  state.counts_samples = d.flag(m3d::set_zpass_pixel_count);
  return state;
}

const char* name(BlendFactor factor) {
  static constexpr const char* names[] = {
      "zero", "one", "src_color", "one_minus_src_color", "src_alpha", "one_minus_src_alpha", "dst_alpha",
      "one_minus_dst_alpha", "dst_color", "one_minus_dst_color", "src_alpha_saturate", "constant_color",
      "one_minus_constant_color", "constant_alpha", "one_minus_constant_alpha", "src1_color",
      "one_minus_src1_color", "src1_alpha", "one_minus_src1_alpha"};
  return names[static_cast<size_t>(factor)];
}
const char* name(BlendOp op) {
  static constexpr const char* names[] = {"add", "subtract", "reverse_subtract", "min", "max"};
  return names[static_cast<size_t>(op)];
}
const char* name(CompareFunc func) {
  static constexpr const char* names[] = {"never", "less", "equal", "less_equal", "greater", "not_equal",
                                          "greater_equal", "always"};
  return names[static_cast<size_t>(func)];
}
const char* name(StencilOp op) {
  static constexpr const char* names[] = {"keep", "zero", "replace", "increment_and_clamp", "decrement_and_clamp",
                                          "invert", "increment_and_wrap", "decrement_and_wrap"};
  return names[static_cast<size_t>(op)];
}

} // namespace kiln::maxwell
