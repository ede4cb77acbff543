// BC1-BC5 blocks built by hand; expected texels worked out in the comments (565 expansion v<<3|v>>2,
// v<<2|v>>4; indices little-endian, texel i at bits 2i / 3i / 4i).
#include <catch2/catch.hpp>

#include <vector>

#include "runtime/base/error.h"
#include "runtime/gpu/textures/formats/bcn.h"

using namespace kiln;
using namespace kiln::textures;

namespace {
std::vector<uint8_t> texel(const RgbaImage& image, uint32_t x, uint32_t y) {
  const auto at = image.pixels.begin() + (size_t{y} * image.width + x) * 4;
  return {at, at + 4};
}
using Rgba = std::vector<uint8_t>;
} // namespace

TEST_CASE("BC1: four colours when c0 > c1, three and transparent black otherwise", "[bcn]") {
  // c0 red 0xF800, c1 blue 0x001F; indices 0,1,2,3 for texels 0..3 = 0b11'10'01'00 = 0xE4.
  // c2 = (2*255 + 0 + 1) / 3 = 170 red, (0 + 255 + 1) / 3 = 85 blue; c3 = (85, 0, 170).
  std::vector<uint8_t> block = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0};
  RgbaImage image = decode_bc(BcFormat::bc1, 4, 4, block, "bc1");
  CHECK(texel(image, 0, 0) == Rgba{255, 0, 0, 255});
  CHECK(texel(image, 1, 0) == Rgba{0, 0, 255, 255});
  CHECK(texel(image, 2, 0) == Rgba{170, 0, 85, 255});
  CHECK(texel(image, 3, 0) == Rgba{85, 0, 170, 255});
  CHECK(texel(image, 0, 1) == Rgba{255, 0, 0, 255}); // index 0
  std::swap(block[0], block[2]), std::swap(block[1], block[3]); // c0 blue < c1 red
  image = decode_bc(BcFormat::bc1, 4, 4, block, "bc1");
  CHECK(texel(image, 2, 0) == Rgba{128, 0, 128, 255}); // (255 + 0 + 1) / 2
  CHECK(texel(image, 3, 0) == Rgba{0, 0, 0, 0});
}

TEST_CASE("BC2: explicit 4-bit alpha, colour always in four-colour mode", "[bcn]") {
  std::vector<uint8_t> block(16, 0);
  block[0] = 0xA5;                                           // texel 0 alpha 5 -> 85, texel 1 alpha 10 -> 170
  block[8] = 0x1F, block[9] = 0x00, block[10] = 0x00, block[11] = 0xF8; // c0 blue < c1 red: still 4 colours
  block[12] = 0x0C; // texel 1 index 3 -> (c0 + 2*c1) / 3 = (blue + 2*red) / 3 = (170, 0, 85)
  const RgbaImage image = decode_bc(BcFormat::bc2, 4, 4, block, "bc2");
  CHECK(texel(image, 0, 0) == Rgba{0, 0, 255, 85});
  CHECK(texel(image, 1, 0) == Rgba{170, 0, 85, 170});
}

TEST_CASE("BC3 and BC4: eight-value and six-value channel blocks", "[bcn]") {
  std::vector<uint8_t> block(16, 0);
  // Alpha e0 = 240 > e1 = 30: index 2 = (6*240 + 30 + 3) / 7 = 210, index 7 = (240 + 6*30 + 3) / 7 = 60.
  // Texel 0 index 2, texel 1 index 7: bits 0-2 = 010, bits 3-5 = 111 -> byte 0b00'111'010 = 0x3A.
  block[0] = 240, block[1] = 30, block[2] = 0x3A;
  block[8] = 0xFF, block[9] = 0xFF, block[10] = 0xFF, block[11] = 0xFF; // white, indices 0
  RgbaImage image = decode_bc(BcFormat::bc3, 4, 4, block, "bc3");
  CHECK(texel(image, 0, 0) == Rgba{255, 255, 255, 210});
  CHECK(texel(image, 1, 0) == Rgba{255, 255, 255, 60});
  CHECK(texel(image, 2, 0) == Rgba{255, 255, 255, 240});
  // e0 = 30 <= e1 = 240: index 2 = (4*30 + 240 + 2) / 5 = 72, index 6 = 0, index 7 = 255.
  // Texels 0, 1, 2 = indices 2, 6, 7: 010, 110, 111 -> bits 0b111'110'010 = 0x1F2.
  std::vector<uint8_t> bc4 = {30, 240, 0xF2, 0x01, 0, 0, 0, 0};
  image = decode_bc(BcFormat::bc4, 4, 4, bc4, "bc4");
  CHECK(texel(image, 0, 0) == Rgba{72, 0, 0, 255});
  CHECK(texel(image, 1, 0) == Rgba{0, 0, 0, 255});
  CHECK(texel(image, 2, 0) == Rgba{255, 0, 0, 255});
  CHECK(texel(image, 3, 0) == Rgba{30, 0, 0, 255});
}

TEST_CASE("BC5: red then green blocks, partial blocks at the edge", "[bcn]") {
  std::vector<uint8_t> blocks(32, 0);
  blocks[0] = 10, blocks[1] = 10;          // red 10 everywhere
  blocks[8] = 200, blocks[9] = 200;        // green 200
  blocks[16] = 99, blocks[24] = 7;         // second block: red 99, green 7 (e1 = 0, index 0 -> e0)
  const RgbaImage image = decode_bc(BcFormat::bc5, 6, 3, blocks, "bc5");
  CHECK(texel(image, 0, 0) == Rgba{10, 200, 0, 255});
  CHECK(texel(image, 5, 2) == Rgba{99, 7, 0, 255});
  CHECK_THROWS_WITH(decode_bc(BcFormat::bc5, 12, 4, blocks, "short.dds"), Catch::Matchers::Contains("short.dds"));
}
