// Single-feature scenes through the command processor and the Vulkan renderer on lavapipe: every blend
// equation and blend factor, every depth compare function, every stencil operation on each of its three paths.
// Expectations are computed in the test from the documented equations (OpenGL 4.6 §17.3.6 blending, §17.3.3
// stencil, §17.3.4 depth; the Maxwell registers take the OpenGL enumerants, clb197.h), not by the renderer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>

#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"

using namespace kiln;
using namespace kiln::test;

namespace {

using Color = std::array<float, 4>;

// OpenGL blend factors as SET_BLEND_COLOR_SOURCE_COEFF takes them (GL enumerant | 0x4000), with the factor each
// one means for (r, g, b) and for alpha (OpenGL 4.6 table 17.2).
struct BlendFactor {
  const char* name;
  uint32_t value;
  std::function<float(const Color& src, const Color& dst, const Color& constant, int channel)> factor;
};

const std::vector<BlendFactor>& blend_factors() {
  static const std::vector<BlendFactor> factors = {
      {"ZERO", 0x4000, [](auto&, auto&, auto&, int) { return 0.0f; }},
      {"ONE", 0x4001, [](auto&, auto&, auto&, int) { return 1.0f; }},
      {"SRC_COLOR", 0x4300, [](auto& s, auto&, auto&, int c) { return s[c]; }},
      {"ONE_MINUS_SRC_COLOR", 0x4301, [](auto& s, auto&, auto&, int c) { return 1 - s[c]; }},
      {"SRC_ALPHA", 0x4302, [](auto& s, auto&, auto&, int) { return s[3]; }},
      {"ONE_MINUS_SRC_ALPHA", 0x4303, [](auto& s, auto&, auto&, int) { return 1 - s[3]; }},
      {"DST_ALPHA", 0x4304, [](auto&, auto& d, auto&, int) { return d[3]; }},
      {"ONE_MINUS_DST_ALPHA", 0x4305, [](auto&, auto& d, auto&, int) { return 1 - d[3]; }},
      {"DST_COLOR", 0x4306, [](auto&, auto& d, auto&, int c) { return d[c]; }},
      {"ONE_MINUS_DST_COLOR", 0x4307, [](auto&, auto& d, auto&, int c) { return 1 - d[c]; }},
      {"SRC_ALPHA_SATURATE", 0x4308, [](auto& s, auto& d, auto&, int c) { return c == 3 ? 1.0f : std::min(s[3], 1 - d[3]); }},
      {"CONSTANT_COLOR", 0xc001, [](auto&, auto&, auto& k, int c) { return k[c]; }},
      {"ONE_MINUS_CONSTANT_COLOR", 0xc002, [](auto&, auto&, auto& k, int c) { return 1 - k[c]; }},
      {"CONSTANT_ALPHA", 0xc003, [](auto&, auto&, auto& k, int) { return k[3]; }},
      {"ONE_MINUS_CONSTANT_ALPHA", 0xc004, [](auto&, auto&, auto& k, int) { return 1 - k[3]; }},
  };
  return factors;
}

// Values with few mantissa bits: every product and sum below is exact in binary32, so the comparison is exact.
constexpr Color kSource{0.75f, 0.25f, 0.5f, 0.5f}, kDestination{0.25f, 0.5f, 1.0f, 0.75f}, kConstant{0.5f, 0.125f, 0.75f, 0.25f};
constexpr uint32_t kBlendWidth = 4, kBlendHeight = 4;

/// Clears an RGBA32F target to kDestination, draws kSource over it with the given blend state (`extra` may add
/// registers after it), returns pixel (1, 1).
Color blend_once(RendererScene& scene, uint32_t op, uint32_t source_factor, uint32_t destination_factor,
                 const std::function<void(maxwell::StreamBuilder&)>& extra = {}) {
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba32f, kBlendWidth, kBlendHeight);
  clear_color(s, kDestination);
  s.method(0, "SET_BLEND", 0, 1).method(0, "SET_BLEND_SEPARATE_FOR_ALPHA", 0).method(0, "SET_BLEND_COLOR_OP", op);
  s.method(0, "SET_BLEND_COLOR_SOURCE_COEFF", source_factor).method(0, "SET_BLEND_COLOR_DEST_COEFF", destination_factor);
  if (extra) extra(s);
  s.method(0, "SET_BLEND_CONST_RED", std::bit_cast<uint32_t>(kConstant[0])).method(0, "SET_BLEND_CONST_GREEN", std::bit_cast<uint32_t>(kConstant[1]));
  s.method(0, "SET_BLEND_CONST_BLUE", std::bit_cast<uint32_t>(kConstant[2])).method(0, "SET_BLEND_CONST_ALPHA", std::bit_cast<uint32_t>(kConstant[3]));
  draw_arrays(s, 0, 3);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, kBlendWidth, kBlendHeight, 16);
  Color result;
  for (int c = 0; c < 4; ++c) result[c] = texel_f32(pixels, kBlendWidth, 1, 1, c);
  return result;
}

} // namespace

