// The GX renderer on lavapipe with the validation layers (synchronization validation too): scenes built as
// command streams, drawn, and the EFB compared with a CPU rasteriser written from the documented rules
// (tests/gx/efb_scene.h) and with the documented blend, logic, depth and quantisation rules worked out here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "runtime/gpu/gx/raster_state.h"
#include "runtime/gpu/vulkan/gx/gx_renderer.h"
#include "tests/gx/efb_scene.h"
#include "tests/gx/gx_harness.h"
#include "tests/gx/gx_renderer_fixture.h"

namespace kiln::gx::test {
namespace {

std::array<uint8_t, 4> pixel(const RgbaImage& image, int x, int y) {
  const uint8_t* p = &image.pixels[(static_cast<size_t>(y) * image.width + static_cast<size_t>(x)) * 4];
  return {p[0], p[1], p[2], p[3]};
}

uint8_t round_byte(double v) { return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L)); }

/// The EFB value a channel of `bits` holds for an 8-bit value: its top bits, replicated down (the documented
/// expansion of 5- and 6-bit colour), written out per width.
uint8_t stored(uint8_t v, unsigned bits) {
  if (bits == 6) return static_cast<uint8_t>((v & 0xFC) | (v >> 6));
  if (bits == 5) return static_cast<uint8_t>((v & 0xF8) | (v >> 5));
  return v;
}

} // namespace

TEST_CASE("GX renderer: a flat triangle covers the pixels the edge rules give, in its colour", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  const std::vector<SceneVertex> tri{{100.25f, 50.125f, 0.5f, {200, 40, 90, 255}},
                                     {300.75f, 180.5f, 0.5f, {200, 40, 90, 255}},
                                     {60.5f, 220.375f, 0.5f, {200, 40, 90, 255}}};
  write_triangles(s, tri);
  f.run(s);
  const RgbaImage efb = f.renderer.read_color();
  size_t covered = 0, mismatched = 0, ambiguous_pixels = 0;
  for (int y = 0; y < 528; ++y) {
    for (int x = 0; x < 640; ++x) {
      bool ambiguous = false;
      const auto c = cover(tri[0], tri[1], tri[2], x, y, ambiguous);
      if (ambiguous) { ++ambiguous_pixels; continue; }
      const std::array<uint8_t, 4> expected = c ? std::array<uint8_t, 4>{200, 40, 90, 255} : std::array<uint8_t, 4>{0, 0, 0, 255};
      covered += c ? 1 : 0;
      mismatched += pixel(efb, x, y) == expected ? 0 : 1;
    }
  }
  CHECK(covered > 10000);
  CHECK(ambiguous_pixels < 10);
  CHECK(mismatched == 0);
  f.check_validation();
}

TEST_CASE("GX renderer: a gouraud quad interpolates its corner colours", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  const SceneVertex a{40.25f, 30.25f, 0.5f, {255, 0, 0, 255}}, b{240.25f, 30.25f, 0.5f, {0, 255, 0, 255}},
                    c{240.25f, 190.25f, 0.5f, {0, 0, 255, 255}}, d{40.25f, 190.25f, 0.5f, {255, 255, 255, 255}};
  s.primitive(quads, 0, 4);
  for (const SceneVertex& v : {a, b, c, d}) {
    s.f32(v.x).f32(v.y).f32(v.z);
    for (uint8_t ch : v.rgba) s.byte(ch);
  }
  f.run(s);
  const RgbaImage efb = f.renderer.read_color();
  // The GX splits a quad into (0 1 2) and (0 2 3): each triangle interpolates its own three corners.
  size_t checked = 0, off_by_more_than_one = 0;
  for (int y = 31; y < 190; ++y) {
    for (int x = 41; x < 240; ++x) {
      bool ambiguous = false;
      auto cov = cover(a, b, c, x, y, ambiguous);
      if (!cov) cov = cover(a, c, d, x, y, ambiguous);
      if (ambiguous || !cov) continue;
      const auto got = pixel(efb, x, y);
      for (int k = 0; k < 3; ++k) off_by_more_than_one += std::abs(got[k] - cov->rgba[k]) > 1.0 ? 1 : 0;
      ++checked;
    }
  }
  CHECK(checked > 30000);
  CHECK(off_by_more_than_one == 0);
  f.check_validation();
}

