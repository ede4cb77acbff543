// Checks the PNG frames games/sample-triangle wrote when it ran recompiled: every pixel against the scene its
// main.c defines (background per frame, the moving rectangle, the 16x16 checkerboard texture copied in from
// block-linear layout, the panel cleared by the 3D engine on Vulkan), computed here from those numbers. Usage: check_sample_frames FRAME_DIR FRAME_COUNT
#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "runtime/base/png_image.h"

namespace {

using Rgba = std::array<uint8_t, 4>;

Rgba expected(int frame, uint32_t x, uint32_t y) {
  if (x >= 96 && x < 112 && y >= 8 && y < 24) { // texture texel (u, v)
    const uint32_t u = x - 96, v = y - 8;
    return ((u / 4 + v / 4) % 2 == 0) ? Rgba{0xff, 0x00, 0x00, 0xff} : Rgba{0xff, 0xff, 0xff, 0xff};
  }
  if (x >= 16 && x < 48 && y >= 40 && y < 56) { // the panel the 3D engine cleared (Vulkan renderer)
    static constexpr Rgba panel[3] = {{0x00, 0xff, 0xff, 0xff}, {0xff, 0x00, 0xff, 0xff}, {0xff, 0xff, 0x00, 0xff}};
    return panel[frame % 3];
  }
  const uint32_t left = 8 + 16 * static_cast<uint32_t>(frame);
  if (x >= left && x < left + 32 && y >= 8 && y < 24) return {0xff, 0xc0, 0x00, 0xff};
  return {0x10, 0x20, static_cast<uint8_t>(0x40 + 0x20 * frame), 0xff};
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: check_sample_frames FRAME_DIR FRAME_COUNT\n");
    return 2;
  }
  const int frames = std::atoi(argv[2]);
  int failures = 0;
  for (int frame = 0; frame < frames; ++frame) {
    const std::string path = std::string(argv[1]) + "/frame_" + std::to_string(frame) + ".png";
    kiln::RgbaImage image;
    try {
      image = kiln::read_png(path);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%s\n", error.what());
      return 1;
    }
    if (image.width != 128 || image.height != 64) {
      std::fprintf(stderr, "%s: %ux%u, expected 128x64\n", path.c_str(), image.width, image.height);
      return 1;
    }
    int wrong = 0;
    for (uint32_t y = 0; y < image.height; ++y)
      for (uint32_t x = 0; x < image.width; ++x) {
        const uint8_t* p = &image.pixels[(size_t{y} * image.width + x) * 4];
        const Rgba want = expected(frame, x, y);
        if (Rgba{p[0], p[1], p[2], p[3]} == want) continue;
        if (++wrong <= 5)
          std::fprintf(stderr, "%s: pixel (%u, %u) is %02x%02x%02x%02x, expected %02x%02x%02x%02x\n", path.c_str(), x, y,
                       p[0], p[1], p[2], p[3], want[0], want[1], want[2], want[3]);
      }
    std::printf("%s: %d of %u pixels differ from the scene\n", path.c_str(), wrong, image.width * image.height);
    failures += wrong != 0;
  }
  return failures ? 1 : 0;
}
