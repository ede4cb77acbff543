// The vertex loader: each VCD/VAT encoding read from streams built by hand, with the values the documented
// encodings give (fixed point scaled by 2^-fraction, colours expanded by bit replication), and each primitive
// type's index list.
#include <functional>

#include <catch2/catch.hpp>

#include "tests/gx/gx_harness.h"

using namespace kiln::gx;
using namespace kiln::gx::test;

namespace {
/// Draws one point whose vertex bytes `vertex` writes, with VCD `lo`/`hi` and VAT `a`/`b`/`c` in format 0.
Vertex one_vertex(Gx& gx, uint32_t lo, uint32_t hi, uint32_t a, uint32_t b, uint32_t c,
                  const std::function<void(GxStream&)>& vertex) {
  GxStream s;
  s.cp(0x50, lo).cp(0x60, hi).cp(0x70, a).cp(0x80, b).cp(0x90, c).primitive(points, 0, 1);
  vertex(s);
  REQUIRE(gx.run(s) == s.bytes.size());
  const auto draws = gx.draws();
  REQUIRE(draws.size() == 1);
  REQUIRE(draws[0]->vertices.size() == 1);
  return draws[0]->vertices[0];
}
} // namespace

TEST_CASE("GX direct positions in every component format", "[gx]") {
  struct Case { uint32_t format; uint32_t fraction; std::vector<uint8_t> bytes; std::array<float, 3> expected; };
  const std::vector<Case> cases = {
      {0, 0, {200, 7, 1}, {200.0f, 7.0f, 1.0f}},                         // u8
      {1, 1, {0xFE, 0x05, 0x80}, {-1.0f, 2.5f, -64.0f}},                  // s8, fraction 1
      {2, 4, {0x01, 0x00, 0xFF, 0xFF, 0x00, 0x08}, {16.0f, 4095.9375f, 0.5f}}, // u16, fraction 4
      {3, 8, {0xFF, 0x00, 0x01, 0x80, 0x80, 0x00}, {-1.0f, 1.5f, -128.0f}}, // s16, fraction 8
      {4, 9, {0x3F, 0x80, 0, 0, 0xC0, 0x20, 0, 0, 0x42, 0x28, 0, 0}, {1.0f, -2.5f, 42.0f}}, // float ignores fraction
  };
  for (const Case& c : cases) {
    Gx gx;
    const Vertex v = one_vertex(gx, vcd_lo(1), 0, vat_a(true, c.format, c.fraction), 0, 0, [&](GxStream& s) {
      for (uint8_t b : c.bytes) s.byte(b);
    });
    CHECK(v.position == c.expected);
  }
  Gx gx;
  const Vertex xy = one_vertex(gx, vcd_lo(1), 0, vat_a(false, 3, 0), 0, 0, [](GxStream& s) { s.u16(3).u16(0xFFFD); });
  CHECK(xy.position == std::array<float, 3>{3.0f, -3.0f, 0.0f}); // two elements: z is 0
}

TEST_CASE("GX indexed positions through 8 and 16-bit indices", "[gx]") {
  Gx gx;
  // Array 0 at 0x4000 with a stride of 12: element n holds three big-endian floats.
  GxStream data;
  for (int n = 0; n < 4; ++n) data.f32(static_cast<float>(n)).f32(static_cast<float>(10 * n)).f32(-1.0f);
  gx.poke(0x4000, data.bytes);
  GxStream s;
  s.cp(0xA0, 0x4000).cp(0xB0, 12);
  gx.run(s);
  const Vertex v8 = one_vertex(gx, vcd_lo(2), 0, vat_a(true, 4, 0), 0, 0, [](GxStream& st) { st.byte(2); });
  CHECK(v8.position == std::array<float, 3>{2.0f, 20.0f, -1.0f});
  gx.events.clear();
  const Vertex v16 = one_vertex(gx, vcd_lo(3), 0, vat_a(true, 4, 0), 0, 0, [](GxStream& st) { st.u16(3); });
  CHECK(v16.position == std::array<float, 3>{3.0f, 30.0f, -1.0f});
}

