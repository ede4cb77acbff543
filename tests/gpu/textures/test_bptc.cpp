// BC7, BC6H and BC4/BC5 SNORM blocks built by hand, field by field; the expected texels are worked out in
// the comments from the Khronos Data Format Specification (BPTC chapter: mode tables, partition and anchor
// tables, weights 2-bit {0,21,43,64}, 3-bit {0,9,18,27,37,46,55,64}, 4-bit {0,4,9,13,17,21,26,30,34,38,43,
// 47,51,55,60,64}, interpolation ((64-w)*e0 + w*e1 + 32) >> 6; BC6H unquantization and 31/64, 31/32 scaling).
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "runtime/gpu/textures/formats/bc6h.h"
#include "runtime/gpu/textures/formats/bcn.h"

using namespace kiln;
using namespace kiln::textures;

namespace {

/// Appends fields to a 128-bit block from bit 0 up: the test's own encoder, independent of the decoder.
struct BlockWriter {
  std::array<uint8_t, 16> bytes{};
  uint32_t position = 0;
  BlockWriter& put(uint32_t value, uint32_t bits) {
    for (uint32_t i = 0; i < bits; ++i, ++position) set_bit(position, (value >> i) & 1);
    return *this;
  }
  void set_bit(uint32_t bit, uint32_t value) {
    bytes[bit / 8] = static_cast<uint8_t>((bytes[bit / 8] & ~(1u << (bit % 8))) | (value << (bit % 8)));
  }
  /// 16 indices of `bits` bits, the listed anchor texels one bit shorter.
  BlockWriter& indices(const std::array<uint32_t, 16>& values, uint32_t bits, std::initializer_list<uint32_t> anchors) {
    for (uint32_t texel = 0; texel < 16; ++texel) {
      bool anchor = false;
      for (uint32_t a : anchors) anchor |= a == texel;
      put(values[texel], anchor ? bits - 1 : bits);
    }
    return *this;
  }
};

using Rgba = std::array<uint8_t, 4>;
Rgba bc7_texel(const BlockWriter& block, uint32_t texel) {
  const RgbaImage image = decode_bc(BcFormat::bc7, 4, 4, block.bytes, "bc7");
  const auto at = image.pixels.begin() + texel * 4;
  return {at[0], at[1], at[2], at[3]};
}

using Half4 = std::array<uint16_t, 4>;
Half4 bc6h_texel(const BlockWriter& block, BcFormat format, uint32_t texel) {
  const std::vector<uint16_t> texels = decode_bc6h(format, 4, 4, block.bytes, "bc6h");
  return {texels[texel * 4], texels[texel * 4 + 1], texels[texel * 4 + 2], texels[texel * 4 + 3]};
}

} // namespace

TEST_CASE("BC7 mode 0: three subsets, 4-bit colour with per-endpoint P-bits", "[bptc]") {
  BlockWriter b;
  b.put(1, 1).put(0, 4); // mode 0, partition 0 = 0011 0011 0221 2222, anchors 0, 3 (subset 1), 15 (subset 2)
  // Endpoints s0e0 s0e1 s1e0 s1e1 s2e0 s2e1, red then green then blue, then six P-bits.
  for (uint32_t v : {15, 0, 0, 0, 0, 8}) b.put(v, 4); // red
  for (uint32_t v : {0, 0, 15, 0, 0, 8}) b.put(v, 4); // green
  for (uint32_t v : {0, 0, 0, 0, 15, 8}) b.put(v, 4); // blue
  for (uint32_t p : {1, 0, 1, 0, 1, 0}) b.put(p, 1);
  // 5-bit channels (value << 1 | P) widened v<<3 | v>>2: 15,P1 -> 31 -> 255; 0,P1 -> 1 -> 8; 8,P0 -> 16 -> 132.
  // s0 = (255,8,8) .. (0,0,0); s1 = (8,255,8) .. 0; s2 = (8,8,255) .. (132,132,132).
  b.indices({0, 0, 0, 3, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 3}, 3, {0, 3, 15});
  CHECK(bc7_texel(b, 0) == Rgba{255, 8, 8, 255});
  CHECK(bc7_texel(b, 2) == Rgba{8, 255, 8, 255}); // subset 1, index 0
  // Texel 3 (subset 1 anchor) index 3, w 27: 255 -> (37*255 + 32) >> 6 = 147, 8 -> (37*8 + 32) >> 6 = 5.
  CHECK(bc7_texel(b, 3) == Rgba{5, 147, 5, 255});
  CHECK(bc7_texel(b, 9) == Rgba{132, 132, 132, 255}); // subset 2, index 7
  // Texel 15 (subset 2 anchor) index 3: (37*8 + 27*132 + 32) >> 6 = 60, (37*255 + 27*132 + 32) >> 6 = 203.
  CHECK(bc7_texel(b, 15) == Rgba{60, 60, 203, 255});
}