TEST_CASE("each blend factor as source and as destination factor follows the blend equation", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  scene.write_floats(kVertices, fullscreen(0.5f, kSource));
  const BlendFactor& one = blend_factors()[1];
  for (const BlendFactor& factor : blend_factors()) {
    for (const bool as_source : {true, false}) {
      // FUNC_ADD: result = src * Fs + dst * Fd, the other factor ONE.
      const BlendFactor& fs = as_source ? factor : one;
      const BlendFactor& fd = as_source ? one : factor;
      const Color got = blend_once(scene, 0x8006, fs.value, fd.value);
      for (int c = 0; c < 4; ++c) {
        const float expected = kSource[c] * fs.factor(kSource, kDestination, kConstant, c) + kDestination[c] * fd.factor(kSource, kDestination, kConstant, c);
        INFO("source " << fs.name << ", destination " << fd.name << ", channel " << c);
        CHECK(got[c] == expected);
      }
    }
  }
  check_no_validation_messages(context);
}

TEST_CASE("each blend equation combines source and destination as documented", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  scene.write_floats(kVertices, fullscreen(0.5f, kSource));
  // Factors SRC_ALPHA and ONE_MINUS_SRC_ALPHA (0.5 and 0.5); MIN and MAX ignore the factors (OpenGL 4.6 table 17.1).
  struct Equation {
    const char* name;
    uint32_t value;
    std::function<float(float s, float d)> result; // s, d: the factor-weighted terms; raw values for MIN / MAX
    bool uses_factors;
  };
  const Equation equations[] = {
      {"FUNC_ADD", 0x8006, [](float s, float d) { return s + d; }, true},
      {"FUNC_SUBTRACT", 0x800a, [](float s, float d) { return s - d; }, true},
      {"FUNC_REVERSE_SUBTRACT", 0x800b, [](float s, float d) { return d - s; }, true},
      {"MIN", 0x8007, [](float s, float d) { return std::min(s, d); }, false},
      {"MAX", 0x8008, [](float s, float d) { return std::max(s, d); }, false},
      // The D3D enumeration of the same register (1 ADD .. 5 MAX) maps the same way.
      {"D3D SUBTRACT", 2, [](float s, float d) { return s - d; }, true},
      {"D3D MAX", 5, [](float s, float d) { return std::max(s, d); }, false},
  };
  for (const Equation& equation : equations) {
    const Color got = blend_once(scene, equation.value, 0x4302, 0x4303);
    for (int c = 0; c < 4; ++c) {
      const float fs = equation.uses_factors ? kSource[3] : 1.0f, fd = equation.uses_factors ? 1 - kSource[3] : 1.0f;
      INFO(equation.name << ", channel " << c);
      CHECK(got[c] == equation.result(kSource[c] * fs, kDestination[c] * fd));
    }
  }
  check_no_validation_messages(context);
}

TEST_CASE("separate alpha blending and per-target blend state replace the common colour state", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  scene.write_floats(kVertices, fullscreen(0.5f, kSource));
  SECTION("separate alpha") {
    // Colour: FUNC_ADD, SRC_ALPHA, ONE_MINUS_SRC_ALPHA; alpha: FUNC_REVERSE_SUBTRACT, ONE, DST_ALPHA:
    // rgb = src * 0.5 + dst * 0.5, a = dst.a * dst.a - src.a * 1 = 0.5625 - 0.5.
    const Color got = blend_once(scene, 0x8006, 0x4302, 0x4303, [](maxwell::StreamBuilder& s) {
      s.method(0, "SET_BLEND_SEPARATE_FOR_ALPHA", 1).method(0, "SET_BLEND_ALPHA_OP", 0x800b);
      s.method(0, "SET_BLEND_ALPHA_SOURCE_COEFF", 0x4001).method(0, "SET_BLEND_ALPHA_DEST_COEFF", 0x4304);
    });
    for (int c = 0; c < 3; ++c) CHECK(got[c] == kSource[c] * 0.5f + kDestination[c] * 0.5f);
    CHECK(got[3] == kDestination[3] * kDestination[3] - kSource[3]);
  }
  SECTION("per target") {
    // SET_BLEND_STATE_PER_TARGET: target 0 takes its own registers (colour MAX; alpha FUNC_ADD, ZERO, ONE_MINUS_SRC_COLOR
    // whose alpha factor is 1 - src.a), not the common FUNC_ADD ZERO ZERO that would give 0.
    const Color got = blend_once(scene, 0x8006, 0x4000, 0x4000, [](maxwell::StreamBuilder& s) {
      s.method(0, "SET_BLEND_STATE_PER_TARGET", 1);
      s.method(0, "SET_BLEND_PER_TARGET_SEPARATE_FOR_ALPHA", 0, 1).method(0, "SET_BLEND_PER_TARGET_COLOR_OP", 0, 0x8008);
      s.method(0, "SET_BLEND_PER_TARGET_COLOR_SOURCE_COEFF", 0, 0x4001).method(0, "SET_BLEND_PER_TARGET_COLOR_DEST_COEFF", 0, 0x4001);
      s.method(0, "SET_BLEND_PER_TARGET_ALPHA_OP", 0, 0x8006).method(0, "SET_BLEND_PER_TARGET_ALPHA_SOURCE_COEFF", 0, 0x4000);
      s.method(0, "SET_BLEND_PER_TARGET_ALPHA_DEST_COEFF", 0, 0x4301);
    });
    for (int c = 0; c < 3; ++c) CHECK(got[c] == std::max(kSource[c], kDestination[c]));
    CHECK(got[3] == kDestination[3] * (1 - kSource[3]));
  }
  check_no_validation_messages(context);
}