TEST_CASE("GX an index reaching outside RAM is reported at the vertex", "[gx]") {
  Gx gx(0x8000);
  GxStream s;
  s.cp(0xA0, 0x7FF0).cp(0xB0, 12).cp(0x50, vcd_lo(2)).cp(0x70, vat_a(true, 4, 0)).primitive(points, 0, 2).byte(0).byte(1);
  REQUIRE(gx.run(s) == s.bytes.size());
  REQUIRE(gx.processor.diagnostics().size() == 1);
  CHECK(gx.processor.diagnostics()[0].offset == s.bytes.size() - 1);
  CHECK(gx.processor.diagnostics()[0].message.find("outside guest RAM") != std::string::npos);
}

TEST_CASE("GX a reserved component format is reported", "[gx]") {
  Gx gx;
  GxStream s;
  s.cp(0x50, vcd_lo(1)).cp(0x70, vat_a(true, 5, 0)).primitive(points, 0, 1).bp(0x42, 1);
  gx.run(s);
  REQUIRE_FALSE(gx.processor.diagnostics().empty());
  CHECK(gx.processor.diagnostics()[0].message.find("reserved format") != std::string::npos);
}

TEST_CASE("GX normals with their fixed fractions and NBT", "[gx]") {
  {
    Gx gx; // s8 normals: 6 fraction bits
    const Vertex v = one_vertex(gx, vcd_lo(1, 1), 0, vat_a(false, 0, 0, 1), 0, 0, [](GxStream& s) {
      s.byte(0).byte(0).byte(0x40).byte(0xC0).byte(0x20);
    });
    CHECK(v.normal == std::array<float, 3>{1.0f, -1.0f, 0.5f});
  }
  {
    Gx gx; // s16 normals: 14 fraction bits
    const Vertex v = one_vertex(gx, vcd_lo(1, 1), 0, vat_a(false, 0, 0, 3), 0, 0, [](GxStream& s) {
      s.byte(0).byte(0).u16(0x4000).u16(0xE000).u16(0x0001);
    });
    CHECK(v.normal == std::array<float, 3>{1.0f, -0.5f, 1.0f / 16384.0f});
  }
  {
    Gx gx; // u8 7 bits, u16 15 bits
    const Vertex v = one_vertex(gx, vcd_lo(1, 1), 0, vat_a(false, 0, 0, 0), 0, 0, [](GxStream& s) {
      s.byte(0).byte(0).byte(0x80).byte(0x40).byte(0xFF);
    });
    CHECK(v.normal == std::array<float, 3>{1.0f, 0.5f, 255.0f / 128.0f});
    Gx gx16;
    const Vertex w = one_vertex(gx16, vcd_lo(1, 1), 0, vat_a(false, 0, 0, 2), 0, 0, [](GxStream& s) {
      s.byte(0).byte(0).u16(0x8000).u16(0x4000).u16(0);
    });
    CHECK(w.normal == std::array<float, 3>{1.0f, 0.5f, 0.0f});
  }
  {
    Gx gx; // direct NBT as floats
    const Vertex v = one_vertex(gx, vcd_lo(1, 1), 0, vat_a(false, 0, 0, 4, true), 0, 0, [](GxStream& s) {
      s.byte(0).byte(0);
      for (int i = 0; i < 9; ++i) s.f32(static_cast<float>(i));
    });
    CHECK(v.normal == std::array<float, 3>{0, 1, 2});
    CHECK(v.binormal == std::array<float, 3>{3, 4, 5});
    CHECK(v.tangent == std::array<float, 3>{6, 7, 8});
  }
  {
    Gx gx; // indexed NBT with three indices: vector k is read 3 components into element index_k
    GxStream data;
    for (int i = 0; i < 36; ++i) data.byte(static_cast<uint8_t>(i));
    gx.poke(0x5000, data.bytes);
    GxStream setup;
    setup.cp(0xA1, 0x5000).cp(0xB1, 9);
    gx.run(setup);
    const Vertex v = one_vertex(gx, vcd_lo(1, 2), 0, vat_a(false, 0, 0, 1, true, 0, 0, false, 0, 0, true),
                                0, 0, [](GxStream& s) { s.byte(0).byte(0).byte(1).byte(0).byte(2); });
    // element 1 starts at byte 9: normal = bytes 9-11; binormal from element 0 + 3 = bytes 3-5; tangent from
    // element 2 + 6 = bytes 24-26; s8 with 6 fraction bits.
    CHECK(v.normal == std::array<float, 3>{9 / 64.0f, 10 / 64.0f, 11 / 64.0f});
    CHECK(v.binormal == std::array<float, 3>{3 / 64.0f, 4 / 64.0f, 5 / 64.0f});
    CHECK(v.tangent == std::array<float, 3>{24 / 64.0f, 25 / 64.0f, 26 / 64.0f});
    gx.events.clear();
    // One index: the three vectors follow each other in the element.
    const Vertex w = one_vertex(gx, vcd_lo(1, 2), 0, vat_a(false, 0, 0, 1, true), 0, 0,
                                [](GxStream& s) { s.byte(0).byte(0).byte(2); });
    CHECK(w.normal == std::array<float, 3>{18 / 64.0f, 19 / 64.0f, 20 / 64.0f});
    CHECK(w.tangent == std::array<float, 3>{24 / 64.0f, 25 / 64.0f, 26 / 64.0f});
  }
}

