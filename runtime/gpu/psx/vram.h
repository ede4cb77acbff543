#pragma once
// The PS1's 1 MiB of VRAM: 1024x512 16-bit pixels (5:5:5 colour + mask bit 15).
// Every access wraps its coordinates, so no command can reach outside the array whatever it asks for.
#include <array>
#include <cstdint>

namespace kiln::psx {

struct Vram {
  static constexpr int width = 1024;
  static constexpr int height = 512;
  static constexpr uint16_t mask_bit = 0x8000;

  std::array<uint16_t, width * height> pixels{};

  static constexpr int index(int x, int y) { return (y & (height - 1)) * width + (x & (width - 1)); }
  uint16_t at(int x, int y) const { return pixels[index(x, y)]; }
  void set(int x, int y, uint16_t value) { pixels[index(x, y)] = value; }
};

} // namespace kiln::psx
