#pragma once
// Runs a translated TEV program on the CPU through the IR interpreter: constant bank 0 and the two rasterised
// colours in, the 8-bit RGBA result (or "discarded") out.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/gx/gx_harness.h"
#include "translator/gx/translate.h"
#include "translator/ir/interpret.h"

namespace kiln::gx::test {

inline uint32_t color_env(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t bias = 0, uint32_t subtract = 0,
                          uint32_t clamp = 0, uint32_t scale = 0, uint32_t dest = 0) {
  return d | (c << 4) | (b << 8) | (a << 12) | (bias << 16) | (subtract << 18) | (clamp << 19) | (scale << 20) |
         (dest << 22);
}
inline uint32_t alpha_env(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t bias = 0, uint32_t subtract = 0,
                          uint32_t clamp = 0, uint32_t scale = 0, uint32_t dest = 0, uint32_t ras_swap = 0,
                          uint32_t texture_swap = 0) {
  return ras_swap | (texture_swap << 2) | (d << 4) | (c << 7) | (b << 10) | (a << 13) | (bias << 16) |
         (subtract << 18) | (clamp << 19) | (scale << 20) | (dest << 22);
}

/// The BP bank after running `stream` through the command processor.
inline BpState bp_after(const GxStream& stream) {
  Gx gx;
  gx.run(stream);
  return gx.processor.bp();
}

struct PixelResult {
  std::array<int, 4> rgba{-1, -1, -1, -1}; ///< stays -1 when the pixel was discarded
  bool discarded = false;
};

/// `fragment_position` is FragCoord (x, y, z in 0..1, w), read at a[0x70..0x7c].
inline PixelResult run_pixel(const GxShader& shader, const std::vector<uint32_t>& constants,
                             const std::array<std::array<float, 4>, 2>& colors = {},
                             const std::array<float, 4>& fragment_position = {0.5f, 0.5f, 0.5f, 1.0f}) {
  ir::InterpretEnvironment env;
  env.attribute = [&](uint32_t address) -> uint32_t {
    const uint32_t c = (address / 4) % 4;
    if (address >= 0x70 && address < 0x80) return std::bit_cast<uint32_t>(fragment_position.at(c));
    const uint32_t n = (address - 0x80) / 16;
    return std::bit_cast<uint32_t>(colors.at(n).at(c));
  };
  env.const_bank = [&](uint32_t bank, uint32_t offset) -> uint32_t {
    return bank == 0 && offset / 4 < constants.size() ? constants[offset / 4] : 0;
  };
  const ir::InterpretResult result = ir::interpret(shader.program, env);
  PixelResult out;
  out.discarded = result.demoted;
  if (!result.demoted) {
    for (uint32_t c = 0; c < 4; ++c) {
      out.rgba[c] = static_cast<int>(std::lround(std::bit_cast<float>(result.outputs.at(c)) * 255.0f));
    }
  }
  return out;
}

} // namespace kiln::gx::test
