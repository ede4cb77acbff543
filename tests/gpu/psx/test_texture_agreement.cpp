// The rasterizer's texel fetch (runtime/gpu/psx/texture.h, palette loaded once per primitive) against the texture
// library's independent PS1 decoder (runtime/gpu/textures/formats/psx.h): same texel for random VRAM contents,
// pages, CLUTs, windows and coordinates.
#include <catch2/catch.hpp>

#include <random>

#include "runtime/gpu/psx/texture.h"
#include "runtime/gpu/textures/formats/psx.h"

TEST_CASE("rasterizer texel fetch agrees with the texture library's PS1 decoder", "[psx][gpu][texture]") {
  std::mt19937 random(1234);
  kiln::psx::Vram vram;
  for (auto& pixel : vram.pixels) pixel = static_cast<uint16_t>(random());
  const kiln::textures::PsxVram view(vram.pixels, "vram");
  int compared = 0;
  for (int primitive = 0; primitive < 300; ++primitive) {
    kiln::psx::DrawState state;
    const uint32_t page_bits = static_cast<uint32_t>(random()) & 0x1FF & ~(3u << 7);
    state.apply_draw_mode(page_bits | static_cast<uint32_t>(random() % 3) << 7, false, false);
    state.apply_texture_window(static_cast<uint32_t>(random()) & 0xFFFFF);
    const auto clut = static_cast<uint16_t>(random() & 0x7FFF);
    const kiln::psx::TextureSampler sampler(vram, state, clut);
    kiln::textures::PsxTexturePage page;
    page.page_x = state.texpage_x / 64;
    page.page_y = state.texpage_y / 256;
    page.mode = static_cast<kiln::textures::PsxTextureMode>(state.texture_depth);
    page.clut_x = clut & 0x3F;
    page.clut_y = clut >> 6 & 0x1FF;
    const kiln::textures::PsxTextureWindow window{state.window_mask_x, state.window_mask_y, state.window_offset_x,
                                                  state.window_offset_y};
    for (int i = 0; i < 64; ++i) {
      const uint32_t u = random() & 0xFF, v = random() & 0xFF;
      INFO("primitive " << primitive << " u=" << u << " v=" << v);
      REQUIRE(sampler.fetch(u, v) == kiln::textures::psx_fetch_texel(view, page, window, u, v));
      ++compared;
    }
  }
  CHECK(compared == 300 * 64);
}
