#pragma once
// The inputs every architecture's translation of the nvidia-headsurface programs is drawn with: random but sane
// uniforms in the layout of NVIDIA's NvHsVertexUniforms / NvHsFragmentUniforms (open-gpu-kernel-modules,
// src/common/unix/nvidia-headsurface/nvidia-headsurface-types.h), bindless texture handles, textures, samplers
// and the vertices of one screen-covering quad.
//
// Constant banks as the programs read them: c[3] = the stage's uniforms (vertex and fragment differ, so each
// stage gets its own descriptor set), c[4] = texture handles (handle of texture unit n at c[4][4n], units as
// NVIDIA_HEADSURFACE_UNIFORM_SAMPLER_BINDING_*: primary, cursor, blend, offset, overlay, LUT), c[1] = the
// compiler's constants (jump tables, jump_tables.h).
#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace kiln::test {

struct SceneTexture {
  uint32_t width = 0, height = 0;
  bool half_float = false;              ///< RGBA16F (else RGBA8 unorm)
  std::vector<uint8_t> texels;          ///< tightly packed rows
  bool depth = false;                   ///< D32 float (texels: one float each), for depth-compare samplers
};

struct SceneSampler {
  bool linear = false;
  uint32_t address_mode = 0;            ///< 0 repeat, 1 mirrored repeat, 2 clamp to edge
  bool compare_less = false;            ///< depth compare: 1 where reference < texel
};

constexpr uint32_t kTextureUnits = 6;
constexpr uint32_t kFragmentUniformBank = 3;
constexpr uint32_t kHandleBank = 4;
constexpr uint32_t kCompilerConstantBank = 1;

struct HeadsurfaceScene {
  std::vector<uint32_t> vertex_uniforms;     ///< vertex c[3]
  std::vector<uint32_t> fragment_uniforms;   ///< fragment c[3]
  std::vector<uint32_t> handles;             ///< fragment c[4]
  std::array<SceneTexture, kTextureUnits> textures;
  std::array<SceneSampler, kTextureUnits> samplers;
  std::array<uint32_t, kTextureUnits> tic{};  ///< texture header slot of each unit
  std::array<uint32_t, kTextureUnits> tsc{};  ///< sampler slot of each unit
  std::vector<float> vertices;               ///< 4 vertices of (x, y, u, v, r, q), a triangle strip

  /// Byte offset of NvHsFragmentUniforms::resamplingMethod.
  static constexpr uint32_t resampling_method_offset = 160;
  void set_resampling_method(int32_t method) { fragment_uniforms[resampling_method_offset / 4] = static_cast<uint32_t>(method); }
};

HeadsurfaceScene make_headsurface_scene(std::mt19937_64& random);

} // namespace kiln::test
