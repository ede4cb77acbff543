#include "runtime/gpu/gx/raster_state.h"

#include <algorithm>

#include "runtime/base/bits.h"

namespace kiln::gx {
namespace {

uint32_t field(uint32_t value, unsigned lsb, unsigned width) { return extract_bits(value, lsb, width); }

BlendFactor source_factor(uint32_t code) {
  constexpr BlendFactor factors[8] = {BlendFactor::zero,      BlendFactor::one,           BlendFactor::dst_color,
                                      BlendFactor::inv_dst_color, BlendFactor::src_alpha, BlendFactor::inv_src_alpha,
                                      BlendFactor::dst_alpha, BlendFactor::inv_dst_alpha};
  return factors[code & 7];
}
BlendFactor destination_factor(uint32_t code) {
  constexpr BlendFactor factors[8] = {BlendFactor::zero,      BlendFactor::one,           BlendFactor::src_color,
                                      BlendFactor::inv_src_color, BlendFactor::src_alpha, BlendFactor::inv_src_alpha,
                                      BlendFactor::dst_alpha, BlendFactor::inv_dst_alpha};
  return factors[code & 7];
}

int32_t clamp_to(int32_t value, int32_t limit) { return std::clamp(value, 0, limit); }

} // namespace

const char* efb_format_name(EfbFormat format) {
  constexpr const char* names[8] = {"RGB8_Z24", "RGBA6_Z24", "RGB565_Z16", "Z24", "Y8", "U8", "V8", "YUV420"};
  return names[static_cast<uint32_t>(format) & 7];
}

ColorBits efb_color_bits(EfbFormat format) {
  switch (format) {
  case EfbFormat::rgba6_z24: return {6, 6, 6, 6};
  case EfbFormat::rgb565_z16: return {5, 6, 5, 0};
  default: return {8, 8, 8, 0};
  }
}

uint8_t quantize_channel(uint8_t value, unsigned bits) {
  if (bits == 0) return 255; // a channel the format does not store reads as full
  if (bits >= 8) return value;
  const uint32_t kept = value >> (8 - bits);
  uint32_t expanded = kept << (8 - bits);
  for (int shift = static_cast<int>(8 - 2 * bits); shift > -static_cast<int>(bits); shift -= static_cast<int>(bits))
    expanded |= shift >= 0 ? kept << shift : kept >> -shift;
  return static_cast<uint8_t>(expanded);
}

ScreenOffset screen_offset(const BpState& bp) {
  const uint32_t offset = bp.reg(bp::scissor_offset);
  return {static_cast<int32_t>(2 * field(offset, 0, 10)), static_cast<int32_t>(2 * field(offset, 10, 10))};
}

RasterState decode_raster_state(const XfState& xf, const BpState& bp) {
  RasterState state;
  const uint32_t control = bp.reg(bp::pixel_format);
  state.format = static_cast<EfbFormat>(field(control, 0, 3));
  state.early_depth = field(control, 6, 1) != 0;

  const uint32_t z_mode = bp.reg(bp::z_mode);
  state.depth_test = field(z_mode, 0, 1) != 0;
  state.depth_function = static_cast<CompareFunction>(field(z_mode, 1, 3));
  state.depth_update = field(z_mode, 4, 1) != 0;

  const uint32_t blend = bp.reg(bp::blend_mode);
  state.color_update = field(blend, 3, 1) != 0;
  state.alpha_update = field(blend, 4, 1) != 0 && efb_color_bits(state.format).a != 0;
  state.dither = field(blend, 2, 1) != 0;
  if (field(blend, 11, 1)) {
    state.blend = BlendMode::subtract;
  } else if (field(blend, 0, 1)) {
    state.blend = BlendMode::blend;
    state.src_factor = source_factor(field(blend, 8, 3));
    state.dst_factor = destination_factor(field(blend, 5, 3));
  } else if (field(blend, 1, 1)) {
    state.blend = BlendMode::logic;
    state.logic_op = static_cast<uint8_t>(field(blend, 12, 4));
  }
  state.constant_alpha = field(bp.reg(bp::constant_alpha), 8, 1) != 0;
  state.cull = static_cast<CullMode>(field(bp.reg(bp::gen_mode), 14, 2));

  const ScreenOffset offset = screen_offset(bp);
  const uint32_t top_left = bp.reg(bp::scissor_top_left), bottom_right = bp.reg(bp::scissor_bottom_right);
  state.scissor.left = clamp_to(static_cast<int32_t>(field(top_left, 12, 11)) - offset.x, efb_width);
  state.scissor.top = clamp_to(static_cast<int32_t>(field(top_left, 0, 11)) - offset.y, efb_height);
  state.scissor.right = clamp_to(static_cast<int32_t>(field(bottom_right, 12, 11)) - offset.x + 1, efb_width);
  state.scissor.bottom = clamp_to(static_cast<int32_t>(field(bottom_right, 0, 11)) - offset.y + 1, efb_height);

  // XF viewport: half width, -half height, depth range and far depth (24-bit scale), x and y origin (+342).
  const float half_width = xf.register_float(xf::viewport + 0), half_height = xf.register_float(xf::viewport + 1);
  const float z_range = xf.register_float(xf::viewport + 2), far_z = xf.register_float(xf::viewport + 5);
  const float x_origin = xf.register_float(xf::viewport + 3), y_origin = xf.register_float(xf::viewport + 4);
  state.viewport.x = x_origin - half_width - static_cast<float>(offset.x);
  state.viewport.width = 2 * half_width;
  state.viewport.y = y_origin - half_height - static_cast<float>(offset.y);
  state.viewport.height = 2 * half_height;
  // Depth = far + range * (z / w) with GX's z / w in -1..0; the clip z arrives shifted by w (0..1).
  constexpr float depth_scale = 16777215.0f;
  state.viewport.min_depth = (far_z - z_range) / depth_scale;
  state.viewport.max_depth = far_z / depth_scale;
  return state;
}

} // namespace kiln::gx
