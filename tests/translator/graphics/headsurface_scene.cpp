#include "tests/translator/graphics/headsurface_scene.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace kiln::test {
namespace {

uint32_t float_bits(float value) { return std::bit_cast<uint32_t>(value); }

/// Half-float bits of a value that is exactly representable (the scene only makes such values).
uint16_t half_bits(float value) {
  if (value == 0.0f) return 0;
  const uint32_t bits = float_bits(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  return static_cast<uint16_t>(sign | static_cast<uint32_t>(exponent) << 10 | ((bits >> 13) & 0x3ff));
}

} // namespace

HeadsurfaceScene make_headsurface_scene(std::mt19937_64& random) {
  HeadsurfaceScene scene;
  const auto uniform_int = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
  // Multiples of 1/64 keep every value exact in binary and in half floats.
  const auto uniform_float = [&](float low, float high) {
    return low + static_cast<float>(uniform_int(0, static_cast<int>((high - low) * 64))) / 64.0f;
  };

  // NvHsVertexUniforms: vertexScale (2U), primaryTextureScale (2U), primaryTextureBias (2U), cursorPosition (2S).
  const std::array<uint32_t, 2> vertex_scale{static_cast<uint32_t>(uniform_int(32, 128)), static_cast<uint32_t>(uniform_int(32, 128))};
  scene.vertex_uniforms.assign(16384, 0);
  scene.vertex_uniforms[0] = vertex_scale[0];
  scene.vertex_uniforms[1] = vertex_scale[1];
  scene.vertex_uniforms[2] = static_cast<uint32_t>(uniform_int(1, 3));
  scene.vertex_uniforms[3] = static_cast<uint32_t>(uniform_int(1, 3));
  scene.vertex_uniforms[4] = static_cast<uint32_t>(uniform_int(0, 4));
  scene.vertex_uniforms[5] = static_cast<uint32_t>(uniform_int(0, 4));
  scene.vertex_uniforms[6] = static_cast<uint32_t>(uniform_int(-2, 3));
  scene.vertex_uniforms[7] = static_cast<uint32_t>(uniform_int(-2, 3));

  // NvHsFragmentUniforms (byte offsets in the comments of NVIDIA's header).
  std::vector<uint32_t>& f = scene.fragment_uniforms;
  f.assign(16384, 0);
  f[0] = vertex_scale[0]; // vertexScale (0)
  f[1] = vertex_scale[1];
  for (int i = 0; i < 3; ++i) f[4 + i] = static_cast<uint32_t>(uniform_int(2, 64)); // numLutEntries (16)
  f[8] = scene.vertex_uniforms[4];                                                   // primaryTextureBias (32)
  f[9] = scene.vertex_uniforms[5];
  f[10] = scene.vertex_uniforms[6];                                                  // cursorPosition (40)
  f[11] = scene.vertex_uniforms[7];
  // transform[3][4] (48): rows map (x, y, 1) of the window to (u, v, w) and the programs divide by w, so a sane
  // transform stays near the identity with w far from 0 over the 64x64 window.
  const std::array<std::array<float, 3>, 3> transform{{
      {uniform_float(0.75f, 1.25f), uniform_float(-0.25f, 0.25f), uniform_float(-4.0f, 4.0f)},
      {uniform_float(-0.25f, 0.25f), uniform_float(0.75f, 1.25f), uniform_float(-4.0f, 4.0f)},
      {static_cast<float>(uniform_int(-4, 4)) / 4096.0f, static_cast<float>(uniform_int(-4, 4)) / 4096.0f, uniform_float(0.75f, 1.25f)},
  }};
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 3; ++column) f[12 + 4 * row + column] = float_bits(transform[row][column]);
  }
  f[24] = float_bits(uniform_float(-1.0f, 1.0f));                                    // pixelShiftOffset (96)
  f[25] = float_bits(uniform_float(-1.0f, 1.0f));
  for (int i = 0; i < 3; ++i) f[28 + i] = float_bits(uniform_float(0.0f, 1.0f));    // luminanceCoefficient (112)
  f[32] = float_bits(uniform_float(0.0f, 1.0f));                                     // chromaCoefficient (128)
  f[33] = float_bits(uniform_float(0.0f, 1.0f));
  f[34] = float_bits(uniform_float(0.5f, 1.5f));                                     // luminanceScale (136)
  f[35] = float_bits(uniform_float(0.0f, 0.125f));                                   // luminanceBlackLevel (140)
  f[36] = float_bits(uniform_float(0.5f, 1.5f));                                     // chrominanceScale (144)
  f[37] = float_bits(uniform_float(0.0f, 0.125f));                                   // chrominanceBlackLevel (148)
  f[38] = static_cast<uint32_t>(uniform_int(0, 1));                                  // useSatHue (152)
  f[39] = float_bits(uniform_float(0.0f, 1.0f));                                     // satCos (156)
  f[40] = static_cast<uint32_t>(uniform_int(0, 6));                                  // resamplingMethod (160)

  // Texture units at distinct random TIC (0-63) and TSC (0-31) slots: the handle decode is exercised too.
  std::vector<uint32_t> tic_slots(64), tsc_slots(32);
  std::iota(tic_slots.begin(), tic_slots.end(), 0u);
  std::iota(tsc_slots.begin(), tsc_slots.end(), 0u);
  std::shuffle(tic_slots.begin(), tic_slots.end(), random);
  std::shuffle(tsc_slots.begin(), tsc_slots.end(), random);
  scene.handles.assign(16384, 0);
  for (uint32_t unit = 0; unit < kTextureUnits; ++unit) {
    scene.tic[unit] = tic_slots[unit];
    scene.tsc[unit] = tsc_slots[unit];
    scene.handles[unit] = tic_slots[unit] | tsc_slots[unit] << 20;

    SceneTexture& texture = scene.textures[unit];
    texture.width = static_cast<uint32_t>(uniform_int(5, 24));
    texture.height = static_cast<uint32_t>(uniform_int(5, 24));
    texture.half_float = unit == 3; // the offset texture holds signed offsets
    const size_t texels = size_t{texture.width} * texture.height * 4;
    if (texture.half_float) {
      texture.texels.resize(texels * 2);
      for (size_t i = 0; i < texels; ++i) {
        const uint16_t bits = half_bits(uniform_float(-2.0f, 2.0f));
        texture.texels[2 * i] = static_cast<uint8_t>(bits);
        texture.texels[2 * i + 1] = static_cast<uint8_t>(bits >> 8);
      }
    } else {
      texture.texels.resize(texels);
      for (uint8_t& byte : texture.texels) byte = static_cast<uint8_t>(uniform_int(0, 255));
    }
    scene.samplers[unit] = {.linear = uniform_int(0, 1) == 1, .address_mode = static_cast<uint32_t>(uniform_int(0, 2))};
  }

  // A quad covering the viewport after the vertex program's position = (x * scale.x, y * scale.y, 0, q):
  // x = ±q / scale.x. q varies per vertex, so the interpolation is perspective-correct for real.
  for (int corner = 0; corner < 4; ++corner) {
    const float sx = (corner & 1) ? 1.0f : -1.0f;
    const float sy = (corner & 2) ? 1.0f : -1.0f;
    const float q = uniform_float(0.5f, 2.0f);
    const float u = (corner & 1 ? 1.0f : 0.0f) + uniform_float(-0.25f, 0.25f);
    const float v = (corner & 2 ? 1.0f : 0.0f) + uniform_float(-0.25f, 0.25f);
    scene.vertices.insert(scene.vertices.end(), {sx * q / static_cast<float>(vertex_scale[0]), sy * q / static_cast<float>(vertex_scale[1]),
                                                 u, v, uniform_float(0.0f, 1.0f), q});
  }
  return scene;
}

} // namespace kiln::test
