#pragma once
// PlayStation texture fetches from the GPU's 1024x512 VRAM of 16-bit words: 4-bit and 8-bit CLUT modes and
// 15-bit direct colour, through the texture window (psx-spx; seed 001). Coordinates wrap at the VRAM edges.
#include <cstdint>
#include <span>
#include <string>

#include "runtime/base/png_image.h"

namespace kiln::textures {

inline constexpr uint32_t psx_vram_width = 1024;
inline constexpr uint32_t psx_vram_height = 512;

enum class PsxTextureMode : uint8_t { clut4 = 0, clut8 = 1, direct15 = 2 };

/// The texture page and palette a primitive samples (GP0 E1 / texpage attribute and CLUT attribute).
struct PsxTexturePage {
  uint32_t page_x = 0;   ///< texpage X in units of 64 halfwords (0..15)
  uint32_t page_y = 0;   ///< texpage Y in units of 256 lines (0..1)
  PsxTextureMode mode = PsxTextureMode::direct15;
  uint32_t clut_x = 0;   ///< CLUT X in units of 16 halfwords (0..63)
  uint32_t clut_y = 0;   ///< CLUT line (0..511)
};

/// GP0 E2: masks and offsets in units of 8 texels (5 bits each).
struct PsxTextureWindow {
  uint32_t mask_x = 0, mask_y = 0, offset_x = 0, offset_y = 0;
};

/// A view of VRAM: 1024 x 512 halfwords, row-major. Throws kiln::Error if `words` is not exactly that size.
class PsxVram {
public:
  PsxVram(std::span<const uint16_t> words, std::string name);
  uint16_t at(uint32_t x, uint32_t y) const { return words_[(y % psx_vram_height) * psx_vram_width + x % psx_vram_width]; }

private:
  std::span<const uint16_t> words_;
};

/// The texture window applied to one 8-bit coordinate: (c AND NOT (mask*8)) OR ((offset AND mask)*8).
constexpr uint32_t psx_apply_window(uint32_t coordinate, uint32_t mask, uint32_t offset) {
  return ((coordinate & ~(mask * 8)) | ((offset & mask) * 8)) & 0xff;
}

/// The raw 16-bit texel (bit 15 = semi-transparency, 0x0000 = transparent) at (u, v) of the page.
uint16_t psx_fetch_texel(const PsxVram& vram, const PsxTexturePage& page, const PsxTextureWindow& window, uint32_t u,
                         uint32_t v);

/// 15-bit BGR to RGBA8 with 5->8 bit replication; alpha 0 for the transparent texel 0x0000, else 255.
uint32_t psx_texel_to_rgba8(uint16_t texel);

/// A width x height block of texels starting at (u, v) of the page, as RGBA8.
RgbaImage decode_psx_texture(const PsxVram& vram, const PsxTexturePage& page, const PsxTextureWindow& window,
                             uint32_t u, uint32_t v, uint32_t width, uint32_t height);

} // namespace kiln::textures
