#pragma once
// BCn (S3TC/RGTC/BPTC) decoding on the CPU, for hosts that cannot sample them. Blocks are 4x4 texels,
// little-endian, row-major; 8 bytes for BC1 and BC4, 16 for the others. BC6H and BC7 live in bc6h.* and
// bc7.* (with their shared tables in bptc.*); every format walks its blocks through bc_blocks.h.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/png_image.h"

namespace kiln::textures {

enum class BcFormat { bc1, bc2, bc3, bc4, bc5, bc4_snorm, bc5_snorm, bc6h_ufloat, bc6h_sfloat, bc7 };

uint32_t bc_block_bytes(BcFormat format);
uint64_t bc_data_size(BcFormat format, uint32_t width, uint32_t height);
/// bc1..bc5, bc4_snorm, bc5_snorm, bc6h (= bc6h_ufloat), bc6h_sfloat, bc7.
BcFormat parse_bc_format(const std::string& name);

/// Decodes to RGBA8. Exact for the UNORM formats (BC4: R,0,0,255; BC5: R,G,0,255): interpolated colours are
/// rounded to nearest, BC1 thirds (2a + b + 1) / 3, alpha/red sevenths (6a + b + 3) / 7 and fifths
/// (4a + b + 2) / 5; BC1 with colour0 <= colour1 has a transparent-black fourth colour; BC2/BC3 colour blocks
/// always use four; BC7 as the specification's bit-exact decoder. For viewing only: SNORM maps -1..1 to
/// 0..255 and BC6H clamps its half floats to 0..1 (no tone mapping); use decode_bc_snorm / decode_bc6h for
/// the exact values.
RgbaImage decode_bc(BcFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> blocks,
                    const std::string& name);

/// BC4/BC5 SNORM to R8G8B8A8_SNORM texels (R, G or 0, 0, 127): endpoints -128 and -127 both mean -1.0;
/// interpolants rounded to nearest, halves away from zero.
std::vector<int8_t> decode_bc_snorm(BcFormat format, uint32_t width, uint32_t height,
                                    std::span<const uint8_t> blocks, const std::string& name);

/// BC6H (unsigned or signed) to RGBA16F half-float bit patterns, 4 a texel, alpha 1.0, bit-exact.
std::vector<uint16_t> decode_bc6h(BcFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> blocks,
                                  const std::string& name);

} // namespace kiln::textures
