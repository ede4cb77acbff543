#pragma once
// The drawing environment the GP0(E1h..E6h) commands set (and textured polygons' texpage words update).
#include <cstdint>

namespace kiln::psx {

enum class SemiTransparency : uint8_t { average = 0, add = 1, subtract = 2, add_quarter = 3 };
enum class TextureDepth : uint8_t { clut4 = 0, clut8 = 1, direct15 = 2, reserved = 3 }; // reserved reads as 15-bit

struct DrawState {
  // GP0(E1h): texpage and draw mode.
  uint16_t texpage_x = 0;  ///< VRAM x of the texture page (multiple of 64)
  uint16_t texpage_y = 0;  ///< 0 or 256
  SemiTransparency semi_transparency = SemiTransparency::average;
  TextureDepth texture_depth = TextureDepth::clut4;
  bool dither = false;
  bool draw_to_display_area = false;
  bool texture_disable = false;
  bool flip_x = false;     ///< rectangles only (E1 bit 12)
  bool flip_y = false;     ///< rectangles only (E1 bit 13)
  // GP0(E2h): texture window, in units of 8 texels.
  uint8_t window_mask_x = 0, window_mask_y = 0, window_offset_x = 0, window_offset_y = 0;
  // GP0(E3h)/(E4h): drawing area, inclusive.
  int32_t clip_x0 = 0, clip_y0 = 0, clip_x1 = 0, clip_y1 = 0;
  // GP0(E5h): drawing offset, 11-bit signed.
  int32_t offset_x = 0, offset_y = 0;
  // GP0(E6h): mask bit.
  bool set_mask = false;   ///< OR bit 15 into every pixel drawn
  bool check_mask = false; ///< leave pixels whose bit 15 is set untouched
  // Not a command register: in interlaced 480-line mode without draw_to_display_area, the rows of this parity
  // (the field being displayed) are not drawn. -1 = draw every row. Kept up to date by the Gpu.
  int8_t skipped_row_parity = -1;

  bool skips_row(int32_t y) const { return skipped_row_parity >= 0 && (y & 1) == skipped_row_parity; }

  uint16_t mask_or() const { return set_mask ? 0x8000 : 0; }
  uint32_t texpage_bits() const; ///< E1 bits 0-10, where GPUSTAT shows them

  /// E1 word (`from_polygon` = a textured polygon's texpage halfword: it leaves dither, draw-to-display and flip alone).
  void apply_draw_mode(uint32_t word, bool from_polygon, bool texture_disable_allowed);
  void apply_texture_window(uint32_t word);
  void apply_area_top_left(uint32_t word);
  void apply_area_bottom_right(uint32_t word);
  void apply_offset(uint32_t word);
  void apply_mask(uint32_t word);
};

} // namespace kiln::psx
