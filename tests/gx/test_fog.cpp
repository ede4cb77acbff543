// Fog, translated to IR and SPIR-V (validated), run on the CPU by the IR interpreter and compared with a model
// written here from the documented formulas and register layouts (BP 0xEE-0xF2), evaluated in double:
//   A, C: 20-bit floats (sign 19, exponent 11-18, mantissa 0-10); B: 24-bit magnitude and 5-bit shift
//   perspective  ze = A * 2^24 / (B magnitude - (z24 >> B shift)),  orthographic  ze = A * z24 / 2^24
//   f = clamp(ze - C, 0, 1); exp 1 - 2^(-8f), exp2 1 - 2^(-8f^2), backward exp 2^(-8(1-f)), backward exp2 2^(-8(1-f)^2)
//   colour = (colour * (256 - F) + fog colour * F) >> 8, F = floor(256 f); alpha unchanged.
#include <cmath>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "tests/gx/pixel_harness.h"

using namespace kiln::gx;
using namespace kiln::gx::test;

namespace {
constexpr uint32_t c0_input = 2, zero_c = 15, a0_input = 1, zero_a = 7;
constexpr uint32_t fog_linear = 2, fog_exp = 4, fog_exp2 = 5, fog_backward_exp = 6, fog_backward_exp2 = 7;

struct FogRegisters {
  uint32_t a = 0, b_magnitude = 0, b_shift = 0, c = 0; ///< a, c: the 20-bit register fields
  uint32_t type = 0;
  bool orthographic = false;
  std::array<int, 3> color{};
};

/// The register field of a float: its top 20 bits (the hardware drops the low 12 mantissa bits).
uint32_t float_field(float value) { return std::bit_cast<uint32_t>(value) >> 12; }

double decode_float_field(uint32_t field) {
  const int exponent = static_cast<int>((field >> 11) & 0xFF);
  if (exponent == 0) return 0.0;
  const double magnitude = std::ldexp(1.0 + static_cast<double>(field & 0x7FF) / 2048.0, exponent - 127);
  return (field & 0x80000) != 0 ? -magnitude : magnitude;
}

/// One TEV stage that outputs C0 (colour) and A0 (alpha), then fog.
GxStream fog_stream(const FogRegisters& fog, const std::array<int, 4>& c0) {
  GxStream s;
  s.bp(0x00, 0).bp(0xF3, (7u << 16) | (7u << 19));
  s.bp(0xC0, color_env(zero_c, zero_c, zero_c, c0_input)).bp(0xC1, alpha_env(zero_a, zero_a, zero_a, a0_input));
  s.bp(0xE2, static_cast<uint32_t>(c0[0]) | (static_cast<uint32_t>(c0[3]) << 12));
  s.bp(0xE3, static_cast<uint32_t>(c0[2]) | (static_cast<uint32_t>(c0[1]) << 12));
  s.bp(0xEE, fog.a).bp(0xEF, fog.b_magnitude).bp(0xF0, fog.b_shift);
  s.bp(0xF1, fog.c | (uint32_t{fog.orthographic} << 20) | (fog.type << 21));
  s.bp(0xF2, (static_cast<uint32_t>(fog.color[0]) << 16) | (static_cast<uint32_t>(fog.color[1]) << 8) |
                 static_cast<uint32_t>(fog.color[2]));
  return s;
}

/// The model's fog factor f (0..1, before the 8-bit step) for a 24-bit depth.
double model_fog(const FogRegisters& fog, uint32_t z24) {
  const double a = decode_float_field(fog.a), c = decode_float_field(fog.c);
  double ze;
  if (fog.orthographic) {
    ze = a * z24 / 16777216.0;
  } else {
    const double denominator = static_cast<double>(fog.b_magnitude) - static_cast<double>(z24 >> fog.b_shift);
    ze = a * 16777216.0 / denominator;
  }
  double f = std::clamp(ze - c, 0.0, 1.0);
  switch (fog.type) {
  case fog_exp: f = 1.0 - std::exp2(-8.0 * f); break;
  case fog_exp2: f = 1.0 - std::exp2(-8.0 * f * f); break;
  case fog_backward_exp: f = std::exp2(-8.0 * (1.0 - f)); break;
  case fog_backward_exp2: f = std::exp2(-8.0 * (1.0 - f) * (1.0 - f)); break;
  default: break;
  }
  return f;
}

int blend(int color, int fog_color, int weight) { return (color * (256 - weight) + fog_color * weight) >> 8; }

/// Checks the pixel against the model; where 256 f lies within `edge` of an integer the program may land on either
/// side of the step (its float reciprocal and exp2 are not double), so both weights are accepted there.
void check_pixel(const PixelResult& got, const FogRegisters& fog, const std::array<int, 4>& c0, double f,
                 double edge = 1e-3) {
  const double scaled = f * 256.0;
  const int weight = std::min(256, static_cast<int>(std::floor(scaled)));
  const bool near_step = std::abs(scaled - std::round(scaled)) < edge;
  const int other = std::clamp(static_cast<int>(std::round(scaled)) == weight ? weight - 1 : weight + 1, 0, 256);
  for (size_t k = 0; k < 3; ++k) {
    const int expected = blend(c0[k], fog.color[k], weight);
    INFO("component " << k << " f*256 " << scaled << " colour " << c0[k] << " fog colour " << fog.color[k]);
    if (near_step && got.rgba[k] != expected) CHECK(got.rgba[k] == blend(c0[k], fog.color[k], other));
    else CHECK(got.rgba[k] == expected);
  }
  CHECK(got.rgba[3] == c0[3]);
}

float depth_of(uint32_t z24) { return static_cast<float>(z24 / 16777215.0); }
} // namespace

