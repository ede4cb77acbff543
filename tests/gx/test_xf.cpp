// The XF vertex program: transforms, projection and the colour channels with lighting, translated to IR and
// SPIR-V (validated) and run by the IR interpreter against the documented formulas evaluated here in double.
#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "tests/gx/gx_harness.h"
#include "translator/gx/translate.h"
#include "translator/ir/interpret.h"

using namespace kiln::gx;
using namespace kiln::gx::test;

namespace {
struct VertexInputs {
  std::array<float, 3> position{};
  float matrix_index = 0;
  std::array<float, 3> normal{};
  std::array<std::array<float, 4>, 2> color{};
};

/// Outputs by attribute address: 0x70-0x7C clip position, 0x80-0x8C colour 0, 0x90-0x9C colour 1.
std::map<uint32_t, float> run_vertex(const GxShader& shader, const XfState& xf, const VertexInputs& in) {
  const std::vector<uint32_t> bank = vertex_constants(xf);
  kiln::ir::InterpretEnvironment env;
  env.attribute = [&](uint32_t address) -> uint32_t {
    const uint32_t location = (address - 0x80) / 16, c = (address / 4) % 4;
    float v = 0;
    if (location == 0) v = in.position.at(c);
    if (location == 1) v = in.matrix_index;
    if (location == 2) v = in.normal.at(c);
    if (location == 3 || location == 4) v = in.color[location - 3].at(c);
    return std::bit_cast<uint32_t>(v);
  };
  env.const_bank = [&](uint32_t, uint32_t offset) { return bank.at(offset / 4); };
  std::map<uint32_t, float> out;
  for (const auto& [target, bits] : kiln::ir::interpret(shader.program, env).outputs) out[target] = std::bit_cast<float>(bits);
  return out;
}

XfState xf_after(const GxStream& s) {
  Gx gx;
  gx.run(s);
  return gx.processor.xf();
}

// A 3x4 matrix at XF row `row` (12 floats from word 4 * row).
void matrix(GxStream& s, uint32_t row, const std::array<float, 12>& m) {
  s.byte(0x10).u32((11u << 16) | (4 * row));
  for (float v : m) s.f32(v);
}

constexpr std::array<float, 12> sample_matrix{2, 0, 0, 1, 0, 3, 0, -2, 0.5f, 0, -1, -5};
std::array<double, 3> transform(const std::array<float, 12>& m, const std::array<float, 3>& p) {
  std::array<double, 3> out{};
  for (size_t r = 0; r < 3; ++r) out[r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] + m[4 * r + 3];
  return out;
}
} // namespace

TEST_CASE("XF position through the matrix and the perspective projection", "[gx]") {
  const std::array<float, 6> projection{1.5f, 0.25f, 2.0f, -0.5f, -1.01f, -0.2f};
  for (bool per_vertex : {false, true}) {
    GxStream s;
    const uint32_t row = per_vertex ? 6 : 3;
    matrix(s, row, sample_matrix);
    s.cp(0x30, per_vertex ? 0 : row);
    s.xf_floats(0x1020, {projection[0], projection[1], projection[2], projection[3], projection[4], projection[5]}).xf(0x1026, {0});
    const XfState xf = xf_after(s);
    Gx gx;
    GxStream setup;
    setup.cp(0x50, vcd_lo(1, 0, 0, 0, per_vertex)).cp(0x30, per_vertex ? 0 : row);
    gx.run(setup);
    const VertexUid uid = vertex_uid(xf, gx.processor.cp(), decode_vertex_format(gx.processor.cp(), 0));
    CHECK(uid.per_vertex_matrix == per_vertex);
    const GxShader shader = translate_vertex(uid);
    VertexInputs in;
    in.position = {1.0f, -2.0f, 4.0f};
    in.matrix_index = static_cast<float>(row);
    const auto out = run_vertex(shader, xf, in);
    const auto view = transform(sample_matrix, in.position);
    CHECK(out.at(0x70) == Approx(projection[0] * view[0] + projection[1] * view[2]));
    CHECK(out.at(0x74) == Approx(projection[2] * view[1] + projection[3] * view[2]));
    CHECK(out.at(0x78) == Approx(projection[4] * view[2] + projection[5] - view[2])); // + w (Vulkan's clip range)
    CHECK(out.at(0x7C) == Approx(-view[2]));
  }
}

