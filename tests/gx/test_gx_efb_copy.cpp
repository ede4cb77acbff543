// EFB copies on lavapipe: to the XFB (YUYV read back from guest RAM and checked against the BT.601 conversion
// worked out here in floating point) and to textures (decoded back with runtime/gpu/textures and compared with the
// EFB as read back), clears on copy, and copies landing in RAM in command order.
#include <catch2/catch.hpp>

#include <cmath>

#include "runtime/gpu/gx/efb_copy.h"
#include "runtime/gpu/textures/formats/gx.h"
#include "tests/gx/efb_scene.h"
#include "tests/gx/gx_renderer_fixture.h"

namespace kiln::gx::test {
namespace {

std::array<uint8_t, 4> pixel_of(const RgbaImage& image, int x, int y) {
  const uint8_t* p = &image.pixels[(static_cast<size_t>(y) * image.width + static_cast<size_t>(x)) * 4];
  return {p[0], p[1], p[2], p[3]};
}

double luma(const std::array<uint8_t, 4>& c) { return 16 + 0.257 * c[0] + 0.504 * c[1] + 0.098 * c[2]; }
double chroma_u(const std::array<uint8_t, 4>& c) { return 128 - 0.148 * c[0] - 0.291 * c[1] + 0.439 * c[2]; }
double chroma_v(const std::array<uint8_t, 4>& c) { return 128 + 0.439 * c[0] - 0.368 * c[1] - 0.071 * c[2]; }

/// The copy trigger's format field (bits 3-6) for a texture copy format: the hardware's code is the format rotated
/// left by one bit within 4 bits.
uint32_t format_field(uint32_t format) { return ((format & 7) << 1 | (format >> 3)) << 3; }

/// Source rectangle, destination and stride of a copy; the vertical filter set to 21/22/21 64ths on the line
/// itself (the SDK's default without deflicker), which leaves every pixel as it is.
void copy_registers(GxStream& s, uint32_t x, uint32_t y, uint32_t width, uint32_t height, uint32_t destination, uint32_t stride) {
  s.bp(0x49, x | (y << 10)).bp(0x4A, (width - 1) | ((height - 1) << 10));
  s.bp(0x4B, destination >> 5).bp(0x4D, stride >> 5);
  s.bp(0x53, (21u << 12) | (22u << 18)).bp(0x54, 21u);
}

} // namespace

TEST_CASE("EFB copy to the XFB: YUYV pairs from the BT.601 conversion, then clear on copy", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  const std::array<std::array<uint8_t, 4>, 4> bands{{{255, 0, 0, 255}, {0, 255, 0, 255}, {20, 60, 230, 255}, {250, 250, 250, 255}}};
  for (size_t i = 0; i < bands.size(); ++i)
    write_triangles(s, quad(16.0f * static_cast<float>(i), 0, 16.0f * static_cast<float>(i + 1), 16, 0.5f, bands[i]));
  constexpr uint32_t xfb = 0x100000, stride = 128;
  copy_registers(s, 0, 2, 64, 8, xfb, stride);
  s.bp(0x4F, (0x80u << 8) | 0x11u).bp(0x50, (0x22u << 8) | 0x33u).bp(0x51, 0x123456); // clear colour and depth
  s.bp(0x40, 1u | (7u << 1) | (1u << 4));                                              // depth updates: cleared too
  s.bp(0x52, (1u << 14) | (1u << 11));                                                 // to the XFB, clear
  f.run(s);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 64; x += 2) {
      const uint8_t* pair = &f.gx.ram[xfb + y * stride + x * 2];
      const auto& colour = bands[x / 16];
      INFO("x " << x << " y " << y);
      CHECK(std::abs(pair[0] - luma(colour)) <= 1.0);
      CHECK(std::abs(pair[1] - chroma_u(colour)) <= 1.0);
      CHECK(std::abs(pair[2] - luma(colour)) <= 1.0);
      CHECK(std::abs(pair[3] - chroma_v(colour)) <= 1.0);
    }
  }
  const RgbaImage efb = f.renderer.read_color();
  CHECK(pixel_of(efb, 5, 3) == std::array<uint8_t, 4>{0x11, 0x22, 0x33, 255}); // RGB8 keeps no alpha
  CHECK(pixel_of(efb, 63, 9) == std::array<uint8_t, 4>{0x11, 0x22, 0x33, 255}); // the rectangle is rows 2-9
  CHECK(pixel_of(efb, 5, 1) == bands[0]);   // above it
  CHECK(pixel_of(efb, 5, 10) == bands[0]);  // below it
  CHECK(pixel_of(efb, 64, 5) == std::array<uint8_t, 4>{0, 0, 0, 255}); // right of it: never drawn
  CHECK(f.renderer.read_depth()[3 * 640 + 5] == 0x123456);
  f.check_validation();
}