TEST_CASE("BC7 mode 1: two subsets, 6-bit colour with shared P-bits", "[bptc]") {
  BlockWriter b;
  b.put(2, 2).put(13, 6); // mode 1, partition 13 = rows 0-1 subset 0, rows 2-3 subset 1; anchor 15
  for (uint32_t v : {0, 63, 63, 0}) b.put(v, 6); // red: s0e0 s0e1 s1e0 s1e1
  for (uint32_t v : {0, 63, 0, 0}) b.put(v, 6);  // green
  for (uint32_t v : {0, 63, 0, 63}) b.put(v, 6); // blue
  b.put(1, 1).put(0, 1);                          // shared P-bits: subset 0 = 1, subset 1 = 0
  // 7-bit (v << 1 | P) widened v<<1 | v>>6: 0,P1 -> 1 -> 2; 63,P1 -> 127 -> 255; 63,P0 -> 126 -> 253.
  // s0 = (2,2,2) .. (255,255,255); s1 = (253,0,0) .. (0,0,253).
  b.indices({0, 7, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 2}, 3, {0, 15});
  CHECK(bc7_texel(b, 0) == Rgba{2, 2, 2, 255});
  CHECK(bc7_texel(b, 1) == Rgba{255, 255, 255, 255});
  // Index 3 (w 27): (37*253 + 32) >> 6 = 146, (27*253 + 32) >> 6 = 107.
  CHECK(bc7_texel(b, 8) == Rgba{146, 0, 107, 255});
  // Texel 15, anchor, index 2 (w 18): (46*253 + 32) >> 6 = 182, (18*253 + 32) >> 6 = 71.
  CHECK(bc7_texel(b, 15) == Rgba{182, 0, 71, 255});
}

TEST_CASE("BC7 mode 2: three subsets, 5-bit colour, the specification's texel-9 example", "[bptc]") {
  BlockWriter b;
  b.put(4, 3).put(6, 6); // mode 2, partition 6 = 0022 0022 1111 1111: anchors 0, 15 (subset 1), 3 (subset 2)
  for (uint32_t v : {31, 0, 0, 0, 10, 0}) b.put(v, 5); // red
  for (uint32_t v : {0, 0, 31, 0, 20, 0}) b.put(v, 5); // green
  for (uint32_t v : {0, 0, 0, 31, 30, 0}) b.put(v, 5); // blue
  // 5-bit widened: 31 -> 255, 10 -> 82, 20 -> 165, 30 -> 247. s1 = (0,255,0) .. (0,0,255); s2 = (82,165,247) .. 0.
  REQUIRE(b.position == 99);
  // The specification: texel 9's two index bits are block bits 115 and 116. Index 2 sets bit 116 only.
  b.set_bit(116, 1);
  // Index 2 (w 43) between (0,255,0) and (0,0,255): (21*255 + 32) >> 6 = 84, (43*255 + 32) >> 6 = 171.
  CHECK(bc7_texel(b, 9) == Rgba{0, 84, 171, 255});
  CHECK(bc7_texel(b, 0) == Rgba{255, 0, 0, 255});
  CHECK(bc7_texel(b, 3) == Rgba{82, 165, 247, 255});
  CHECK(bc7_texel(b, 15) == Rgba{0, 255, 0, 255});
}

