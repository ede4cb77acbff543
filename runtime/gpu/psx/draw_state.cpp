#include "runtime/gpu/psx/draw_state.h"

#include "runtime/base/bits.h"

namespace kiln::psx {

uint32_t DrawState::texpage_bits() const {
  return (texpage_x / 64) | (texpage_y / 256) << 4 | static_cast<uint32_t>(semi_transparency) << 5 |
         static_cast<uint32_t>(texture_depth) << 7 | uint32_t{dither} << 9 | uint32_t{draw_to_display_area} << 10;
}

void DrawState::apply_draw_mode(uint32_t word, bool from_polygon, bool texture_disable_allowed) {
  texpage_x = static_cast<uint16_t>((word & 0xF) * 64);
  texpage_y = static_cast<uint16_t>((word >> 4 & 1) * 256);
  semi_transparency = static_cast<SemiTransparency>(word >> 5 & 3);
  texture_depth = static_cast<TextureDepth>(word >> 7 & 3);
  if (texture_disable_allowed) texture_disable = (word >> 11 & 1) != 0;
  if (from_polygon) return;
  dither = (word >> 9 & 1) != 0;
  draw_to_display_area = (word >> 10 & 1) != 0;
  flip_x = (word >> 12 & 1) != 0;
  flip_y = (word >> 13 & 1) != 0;
}

void DrawState::apply_texture_window(uint32_t word) {
  window_mask_x = word & 0x1F;
  window_mask_y = word >> 5 & 0x1F;
  window_offset_x = word >> 10 & 0x1F;
  window_offset_y = word >> 15 & 0x1F;
}

void DrawState::apply_area_top_left(uint32_t word) {
  clip_x0 = static_cast<int32_t>(word & 0x3FF);
  clip_y0 = static_cast<int32_t>(word >> 10 & 0x3FF);
}

void DrawState::apply_area_bottom_right(uint32_t word) {
  clip_x1 = static_cast<int32_t>(word & 0x3FF);
  clip_y1 = static_cast<int32_t>(word >> 10 & 0x3FF);
}

void DrawState::apply_offset(uint32_t word) {
  offset_x = static_cast<int32_t>(sign_extend(word & 0x7FF, 11));
  offset_y = static_cast<int32_t>(sign_extend(word >> 11 & 0x7FF, 11));
}

void DrawState::apply_mask(uint32_t word) {
  set_mask = (word & 1) != 0;
  check_mask = (word & 2) != 0;
}

} // namespace kiln::psx