TEST_CASE("EFB copy to the XFB and back: the scan-out's inverse conversion returns the EFB's colours", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  const SceneVertex a{0, 0, 0.5f, {250, 20, 20, 255}}, b{640, 0, 0.5f, {20, 250, 20, 255}}, c{640, 480, 0.5f, {20, 20, 250, 255}},
                    d{0, 480, 0.5f, {200, 200, 60, 255}};
  write_triangles(s, {a, b, c, a, c, d});
  constexpr uint32_t xfb = 0x100000, stride = 640 * 2;
  copy_registers(s, 0, 0, 640, 480, xfb, stride);
  s.bp(0x52, 1u << 14);
  f.run(s);
  const RgbaImage efb = f.renderer.read_color();
  const RgbaImage frame = decode_xfb(f.gx.ram, xfb, 640, 480, stride);
  // A smooth image: a pair's shared chroma and the two 8-bit conversions stay within a few steps.
  int worst = 0;
  for (int y = 0; y < 480; ++y)
    for (int x = 0; x < 640; ++x)
      for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(pixel_of(frame, x, y)[k] - pixel_of(efb, x, y)[k]));
  CHECK(worst <= 4);
  CHECK_THROWS_WITH(decode_xfb(f.gx.ram, 0x1FFF00, 640, 480, stride), Catch::Contains("reaches past guest RAM"));
  f.check_validation();
}

TEST_CASE("EFB copy to textures: RGBA8, RGB565, I8 and IA8 decode back to the EFB's pixels", "[gx]") {
  struct Case {
    const char* name;
    textures::GxFormat format;
    uint32_t trigger;
    uint32_t tile_bytes, tile_width;
  };
  const std::vector<Case> cases{
      {"RGBA8", textures::GxFormat::rgba8, format_field(6), 64, 4},
      {"RGB565", textures::GxFormat::rgb565, format_field(4), 32, 4},
      {"I8", textures::GxFormat::i8, format_field(1) | (1u << 15), 32, 8},
      {"IA8", textures::GxFormat::ia8, format_field(3) | (1u << 15), 32, 4},
  };
  for (const Case& c : cases) {
    RendererFixture f;
    GxStream s;
    SceneSetup setup;
    setup.pixel_format = 1; // RGBA6: alpha is stored
    write_setup(s, setup);
    const SceneVertex a{0, 0, 0.5f, {255, 0, 40, 255}}, b{64, 0, 0.5f, {0, 255, 90, 128}}, cc{64, 32, 0.5f, {30, 60, 255, 0}},
                      d{0, 32, 0.5f, {250, 250, 20, 64}};
    write_triangles(s, {a, b, cc, a, cc, d});
    constexpr uint32_t x0 = 9, y0 = 5, width = 20, height = 10, destination = 0x40000;
    const uint32_t stride = (width + c.tile_width - 1) / c.tile_width * c.tile_bytes;
    copy_registers(s, x0, y0, width, height, destination, stride);
    s.bp(0x52, c.trigger);
    f.run(s);
    const RgbaImage efb = f.renderer.read_color();
    const uint64_t bytes = textures::gx_texture_size(c.format, width, height);
    const RgbaImage decoded = textures::decode_gx(c.format, width, height, std::span(f.gx.ram).subspan(destination, bytes), "copy");
    size_t wrong = 0;
    for (uint32_t y = 0; y < height; ++y) {
      for (uint32_t x = 0; x < width; ++x) {
        const auto e = pixel_of(efb, static_cast<int>(x0 + x), static_cast<int>(y0 + y));
        const auto t = pixel_of(decoded, static_cast<int>(x), static_cast<int>(y));
        bool ok = true;
        switch (c.format) {
        case textures::GxFormat::rgba8: ok = t == e; break;
        case textures::GxFormat::rgb565: // 5/6/5 bits, expanded by replication; alpha reads opaque
          ok = t[0] == ((e[0] & 0xF8) | (e[0] >> 5)) && t[1] == ((e[1] & 0xFC) | (e[1] >> 6)) &&
               t[2] == ((e[2] & 0xF8) | (e[2] >> 5)) && t[3] == 255;
          break;
        case textures::GxFormat::i8: ok = std::abs(t[0] - luma(e)) <= 1.0 && t[3] == t[0]; break;
        case textures::GxFormat::ia8: ok = std::abs(t[0] - luma(e)) <= 1.0 && t[3] == e[3]; break;
        default: break;
        }
        wrong += ok ? 0 : 1;
      }
    }
    INFO(c.name);
    CHECK(wrong == 0);
    f.check_validation();
  }
}

