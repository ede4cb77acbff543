#include "runtime/gpu/vulkan/maxwell/pipeline_state.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::vulkan {
namespace {

using maxwell::BlendFactor;

constexpr uint32_t u(auto value) { return static_cast<uint32_t>(value); }

vk::BlendFactor vulkan_factor(BlendFactor factor) {
  using B = vk::BlendFactor;
  switch (factor) {
  case BlendFactor::zero: return B::eZero;
  case BlendFactor::one: return B::eOne;
  case BlendFactor::source_color: return B::eSrcColor;
  case BlendFactor::one_minus_source_color: return B::eOneMinusSrcColor;
  case BlendFactor::source_alpha: return B::eSrcAlpha;
  case BlendFactor::one_minus_source_alpha: return B::eOneMinusSrcAlpha;
  case BlendFactor::destination_alpha: return B::eDstAlpha;
  case BlendFactor::one_minus_destination_alpha: return B::eOneMinusDstAlpha;
  case BlendFactor::destination_color: return B::eDstColor;
  case BlendFactor::one_minus_destination_color: return B::eOneMinusDstColor;
  case BlendFactor::source_alpha_saturate: return B::eSrcAlphaSaturate;
  case BlendFactor::constant_color: return B::eConstantColor;
  case BlendFactor::one_minus_constant_color: return B::eOneMinusConstantColor;
  case BlendFactor::constant_alpha: return B::eConstantAlpha;
  case BlendFactor::one_minus_constant_alpha: return B::eOneMinusConstantAlpha;
  case BlendFactor::source1_color: return B::eSrc1Color;
  case BlendFactor::one_minus_source1_color: return B::eOneMinusSrc1Color;
  case BlendFactor::source1_alpha: return B::eSrc1Alpha;
  case BlendFactor::one_minus_source1_alpha: return B::eOneMinusSrc1Alpha;
  }
  return B::eZero;
}

/// SRC1 factors as their SRC counterparts, for hosts that cannot blend with a second source.
BlendFactor first_source(BlendFactor factor) {
  switch (factor) {
  case BlendFactor::source1_color: return BlendFactor::source_color;
  case BlendFactor::one_minus_source1_color: return BlendFactor::one_minus_source_color;
  case BlendFactor::source1_alpha: return BlendFactor::source_alpha;
  case BlendFactor::one_minus_source1_alpha: return BlendFactor::one_minus_source_alpha;
  default: return factor;
  }
}

vk::BlendOp vulkan_op(maxwell::BlendOp op) {
  switch (op) {
  case maxwell::BlendOp::add: return vk::BlendOp::eAdd;
  case maxwell::BlendOp::subtract: return vk::BlendOp::eSubtract;
  case maxwell::BlendOp::reverse_subtract: return vk::BlendOp::eReverseSubtract;
  case maxwell::BlendOp::min: return vk::BlendOp::eMin;
  case maxwell::BlendOp::max: return vk::BlendOp::eMax;
  }
  return vk::BlendOp::eAdd;
}

// Vulkan lists compare functions and stencil operations in the order maxwell::CompareFunc and
// maxwell::StencilOp do.
static_assert(u(vk::CompareOp::eNever) == u(maxwell::CompareFunc::never) &&
              u(vk::CompareOp::eAlways) == u(maxwell::CompareFunc::always) &&
              u(vk::CompareOp::eGreaterOrEqual) == u(maxwell::CompareFunc::greater_equal));
static_assert(u(vk::StencilOp::eKeep) == u(maxwell::StencilOp::keep) &&
              u(vk::StencilOp::eInvert) == u(maxwell::StencilOp::invert) &&
              u(vk::StencilOp::eDecrementAndWrap) == u(maxwell::StencilOp::decrement_and_wrap));

FixedFunctionState::Stencil vulkan_stencil(const maxwell::StencilFace& face) {
  FixedFunctionState::Stencil s;
  s.fail = u(face.fail);
  s.depth_fail = u(face.depth_fail);
  s.pass = u(face.pass);
  s.compare = u(face.compare);
  s.reference = face.reference;
  s.compare_mask = face.compare_mask;
  s.write_mask = face.write_mask;
  return s;
}

} // namespace

FixedFunctionState pipeline_fixed_state(const maxwell::RenderState& render, uint32_t attachment_count,
                                        SecondSource second_source) {
  FixedFunctionState state;
  for (uint32_t k = 0; k < attachment_count; ++k) {
    const maxwell::BlendTarget& guest = render.blend[k];
    if (!guest.problem.empty()) throw Error(guest.problem);
    FixedFunctionState::Blend& blend = state.blend[k];
    blend.write_mask = guest.write_mask;
    blend.enable = guest.enable ? 1 : 0;
    if (!blend.enable) continue;
    const bool replace = k == 0 && second_source == SecondSource::replaced;
    auto factor = [&](BlendFactor f) { return u(vulkan_factor(replace ? first_source(f) : f)); };
    blend.color_op = u(vulkan_op(guest.color_op));
    blend.color_source = factor(guest.color_source);
    blend.color_dest = factor(guest.color_dest);
    blend.alpha_op = u(vulkan_op(guest.alpha_op));
    blend.alpha_source = factor(guest.alpha_source);
    blend.alpha_dest = factor(guest.alpha_dest);
  }
  if (!render.problem.empty()) throw Error(render.problem);
  state.blend_constants = render.blend_constants;
  state.depth_test = render.depth_test;
  state.depth_write = render.depth_write;
  state.depth_compare = render.depth_test ? u(render.depth_compare) : 0;
  state.stencil_test = render.stencil_test;
  if (render.stencil_test) {
    state.front = vulkan_stencil(render.front);
    state.back = vulkan_stencil(render.back);
  }
  switch (render.cull) {
  case maxwell::CullFace::none: break;
  case maxwell::CullFace::front: state.cull_mode = u(vk::CullModeFlagBits::eFront); break;
  case maxwell::CullFace::back: state.cull_mode = u(vk::CullModeFlagBits::eBack); break;
  case maxwell::CullFace::front_and_back: state.cull_mode = u(vk::CullModeFlagBits::eFrontAndBack); break;
  }
  state.lower_left_origin = render.lower_left_origin;
  // The guest's winding is meant as GL means it: in y-up window space, kept under an upper-left origin (GL
  // reverses the area's sign there). Vulkan's facing formula carries a minus sign for its y-down framebuffer,
  // which the lower-left case's flipped viewport cancels; with an upper-left origin nothing flips, so the
  // winding is reversed.
  state.front_face = u(render.front_counter_clockwise != !render.lower_left_origin ? vk::FrontFace::eCounterClockwise
                                                                                    : vk::FrontFace::eClockwise);
  switch (render.polygon_mode) {
  case maxwell::PolygonMode::point: state.polygon_mode = u(vk::PolygonMode::ePoint); break;
  case maxwell::PolygonMode::line: state.polygon_mode = u(vk::PolygonMode::eLine); break;
  case maxwell::PolygonMode::fill: state.polygon_mode = u(vk::PolygonMode::eFill); break;
  }
  state.depth_bias_enable = render.depth_bias_fill;
  if (render.depth_bias_fill) {
    state.depth_bias_constant = render.depth_bias_constant;
    state.depth_bias_slope = render.depth_bias_slope;
    state.depth_bias_clamp = render.depth_bias_clamp;
  }
  state.negative_one_to_one = render.depth_clip_negative_one_to_one;
  state.primitive_restart = render.primitive_restart;
  state.provoking_last = render.provoking_vertex_last;
  return state;
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