namespace {

void bind_depth_target(maxwell::StreamBuilder& s, uint32_t format, uint32_t width, uint32_t height) {
  s.method(0, "SET_ZT_A", high(kDepthTarget)).method(0, "SET_ZT_B", low(kDepthTarget));
  s.method(0, "SET_ZT_FORMAT", format).method(0, "SET_ZT_BLOCK_SIZE", 0);
  s.method(0, "SET_ZT_SIZE_A", width).method(0, "SET_ZT_SIZE_B", height).method(0, "SET_ZT_SIZE_C", 1).method(0, "SET_ZT_SELECT", 1);
}

/// Two triangles covering NDC x in [x0, x1], all of y, at depth z.
std::vector<float> column(float x0, float x1, float z, Color color) {
  return concat({vertex(x0, -1, z, color), vertex(x1, -1, z, color), vertex(x0, 1, z, color), vertex(x1, -1, z, color),
                 vertex(x1, 1, z, color), vertex(x0, 1, z, color)});
}

} // namespace

TEST_CASE("each depth compare function passes the fragments its comparison admits", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  // A 12x2 target in three 4-pixel columns drawn at z 0.25, 0.5, 0.75 (window z = NDC z: scale 1, offset 0, 0..1
  // mode) over a depth buffer cleared to 0.5; depth writes off. A fragment passes when `z func 0.5`.
  const Color green{0, 1, 0, 1};
  const float depths[3] = {0.25f, 0.5f, 0.75f};
  scene.write_floats(kVertices, concat({column(-1, -1.0f / 3, depths[0], green), column(-1.0f / 3, 1.0f / 3, depths[1], green),
                                        column(1.0f / 3, 1, depths[2], green)}));
  struct Function {
    const char* name;
    uint32_t value;
    std::function<bool(float z, float stored)> passes;
  };
  const Function functions[] = {
      {"NEVER", 0x200, [](float, float) { return false; }},       {"LESS", 0x201, [](float z, float d) { return z < d; }},
      {"EQUAL", 0x202, [](float z, float d) { return z == d; }},  {"LEQUAL", 0x203, [](float z, float d) { return z <= d; }},
      {"GREATER", 0x204, [](float z, float d) { return z > d; }}, {"NOTEQUAL", 0x205, [](float z, float d) { return z != d; }},
      {"GEQUAL", 0x206, [](float z, float d) { return z >= d; }}, {"ALWAYS", 0x207, [](float, float) { return true; }},
      {"D3D LESS (2)", 2, [](float z, float d) { return z < d; }}, {"D3D GREATER_EQUAL (7)", 7, [](float z, float d) { return z >= d; }},
  };
  for (const Function& function : functions) {
    maxwell::StreamBuilder s;
    scene.setup(s, kRgba8, 12, 2);
    bind_depth_target(s, 0x0a, 12, 2); // ZF32
    clear_color(s, {0, 0, 0, 0});
    s.method(0, "SET_Z_CLEAR_VALUE", std::bit_cast<uint32_t>(0.5f)).method(0, "CLEAR_SURFACE", 1);
    s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_DEPTH_WRITE", 0).method(0, "SET_DEPTH_FUNC", function.value);
    draw_arrays(s, 0, 18);
    scene.run(s);
    const auto pixels = scene.read_target(kColorTarget, 12, 2, 4);
    for (uint32_t col = 0; col < 3; ++col) {
      const bool passes = function.passes(depths[col], 0.5f);
      const std::array<uint8_t, 4> expected = passes ? std::array<uint8_t, 4>{0, 255, 0, 255} : std::array<uint8_t, 4>{0, 0, 0, 0};
      size_t wrong = 0;
      for (uint32_t y = 0; y < 2; ++y) {
        for (uint32_t x = 4 * col; x < 4 * col + 4; ++x) wrong += texel8(pixels, 12, x, y) != expected;
      }
      INFO(function.name << ": column at z " << depths[col] << (passes ? " passes" : " fails"));
      CHECK(wrong == 0);
    }
  }
  check_no_validation_messages(context);
}