TEST_CASE("BC7 mode 3: two subsets, 7-bit colour with per-endpoint P-bits", "[bptc]") {
  BlockWriter b;
  b.put(8, 4).put(0, 6); // mode 3, partition 0 = 0011 per row; anchor 15
  for (uint32_t v : {127, 0, 0, 0}) b.put(v, 7); // red
  for (uint32_t v : {0, 0, 0, 0}) b.put(v, 7);   // green
  for (uint32_t v : {0, 0, 0, 127}) b.put(v, 7); // blue
  for (uint32_t p : {1, 0, 0, 1}) b.put(p, 1);
  // 8-bit (v << 1 | P): s0e0 = (255,1,1), s0e1 = 0, s1e0 = 0, s1e1 = (1,1,255).
  b.indices({1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 2, {0, 15});
  // Texel 0 index 1 (w 21): (43*255 + 32) >> 6 = 171, (43*1 + 32) >> 6 = 1.
  CHECK(bc7_texel(b, 0) == Rgba{171, 1, 1, 255});
  CHECK(bc7_texel(b, 2) == Rgba{1, 1, 255, 255});
  // Texel 15 index 1: (21*1 + 32) >> 6 = 0, (21*255 + 32) >> 6 = 84.
  CHECK(bc7_texel(b, 15) == Rgba{0, 0, 84, 255});
}

TEST_CASE("BC7 mode 4: separate alpha, rotation and the index selector", "[bptc]") {
  BlockWriter b;
  b.put(16, 5).put(0, 2).put(1, 1); // mode 4, no rotation, selector 1: colour from the 3-bit indices
  b.put(31, 5).put(0, 5).put(0, 5).put(0, 5).put(0, 5).put(31, 5); // R0 R1 G0 G1 B0 B1
  b.put(0, 6).put(63, 6);                                           // A0 A1 -> 0, 255
  b.indices({0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 2, {0}); // primary (2-bit): alpha here
  b.indices({0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 3, {0}); // secondary (3-bit): colour here
  CHECK(bc7_texel(b, 0) == Rgba{255, 0, 0, 0});
  // Colour index 4 (w 37): (27*255 + 32) >> 6 = 108, (37*255 + 32) >> 6 = 147; alpha index 1 (w 21): 84.
  CHECK(bc7_texel(b, 1) == Rgba{108, 0, 147, 84});
}

TEST_CASE("BC7 mode 5: 7-bit colour, 8-bit alpha, rotation swaps alpha and red", "[bptc]") {
  BlockWriter b;
  b.put(32, 6).put(1, 2); // mode 5, rotation 1 (swap A and R)
  b.put(127, 7).put(0, 7).put(64, 7).put(64, 7).put(0, 7).put(127, 7); // R0 R1 G0 G1 B0 B1
  b.put(0, 8).put(200, 8);                                              // A0 A1
  // 7-bit widened: 127 -> 255, 64 -> 129. e0 = (255,129,0,0), e1 = (0,129,255,200).
  b.indices({0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 2, {0}); // colour
  b.indices({0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 2, {0}); // alpha
  CHECK(bc7_texel(b, 0) == Rgba{0, 129, 0, 255}); // (255,129,0,0) rotated
  // Texel 1: colour e1, alpha w 43: (43*200 + 32) >> 6 = 134 -> (0,129,255,134) rotated.
  CHECK(bc7_texel(b, 1) == Rgba{134, 129, 255, 0});
  // Texel 2: colour w 21: (43*255 + 32) >> 6 = 171, (64*129 + 32) >> 6 = 129, (21*255 + 32) >> 6 = 84; alpha 200.
  CHECK(bc7_texel(b, 2) == Rgba{200, 129, 84, 171});
}

TEST_CASE("BC7 mode 6: RGBA 7-bit with P-bits, 4-bit indices", "[bptc]") {
  BlockWriter b;
  b.put(64, 7);
  b.put(0, 7).put(127, 7).put(0, 7).put(0, 7).put(127, 7).put(0, 7).put(127, 7).put(127, 7); // R0 R1 G0 G1 B0 B1 A0 A1
  b.put(0, 1).put(1, 1);
  // (v << 1 | P): e0 = (0,0,254,254), e1 = (255,1,1,255).
  b.indices({0, 15, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 4, {0});
  CHECK(bc7_texel(b, 0) == Rgba{0, 0, 254, 254});
  CHECK(bc7_texel(b, 1) == Rgba{255, 1, 1, 255});
  // Index 8 (w 34): (34*255 + 32) >> 6 = 135, (34 + 32) >> 6 = 1, (30*254 + 34 + 32) >> 6 = 120,
  // (30*254 + 34*255 + 32) >> 6 = 255.
  CHECK(bc7_texel(b, 2) == Rgba{135, 1, 120, 255});
}

TEST_CASE("BC7 mode 7: two subsets of RGBA 5-bit with P-bits, a zero first byte is reserved", "[bptc]") {
  BlockWriter b;
  b.put(128, 8).put(13, 6); // mode 7, partition 13, anchor 15
  for (uint32_t v : {31, 0, 16, 0}) b.put(v, 5); // red
  for (uint32_t v : {31, 0, 0, 0}) b.put(v, 5);  // green
  for (uint32_t v : {31, 0, 0, 0}) b.put(v, 5);  // blue
  for (uint32_t v : {31, 0, 8, 0}) b.put(v, 5);  // alpha
  for (uint32_t p : {1, 1, 0, 0}) b.put(p, 1);
  // 6-bit widened v<<2 | v>>4: 63 -> 255, 1 -> 4, 32 -> 130, 16 -> 65.
  // s0 = (255,255,255,255) .. (4,4,4,4); s1 = (130,0,0,65) .. 0.
  b.indices({0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 2, {0, 15});
  CHECK(bc7_texel(b, 0) == Rgba{255, 255, 255, 255});
  CHECK(bc7_texel(b, 1) == Rgba{86, 86, 86, 86}); // w 43: (21*255 + 43*4 + 32) >> 6
  // Texel 15 index 1 (w 21): (43*130 + 32) >> 6 = 87, (43*65 + 32) >> 6 = 44.
  CHECK(bc7_texel(b, 15) == Rgba{87, 0, 0, 44});
  BlockWriter reserved;
  reserved.bytes.fill(0xFF);
  reserved.bytes[0] = 0;
  CHECK(bc7_texel(reserved, 5) == Rgba{0, 0, 0, 0});
}

TEST_CASE("BC6H: every mode's field list assigns each block bit exactly once", "[bptc]") {
  for (uint32_t mode : {0u, 1u, 2u, 6u, 10u, 14u, 18u, 22u, 26u, 30u, 3u, 7u, 11u, 15u}) {
    INFO("mode " << mode);
    const std::array<uint8_t, 128> coverage = bc6h_field_coverage(mode);
    for (uint32_t bit = 0; bit < 128; ++bit) {
      INFO("bit " << bit);
      CHECK(coverage[bit] == 1);
    }
  }
}

TEST_CASE("BC6H mode 3 (unsigned, 10-bit endpoints, one subset)", "[bptc]") {
  BlockWriter b;
  b.put(3, 5).put(0, 10).put(512, 10).put(0, 10).put(1023, 10).put(1023, 10).put(0, 10); // R0 G0 B0 R1 G1 B1
  b.indices({0, 15, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 4, {0});
  // Unquantized: 0 -> 0; 1023 (all ones) -> 0xFFFF; 512 -> ((512 << 15) + 0x4000) >> 9 = 32800.
  // Final scale (i * 31) >> 6: 32800 -> 15887 = 0x3E0F; 65535 -> 31743 = 0x7BFF (65504.0).
  CHECK(bc6h_texel(b, BcFormat::bc6h_ufloat, 0) == Half4{0, 0x3E0F, 0, 0x3C00});
  CHECK(bc6h_texel(b, BcFormat::bc6h_ufloat, 1) == Half4{0x7BFF, 0x7BFF, 0, 0x3C00});
  // Index 8 (w 34): red (34*65535 + 32) >> 6 = 34815 -> 16863 = 0x41DF;
  // green (30*32800 + 34*65535 + 32) >> 6 = 50190 -> 24310 = 0x5EF6.
  CHECK(bc6h_texel(b, BcFormat::bc6h_ufloat, 2) == Half4{0x41DF, 0x5EF6, 0, 0x3C00});
}

TEST_CASE("BC6H mode 0 signed: transformed endpoints, two subsets", "[bptc]") {
  // Fields at the bit positions of the specification's table for mode 0: R0 5..14, G0 15..24, B0 25..34,
  // R1 35..39, R2 65..69, R3 71..75, partition 77..81, indices from 82. Other deltas stay 0.
  BlockWriter b;
  b.put(0, 2).put(0, 3).put(1024 - 100, 10).put(100, 10).put(0, 10).put(16, 5); // R0 = -100, G0 = 100, R1 = -16
  b.position = 65;
  b.put(15, 5);                   // R2 delta +15
  b.position = 71;
  b.put(0, 5);                    // R3 delta 0
  b.position = 77;
  b.put(0, 5);                    // partition 0: columns 2-3 subset 1, anchor 15
  b.indices({0, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, 3, {0, 15});
  // Endpoints (10 bits, deltas added to E0): R = -100, -116, -85, -100; G = 100 everywhere; B = 0.
  // Signed unquantization ((|x| << 15) + 0x4000) >> 9: 100 -> 6432, 116 -> 7456, 85 -> 5472.
  // Final: magnitude * 31 >> 5, sign in bit 15: 6432 -> 6231 (0x1857), 7456 -> 7223 (0x1C37).
  CHECK(bc6h_texel(b, BcFormat::bc6h_sfloat, 0) == Half4{0x9857, 0x1857, 0, 0x3C00});
  CHECK(bc6h_texel(b, BcFormat::bc6h_sfloat, 1) == Half4{0x9C37, 0x1857, 0, 0x3C00});
  // Texel 2 (subset 1: -5472 .. -6432) index 4 (w 37): (27*-5472 + 37*-6432 + 32) >> 6 = -385696 >> 6 = -6027
  // (arithmetic shift) -> 6027*31 >> 5 = 5838 = 0x16CE -> 0x96CE. Green (64*6432 + 32) >> 6 = 6432 -> 0x1857.
  CHECK(bc6h_texel(b, BcFormat::bc6h_sfloat, 2) == Half4{0x96CE, 0x1857, 0, 0x3C00});
  // Texel 15 index 3 (w 27): (37*-5472 + 27*-6432 + 32) >> 6 = -5877 -> 5693 = 0x163D -> 0x963D.
  CHECK(bc6h_texel(b, BcFormat::bc6h_sfloat, 15) == Half4{0x963D, 0x1857, 0, 0x3C00});
}

TEST_CASE("BC6H mode 11 (unsigned, 12-bit base, reversed high bits) and a reserved mode", "[bptc]") {
  BlockWriter b;
  b.put(11, 5).put(0, 10).put(0, 10).put(0, 10).put(0xFF, 8); // R0 low bits 0, G0, B0, R1 delta 0xFF = -1
  b.put(1, 1).put(0, 1);                                        // bit 43 = R0 bit 11, bit 44 = R0 bit 10
  b.position = 65;
  b.indices({0, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 4, {0});
  // R0 = 0x800, R1 = 0x800 - 1 = 0x7FF (12 bits). Unquantized ((x << 15) + 0x4000) >> 11: 32776 and 32760.
  // Final (i * 31) >> 6: 15875 = 0x3E03 and 15868 = 0x3DFC.
  CHECK(bc6h_texel(b, BcFormat::bc6h_ufloat, 0) == Half4{0x3E03, 0, 0, 0x3C00});
  CHECK(bc6h_texel(b, BcFormat::bc6h_ufloat, 1) == Half4{0x3DFC, 0, 0, 0x3C00});
  BlockWriter reserved;
  reserved.bytes.fill(0xA5);
  reserved.bytes[0] = 0x13; // mode 19
  CHECK(bc6h_texel(reserved, BcFormat::bc6h_sfloat, 7) == Half4{0, 0, 0, 0x3C00});
}

TEST_CASE("BC4 and BC5 SNORM: signed endpoints, -128 as -127, rounding to nearest", "[bcn]") {
  // e0 = 100 > e1 = -100: index 2 = 500/7 -> 71, index 7 = -500/7 -> -71, index 4 = 100/7 -> 14,
  // index 5 = -100/7 -> -14. Texels 0..3 = indices 2, 7, 4, 5 -> bits 010 111 100 101 = 0xB3A.
  const std::vector<uint8_t> bc4 = {100, 0x9C, 0x3A, 0x0B, 0, 0, 0, 0};
  std::vector<int8_t> texels = decode_bc_snorm(BcFormat::bc4_snorm, 4, 4, bc4, "bc4s");
  CHECK(texels[0] == 71);
  CHECK(texels[4] == -71);
  CHECK(texels[8] == 14);
  CHECK(texels[12] == -14);
  CHECK((texels[13] == 0 && texels[14] == 0 && texels[15] == 127));
  CHECK(texels[16] == 100); // index 0
  // BC5: red e0 = -128 (-127) <= e1 = 50: index 2 = (4*-127 + 50)/5 = -91.6 -> -92, index 6 = -127,
  // index 7 = 127; green constant -5. Texels 0..2 = indices 2, 6, 7 = 0x1F2.
  const std::vector<uint8_t> bc5 = {0x80, 50, 0xF2, 0x01, 0, 0, 0, 0, 0xFB, 0xFB, 0, 0, 0, 0, 0, 0};
  texels = decode_bc_snorm(BcFormat::bc5_snorm, 4, 4, bc5, "bc5s");
  CHECK(texels[0] == -92);
  CHECK(texels[4] == -127);
  CHECK(texels[8] == 127);
  CHECK(texels[12] == -127); // index 0: the clamped endpoint
  CHECK(texels[1] == -5);
  // The RGBA8 view maps -1..1 onto 0..255: -127 -> 0, 127 -> 255, -5 -> (122*255 + 127) / 254 = 122.
  const RgbaImage view = decode_bc(BcFormat::bc5_snorm, 4, 4, bc5, "bc5s");
  CHECK(view.pixels[4] == 0);
  CHECK(view.pixels[8] == 255);
  CHECK(view.pixels[1] == 122);
  CHECK_THROWS_WITH(decode_bc_snorm(BcFormat::bc5, 4, 4, bc5, "x"), Catch::Matchers::Contains("bc4_snorm"));
}