TEST_CASE("GX renderer: the depth test keeps the nearer surface in either drawing order", "[gx]") {
  for (const uint32_t function : {1u, 3u, 4u}) { // less, less-equal, greater
    RendererFixture f;
    GxStream s;
    SceneSetup setup;
    setup.z_mode = 1u | (function << 1) | (1u << 4);
    write_setup(s, setup);
    // Clear the depth to the far (less tests) or near (greater) end through the scene itself.
    const float background = function == 4 ? 0.0f : 1.0f;
    s.bp(0x40, 1u | (7u << 1) | (1u << 4)); // always, to lay the background
    write_triangles(s, quad(0, 0, 640, 528, background, {0, 0, 0, 255}));
    s.bp(0x40, setup.z_mode);
    write_triangles(s, quad(50, 50, 250, 250, 0.25f, {255, 0, 0, 255}));  // near (red)
    write_triangles(s, quad(150, 150, 350, 350, 0.75f, {0, 0, 255, 255})); // far (blue)
    write_triangles(s, quad(400, 50, 600, 250, 0.75f, {0, 0, 255, 255}));  // far first
    write_triangles(s, quad(500, 150, 630, 350, 0.25f, {255, 0, 0, 255})); // near second
    f.run(s);
    const RgbaImage efb = f.renderer.read_color();
    const std::vector<uint32_t> depth = f.renderer.read_depth();
    const bool near_wins = function != 4;
    const std::array<uint8_t, 4> red{255, 0, 0, 255}, blue{0, 0, 255, 255};
    INFO("function " << function);
    CHECK(pixel(efb, 200, 200) == (near_wins ? red : blue));
    CHECK(pixel(efb, 550, 200) == (near_wins ? red : blue));
    CHECK(pixel(efb, 100, 100) == red);
    CHECK(pixel(efb, 300, 300) == blue);
    const double expected_z = (near_wins ? 0.25 : 0.75) * 16777215.0;
    CHECK(std::abs(static_cast<double>(depth[200 * 640 + 200]) - expected_z) < 4.0);
    f.check_validation();
  }
}

TEST_CASE("GX renderer: blending, subtraction and logic operations combine with the EFB", "[gx]") {
  const std::array<uint8_t, 4> dst{40, 200, 120, 255}, src{220, 60, 180, 96};
  struct Case {
    const char* name;
    uint32_t blend_mode;
    std::array<uint8_t, 3> expected; // worked out from the documented formula below
    int tolerance;
  };
  const auto lerp = [&](int k) { return round_byte(src[k] * (src[3] / 255.0) + dst[k] * (1 - src[3] / 255.0)); };
  const auto sub = [&](int k) { return static_cast<uint8_t>(std::max(0, dst[k] - src[k])); };
  const auto add = [&](int k) { return static_cast<uint8_t>(std::min(255, dst[k] + src[k])); };
  const std::vector<Case> cases{
      // blend enable, src factor 4 (src alpha), dst factor 5 (inverse src alpha)
      {"src alpha / inverse src alpha", 1u | (4u << 8) | (5u << 5), {lerp(0), lerp(1), lerp(2)}, 1},
      {"one / one", 1u | (1u << 8) | (1u << 5), {add(0), add(1), add(2)}, 0},
      {"subtract", 1u | (1u << 11), {sub(0), sub(1), sub(2)}, 0},
      // logic op enable (bit 1) with XOR (6), blending off
      {"logic xor", 2u | (6u << 12), {static_cast<uint8_t>(src[0] ^ dst[0]), static_cast<uint8_t>(src[1] ^ dst[1]),
                                      static_cast<uint8_t>(src[2] ^ dst[2])}, 0},
      {"logic and", 2u | (1u << 12), {static_cast<uint8_t>(src[0] & dst[0]), static_cast<uint8_t>(src[1] & dst[1]),
                                      static_cast<uint8_t>(src[2] & dst[2])}, 0},
  };
  for (const Case& c : cases) {
    RendererFixture f;
    GxStream s;
    write_setup(s, {});
    write_triangles(s, quad(0, 0, 640, 528, 0.5f, dst));
    s.bp(0x41, c.blend_mode | (1u << 3));
    write_triangles(s, quad(100, 100, 300, 300, 0.5f, src));
    f.run(s);
    const auto got = pixel(f.renderer.read_color(), 200, 200);
    INFO(c.name);
    for (int k = 0; k < 3; ++k) CHECK(std::abs(got[k] - c.expected[k]) <= c.tolerance);
    CHECK(pixel(f.renderer.read_color(), 50, 50) == dst);
    f.check_validation();
  }
}

