#pragma once
// The display side: GP1(05h..08h) settings and the picture the video output scans from VRAM.
#include <cstdint>

#include "runtime/base/png_image.h"
#include "runtime/gpu/psx/vram.h"

namespace kiln::psx {

struct DisplayState {
  bool enabled = false;            ///< GP1(03h) bit 0 clear
  uint16_t start_x = 0;            ///< GP1(05h): first VRAM halfword column shown
  uint16_t start_y = 0;
  uint16_t range_x1 = 0x200, range_x2 = 0xC00; ///< GP1(06h), in GPU video clocks
  uint16_t range_y1 = 0x010, range_y2 = 0x100; ///< GP1(07h), in scanlines
  uint8_t mode = 0;                ///< GP1(08h) bits 0-7

  bool pal() const { return (mode & 0x08) != 0; }
  bool colour_24bit() const { return (mode & 0x10) != 0; }
  bool interlaced() const { return (mode & 0x20) != 0; }
  bool tall() const { return (mode & 0x04) != 0; } ///< 480 lines when interlaced
  /// Video clocks per pixel: 10, 8, 5, 4 for 256/320/512/640 wide, 7 for 368.
  int clocks_per_pixel() const;
  /// Pixels per line as psx-spx gives them: ((x2 - x1) / clocks + 2) rounded down to a multiple of 4.
  int width() const;
  /// Lines shown: y2 - y1, doubled for interlaced 480-line mode.
  int height() const;
};

/// The displayed picture: each 5-bit channel shifted left by 3 (15-bit), or three bytes per pixel (24-bit),
/// read from VRAM at the display start with wrap-around. A disabled display is black.
RgbaImage scan_out(const Vram& vram, const DisplayState& display);

} // namespace kiln::psx