TEST_CASE("XF orthographic projection", "[gx]") {
  GxStream s;
  matrix(s, 0, sample_matrix);
  s.xf_floats(0x1020, {0.5f, -1.0f, 0.25f, 2.0f, -0.1f, -0.9f}).xf(0x1026, {1});
  const XfState xf = xf_after(s);
  const VertexUid uid = vertex_uid(xf, CpState{}, VertexFormat{});
  CHECK(uid.orthographic);
  VertexInputs in;
  in.position = {3.0f, 1.0f, -2.0f};
  const auto out = run_vertex(translate_vertex(uid), xf, in);
  const auto view = transform(sample_matrix, in.position);
  CHECK(out.at(0x70) == Approx(0.5 * view[0] - 1.0));
  CHECK(out.at(0x74) == Approx(0.25 * view[1] + 2.0));
  CHECK(out.at(0x78) == Approx(-0.1 * view[2] - 0.9 + 1.0)); // + w = 1
  CHECK(out.at(0x7C) == 1.0f);
}

TEST_CASE("XF colour channels without lighting take the material", "[gx]") {
  GxStream s;
  matrix(s, 0, sample_matrix);
  s.xf(0x1009, {1}).xf(0x100C, {0x336699CC}).xf(0x100E, {0, 0, 1, 0}); // colour 0 from the register, alpha 0 from the vertex
  const XfState xf = xf_after(s);
  VertexFormat format;
  format.color[0] = AttributeMode::direct;
  const VertexUid uid = vertex_uid(xf, CpState{}, format);
  VertexInputs in;
  in.color[0] = {0.1f, 0.2f, 0.3f, 0.4f};
  const auto out = run_vertex(translate_vertex(uid), xf, in);
  CHECK(out.at(0x80) == Approx(0x33 / 255.0));
  CHECK(out.at(0x84) == Approx(0x66 / 255.0));
  CHECK(out.at(0x88) == Approx(0x99 / 255.0));
  CHECK(out.at(0x8C) == Approx(0.4));
  CHECK(out.at(0x90) == 0.0f); // one channel: colour 1 is not produced
}