TEST_CASE("GX renderer: the colour and alpha update masks keep what they exclude", "[gx]") {
  const std::array<uint8_t, 4> first{0x40, 0x80, 0xC0, 0xFC}, second{0xFC, 0x04, 0x44, 0x20};
  struct Case {
    uint32_t masks; // BP 0x41 bit 3 colour, bit 4 alpha
    std::array<uint8_t, 4> expected;
  };
  for (const Case& c : {Case{1u << 3, {second[0], second[1], second[2], first[3]}}, Case{1u << 4, {first[0], first[1], first[2], second[3]}},
                        Case{0, first}, Case{(1u << 3) | (1u << 4), second}}) {
    RendererFixture f;
    GxStream s;
    SceneSetup setup;
    setup.pixel_format = 1; // RGBA6 stores alpha
    write_setup(s, setup);
    write_triangles(s, quad(0, 0, 64, 64, 0.5f, first));
    s.bp(0x41, c.masks);
    write_triangles(s, quad(0, 0, 64, 64, 0.5f, second));
    f.run(s);
    INFO("masks " << c.masks);
    const auto got = pixel(f.renderer.read_color(), 32, 32);
    for (int k = 0; k < 4; ++k) CHECK(got[k] == stored(c.expected[k], 6));
    f.check_validation();
  }
}

TEST_CASE("GX renderer: the scissor and its offset bound the drawn pixels", "[gx]") {
  RendererFixture f;
  GxStream s;
  SceneSetup setup;
  setup.scissor = {120, 80, 200, 150};
  write_setup(s, setup);
  write_triangles(s, quad(0, 0, 640, 528, 0.5f, {10, 250, 30, 255}));
  f.run(s);
  const RgbaImage efb = f.renderer.read_color();
  size_t wrong = 0;
  for (int y = 0; y < 528; ++y) {
    for (int x = 0; x < 640; ++x) {
      const bool inside = x >= 120 && x < 200 && y >= 80 && y < 150;
      wrong += pixel(efb, x, y) == (inside ? std::array<uint8_t, 4>{10, 250, 30, 255} : std::array<uint8_t, 4>{0, 0, 0, 255}) ? 0 : 1;
    }
  }
  CHECK(wrong == 0);

  // A scissor offset of (32, 16) moves screen coordinates (the viewport and the scissor) up and left by it.
  RendererFixture g;
  GxStream t;
  write_setup(t, setup);
  t.bp(0x59, ((screen_bias + 32) / 2) | (((screen_bias + 16) / 2) << 10));
  write_triangles(t, quad(130, 90, 140, 100, 0.5f, {250, 250, 0, 255}));
  g.run(t);
  const RgbaImage moved = g.renderer.read_color();
  CHECK(pixel(moved, 135 - 32, 95 - 16) == std::array<uint8_t, 4>{250, 250, 0, 255});
  CHECK(pixel(moved, 135, 95) == std::array<uint8_t, 4>{0, 0, 0, 255});
  f.check_validation();
  g.check_validation();
}