TEST_CASE("GX the six colour formats", "[gx]") {
  using Rgba = std::array<uint8_t, 4>;
  struct Case { uint32_t format; std::vector<uint8_t> bytes; Rgba expected; };
  const std::vector<Case> cases = {
      {0, {0xF8, 0x1F}, {0xFF, 0x00, 0xFF, 0xFF}},           // RGB565: r 31, g 0, b 31
      {0, {0x84, 0x10}, {0x84, 0x82, 0x84, 0xFF}},           // r 16 -> 0x84, g 32 -> 0x82, b 16 -> 0x84
      {1, {0x12, 0x34, 0x56}, {0x12, 0x34, 0x56, 0xFF}},     // RGB888
      {2, {0x12, 0x34, 0x56, 0x78}, {0x12, 0x34, 0x56, 0xFF}}, // RGB888x: the fourth byte is padding
      {3, {0x12, 0x3F}, {0x11, 0x22, 0x33, 0xFF}},           // RGBA4444
      {4, {0xFC, 0x0F, 0xC1}, {0xFF, 0x00, 0xFF, 0x04}},     // RGBA6666: r 63, g 0, b 63, a 1
      {5, {0x12, 0x34, 0x56, 0x78}, {0x12, 0x34, 0x56, 0x78}}, // RGBA8888
  };
  for (const Case& c : cases) {
    Gx gx;
    const Vertex v = one_vertex(gx, vcd_lo(1, 0, 1, 1), 0, vat_a(false, 0, 0, 0, false, c.format, c.format), 0, 0,
                                [&](GxStream& s) {
                                  s.byte(0).byte(0);
                                  for (uint8_t b : c.bytes) s.byte(b);
                                  for (uint8_t b : c.bytes) s.byte(b);
                                });
    CHECK(v.color[0] == c.expected);
    CHECK(v.color[1] == c.expected);
  }
}

TEST_CASE("GX texture coordinates across VAT A B and C", "[gx]") {
  // Texcoord n: s16 with fraction n + 1, two elements, for all eight; direct.
  uint32_t a = vat_a(false, 0, 0, 0, false, 0, 0, true, 3, 1);
  uint32_t b = 0, c = 0;
  auto tex = [](uint32_t format, uint32_t fraction) { return 1u | (format << 1) | (fraction << 4); };
  b |= tex(3, 2) << 0 | tex(3, 3) << 9 | tex(3, 4) << 18 | (1u | (3u << 1)) << 27;
  c |= 5u << 0 | tex(3, 6) << 5 | tex(3, 7) << 14 | tex(3, 8) << 23;
  uint32_t hi = 0;
  for (uint32_t t = 0; t < 8; ++t) hi |= 1u << (2 * t);
  Gx gx;
  const Vertex v = one_vertex(gx, vcd_lo(1), hi, a, b, c, [](GxStream& s) {
    s.byte(0).byte(0);
    for (int t = 0; t < 8; ++t) s.u16(0x0100).u16(0xFF00);
  });
  for (uint32_t t = 0; t < 8; ++t) {
    const float scale = 1.0f / static_cast<float>(1u << (t + 1));
    CHECK(v.texcoord[t][0] == 256.0f * scale);
    CHECK(v.texcoord[t][1] == -256.0f * scale);
  }
  // One element: t stays 0; u8 texcoord indexed through array 4 + n.
  Gx indexed;
  indexed.poke(0x6000, {9, 10, 11, 12});
  GxStream setup;
  setup.cp(0xA7, 0x6000).cp(0xB7, 2);
  indexed.run(setup);
  // Texcoord 3 index8; VAT B's texcoord 3 fields (bits 18-26) all zero: one element, u8, no fraction.
  const Vertex w = one_vertex(indexed, vcd_lo(1), 2u << 6, 0, 0, 0, [](GxStream& s) { s.byte(0).byte(0).byte(1); });
  CHECK(w.texcoord[3][0] == 11.0f);
  CHECK(w.texcoord[3][1] == 0.0f);
}