TEST_CASE("EFB copy at half scale: each texel the mean of a 2x2 block", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  // Columns alternate 200 and 0 in red, rows alternate 100 and 20 in green: every 2x2 block holds each
  // combination once, so its mean is red 100 and green 60 exactly; blue is 40 throughout.
  for (int x = 0; x < 16; ++x) {
    for (int y = 0; y < 8; ++y) {
      const std::array<uint8_t, 4> c{static_cast<uint8_t>(x % 2 ? 0 : 200), static_cast<uint8_t>(y % 2 ? 20 : 100), 40, 255};
      write_triangles(s, quad(static_cast<float>(x), static_cast<float>(y), static_cast<float>(x + 1), static_cast<float>(y + 1), 0.5f, c));
    }
  }
  constexpr uint32_t destination = 0x30000;
  copy_registers(s, 0, 0, 16, 8, destination, 2 * 64); // 8x4 texels: two RGBA8 tiles in a row
  s.bp(0x52, format_field(6) | (1u << 9));
  f.run(s);
  const RgbaImage decoded = textures::decode_gx(textures::GxFormat::rgba8, 8, 4, std::span(f.gx.ram).subspan(destination, 128), "half");
  size_t wrong = 0;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) wrong += pixel_of(decoded, x, y) == std::array<uint8_t, 4>{100, 60, 40, 255} ? 0 : 1;
  CHECK(wrong == 0);
  f.check_validation();
}

TEST_CASE("EFB copy vertical filter: the lines above and below weigh in, clamped at the rectangle", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  // Rows alternate red 0 and 128. Weights: 16/64 the line above (w0), 32/64 the line (w2), 16/64 below (w5):
  // inside, every row becomes (16 * 128 + 32 * 0 + 16 * 128) / 64 = 64 or (32 * 128) / 64 = 64 exactly.
  for (int y = 0; y < 16; ++y)
    write_triangles(s, quad(0, static_cast<float>(y), 16, static_cast<float>(y + 1), 0.5f, {static_cast<uint8_t>(y % 2 ? 128 : 0), 0, 0, 255}));
  constexpr uint32_t destination = 0x50000;
  copy_registers(s, 0, 4, 8, 8, destination, 32); // rows 4-11 as R8: two 8x4 tiles, one per row of tiles
  s.bp(0x53, 16u | (32u << 12)).bp(0x54, 16u << 6); // w0 = 16, w2 = 32; w5 = 16
  s.bp(0x52, format_field(8) | 1u);                 // R8, clamp top: row 4 reads itself for the line above
  f.run(s);
  const RgbaImage decoded = textures::decode_gx(textures::GxFormat::i8, 8, 8, std::span(f.gx.ram).subspan(destination, 64), "filter");
  // Row 4 (red 0, clamped above to itself, 128 below): (16 * 0 + 32 * 0 + 16 * 128) / 64 = 32.
  CHECK(pixel_of(decoded, 3, 0)[0] == 32);
  for (int y = 1; y < 8; ++y) {
    INFO("row " << y);
    CHECK(pixel_of(decoded, 3, y)[0] == 64);
  }
  f.check_validation();
}

