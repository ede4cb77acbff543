#pragma once
// ASTC decoding for hosts without ASTC sampling (desktop AMD/NVIDIA, lavapipe), through Arm's libastcenc.
// 2D blocks of every footprint; LDR, sRGB and HDR profiles. Error blocks (an all-zero block among them)
// decode to magenta (1, 0, 1, 1) as the hardware shows them (seed 002 section 2.2), in every profile and
// output type (libastcenc 4.2 gives magenta in RGBA8 but NaN in float output; kiln repaints the NaNs).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/png_image.h"

namespace kiln::textures {

struct AstcFootprint {
  uint32_t width = 4;
  uint32_t height = 4;
};

enum class AstcProfile { ldr, srgb, hdr };

/// True for the 14 2D footprints of the specification (4x4 ... 12x12).
bool astc_footprint_valid(AstcFootprint footprint);
/// Bytes of a width x height texture (16 bytes per block, partial blocks included).
uint64_t astc_data_size(uint32_t width, uint32_t height, AstcFootprint footprint);

/// LDR or sRGB blocks (row-major, no file header) to RGBA8; sRGB results stay sRGB-encoded.
RgbaImage decode_astc_rgba8(uint32_t width, uint32_t height, AstcFootprint footprint, AstcProfile profile,
                            std::span<const uint8_t> blocks, const std::string& name);
/// Any profile to RGBA32F, 4 floats a texel, rows top to bottom.
std::vector<float> decode_astc_rgba32f(uint32_t width, uint32_t height, AstcFootprint footprint, AstcProfile profile,
                                       std::span<const uint8_t> blocks, const std::string& name);

} // namespace kiln::textures
