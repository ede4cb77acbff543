#include "runtime/gpu/textures/formats/psx.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::textures {

PsxVram::PsxVram(std::span<const uint16_t> words, std::string name) : words_(words) {
  if (words.size() != size_t{psx_vram_width} * psx_vram_height) {
    throw Error(in_file(std::move(name)), fmt::format("PS1 VRAM must be 1024x512 halfwords ({} bytes), got {} bytes",
                                                      psx_vram_width * psx_vram_height * 2, words.size() * 2));
  }
}

uint16_t psx_fetch_texel(const PsxVram& vram, const PsxTexturePage& page, const PsxTextureWindow& window, uint32_t u,
                         uint32_t v) {
  u = psx_apply_window(u, window.mask_x, window.offset_x);
  v = psx_apply_window(v, window.mask_y, window.offset_y);
  const uint32_t x = (page.page_x & 15) * 64;
  const uint32_t y = (page.page_y & 1) * 256 + v;
  const uint32_t clut_x = (page.clut_x & 63) * 16;
  const uint32_t clut_y = page.clut_y & 511;
  switch (page.mode) {
  case PsxTextureMode::clut4: {
    const uint32_t index = (vram.at(x + u / 4, y) >> ((u % 4) * 4)) & 15; // first texel in the low nibble
    return vram.at(clut_x + index, clut_y);
  }
  case PsxTextureMode::clut8: {
    const uint32_t index = (vram.at(x + u / 2, y) >> ((u % 2) * 8)) & 255;
    return vram.at(clut_x + index, clut_y);
  }
  case PsxTextureMode::direct15: return vram.at(x + u, y);
  }
  throw Error(fmt::format("unknown PS1 texture mode {}", static_cast<int>(page.mode)));
}

uint32_t psx_texel_to_rgba8(uint16_t texel) {
  const auto expand = [](uint32_t c) { return (c << 3) | (c >> 2); };
  const uint32_t r = expand(texel & 31), g = expand((texel >> 5) & 31), b = expand((texel >> 10) & 31);
  const uint32_t a = texel == 0 ? 0 : 255;
  return r | g << 8 | b << 16 | a << 24;
}

RgbaImage decode_psx_texture(const PsxVram& vram, const PsxTexturePage& page, const PsxTextureWindow& window,
                             uint32_t u, uint32_t v, uint32_t width, uint32_t height) {
  if (width == 0 || height == 0 || width > 256 || height > 256) {
    throw Error(fmt::format("PS1 texture block of {}x{} texels (each side must be 1..256)", width, height));
  }
  RgbaImage image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const uint32_t rgba = psx_texel_to_rgba8(psx_fetch_texel(vram, page, window, (u + x) & 0xff, (v + y) & 0xff));
      uint8_t* p = &image.pixels[(size_t{y} * width + x) * 4];
      p[0] = rgba & 0xff, p[1] = (rgba >> 8) & 0xff, p[2] = (rgba >> 16) & 0xff, p[3] = rgba >> 24;
    }
  }
  return image;
}

} // namespace kiln::textures
