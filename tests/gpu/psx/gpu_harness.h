#pragma once
// A GPU with the whole of VRAM as drawing area, and helpers to feed it words and read pixels.
#include <cstdint>
#include <initializer_list>

#include "runtime/gpu/psx/gpu.h"

namespace kiln::psx::test {

struct GpuHarness {
  Gpu gpu;

  GpuHarness() {
    gp0({0xE3000000, 0xE4000000 | 511u << 10 | 1023u});
  }
  void gp0(std::initializer_list<uint32_t> words) {
    for (const uint32_t word : words) gpu.write_gp0(word);
  }
  uint16_t at(int x, int y) const { return gpu.vram().at(x, y); }
  /// Sets one pixel through a 1x1 CPU-to-VRAM transfer.
  void put(int x, int y, uint16_t value) {
    gp0({0xA0000000, static_cast<uint32_t>(y << 16 | x), 0x00010001, value});
  }
  /// Fills a rectangle (x and width multiples of 16) with an 8-bit-per-channel colour.
  void fill(int x, int y, int width, int height, uint32_t rgb24) {
    gp0({0x02000000 | rgb24, static_cast<uint32_t>(y << 16 | x), static_cast<uint32_t>(height << 16 | width)});
  }
  static uint32_t xy(int x, int y) { return static_cast<uint32_t>((y & 0xFFFF) << 16 | (x & 0xFFFF)); }
  int count(int x0, int y0, int x1, int y1, uint16_t value) const {
    int n = 0;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) n += at(x, y) == value;
    return n;
  }
};

constexpr uint16_t rgb(int r, int g, int b) { return static_cast<uint16_t>(r | g << 5 | b << 10); }

} // namespace kiln::psx::test