TEST_CASE("EFB copy of the depth to a Z24X8 texture", "[gx]") {
  RendererFixture f;
  GxStream s;
  SceneSetup setup;
  setup.z_mode = 1u | (7u << 1) | (1u << 4); // always, update
  write_setup(s, setup);
  const std::array<uint8_t, 4> grey{128, 128, 128, 255};
  write_triangles(s, {{0, 0, 0.2f, grey}, {40, 0, 0.8f, grey}, {40, 24, 0.5f, grey}, {0, 0, 0.2f, grey}, {40, 24, 0.5f, grey}, {0, 24, 0.3f, grey}});
  constexpr uint32_t width = 16, height = 8, destination = 0x60000;
  copy_registers(s, 4, 4, width, height, destination, width / 4 * 64);
  s.bp(0x43, 3); // the copy reads Z24
  s.bp(0x52, format_field(6));
  f.run(s);
  const std::vector<uint32_t> depth = f.renderer.read_depth();
  const RgbaImage decoded = textures::decode_gx(textures::GxFormat::rgba8, width, height,
                                                std::span(f.gx.ram).subspan(destination, width * height * 4), "depth copy");
  size_t wrong = 0;
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const uint32_t z = depth[(4 + y) * 640 + 4 + x];
      const auto t = pixel_of(decoded, static_cast<int>(x), static_cast<int>(y));
      wrong += t == std::array<uint8_t, 4>{static_cast<uint8_t>(z >> 16), static_cast<uint8_t>(z >> 8), static_cast<uint8_t>(z), 255} ? 0 : 1;
    }
  }
  CHECK(wrong == 0);
  // The depth itself: z interpolated across the triangle, on the 24-bit scale.
  bool ambiguous = false;
  const SceneVertex a{0, 0, 0.2f, grey}, b{40, 0, 0.8f, grey}, c{40, 24, 0.5f, grey};
  const auto cov = cover(a, b, c, 10, 5, ambiguous);
  REQUIRE(cov);
  CHECK(std::abs(static_cast<double>(depth[5 * 640 + 10]) - cov->z * 16777215.0) < 64.0);
  f.check_validation();
}

TEST_CASE("EFB copies land in guest RAM in command order", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  write_triangles(s, quad(0, 0, 32, 32, 0.5f, {255, 0, 0, 255}));
  copy_registers(s, 0, 0, 8, 4, 0x10000, 64);
  s.bp(0x52, format_field(6));
  write_triangles(s, quad(0, 0, 32, 32, 0.5f, {0, 0, 255, 255}));
  copy_registers(s, 0, 0, 8, 4, 0x20000, 64);
  s.bp(0x52, format_field(6));
  f.run(s);
  // RGBA8 tiles: A,R pairs first, then G,B pairs.
  CHECK(f.gx.ram[0x10000] == 255);
  CHECK(f.gx.ram[0x10001] == 255); // red
  CHECK(f.gx.ram[0x10000 + 33] == 0);
  CHECK(f.gx.ram[0x20001] == 0);
  CHECK(f.gx.ram[0x20000 + 33] == 255); // blue
  f.check_validation();
}

TEST_CASE("EFB copies refuse what they do not encode, naming the stream offset", "[gx]") {
  RendererFixture f;
  GxStream s;
  write_setup(s, {});
  copy_registers(s, 0, 0, 8, 4, 0x10000, 64);
  s.bp(0x52, format_field(5)); // RGB5A3
  CHECK_THROWS_WITH(f.run(s), Catch::Contains("offset") && Catch::Contains("RGB5A3"));
  GxStream t;
  copy_registers(t, 0, 0, 8, 4, 0x1FFFFE0, 64);
  t.bp(0x52, format_field(6));
  CHECK_THROWS_WITH(f.run(t), Catch::Contains("outside guest RAM"));
}

} // namespace kiln::gx::test