TEST_CASE("XF lighting: ambient plus diffuse lights with spot and distance attenuation", "[gx]") {
  // Identity position and normal matrices (row 0), so view space is object space.
  GxStream s;
  matrix(s, 0, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
  s.xf_floats(0x0400, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  // Light 0: white-ish at (0, 0, 10). Light 2: red spot at (0, 5, 0) pointing down -y, cos attenuation 0 + 1 c,
  // distance attenuation 1 + 0 d + 0.01 d^2.
  s.xf(0x0603, {0xC0C0C0FF});
  s.xf_floats(0x060A, {0, 0, 10});
  s.xf(0x0623, {0xFF000080});
  s.xf_floats(0x0624, {0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 0.01f, 0.0f, 5.0f, 0.0f, 0.0f, -1.0f, 0.0f});
  s.xf(0x1009, {2}).xf(0x100A, {0x60606060, 0}).xf(0x100C, {0xFFFFFFFF, 0x80808080});
  // Colour 0: lit by light 0 (clamped diffuse), material register, ambient register.
  // Colour 1: lit by light 2 with spot attenuation, sign diffuse, material register 1.
  const uint32_t color0 = (1u << 1) | (1u << 2) | (2u << 7);
  const uint32_t color1 = (1u << 1) | (1u << 4) | (1u << 7) | (3u << 9);
  s.xf(0x100E, {color0, color1, color0, 0});
  const XfState xf = xf_after(s);
  VertexFormat format;
  format.normal = AttributeMode::direct;
  const VertexUid uid = vertex_uid(xf, CpState{}, format);
  VertexInputs in;
  in.position = {1.0f, 0.0f, 0.0f};
  in.normal = {0.0f, 0.6f, 0.8f};
  const auto out = run_vertex(translate_vertex(uid), xf, in);

  auto norm = [](std::array<double, 3> v) {
    const double length = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return std::array<double, 3>{v[0] / length, v[1] / length, v[2] / length};
  };
  auto dot = [](const std::array<double, 3>& a, const std::array<double, 3>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
  const std::array<double, 3> n{0.0, 0.6, 0.8};
  // Channel 0: ambient 0x60 + max(0, N.L) * 0xC0 (alpha: 0xFF), times material 1.
  const double l0 = std::max(0.0, dot(n, norm({-1.0, 0.0, 10.0})));
  const double ambient = 0x60 / 255.0; // with the light, alpha passes 1 and saturates
  CHECK(out.at(0x80) == Approx(std::min(1.0, ambient + l0 * 0xC0 / 255.0)).epsilon(1e-5));
  CHECK(out.at(0x8C) == Approx(std::min(1.0, ambient + l0 * 1.0)).epsilon(1e-5));
  // Channel 1: ambient register 1 is 0; light 2 with spot attenuation; material 0x80.
  const std::array<double, 3> to_light{-1.0, 5.0, 0.0};
  const double distance = std::sqrt(26.0);
  const auto l2 = norm(to_light);
  const double cosine = std::max(0.0, dot(l2, {0.0, -1.0, 0.0}));
  const double attenuation = std::max(0.0, 0.0 + 1.0 * cosine) / (1.0 + 0.01 * distance * distance);
  const double diffuse = dot(l2, n); // sign function
  const double red = std::clamp(attenuation * diffuse * 1.0, 0.0, 1.0);
  CHECK(out.at(0x90) == Approx(0x80 / 255.0 * red).margin(1e-6));
  CHECK(out.at(0x94) == Approx(0.0).margin(1e-6));
  CHECK(out.at(0x9C) == Approx(0x80 / 255.0).margin(1e-6)); // alpha 1: lighting off, material alpha
}

TEST_CASE("XF UID keeps values out and structure in", "[gx]") {
  GxStream s;
  s.xf(0x1009, {1}).xf(0x100E, {1u << 1 | 1u << 2});
  const XfState xf = xf_after(s);
  const VertexUid uid = vertex_uid(xf, CpState{}, VertexFormat{});
  GxStream values = s;
  values.xf(0x100C, {0x12345678}).xf(0x0603, {0xFFFFFFFF});
  matrix(values, 0, sample_matrix);
  CHECK(vertex_uid(xf_after(values), CpState{}, VertexFormat{}) == uid);
  GxStream unlit = s;
  unlit.xf(0x100E, {1u << 2}); // lighting off: the light mask no longer matters
  GxStream unlit_other = s;
  unlit_other.xf(0x100E, {1u << 5});
  CHECK(vertex_uid(xf_after(unlit), CpState{}, VertexFormat{}) == vertex_uid(xf_after(unlit_other), CpState{}, VertexFormat{}));
  CHECK_FALSE(vertex_uid(xf_after(unlit), CpState{}, VertexFormat{}) == uid);
  CHECK(vertex_uid(xf_after(unlit), CpState{}, VertexFormat{}).hash() != uid.hash());
}

TEST_CASE("XF state not translated yet is refused", "[gx]") {
  GxStream s;
  s.xf(0x103F, {1});
  CHECK_THROWS_AS(translate_vertex(vertex_uid(xf_after(s), CpState{}, VertexFormat{})), kiln::Error);
  GxStream specular;
  specular.xf(0x1009, {1}).xf(0x100E, {(1u << 1) | (1u << 2) | (1u << 9)});
  CHECK_THROWS_AS(translate_vertex(vertex_uid(xf_after(specular), CpState{}, VertexFormat{})), kiln::Error);
}
