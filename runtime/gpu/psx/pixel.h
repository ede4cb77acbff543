#pragma once
// What happens to one pixel on its way into VRAM: dithering, texture modulation, semi-transparency and the mask bit.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "runtime/gpu/psx/draw_state.h"
#include "runtime/gpu/psx/vram.h"

namespace kiln::psx {

/// The hardware's signed 4x4 dither offsets, indexed [y & 3][x & 3], added to 8-bit colour before it drops to 5 bits.
inline constexpr std::array<std::array<int, 4>, 4> dither_matrix = {{
    {-4, 0, -3, 1},
    {2, -2, 3, -1},
    {-3, 1, -4, 0},
    {3, -1, 2, -2},
}};

/// An 8-bit channel (0..511 for modulated texels, which can exceed 255) plus `offset`, to 5 bits with clamping.
constexpr uint16_t to_5_bits(int channel, int offset) {
  const int value = (channel + offset) >> 3;
  return static_cast<uint16_t>(value < 0 ? 0 : value > 31 ? 31 : value);
}

constexpr uint16_t rgb15(int r5, int g5, int b5) { return static_cast<uint16_t>(r5 | g5 << 5 | b5 << 10); }

/// 24-bit command colour (R in bits 0-7) to 15 bits, truncating: flat primitives, rectangles, fills.
constexpr uint16_t truncate_colour(uint32_t rgb24) {
  return rgb15((rgb24 & 0xFF) >> 3, (rgb24 >> 8 & 0xFF) >> 3, (rgb24 >> 16 & 0xFF) >> 3);
}

/// Texel times colour, where 0x80 is 1.0 (texel channel * colour / 16 in 8-bit scale), dithered by `offset`.
/// The texel's bit 15 (semi-transparency flag) passes through.
constexpr uint16_t modulate(uint16_t texel, int r, int g, int b, int offset) {
  const int tr = texel & 0x1F, tg = texel >> 5 & 0x1F, tb = texel >> 10 & 0x1F;
  return static_cast<uint16_t>((texel & 0x8000) |
                               rgb15(to_5_bits(tr * r >> 4, offset), to_5_bits(tg * g >> 4, offset),
                                     to_5_bits(tb * b >> 4, offset)));
}

/// Semi-transparency of `front` over `back`, each channel in 5 bits; bit 15 of the result is `front`'s.
constexpr uint16_t blend(SemiTransparency mode, uint16_t back, uint16_t front) {
  const auto per_channel = [&](auto&& combine) {
    uint16_t result = front & 0x8000;
    for (int shift = 0; shift < 15; shift += 5) {
      const int value = combine(back >> shift & 0x1F, front >> shift & 0x1F);
      result = static_cast<uint16_t>(result | (value < 0 ? 0 : value > 31 ? 31 : value) << shift);
    }
    return result;
  };
  switch (mode) {
    case SemiTransparency::average: return per_channel([](int b, int f) { return (b + f) >> 1; });
    case SemiTransparency::add: return per_channel([](int b, int f) { return b + f; });
    case SemiTransparency::subtract: return per_channel([](int b, int f) { return b - f; });
    case SemiTransparency::add_quarter: break;
  }
  return per_channel([](int b, int f) { return b + (f >> 2); });
}

/// Everything the pixel writer needs, fixed for one primitive.
struct PixelPipe {
  Vram* vram;
  bool semi_transparent;   ///< the command's semi-transparency bit
  SemiTransparency mode;
  bool check_mask;
  uint16_t mask_or;

  /// Untextured primitives always blend when semi-transparent and store bit 15 only from the mask setting.
  void plot_untextured(int x, int y, uint16_t colour) const {
    const int index = Vram::index(x, y);
    const uint16_t back = vram->pixels[index];
    if (check_mask && (back & 0x8000)) return;
    if (semi_transparent) colour = blend(mode, back, colour);
    vram->pixels[index] = static_cast<uint16_t>((colour & 0x7FFF) | mask_or);
  }

  /// `count` pixels of one colour from (x, y) rightwards; x .. x+count-1 must lie inside 0..1023.
  void plot_untextured_run(int x, int y, int count, uint16_t colour) const {
    if (semi_transparent || check_mask) {
      for (int i = 0; i < count; ++i) plot_untextured(x + i, y, colour);
      return;
    }
    uint16_t* row = &vram->pixels[static_cast<size_t>(Vram::index(x, y))];
    std::fill(row, row + count, static_cast<uint16_t>((colour & 0x7FFF) | mask_or));
  }

  /// Textured pixels blend only where the texel's bit 15 is set, and keep that bit.
  void plot_textured(int x, int y, uint16_t texel) const {
    const int index = Vram::index(x, y);
    const uint16_t back = vram->pixels[index];
    if (check_mask && (back & 0x8000)) return;
    if (semi_transparent && (texel & 0x8000)) texel = blend(mode, back, texel);
    vram->pixels[index] = static_cast<uint16_t>(texel | mask_or);
  }
};

} // namespace kiln::psx
