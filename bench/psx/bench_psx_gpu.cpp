// PS1 software rasterizer fill rate (pixels per second) per primitive kind, next to the VRAM fill command
// (a plain 16-bit store loop, GP0(02h)) measured in the same run as the reference.
// Usage: bench_psx_gpu [--quick]
#include "bench/common/best_time.h"
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "runtime/gpu/psx/gpu.h"

namespace {

using Words = std::vector<uint32_t>;

uint32_t xy(int x, int y) { return static_cast<uint32_t>(y << 16 | x); }

// A 256x256 screen-aligned quad covers exactly 65536 pixels (half-open edges).
constexpr int side = 256;
constexpr double pixels_per_primitive = side * side;

Words quad(uint32_t opcode, bool gouraud, bool textured) {
  Words w;
  const int corners[4][2] = {{0, 0}, {side, 0}, {0, side}, {side, side}};
  const uint32_t colours[4] = {0x2040C0, 0xC08040, 0x40C080, 0x808080};
  const uint32_t texpage[4] = {0, 8u | 2u << 7 /* 15-bit page at x=512 */, 0, 0};
  for (int i = 0; i < 4; ++i) {
    if (i == 0) w.push_back(opcode << 24 | colours[0]);
    else if (gouraud) w.push_back(colours[i]);
    w.push_back(xy(corners[i][0], corners[i][1]));
    if (textured) {
      const uint32_t u = corners[i][0] ? 255 : 0, v = corners[i][1] ? 255 : 0;
      w.push_back((i == 0 ? 480u << 6 : texpage[i]) << 16 | v << 8 | u);
    }
  }
  return w;
}


struct Case {
  std::string name;
  Words setup;      ///< state words sent once
  Words primitive;  ///< one primitive of 65536 pixels
};

using kiln::bench::best_seconds_per_run;

double pixels_per_second(const Case& c, double budget) {
  kiln::psx::Gpu gpu;
  for (const uint32_t word : Words{0xE3000000, 0xE407FFFF}) gpu.write_gp0(word);
  for (const uint32_t word : c.setup) gpu.write_gp0(word);
  // Texture content: never the transparent 0000h, and with the semi-transparency bit set so blending happens.
  for (int y = 0; y < 256; ++y)
    for (int x = 512; x < 768; ++x) gpu.vram().set(x, y, static_cast<uint16_t>(0x8000 | ((x * 37 + y * 11) & 0x7FFF) | 1));
  constexpr int repeats = 8;
  const double seconds = best_seconds_per_run([&] {
    for (int i = 0; i < repeats; ++i)
      for (const uint32_t word : c.primitive) gpu.write_gp0(word);
  }, budget);
  return pixels_per_primitive * repeats / seconds;
}

} // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const double budget = quick ? 0.05 : 0.5;
  const uint32_t page_15bit = 0xE1000000 | 8u | 2u << 7;
  const std::vector<Case> cases = {
      {"fill GP0(02h) (reference)", {}, {0x02404040, xy(0, 0), xy(side, side)}},
      {"flat quad", {}, quad(0x28, false, false)},
      {"flat quad, dithered (no effect)", {0xE1000200}, quad(0x28, false, false)},
      {"Gouraud quad", {}, quad(0x38, true, false)},
      {"Gouraud quad, dithered", {0xE1000200}, quad(0x38, true, false)},
      {"textured quad 15-bit, raw", {}, quad(0x2D, false, true)},
      {"textured quad 15-bit, modulated", {}, quad(0x2C, false, true)},
      {"Gouraud textured quad, dithered", {0xE1000200}, quad(0x3C, true, true)},
      {"semi-transparent flat quad (B+F)", {0xE1000020}, quad(0x2A, false, false)},
      {"semi-transparent Gouraud quad (B/2+F/2)", {}, quad(0x3A, true, false)},
      {"semi-transparent textured quad (B-F)", {0xE1000040 | 8u | 2u << 7}, quad(0x2F, false, true)},
      {"flat rectangle", {}, {0x60808080, xy(0, 0), xy(side, side)}},
      {"textured rectangle 15-bit, raw", {page_15bit}, {0x65808080, xy(0, 0), 0, xy(side, side)}},
      {"semi-transparent textured rectangle", {page_15bit | 1u << 5}, {0x67808080, xy(0, 0), 0, xy(side, side)}},
      {"mask-checked flat quad", {0xE6000002}, quad(0x28, false, false)},
  };
  fmt::print("{:<42} {:>12} {:>9}\n", "primitive (256x256 = 65536 pixels)", "Mpixels/s", "/fill");
  double reference = 0;
  for (const Case& c : cases) {
    const double rate = pixels_per_second(c, budget);
    if (reference == 0) reference = rate;
    fmt::print("{:<42} {:>12.1f} {:>9.2f}\n", c.name, rate / 1e6, rate / reference);
  }
  return 0;
}
