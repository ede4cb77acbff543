// Every vertex attribute format the renderer accepts for float inputs, drawn: attribute 1 (the colour) in the
// format under test, passed through to an RGBA32F target and read back from guest memory. Expected values
// come from the format definitions (Vulkan 1.3 §3.9 fixed-point conversions, which the Maxwell vertex formats
// share; IEEE half floats; the 11/10-bit unsigned floats of §3.9.3), written out per case, not from the
// renderer's widening code.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"

using namespace kiln;
using namespace kiln::test;

namespace {

// SET_VERTEX_ATTRIBUTE_A: size (COMPONENT_BIT_WIDTHS) and type codes from clb197.h.
enum Size : uint32_t {
  R32G32B32A32 = 0x01, R32G32B32 = 0x02, R16G16B16A16 = 0x03, R32G32 = 0x04, R16G16B16 = 0x05, R8G8B8A8 = 0x0a,
  R16G16 = 0x0f, R32 = 0x12, R8G8B8 = 0x13, R8G8 = 0x18, R16 = 0x1b, R8 = 0x1d, A2B10G10R10 = 0x30, B10G11R11 = 0x31,
};
enum Type : uint32_t { SNORM = 1, UNORM = 2, USCALED = 5, SSCALED = 6, FLOAT = 7 };

struct FormatCase {
  const char* name;
  uint32_t size, type;
  bool swap_r_and_b;
  std::vector<uint8_t> bytes;
  std::array<float, 4> expected; // missing components read 0, 0, 1 (alpha)
};

template <typename T> std::vector<uint8_t> bytes_of(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

std::vector<FormatCase> cases() {
  const float u8 = 255, u16 = 65535, s8 = 127, s16 = 32767, u10 = 1023;
  // A2B10G10R10: R in bits 0-9, G 10-19, B 20-29, A 30-31.
  auto pack_1010102 = [](uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return bytes_of<uint32_t>({r | (g << 10) | (b << 20) | (a << 30)}); };
  // B10G11R11: R (11 bits: 5-bit exponent, 6-bit mantissa) in bits 0-10, G (11) 11-21, B (10: 5 + 5) 22-31.
  // 1.0 = exponent 15 (bias 15) mantissa 0; 0.5 = exponent 14; 2.0 = exponent 16; 1.5 = exponent 15, top mantissa bit.
  const uint32_t r11 = 15u << 6, g11 = (14u << 6), b10 = (15u << 5) | (1u << 4);
  return {
      {"R32G32B32A32 FLOAT", R32G32B32A32, FLOAT, false, bytes_of<float>({0.5f, -2.0f, 3.25f, 0.125f}), {0.5f, -2.0f, 3.25f, 0.125f}},
      {"R32G32B32 FLOAT", R32G32B32, FLOAT, false, bytes_of<float>({1.5f, -0.25f, 8.0f}), {1.5f, -0.25f, 8.0f, 1}},
      {"R32G32 FLOAT", R32G32, FLOAT, false, bytes_of<float>({-1.0f, 0.75f}), {-1.0f, 0.75f, 0, 1}},
      {"R32 FLOAT", R32, FLOAT, false, bytes_of<float>({42.0f}), {42.0f, 0, 0, 1}},
      {"R32 USCALED", R32, USCALED, false, bytes_of<uint32_t>({1000}), {1000.0f, 0, 0, 1}},
      {"R32G32 SSCALED", R32G32, SSCALED, false, bytes_of<int32_t>({-5, 70000}), {-5.0f, 70000.0f, 0, 1}},
      {"R16G16B16A16 UNORM", R16G16B16A16, UNORM, false, bytes_of<uint16_t>({0, 65535, 13107, 32768}), {0, 1, 13107 / u16, 32768 / u16}},
      {"R16G16B16A16 SNORM", R16G16B16A16, SNORM, false, bytes_of<int16_t>({-32768, 32767, 16384, -16384}), {-1, 1, 16384 / s16, -16384 / s16}},
      // Half floats: 0x3c00 = 1, 0xb800 = -0.5, 0x4200 = 3, 0x3400 = 0.25.
      {"R16G16B16A16 FLOAT", R16G16B16A16, FLOAT, false, bytes_of<uint16_t>({0x3c00, 0xb800, 0x4200, 0x3400}), {1, -0.5f, 3, 0.25f}},
      {"R16G16B16A16 USCALED", R16G16B16A16, USCALED, false, bytes_of<uint16_t>({7, 65535, 0, 300}), {7, 65535, 0, 300}},
      {"R16G16B16 SSCALED", R16G16B16, SSCALED, false, bytes_of<int16_t>({-3, 100, 7}), {-3, 100, 7, 1}},
      {"R16G16B16 UNORM", R16G16B16, UNORM, false, bytes_of<uint16_t>({65535, 0, 21845}), {1, 0, 21845 / u16, 1}},
      {"R16G16 FLOAT", R16G16, FLOAT, false, bytes_of<uint16_t>({0x3800, 0xc000}), {0.5f, -2, 0, 1}},
      {"R16G16 UNORM", R16G16, UNORM, false, bytes_of<uint16_t>({65535, 6553}), {1, 6553 / u16, 0, 1}},
      {"R16G16 SNORM", R16G16, SNORM, false, bytes_of<int16_t>({-32767, 100}), {-1, 100 / s16, 0, 1}},
      {"R16 UNORM", R16, UNORM, false, bytes_of<uint16_t>({32768}), {32768 / u16, 0, 0, 1}},
      {"R16 FLOAT", R16, FLOAT, false, bytes_of<uint16_t>({0xc400}), {-4, 0, 0, 1}},
      {"R8G8B8A8 UNORM", R8G8B8A8, UNORM, false, {0, 51, 128, 255}, {0, 0.2f, 128 / u8, 1}},
      {"R8G8B8A8 SNORM", R8G8B8A8, SNORM, false, {0x81, 0x80, 0x40, 0x7f}, {-1, -1, 64 / s8, 1}}, // -128 clamps to -1
      {"R8G8B8A8 USCALED", R8G8B8A8, USCALED, false, {1, 2, 3, 200}, {1, 2, 3, 200}},
      {"R8G8B8A8 SSCALED", R8G8B8A8, SSCALED, false, {0xff, 0x80, 5, 0x7f}, {-1, -128, 5, 127}},
      {"B8G8R8A8 UNORM (R/B swap)", R8G8B8A8, UNORM, true, {10, 20, 30, 40}, {30 / u8, 20 / u8, 10 / u8, 40 / u8}},
      {"R8G8B8 UNORM", R8G8B8, UNORM, false, {255, 0, 51}, {1, 0, 0.2f, 1}},
      {"R8G8B8 SNORM", R8G8B8, SNORM, false, {0x7f, 0xc1, 0}, {1, -63 / s8, 0, 1}},
      {"R8G8 UNORM", R8G8, UNORM, false, {255, 102}, {1, 0.4f, 0, 1}},
      {"R8G8 SSCALED", R8G8, SSCALED, false, {0xfe, 9}, {-2, 9, 0, 1}},
      {"R8 UNORM", R8, UNORM, false, {51}, {0.2f, 0, 0, 1}},
      {"R8 SNORM", R8, SNORM, false, {0xa0}, {-96 / s8, 0, 0, 1}},
      {"A2B10G10R10 UNORM", A2B10G10R10, UNORM, false, pack_1010102(1023, 0, 512, 1), {1, 0, 512 / u10, 1.0f / 3}},
      // SNORM: R 511 -> 1, G -511 (0x201) -> -1, B -512 (0x200) clamps to -1, A 1 (2-bit signed max 1) -> 1.
      {"A2B10G10R10 SNORM", A2B10G10R10, SNORM, false, pack_1010102(511, 0x201, 0x200, 1), {1, -1, -1, 1}},
      {"A2B10G10R10 USCALED", A2B10G10R10, USCALED, false, pack_1010102(1023, 5, 0, 3), {1023, 5, 0, 3}},
      {"B10G11R11 FLOAT", B10G11R11, FLOAT, false, bytes_of<uint32_t>({r11 | (g11 << 11) | (b10 << 22)}), {1, 0.5f, 1.5f, 1}},
  };
}

} // namespace

TEST_CASE("each vertex attribute format reaches the fragment output with the value its definition gives", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  for (const FormatCase& format : cases()) {
    // Three vertices of 32 bytes: position (RGBA32F) at 0, the attribute's bytes at 16.
    const float corners[3][2] = {{-1, -1}, {3, -1}, {-1, 3}};
    std::vector<uint8_t> vertices(3 * 32, 0);
    for (int v = 0; v < 3; ++v) {
      const float position[4] = {corners[v][0], corners[v][1], 0.5f, 1.0f};
      std::memcpy(&vertices[v * 32], position, 16);
      std::memcpy(&vertices[v * 32 + 16], format.bytes.data(), format.bytes.size());
    }
    scene.gpu.memory().write(kVertices, vertices);
    maxwell::StreamBuilder s;
    scene.setup(s, kRgba32f, 2, 2);
    s.method(0, "SET_VERTEX_ATTRIBUTE_A", 1, 0u | (16u << 7) | (format.size << 21) | (format.type << 27) | (format.swap_r_and_b ? 1u << 31 : 0));
    draw_arrays(s, 0, 3);
    scene.run(s);
    const auto pixels = scene.read_target(kColorTarget, 2, 2, 16);
    for (int c = 0; c < 4; ++c) {
      // Interpolating three equal values and the UNORM/SNORM divisions may each be off by an ulp or so on the host:
      // tolerance 2^-20 relative to max(1, |expected|).
      const float got = texel_f32(pixels, 2, 1, 1, static_cast<uint32_t>(c)), expected = format.expected[static_cast<size_t>(c)];
      INFO(format.name << ", channel " << c << ": got " << got << ", expected " << expected);
      CHECK(std::fabs(got - expected) <= std::ldexp(1.0f, -20) * std::max(1.0f, std::fabs(expected)));
    }
  }
  check_no_validation_messages(context);
}
