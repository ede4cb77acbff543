#pragma once
// Per-texel fetch from VRAM as the GPU samples it: texture page, texture window, 4/8-bit CLUT or 15-bit direct.
// A texel of 0x0000 means "transparent" to the rasterizer (the caller skips it).
#include <array>
#include <cstdint>

#include "runtime/gpu/psx/draw_state.h"
#include "runtime/gpu/psx/vram.h"

namespace kiln::psx {

class TextureSampler {
public:
  /// `clut` is the CLUT halfword of the command (x/16 in bits 0-5, y in bits 6-14). The palette is read once here,
  /// when the primitive starts, as the GPU loads its CLUT cache.
  TextureSampler(const Vram& vram, const DrawState& state, uint16_t clut);

  /// `u`, `v` are 8-bit texture coordinates (wrapped by the caller's arithmetic).
  uint16_t fetch(uint32_t u, uint32_t v) const {
    u = (u & 0xFF & and_x_) | or_x_;
    v = (v & 0xFF & and_y_) | or_y_;
    const int y = page_y_ + static_cast<int>(v);
    switch (depth_) {
      case TextureDepth::clut4: {
        const uint16_t word = vram_.at(page_x_ + static_cast<int>(u >> 2), y);
        return palette_[word >> ((u & 3) * 4) & 0xF];
      }
      case TextureDepth::clut8: {
        const uint16_t word = vram_.at(page_x_ + static_cast<int>(u >> 1), y);
        return palette_[word >> ((u & 1) * 8) & 0xFF];
      }
      default: return vram_.at(page_x_ + static_cast<int>(u), y);
    }
  }

private:
  const Vram& vram_;
  TextureDepth depth_;
  int page_x_, page_y_;
  uint32_t and_x_, or_x_, and_y_, or_y_;
  std::array<uint16_t, 256> palette_{};
};

} // namespace kiln::psx