TEST_CASE("Fog: every type in perspective and orthographic projection against the model", "[gx]") {
  std::mt19937 random(1803);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<uint32_t> depth(0, 0xFFFFFF), magnitude(0x800000, 0xFFFFFF), shift(1, 24);
  std::uniform_real_distribution<float> a_value(0.05f, 4.0f), c_value(-1.0f, 1.5f);
  int edges = 0, total = 0;
  for (uint32_t type : {fog_linear, fog_exp, fog_exp2, fog_backward_exp, fog_backward_exp2}) {
    for (bool orthographic : {false, true}) {
      FogRegisters fog;
      fog.type = type;
      fog.orthographic = orthographic;
      const GxShader shader = translate_pixel(pixel_uid(bp_after(fog_stream(fog, {}))));
      for (int trial = 0; trial < 150; ++trial) {
        fog.a = float_field(a_value(random));
        fog.c = float_field(c_value(random));
        fog.b_magnitude = magnitude(random);
        fog.b_shift = shift(random);
        fog.color = {byte(random), byte(random), byte(random)};
        const std::array<int, 4> c0{byte(random), byte(random), byte(random), byte(random)};
        uint32_t z24 = depth(random);
        if (!orthographic && fog.b_magnitude == (z24 >> fog.b_shift)) ++z24; // the formula has no value there
        const BpState bp = bp_after(fog_stream(fog, c0));
        REQUIRE(pixel_uid(bp) == pixel_uid(bp_after(fog_stream({.type = type, .orthographic = orthographic}, {}))));
        const PixelResult got = run_pixel(shader, pixel_constants(bp), {}, {0.5f, 0.5f, depth_of(z24), 1.0f});
        const double f = model_fog(fog, z24);
        INFO("type " << type << " orthographic " << orthographic << " A " << decode_float_field(fog.a) << " C "
                     << decode_float_field(fog.c) << " B " << fog.b_magnitude << " >> " << fog.b_shift << " z24 " << z24);
        check_pixel(got, fog, c0, f);
        ++total;
        if (f > 0.0 && f < 1.0) ++edges; // the trials must reach the unsaturated range, not only 0 and 1
      }
    }
  }
  CHECK(edges > total / 4);
}

TEST_CASE("Fog: the documented register encoding gives the linear eye-distance ramp", "[gx]") {
  // The SDK's derivation of the registers from near/far and the fog start/end (perspective):
  //   A = n f / ((f - n)(end - start)), B = f / (f - n), C = start / (end - start); B = mantissa * 2^(shift - 1) with
  //   the mantissa in [0.5, 1) stored as mantissa * 2^23, and A stored divided by 2^shift.
  // A point at eye distance d has depth z = B (1 - n / d), and the fog factor is (d - start) / (end - start).
  const double near_plane = 1.0, far_plane = 1000.0, start = 50.0, end = 400.0;
  const double a = near_plane * far_plane / ((far_plane - near_plane) * (end - start));
  const double b = far_plane / (far_plane - near_plane), c = start / (end - start);
  double mantissa = b;
  int shift = 1;
  while (mantissa >= 1.0) { mantissa /= 2; ++shift; }
  while (mantissa < 0.5) { mantissa *= 2; --shift; }
  FogRegisters fog;
  fog.type = fog_linear;
  fog.a = float_field(static_cast<float>(a / std::ldexp(1.0, shift)));
  fog.c = float_field(static_cast<float>(c));
  fog.b_magnitude = static_cast<uint32_t>(mantissa * 8388608.0);
  fog.b_shift = static_cast<uint32_t>(shift);
  fog.color = {200, 100, 0};
  const std::array<int, 4> c0{0, 255, 40, 99};
  const GxShader shader = translate_pixel(pixel_uid(bp_after(fog_stream(fog, c0))));
  const std::vector<uint32_t> constants = pixel_constants(bp_after(fog_stream(fog, c0)));
  for (double distance : {20.0, 50.0, 120.0, 225.0, 300.0, 399.0, 600.0}) {
    const double z = b * (1.0 - near_plane / distance);
    const uint32_t z24 = static_cast<uint32_t>(std::lround(z * 16777215.0));
    const PixelResult got = run_pixel(shader, constants, {}, {0.5f, 0.5f, depth_of(z24), 1.0f});
    const double ideal = std::clamp((distance - start) / (end - start), 0.0, 1.0);
    // The registers' 11-bit mantissas and the 24-bit depth move the factor by well under one step of 256.
    const int weight = static_cast<int>(std::floor(ideal * 256.0));
    INFO("distance " << distance << " ideal weight " << ideal * 256.0);
    for (size_t k = 0; k < 3; ++k) {
      CHECK(std::abs(got.rgba[k] - blend(c0[k], fog.color[k], std::min(weight, 256))) <= 1);
    }
    CHECK(got.rgba[3] == 99);
  }
  // Exactly at start and beyond end the factor saturates: the colour is untouched, then wholly the fog colour.
  const auto at = [&](double distance) {
    const uint32_t z24 = static_cast<uint32_t>(std::lround(b * (1.0 - near_plane / distance) * 16777215.0));
    return run_pixel(shader, constants, {}, {0.5f, 0.5f, depth_of(z24), 1.0f}).rgba;
  };
  CHECK(at(10.0) == std::array<int, 4>{0, 255, 40, 99});
  CHECK(at(800.0) == std::array<int, 4>{200, 100, 0, 99});
}

