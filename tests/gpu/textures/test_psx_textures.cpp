// PS1 texture fetches from hand-placed VRAM words (psx-spx: 4-bit indices low nibble first, 8-bit low byte
// first, CLUT at (clut_x * 16, clut_y), texture window (c & ~(mask*8)) | ((offset & mask) * 8)).
#include <catch2/catch.hpp>

#include <vector>

#include "runtime/base/error.h"
#include "runtime/gpu/textures/formats/psx.h"

using namespace kiln;
using namespace kiln::textures;

namespace {
struct Vram {
  std::vector<uint16_t> words = std::vector<uint16_t>(1024 * 512, 0);
  void set(uint32_t x, uint32_t y, uint16_t value) { words[y * 1024 + x] = value; }
};
} // namespace

TEST_CASE("4-bit CLUT: four indices per halfword, low nibble first", "[psx]") {
  Vram vram;
  vram.set(64 + 1, 10, 0x4321);  // page x 1 -> VRAM x 64; u 4..7 are halfword 1: indices 1, 2, 3, 4
  vram.set(32 + 3, 480, 0x7C1F); // CLUT x 2 -> VRAM x 32, line 480: entry 3
  const PsxVram view(vram.words, "vram");
  const PsxTexturePage page{.page_x = 1, .mode = PsxTextureMode::clut4, .clut_x = 2, .clut_y = 480};
  CHECK(psx_fetch_texel(view, page, {}, 6, 10) == 0x7C1F);
  CHECK(psx_fetch_texel(view, page, {}, 7, 10) == 0); // index 4: an empty CLUT entry
}

TEST_CASE("8-bit CLUT and 15-bit direct texels", "[psx]") {
  Vram vram;
  vram.set(64 + 3, 10, 0xAB12); // u 6 -> 0x12, u 7 -> 0xAB
  vram.set(0x12, 0, 0x1234);
  vram.set(0xAB, 0, 0x4321);
  vram.set(64 + 9, 10, 0x801F);
  const PsxVram view(vram.words, "vram");
  PsxTexturePage page{.page_x = 1, .mode = PsxTextureMode::clut8};
  CHECK(psx_fetch_texel(view, page, {}, 6, 10) == 0x1234);
  CHECK(psx_fetch_texel(view, page, {}, 7, 10) == 0x4321);
  page.mode = PsxTextureMode::direct15;
  CHECK(psx_fetch_texel(view, page, {}, 9, 10) == 0x801F);
}

TEST_CASE("texture window and VRAM wrap", "[psx]") {
  Vram vram;
  vram.set(11, 256 + 2, 0x1111); // page y 1 -> line 256
  vram.set(36, 0, 0x2222);       // page x 15 -> x 960; u 100 -> 1060 wraps to 36
  const PsxVram view(vram.words, "vram");
  // mask 1, offset 1: bit 3 of u forced to 1: u 3 -> 11.
  const PsxTextureWindow window{.mask_x = 1, .offset_x = 1};
  CHECK(psx_apply_window(3, 1, 1) == 11);
  CHECK(psx_apply_window(0xff, 0x1f, 0) == 0x07); // mask covers bits 3..7
  CHECK(psx_fetch_texel(view, {.page_y = 1}, window, 3, 2) == 0x1111);
  CHECK(psx_fetch_texel(view, {.page_x = 15}, {}, 100, 0) == 0x2222);
}

TEST_CASE("15-bit colour to RGBA8: replication, and only 0x0000 is transparent", "[psx]") {
  CHECK(psx_texel_to_rgba8(0x801F) == 0xFF0000FFu); // r 31 -> 255, STP set, opaque
  CHECK(psx_texel_to_rgba8(0x0000) == 0x00000000u); // transparent
  CHECK(psx_texel_to_rgba8(0x8000) == 0xFF000000u); // black with STP: drawn
  CHECK(psx_texel_to_rgba8(0x0010 << 10) == 0xFF840000u); // b 16 -> 132
  Vram vram;
  vram.set(1, 0, 0x03E0); // green
  const RgbaImage image = decode_psx_texture(PsxVram(vram.words, "vram"), {}, {}, 0, 0, 2, 1);
  CHECK(image.pixels == std::vector<uint8_t>{0, 0, 0, 0, 0, 255, 0, 255});
  CHECK_THROWS_WITH(PsxVram(std::span(vram.words).first(100), "dump.bin"), Catch::Matchers::Contains("dump.bin"));
}