TEST_CASE("GX matrix indices come from the vertex or from the CP registers", "[gx]") {
  Gx gx;
  GxStream setup;
  setup.cp(0x30, 6u | (9u << 6) | (12u << 24)).cp(0x40, 15u << 18);
  gx.run(setup);
  const uint32_t lo = vcd_lo(1, 0, 0, 0, true) | (1u << 2); // position matrix and texcoord 1 matrix per vertex
  const Vertex v = one_vertex(gx, lo, 0, vat_a(false, 0, 0), 0, 0,
                              [](GxStream& s) { s.byte(30).byte(21).byte(0).byte(0); });
  CHECK(v.position_matrix == 30);
  CHECK(v.texcoord_matrix[0] == 9);
  CHECK(v.texcoord_matrix[1] == 21);
  CHECK(v.texcoord_matrix[3] == 12);
  CHECK(v.texcoord_matrix[7] == 15);
}

TEST_CASE("GX primitive types assemble their index lists", "[gx]") {
  using Indices = std::vector<uint32_t>;
  struct Case { uint8_t type; uint16_t count; Topology topology; Indices expected; };
  const std::vector<Case> cases = {
      {quads, 8, Topology::triangles, {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7}},
      {1, 4, Topology::triangles, {0, 1, 2, 0, 2, 3}}, // the second quad opcode
      {triangles, 7, Topology::triangles, {0, 1, 2, 3, 4, 5}},
      {triangle_strip, 5, Topology::triangles, {0, 1, 2, 2, 1, 3, 2, 3, 4}},
      {triangle_fan, 5, Topology::triangles, {0, 1, 2, 0, 2, 3, 0, 3, 4}},
      {lines, 5, Topology::lines, {0, 1, 2, 3}},
      {line_strip, 4, Topology::lines, {0, 1, 1, 2, 2, 3}},
      {points, 3, Topology::points, {0, 1, 2}},
  };
  for (const Case& c : cases) {
    Gx gx;
    GxStream s;
    s.cp(0x50, vcd_lo(1)).cp(0x70, vat_a(false, 0, 0)).primitive(c.type, 0, c.count);
    for (uint16_t i = 0; i < c.count; ++i) s.byte(static_cast<uint8_t>(i)).byte(0);
    REQUIRE(gx.run(s) == s.bytes.size());
    const auto draws = gx.draws();
    REQUIRE(draws.size() == 1);
    CHECK(draws[0]->topology == c.topology);
    CHECK(draws[0]->indices == c.expected);
    CHECK(draws[0]->vertices.size() == c.count);
    CHECK(draws[0]->vertices[1].position[0] == 1.0f);
  }
  // Primitives of one topology class share a batch; a new class starts a draw.
  Gx gx;
  GxStream s;
  s.cp(0x50, vcd_lo(1)).cp(0x70, vat_a(false, 0, 0));
  s.primitive(triangles, 0, 3).u16(0).u16(0).u16(0);
  s.primitive(triangle_fan, 0, 3).u16(0).u16(0).u16(0);
  s.primitive(lines, 0, 2).u16(0).u16(0);
  gx.run(s);
  const auto draws = gx.draws();
  REQUIRE(draws.size() == 2);
  CHECK(draws[0]->indices == Indices{0, 1, 2, 3, 4, 5});
  CHECK(draws[1]->topology == Topology::lines);
}

TEST_CASE("GX a primitive whose vertices have no position is reported and skipped whole", "[gx]") {
  Gx gx;
  GxStream s;
  s.cp(0x50, vcd_lo(0, 0, 1)).cp(0x70, vat_a(false, 0, 0, 0, false, 5)).primitive(triangles, 0, 3);
  for (int i = 0; i < 12; ++i) s.byte(0xAA); // three RGBA8 colours
  s.bp(0x42, 1);
  REQUIRE(gx.run(s) == s.bytes.size());
  CHECK(gx.draws().empty());
  CHECK(gx.processor.bp().reg(0x42) == 1);
  REQUIRE(gx.processor.diagnostics().size() == 1);
  CHECK(gx.processor.diagnostics()[0].message.find("no position") != std::string::npos);
}
