#include "runtime/gpu/vulkan/renderer/fixed_function.h"

#include <bit>
#include <unordered_map>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes/methods_b197.h"

namespace kiln::vulkan {
namespace {

namespace m3d = maxwell::class_b197;
using maxwell::MethodArray;

[[noreturn]] void bad(uint32_t method, uint32_t value, const char* what) {
  throw Error(fmt::format("3D method {:#06x} = {:#x} is not a known {}", method, value, what));
}

vk::BlendFactor blend_factor(uint32_t method, uint32_t value) {
  using B = vk::BlendFactor;
  switch (value) {
  case 0x4000: case 0x01: return B::eZero;
  case 0x4001: case 0x02: return B::eOne;
  case 0x4300: case 0x03: return B::eSrcColor;
  case 0x4301: case 0x04: return B::eOneMinusSrcColor;
  case 0x4302: case 0x05: return B::eSrcAlpha;
  case 0x4303: case 0x06: return B::eOneMinusSrcAlpha;
  case 0x4304: case 0x07: return B::eDstAlpha;
  case 0x4305: case 0x08: return B::eOneMinusDstAlpha;
  case 0x4306: case 0x09: return B::eDstColor;
  case 0x4307: case 0x0a: return B::eOneMinusDstColor;
  case 0x4308: case 0x0b: return B::eSrcAlphaSaturate;
  case 0xc001: case 0x0e: return B::eConstantColor;
  case 0xc002: case 0x0f: return B::eOneMinusConstantColor;
  case 0xc003: return B::eConstantAlpha;
  case 0xc004: return B::eOneMinusConstantAlpha;
  case 0xc900: case 0x10: return B::eSrc1Color;
  case 0xc901: case 0x11: return B::eOneMinusSrc1Color;
  case 0xc902: case 0x12: return B::eSrc1Alpha;
  case 0xc903: case 0x13: return B::eOneMinusSrc1Alpha;
  default: bad(method, value, "blend coefficient");
  }
}

vk::BlendOp blend_op(uint32_t method, uint32_t value) {
  switch (value) {
  case 0x8006: case 1: return vk::BlendOp::eAdd;
  case 0x800a: case 2: return vk::BlendOp::eSubtract;
  case 0x800b: case 3: return vk::BlendOp::eReverseSubtract;
  case 0x8007: case 4: return vk::BlendOp::eMin;
  case 0x8008: case 5: return vk::BlendOp::eMax;
  default: bad(method, value, "blend operation");
  }
}

vk::StencilOp stencil_op(uint32_t method, uint32_t value) {
  using S = vk::StencilOp;
  switch (value) {
  case 0x1e00: case 1: return S::eKeep;
  case 0x0000: case 2: return S::eZero;
  case 0x1e01: case 3: return S::eReplace;
  case 0x1e02: case 4: return S::eIncrementAndClamp;
  case 0x1e03: case 5: return S::eDecrementAndClamp;
  case 0x150a: case 6: return S::eInvert;
  case 0x8507: case 7: return S::eIncrementAndWrap;
  case 0x8508: case 8: return S::eDecrementAndWrap;
  default: bad(method, value, "stencil operation");
  }
}

uint32_t u(auto value) { return static_cast<uint32_t>(value); }

} // namespace

uint32_t fixed_value(const maxwell::DrawSnapshot& draw, uint32_t method) {
  static const std::unordered_map<uint32_t, size_t> index = [] {
    std::unordered_map<uint32_t, size_t> map;
    const auto& methods = maxwell::fixed_function_methods();
    for (size_t i = 0; i < methods.size(); ++i) map.emplace(methods[i], i);
    return map;
  }();
  const auto found = index.find(method);
  if (found == index.end() || found->second >= draw.fixed_function.size()) return 0;
  return draw.fixed_function[found->second];
}

vk::CompareOp compare_op(uint32_t value) {
  if (value >= 0x200 && value <= 0x207) return static_cast<vk::CompareOp>(value - 0x200); // OGL: same order as Vulkan
  if (value >= 1 && value <= 8) return static_cast<vk::CompareOp>(value - 1);             // D3D
  throw Error(fmt::format("{:#x} is not a known compare function", value));
}

FixedFunctionState decode_fixed_function(const maxwell::DrawSnapshot& draw, uint32_t attachment_count) {
  auto v = [&](uint32_t method) { return fixed_value(draw, method); };
  auto f = [&](uint32_t method) { return std::bit_cast<float>(v(method)); };
  FixedFunctionState state;
  const bool per_target = (v(m3d::set_blend_state_per_target) & 1) != 0;
  const bool shared_mask = (v(m3d::set_single_ct_write_control) & 1) != 0;
  for (uint32_t k = 0; k < attachment_count; ++k) {
    FixedFunctionState::Blend& blend = state.blend[k];
    const uint32_t mask = v(m3d::set_ct_write[shared_mask ? 0 : k]); // SET_CT_WRITE: R 0, G 4, B 8, A 12
    blend.write_mask = extract_bits(mask, 0, 1) | extract_bits(mask, 4, 1) << 1 | extract_bits(mask, 8, 1) << 2 |
                       extract_bits(mask, 12, 1) << 3;
    blend.enable = v(m3d::set_blend[k]) & 1;
    if (!blend.enable) continue;
    // SET_BLEND_* for every target, or SET_BLEND_PER_TARGET_*(k) when blend state is per target.
    auto reg = [&](uint32_t common, MethodArray of_target) { return per_target ? of_target[k] : common; };
    const uint32_t separate_method =
        reg(m3d::set_blend_separate_for_alpha, m3d::set_blend_per_target_separate_for_alpha);
    const uint32_t color_op = reg(m3d::set_blend_color_op, m3d::set_blend_per_target_color_op);
    const uint32_t color_source = reg(m3d::set_blend_color_source_coeff, m3d::set_blend_per_target_color_source_coeff);
    const uint32_t color_dest = reg(m3d::set_blend_color_dest_coeff, m3d::set_blend_per_target_color_dest_coeff);
    const bool separate = (v(separate_method) & 1) != 0;
    blend.color_op = u(blend_op(color_op, v(color_op)));
    blend.color_source = u(blend_factor(color_source, v(color_source)));
    blend.color_dest = u(blend_factor(color_dest, v(color_dest)));
    if (separate) {
      const uint32_t alpha_op = reg(m3d::set_blend_alpha_op, m3d::set_blend_per_target_alpha_op);
      const uint32_t alpha_source =
          reg(m3d::set_blend_alpha_source_coeff, m3d::set_blend_per_target_alpha_source_coeff);
      const uint32_t alpha_dest = reg(m3d::set_blend_alpha_dest_coeff, m3d::set_blend_per_target_alpha_dest_coeff);
      blend.alpha_op = u(blend_op(alpha_op, v(alpha_op)));
      blend.alpha_source = u(blend_factor(alpha_source, v(alpha_source)));
      blend.alpha_dest = u(blend_factor(alpha_dest, v(alpha_dest)));
    } else {
      blend.alpha_op = blend.color_op;
      blend.alpha_source = blend.color_source;
      blend.alpha_dest = blend.color_dest;
    }
  }
  const uint32_t blend_constants[] = {m3d::set_blend_const_red, m3d::set_blend_const_green, m3d::set_blend_const_blue,
                                      m3d::set_blend_const_alpha};
  for (uint32_t c = 0; c < 4; ++c) state.blend_constants[c] = f(blend_constants[c]);

  state.depth_test = v(m3d::set_depth_test) & 1;
  state.depth_write = v(m3d::set_depth_write) & 1;
  state.depth_compare = state.depth_test ? u(compare_op(v(m3d::set_depth_func))) : 0;
  state.stencil_test = v(m3d::set_stencil_test) & 1;
  if (state.stencil_test) {
    auto side = [&](uint32_t fail, uint32_t zfail, uint32_t zpass, uint32_t func, uint32_t ref, uint32_t func_mask,
                    uint32_t mask) {
      FixedFunctionState::Stencil s;
      s.fail = u(stencil_op(fail, v(fail)));
      s.depth_fail = u(stencil_op(zfail, v(zfail)));
      s.pass = u(stencil_op(zpass, v(zpass)));
      s.compare = u(compare_op(v(func)));
      s.reference = v(ref) & 0xff;
      s.compare_mask = v(func_mask) & 0xff;
      s.write_mask = v(mask) & 0xff;
      return s;
    };
    state.front = side(m3d::set_stencil_op_fail, m3d::set_stencil_op_zfail, m3d::set_stencil_op_zpass, m3d::set_stencil_func, m3d::set_stencil_func_ref, m3d::set_stencil_func_mask, m3d::set_stencil_mask);
    state.back = (v(m3d::set_two_sided_stencil_test) & 1)
                     ? side(m3d::set_back_stencil_op_fail, m3d::set_back_stencil_op_zfail, m3d::set_back_stencil_op_zpass, m3d::set_back_stencil_func, m3d::set_back_stencil_func_ref,
                            m3d::set_back_stencil_func_mask, m3d::set_back_stencil_mask)
                     : state.front;
  }

  if (v(m3d::ogl_set_cull) & 1) {
    switch (v(m3d::ogl_set_cull_face)) {
    case 0x404: state.cull_mode = u(vk::CullModeFlagBits::eFront); break;
    case 0x405: case 0: state.cull_mode = u(vk::CullModeFlagBits::eBack); break;
    case 0x408: state.cull_mode = u(vk::CullModeFlagBits::eFrontAndBack); break;
    default: bad(m3d::ogl_set_cull_face, v(m3d::ogl_set_cull_face), "cull face");
    }
  }
  state.lower_left_origin = v(m3d::set_window_origin) & 1;
  // OGL_SET_FRONT_FACE: 0x900 CW, 0x901 CCW (GL's default when never written), meant as GL means it: winding in
  // y-up window space, kept under an upper-left origin (GL reverses the area's sign there). Vulkan's facing
  // formula carries a minus sign for its y-down framebuffer, which the lower-left case's flipped viewport
  // cancels; with an upper-left origin nothing flips, so the winding is reversed.
  const bool counter_clockwise = v(m3d::ogl_set_front_face) != 0x900;
  state.front_face = u(counter_clockwise != (state.lower_left_origin == 0) ? vk::FrontFace::eCounterClockwise : vk::FrontFace::eClockwise);
  switch (v(m3d::set_front_polygon_mode)) {
  case 0x1b00: state.polygon_mode = u(vk::PolygonMode::ePoint); break;
  case 0x1b01: state.polygon_mode = u(vk::PolygonMode::eLine); break;
  default: state.polygon_mode = u(vk::PolygonMode::eFill); break;
  }
  state.depth_bias_enable = v(m3d::set_poly_offset_fill) & 1;
  if (state.depth_bias_enable) {
    state.depth_bias_constant = f(m3d::set_depth_bias) / 2.0f; // the register holds twice the API units (seed 002 §1.7)
    state.depth_bias_slope = f(m3d::set_slope_scale_depth_bias);
    state.depth_bias_clamp = f(m3d::set_depth_bias_clamp);
  }
  state.negative_one_to_one = (v(m3d::set_viewport_z_clip) & 1) == 0; // RANGE_NEGATIVE_W_TO_POSITIVE_W
  state.primitive_restart = v(m3d::set_da_primitive_restart) & 1;
  state.provoking_last = v(m3d::set_provoking_vertex) & 1;
  return state;
}

namespace {
bool is_second_source(uint32_t factor) {
  using B = vk::BlendFactor;
  switch (static_cast<B>(factor)) {
  case B::eSrc1Color: case B::eOneMinusSrc1Color: case B::eSrc1Alpha: case B::eOneMinusSrc1Alpha: return true;
  default: return false;
  }
}

uint32_t first_source(uint32_t factor) {
  using B = vk::BlendFactor;
  switch (static_cast<B>(factor)) {
  case B::eSrc1Color: return u(B::eSrcColor);
  case B::eOneMinusSrc1Color: return u(B::eOneMinusSrcColor);
  case B::eSrc1Alpha: return u(B::eSrcAlpha);
  case B::eOneMinusSrc1Alpha: return u(B::eOneMinusSrcAlpha);
  default: return factor;
  }
}
} // namespace

bool uses_second_source(const FixedFunctionState::Blend& blend) {
  return blend.enable && (is_second_source(blend.color_source) || is_second_source(blend.color_dest) ||
                          is_second_source(blend.alpha_source) || is_second_source(blend.alpha_dest));
}

void replace_second_source(FixedFunctionState::Blend& blend) {
  for (uint32_t* factor : {&blend.color_source, &blend.color_dest, &blend.alpha_source, &blend.alpha_dest}) *factor = first_source(*factor);
}

TopologyPlan plan_topology(uint32_t begin_op) {
  using T = vk::PrimitiveTopology;
  using C = TopologyPlan::Convert;
  switch (begin_op & 0xffff) { // BEGIN_OP
  case 0x0: return {T::ePointList, C::none, false};
  case 0x1: return {T::eLineList, C::none, false};
  case 0x2: return {T::eLineStrip, C::line_loop, false};
  case 0x3: return {T::eLineStrip, C::none, true};
  case 0x4: return {T::eTriangleList, C::none, false};
  case 0x5: return {T::eTriangleStrip, C::none, true};
  case 0x6: return {T::eTriangleFan, C::none, true};
  case 0x7: return {T::eTriangleList, C::quads, false};
  case 0x8: return {T::eTriangleList, C::quad_strip, false};
  case 0x9: return {T::eTriangleFan, C::none, true}; // POLYGON: a convex fan
  case 0xa: return {T::eLineListWithAdjacency, C::none, false};
  case 0xb: return {T::eLineStripWithAdjacency, C::none, true};
  case 0xc: return {T::eTriangleListWithAdjacency, C::none, false};
  case 0xd: return {T::eTriangleStripWithAdjacency, C::none, true};
  default: throw Error(fmt::format("BEGIN op {:#x} (patches or reserved) is not drawn yet", begin_op & 0xffff));
  }
}

} // namespace kiln::vulkan
