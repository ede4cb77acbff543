#pragma once
// GX scenes for the renderer tests: a command stream that sets up a pass-through pipeline (an orthographic
// projection whose object coordinates are EFB pixels and depth, the rasterised colour 0 straight through one TEV
// stage) and draws coloured triangles, built from the documented register layouts with tests/gx/gx_stream.h;
// and a CPU rasteriser written from the documented rules (pixel centres, edge functions, barycentric
// interpolation) that says which pixels a triangle covers and with what colour and depth.
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "tests/gx/gx_stream.h"

namespace kiln::gx::test {

struct SceneVertex {
  float x, y, z;
  std::array<uint8_t, 4> rgba;
};

inline constexpr uint32_t scene_efb_width = 640, scene_efb_height = 528;

/// BP words of the pass-through setup.
struct SceneSetup {
  uint32_t pixel_format = 0;        ///< BP 0x43 bits 0-2
  uint32_t z_mode = 0;              ///< BP 0x40: test enable 0, function 1-3, update 4
  uint32_t blend_mode = (1u << 3) | (1u << 4); ///< BP 0x41: colour and alpha update
  uint32_t cull = 0;                ///< GEN_MODE bits 14-15
  std::array<uint32_t, 4> scissor{0, 0, scene_efb_width, scene_efb_height}; ///< left, top, right, bottom (exclusive)
};

/// Screen coordinates carry the hardware's +342; the scissor offset register holds (offset + 342) / 2.
inline constexpr uint32_t screen_bias = 342;

inline uint32_t float_bits(float f) { return std::bit_cast<uint32_t>(f); }

inline void write_setup(GxStream& s, const SceneSetup& setup) {
  // CP: position direct (xyz, f32), colour 0 direct (RGBA8).
  s.cp(0x50, vcd_lo(1, 0, 1)).cp(0x70, vat_a(true, 4, 0, 0, false, 5));
  s.cp(0x30, 0); // position matrix row 0
  // XF: identity position matrix at row 0, one colour channel taking the vertex colour.
  s.xf_floats(0x0000, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
  s.xf(0x1009, {1}).xf(0x100E, {1}).xf(0x1010, {1});
  // Orthographic: clip x = x / 320 - 1, clip y = 1 - y / 264, clip z = z - 1 (GX's -1..0).
  s.xf_floats(0x1020, {1.0f / 320, -1.0f, -1.0f / 264, 1.0f, 1.0f, -1.0f}).xf(0x1026, {1});
  // Viewport: 640x528 at the origin, depth 0..1 (scaled to 24 bits), origins + 342.
  s.xf_floats(0x101A, {320.0f, -264.0f, 16777215.0f, 320.0f + screen_bias, 264.0f + screen_bias, 16777215.0f});
  // BP: one TEV stage, colour = rasterised colour, alpha = rasterised alpha; alpha test always passes.
  s.bp(0x00, setup.cull << 14);                                       // GEN_MODE: 1 stage, 1 colour
  s.bp(0x28, 0);                                                      // order: colour channel 0, no texture
  s.bp(0xC0, (15u << 12) | (15u << 8) | (15u << 4) | 10u | (1u << 19)); // d = RASC, clamp
  s.bp(0xC1, (7u << 13) | (7u << 10) | (7u << 7) | (5u << 4) | (1u << 19)); // d = RASA, clamp
  s.bp(0xF6, 0 | (1u << 2)).bp(0xF7, 2 | (3u << 2));                  // swap table 0: identity
  s.bp(0xF3, (7u << 16) | (7u << 19));
  s.bp(0x43, setup.pixel_format).bp(0x40, setup.z_mode).bp(0x41, setup.blend_mode);
  s.bp(0x59, (screen_bias / 2) | ((screen_bias / 2) << 10));
  const auto& sc = setup.scissor;
  s.bp(0x20, ((sc[0] + screen_bias) << 12) | (sc[1] + screen_bias));
  s.bp(0x21, ((sc[2] - 1 + screen_bias) << 12) | (sc[3] - 1 + screen_bias));
}

inline void write_triangles(GxStream& s, const std::vector<SceneVertex>& vertices) {
  s.primitive(triangles, 0, static_cast<uint16_t>(vertices.size()));
  for (const SceneVertex& v : vertices) {
    s.f32(v.x).f32(v.y).f32(v.z);
    for (uint8_t c : v.rgba) s.byte(c);
  }
}

/// A quad as two triangles (clockwise on screen: front-facing).
inline std::vector<SceneVertex> quad(float left, float top, float right, float bottom, float z, std::array<uint8_t, 4> rgba) {
  const SceneVertex a{left, top, z, rgba}, b{right, top, z, rgba}, c{right, bottom, z, rgba}, d{left, bottom, z, rgba};
  return {a, b, c, a, c, d};
}

/// One pixel a triangle covers: its interpolated colour (0..255 before rounding) and depth (0..1).
struct Coverage {
  std::array<double, 4> rgba;
  double z;
};

/// Whether the centre of pixel (px, py) lies inside triangle abc (either winding), and the interpolated values;
/// `ambiguous` is set when the centre is within `margin` pixels of an edge (a tie the test should not judge).
inline std::optional<Coverage> cover(const SceneVertex& a, const SceneVertex& b, const SceneVertex& c, int px, int py,
                                     bool& ambiguous, double margin = 1e-3) {
  const double x = px + 0.5, y = py + 0.5;
  const auto edge = [](const SceneVertex& p, const SceneVertex& q, double X, double Y) {
    return (double{q.x} - p.x) * (Y - p.y) - (double{q.y} - p.y) * (X - p.x);
  };
  const double area = edge(a, b, c.x, c.y);
  if (area == 0) return std::nullopt;
  const double w0 = edge(b, c, x, y) / area, w1 = edge(c, a, x, y) / area, w2 = edge(a, b, x, y) / area;
  const auto length = [](const SceneVertex& p, const SceneVertex& q) { return std::hypot(double{q.x} - p.x, double{q.y} - p.y); };
  if (std::abs(w0 * area) < margin * length(b, c) || std::abs(w1 * area) < margin * length(c, a) ||
      std::abs(w2 * area) < margin * length(a, b))
    ambiguous = true;
  if (w0 < 0 || w1 < 0 || w2 < 0) return std::nullopt;
  Coverage out{};
  for (int k = 0; k < 4; ++k) out.rgba[k] = w0 * a.rgba[k] + w1 * b.rgba[k] + w2 * c.rgba[k];
  out.z = w0 * a.z + w1 * b.z + w2 * c.z;
  return out;
}

/// Clockwise on screen (y down) = front-facing on the GX.
inline bool clockwise(const SceneVertex& a, const SceneVertex& b, const SceneVertex& c) {
  return (double{b.x} - a.x) * (double{c.y} - a.y) - (double{b.y} - a.y) * (double{c.x} - a.x) > 0;
}

} // namespace kiln::gx::test