TEST_CASE("GX renderer: culling drops the faces GEN_MODE names", "[gx]") {
  const SceneVertex a{100, 100, 0.5f, {255, 255, 255, 255}}, b{200, 100, 0.5f, {255, 255, 255, 255}},
                    c{150, 200, 0.5f, {255, 255, 255, 255}};
  REQUIRE(clockwise(a, b, c));
  for (const uint32_t cull : {0u, 1u, 2u, 3u}) { // none, back, front, all
    RendererFixture f;
    GxStream s;
    SceneSetup setup;
    setup.cull = cull;
    write_setup(s, setup);
    write_triangles(s, {a, b, c});                                             // front-facing
    write_triangles(s, {{300, 100, 0.5f, a.rgba}, {350, 200, 0.5f, a.rgba}, {400, 100, 0.5f, a.rgba}}); // back-facing
    f.run(s);
    const RgbaImage efb = f.renderer.read_color();
    INFO("cull " << cull);
    CHECK((pixel(efb, 150, 130)[0] == 255) == (cull == 0 || cull == 1));
    CHECK((pixel(efb, 350, 130)[0] == 255) == (cull == 0 || cull == 2));
    f.check_validation();
  }
}

TEST_CASE("GX renderer: each EFB pixel format stores colour at its own precision", "[gx]") {
  const std::array<uint8_t, 4> colour{0x87, 0x43, 0xC9, 0x5A};
  struct Format {
    uint32_t code;
    std::array<unsigned, 4> bits; // 0: no alpha stored, reads 255
  };
  for (const Format& format : {Format{0, {8, 8, 8, 0}}, Format{1, {6, 6, 6, 6}}, Format{2, {5, 6, 5, 0}}}) {
    RendererFixture f;
    GxStream s;
    SceneSetup setup;
    setup.pixel_format = format.code;
    write_setup(s, setup);
    write_triangles(s, quad(10, 10, 60, 60, 0.5f, colour));
    f.run(s);
    const auto got = pixel(f.renderer.read_color(), 30, 30);
    INFO("format " << format.code);
    for (int k = 0; k < 3; ++k) CHECK(got[k] == stored(colour[k], format.bits[k]));
    CHECK(got[3] == (format.bits[3] ? stored(colour[3], format.bits[3]) : 255));
    f.check_validation();
  }
  // Hand-worked: RGBA6 keeps 0x87 as 100001 -> 0x86, 0x5A as 010110 -> 0x59; RGB565 keeps 0x87 as 10000 -> 0x84.
  CHECK(stored(0x87, 6) == 0x86);
  CHECK(stored(0x5A, 6) == 0x59);
  CHECK(stored(0x87, 5) == 0x84);
  CHECK(quantize_channel(0x87, 6) == 0x86);
  CHECK(quantize_channel(0x87, 5) == 0x84);
}

TEST_CASE("GX renderer: lines and unsupported formats are refused with the stream offset", "[gx]") {
  RendererFixture f;
  GxStream s;
  SceneSetup setup;
  setup.pixel_format = 4; // Y8
  write_setup(s, setup);
  write_triangles(s, quad(10, 10, 60, 60, 0.5f, {1, 2, 3, 4}));
  CHECK_THROWS_WITH(f.run(s), Catch::Contains("offset") && Catch::Contains("Y8"));

  // What the translator refuses (a texture in TEV stage 0) is located in the stream too.
  RendererFixture g;
  GxStream t;
  write_setup(t, {});
  t.bp(0x28, 1u << 6);                                                  // TEV order: stage 0 samples texture map 0
  t.bp(0xC0, (15u << 12) | (15u << 8) | (15u << 4) | 8u | (1u << 19)); // d = TEXC
  write_triangles(t, quad(10, 10, 60, 60, 0.5f, {1, 2, 3, 4}));
  CHECK_THROWS_WITH(g.run(t), Catch::Contains("GX stream offset 0x") && Catch::Contains("TEV stage 0: texture sampling"));
}

} // namespace kiln::gx::test