TEST_CASE("Fog UID holds the structure only", "[gx]") {
  FogRegisters fog;
  const PixelUid off = pixel_uid(bp_after(fog_stream(fog, {})));
  // With fog off the projection and range bits do not shape the program.
  GxStream off_with_bits = fog_stream(fog, {});
  off_with_bits.bp(0xF1, 1u << 20).bp(0xE8, 1u << 10);
  CHECK(pixel_uid(bp_after(off_with_bits)) == off);
  fog.type = fog_exp;
  const PixelUid exp = pixel_uid(bp_after(fog_stream(fog, {})));
  CHECK_FALSE(exp == off);
  CHECK(exp.hash() != off.hash());
  fog.orthographic = true;
  const PixelUid exp_orthographic = pixel_uid(bp_after(fog_stream(fog, {})));
  CHECK_FALSE(exp_orthographic == exp);
  CHECK(exp_orthographic.hash() != exp.hash());
  // The values (A, B, C, colour) feed the constants, not the UID.
  FogRegisters values = fog;
  values.a = float_field(2.5f);
  values.c = float_field(0.25f);
  values.b_magnitude = 0x812345;
  values.b_shift = 9;
  values.color = {1, 2, 3};
  const BpState bp = bp_after(fog_stream(values, {}));
  CHECK(pixel_uid(bp) == exp_orthographic);
  const std::vector<uint32_t> words = pixel_constants(bp);
  CHECK(std::bit_cast<float>(words[pixel_constant_fog_a]) == 2.5f);
  CHECK(std::bit_cast<float>(words[pixel_constant_fog_c]) == 0.25f);
  CHECK(words[pixel_constant_fog_b_magnitude] == 0x812345);
  CHECK(words[pixel_constant_fog_b_shift] == 9);
  CHECK(words[pixel_constant_fog_color] == 1);
  CHECK(words[pixel_constant_fog_color + 1] == 2);
  CHECK(words[pixel_constant_fog_color + 2] == 3);
  // The register keeps only 11 mantissa bits: the low 12 bits of a float are gone.
  CHECK(fog_register_float(float_field(1.0f + 0x1p-20f)) == 1.0f);
  CHECK(fog_register_float(float_field(1.0f + 0x1p-11f)) == 1.0f + 0x1p-11f);
}

TEST_CASE("Fog off leaves the colour and reserved types and range adjustment are refused", "[gx]") {
  const std::array<int, 4> c0{12, 34, 56, 78};
  FogRegisters fog;
  fog.color = {255, 255, 255};
  fog.a = float_field(100.0f);
  const BpState off = bp_after(fog_stream(fog, c0));
  CHECK(run_pixel(translate_pixel(pixel_uid(off)), pixel_constants(off), {}, {0.5f, 0.5f, 0.9f, 1.0f}).rgba == c0);
  for (uint32_t reserved : {1u, 3u}) {
    fog.type = reserved;
    try {
      translate_pixel(pixel_uid(bp_after(fog_stream(fog, c0))));
      FAIL("a reserved fog type translated");
    } catch (const kiln::Error& e) {
      CHECK(std::string(e.what()) == "fog (BP 0xF1): reserved fog type " + std::to_string(reserved));
    }
  }
  fog.type = fog_linear;
  GxStream ranged = fog_stream(fog, c0);
  ranged.bp(0xE8, (1u << 10) | 342u);
  try {
    translate_pixel(pixel_uid(bp_after(ranged)));
    FAIL("fog range adjustment translated");
  } catch (const kiln::Error& e) {
    CHECK(std::string(e.what()).find("fog (BP 0xE8): range adjustment") != std::string::npos);
  }
}
