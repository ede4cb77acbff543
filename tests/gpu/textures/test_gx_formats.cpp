// GX formats decoded from hand-built tiles; each expected texel is worked out in the comment next to it from
// the format's definition (big-endian words, tiles row-major, bit replication 4->8: v*17, 5->8: v<<3|v>>2,
// 6->8: v<<2|v>>4, 3->8: v<<5|v<<2|v>>1).
#include <catch2/catch.hpp>

#include <vector>

#include "runtime/base/error.h"
#include "runtime/gpu/textures/formats/gx.h"

using namespace kiln;
using namespace kiln::textures;

namespace {
Rgba8 texel(const RgbaImage& image, uint32_t x, uint32_t y) {
  const uint8_t* p = &image.pixels[(size_t{y} * image.width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}
void be16(std::vector<uint8_t>& bytes, size_t at, uint16_t value) {
  bytes[at] = static_cast<uint8_t>(value >> 8);
  bytes[at + 1] = static_cast<uint8_t>(value);
}
} // namespace

TEST_CASE("GX tile shapes and sizes", "[gx]") {
  CHECK(gx_texture_size(GxFormat::i4, 8, 8) == 32);
  CHECK(gx_texture_size(GxFormat::i8, 9, 4) == 64);     // two 8x4 tiles across
  CHECK(gx_texture_size(GxFormat::rgba8, 4, 4) == 64);  // AR half + GB half
  CHECK(gx_texture_size(GxFormat::cmpr, 16, 8) == 64);  // two 8x8 tiles of four 8-byte sub-blocks
  CHECK(gx_texture_size(GxFormat::ci14x2, 5, 5) == 4 * 32);
}

TEST_CASE("I4: two texels per byte, high nibble first, intensity in all channels", "[gx]") {
  std::vector<uint8_t> data(64, 0);
  data[0] = 0x1F;  // texels (0,0) = 1 -> 0x11, (1,0) = 15 -> 0xFF
  data[4] = 0xA0;  // row 1 starts at byte 4: (0,1) = 10 -> 0xAA
  data[32] = 0x70; // second tile (x 8..15): (8,0) = 7 -> 0x77
  const RgbaImage image = decode_gx(GxFormat::i4, 16, 8, data, "i4");
  CHECK(texel(image, 0, 0) == Rgba8{0x11, 0x11, 0x11, 0x11});
  CHECK(texel(image, 1, 0) == Rgba8{0xFF, 0xFF, 0xFF, 0xFF});
  CHECK(texel(image, 0, 1) == Rgba8{0xAA, 0xAA, 0xAA, 0xAA});
  CHECK(texel(image, 8, 0) == Rgba8{0x77, 0x77, 0x77, 0x77});
}

TEST_CASE("I8 and IA4 tiles of 8x4", "[gx]") {
  std::vector<uint8_t> data(32, 0);
  data[9] = 0x42; // row 1, x 1
  CHECK(texel(decode_gx(GxFormat::i8, 8, 4, data, "i8"), 1, 1) == Rgba8{0x42, 0x42, 0x42, 0x42});
  data[9] = 0x3C; // IA4: alpha 3 -> 0x33, intensity 12 -> 0xCC
  CHECK(texel(decode_gx(GxFormat::ia4, 8, 4, data, "ia4"), 1, 1) == Rgba8{0xCC, 0xCC, 0xCC, 0x33});
}

TEST_CASE("IA8, RGB565 and RGB5A3 words", "[gx]") {
  std::vector<uint8_t> data(32, 0);
  be16(data, 0, 0x8040); // IA8: first byte alpha 0x80, second intensity 0x40
  CHECK(texel(decode_gx(GxFormat::ia8, 4, 4, data, "ia8"), 0, 0) == Rgba8{0x40, 0x40, 0x40, 0x80});
  be16(data, 2, 0x8410); // RGB565: r 16 -> 132, g 32 -> 130, b 16 -> 132
  be16(data, 8, 0x07E0); // (0,1): pure green
  const RgbaImage rgb = decode_gx(GxFormat::rgb565, 4, 4, data, "rgb565");
  CHECK(texel(rgb, 1, 0) == Rgba8{132, 130, 132, 255});
  CHECK(texel(rgb, 0, 1) == Rgba8{0, 255, 0, 255});
  be16(data, 0, 0xFC00); // RGB5A3 with bit 15: RGB555 opaque, r 31
  be16(data, 2, 0x3F00); // bit 15 clear: a 3 -> 109, r 15 -> 255, g 0, b 0
  be16(data, 4, 0x0000); // transparent black
  const RgbaImage a3 = decode_gx(GxFormat::rgb5a3, 4, 4, data, "rgb5a3");
  CHECK(texel(a3, 0, 0) == Rgba8{255, 0, 0, 255});
  CHECK(texel(a3, 1, 0) == Rgba8{255, 0, 0, 109});
  CHECK(texel(a3, 2, 0) == Rgba8{0, 0, 0, 0});
}

TEST_CASE("RGBA8: A,R pairs in the first 32 bytes, G,B pairs in the next 32", "[gx]") {
  std::vector<uint8_t> data(64, 0);
  // texel 5 of the tile = (1, 1): AR at bytes 10, 11; GB at bytes 42, 43
  data[10] = 0x11, data[11] = 0x22, data[42] = 0x33, data[43] = 0x44;
  CHECK(texel(decode_gx(GxFormat::rgba8, 4, 4, data, "rgba8"), 1, 1) == Rgba8{0x22, 0x33, 0x44, 0x11});
}

TEST_CASE("colour-indexed formats through IA8, RGB565 and RGB5A3 TLUTs", "[gx]") {
  std::vector<uint8_t> tlut(2 * 256, 0);
  be16(tlut, 0, 0x001F);     // entry 0: RGB565 blue
  be16(tlut, 2 * 2, 0xF800); // entry 2: RGB565 red
  std::vector<uint8_t> data(32, 0);
  data[0] = 0x20; // CI4: (0,0) -> 2, (1,0) -> 0
  const RgbaImage ci4 = decode_gx(GxFormat::ci4, 8, 8, data, "ci4", tlut, GxTlutFormat::rgb565);
  CHECK(texel(ci4, 0, 0) == Rgba8{255, 0, 0, 255});
  CHECK(texel(ci4, 1, 0) == Rgba8{0, 0, 255, 255});

  be16(tlut, 200 * 2, 0x7F10); // IA8 entry: alpha 0x7F, intensity 0x10
  data[3] = 200;               // CI8 (3,0)
  CHECK(texel(decode_gx(GxFormat::ci8, 8, 4, data, "ci8", tlut, GxTlutFormat::ia8), 3, 0) ==
        Rgba8{0x10, 0x10, 0x10, 0x7F});

  std::vector<uint8_t> wide(32, 0);
  be16(wide, 2, 0xC005);         // CI14X2 (1,0): the top two bits are ignored -> index 5
  be16(tlut, 5 * 2, 0x3F00);     // RGB5A3 entry: (255, 0, 0, 109) as above
  CHECK(texel(decode_gx(GxFormat::ci14x2, 4, 4, wide, "ci14", tlut, GxTlutFormat::rgb5a3), 1, 0) ==
        Rgba8{255, 0, 0, 109});
}

TEST_CASE("an index past the TLUT is an error naming the tile", "[gx]") {
  std::vector<uint8_t> data(64, 0);
  data[32] = 0xF0; // second tile: index 15, but the TLUT holds 4 entries
  std::vector<uint8_t> tlut(8, 0);
  CHECK_THROWS_WITH(decode_gx(GxFormat::ci4, 16, 8, data, "tex.gx", tlut, GxTlutFormat::rgb565),
                    Catch::Matchers::Contains("tex.gx") && Catch::Matchers::Contains("offset 0x20") &&
                        Catch::Matchers::Contains("palette index 15"));
}

TEST_CASE("CMPR: 3/8-5/8 interpolation, and the transparent fourth colour", "[gx]") {
  std::vector<uint8_t> data(32, 0);
  // Sub-block 0 (top-left): c0 = red 0xF800 > c1 = blue 0x001F: four opaque colours.
  // c2 = (5*c0 + 3*c1) >> 3 = (1275 >> 3, 0, 765 >> 3) = (159, 0, 95); c3 = (95, 0, 159).
  // (DXT1 would give thirds: 170 and 85.) Row 0 indices 0b00'01'10'11: texels c0, c1, c2, c3.
  be16(data, 0, 0xF800), be16(data, 2, 0x001F), data[4] = 0x1B;
  // Sub-block 2 (bottom-left, texels y 4..7): c0 = blue <= c1 = red: c2 = average (127, 0, 127) truncated,
  // c3 = the same colour with alpha 0. Row 0 indices 0b10'11'00'00.
  be16(data, 16, 0x001F), be16(data, 18, 0xF800), data[20] = 0xB0;
  const RgbaImage image = decode_gx(GxFormat::cmpr, 8, 8, data, "cmpr");
  CHECK(texel(image, 0, 0) == Rgba8{255, 0, 0, 255});
  CHECK(texel(image, 1, 0) == Rgba8{0, 0, 255, 255});
  CHECK(texel(image, 2, 0) == Rgba8{159, 0, 95, 255});
  CHECK(texel(image, 3, 0) == Rgba8{95, 0, 159, 255});
  CHECK(texel(image, 0, 4) == Rgba8{127, 0, 127, 255});
  CHECK(texel(image, 1, 4) == Rgba8{127, 0, 127, 0});
  CHECK(texel(image, 2, 4) == Rgba8{0, 0, 255, 255});
  // Sub-block 1 (top-right) is all zero: c0 = c1 = 0 -> index 0 = opaque black.
  CHECK(texel(image, 4, 0) == Rgba8{0, 0, 0, 255});
}

TEST_CASE("short GX data and bad sizes are errors", "[gx]") {
  std::vector<uint8_t> data(31, 0);
  CHECK_THROWS_AS(decode_gx(GxFormat::i8, 8, 4, data, "short"), Error);
  CHECK_THROWS_WITH(decode_gx(GxFormat::i8, 0, 4, data, "zero"), Catch::Matchers::Contains("0x4"));
  CHECK_THROWS_WITH(parse_gx_format("rgba9"), Catch::Matchers::Contains("unknown GX texture format"));
  CHECK(parse_gx_format("CMPR") == GxFormat::cmpr);
}