TEST_CASE("each stencil operation on the stencil-fail, depth-fail and pass paths", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  scene.write_floats(kVertices, fullscreen(0.5f, {0, 1, 0, 1}));
  constexpr uint32_t kReference = 0x5c;
  struct Operation {
    const char* name;
    uint32_t value;
    std::function<uint32_t(uint32_t stored)> result; // OpenGL 4.6 table 17.3, 8-bit stencil
  };
  const Operation operations[] = {
      {"KEEP", 0x1e00, [](uint32_t s) { return s; }},
      {"ZERO", 0x0000, [](uint32_t) { return 0u; }},
      {"REPLACE", 0x1e01, [](uint32_t) { return kReference; }},
      {"INCR", 0x1e02, [](uint32_t s) { return std::min(s + 1, 0xffu); }},
      {"DECR", 0x1e03, [](uint32_t s) { return s == 0 ? 0u : s - 1; }},
      {"INVERT", 0x150a, [](uint32_t s) { return ~s & 0xffu; }},
      {"INCR_WRAP", 0x8507, [](uint32_t s) { return (s + 1) & 0xffu; }},
      {"DECR_WRAP", 0x8508, [](uint32_t s) { return (s - 1) & 0xffu; }},
  };
  enum class Path { stencil_fail, depth_fail, pass };
  for (const Operation& operation : operations) {
    for (const Path path : {Path::stencil_fail, Path::depth_fail, Path::pass}) {
      // Saturation and wrap-around show at 0x00 and 0xff; the fail paths use one middle value.
      const std::vector<uint32_t> initial_values = path == Path::pass ? std::vector<uint32_t>{0x00, 0xff, 0xa5} : std::vector<uint32_t>{0xa5};
      for (const uint32_t initial : initial_values) {
        maxwell::StreamBuilder s;
        scene.setup(s, kRgba8, 4, 4);
        bind_depth_target(s, 0x14, 4, 4); // Z24S8: word = depth << 8 | stencil
        s.method(0, "SET_STENCIL_MASK", 0xff).method(0, "SET_STENCIL_CLEAR_VALUE", initial);
        s.method(0, "SET_Z_CLEAR_VALUE", std::bit_cast<uint32_t>(1.0f)).method(0, "SET_CLEAR_SURFACE_CONTROL", 0).method(0, "CLEAR_SURFACE", 3);
        s.method(0, "SET_STENCIL_TEST", 1).method(0, "SET_STENCIL_FUNC_REF", kReference).method(0, "SET_STENCIL_FUNC_MASK", 0xff);
        // The operation under test on one path, KEEP on the others; the path is chosen by the stencil function
        // (NEVER fails it) or the depth test (NEVER fails it after the stencil test passed).
        s.method(0, "SET_STENCIL_OP_FAIL", path == Path::stencil_fail ? operation.value : 0x1e00);
        s.method(0, "SET_STENCIL_OP_ZFAIL", path == Path::depth_fail ? operation.value : 0x1e00);
        s.method(0, "SET_STENCIL_OP_ZPASS", path == Path::pass ? operation.value : 0x1e00);
        s.method(0, "SET_STENCIL_FUNC", path == Path::stencil_fail ? 0x200 : 0x207);
        s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_DEPTH_WRITE", 0).method(0, "SET_DEPTH_FUNC", path == Path::depth_fail ? 0x200 : 0x207);
        draw_arrays(s, 0, 3);
        scene.run(s);
        const auto words = scene.read_target(kDepthTarget, 4, 4, 4);
        const uint32_t expected = operation.result(initial);
        size_t wrong = 0;
        for (size_t i = 0; i < 16; ++i) wrong += words[4 * i] != expected; // the stencil byte is the word's low byte
        INFO(operation.name << " on path " << static_cast<int>(path) << " from " << initial << ": expected " << expected << ", pixel 0 has "
                            << int(words[0]));
        CHECK(wrong == 0);
      }
    }
  }
  check_no_validation_messages(context);
}
