#include "runtime/gpu/psx/display.h"

#include <algorithm>

namespace kiln::psx {

int DisplayState::clocks_per_pixel() const {
  if (mode & 0x40) return 7;
  static constexpr int clocks[4] = {10, 8, 5, 4};
  return clocks[mode & 3];
}

int DisplayState::width() const {
  const int clocks = std::max(0, range_x2 - range_x1);
  return (clocks / clocks_per_pixel() + 2) & ~3;
}

int DisplayState::height() const {
  const int lines = std::max(0, range_y2 - range_y1);
  return interlaced() && tall() ? lines * 2 : lines;
}

RgbaImage scan_out(const Vram& vram, const DisplayState& display) {
  RgbaImage image;
  image.width = static_cast<uint32_t>(std::max(display.width(), 1));
  image.height = static_cast<uint32_t>(std::max(display.height(), 1));
  image.pixels.assign(size_t{image.width} * image.height * 4, 0);
  for (size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 0xFF;
  if (!display.enabled) return image;
  for (uint32_t y = 0; y < image.height; ++y) {
    const int row = display.start_y + static_cast<int>(y);
    for (uint32_t x = 0; x < image.width; ++x) {
      uint8_t* out = &image.pixels[(size_t{y} * image.width + x) * 4];
      if (display.colour_24bit()) {
        // Bytes of the line, little-endian halfwords, wrapping at 2048 bytes.
        const int byte = display.start_x * 2 + static_cast<int>(x) * 3;
        for (int c = 0; c < 3; ++c) {
          const int at = (byte + c) & 2047;
          out[c] = static_cast<uint8_t>(vram.at(at >> 1, row) >> ((at & 1) * 8));
        }
      } else {
        const uint16_t pixel = vram.at(display.start_x + static_cast<int>(x), row);
        out[0] = static_cast<uint8_t>((pixel & 0x1F) << 3);
        out[1] = static_cast<uint8_t>((pixel >> 5 & 0x1F) << 3);
        out[2] = static_cast<uint8_t>((pixel >> 10 & 0x1F) << 3);
      }
    }
  }
  return image;
}

} // namespace kiln::psx
