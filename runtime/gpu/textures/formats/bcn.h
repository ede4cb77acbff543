#pragma once
// BC1-BC5 (S3TC/RGTC) decoding on the CPU, for hosts that cannot sample them. Blocks are 4x4 texels,
// little-endian, row-major; 8 bytes for BC1 and BC4, 16 for BC2, BC3 and BC5.
#include <cstdint>
#include <span>
#include <string>

#include "runtime/base/png_image.h"

namespace kiln::textures {

enum class BcFormat { bc1, bc2, bc3, bc4, bc5 };

uint32_t bc_block_bytes(BcFormat format);
uint64_t bc_data_size(BcFormat format, uint32_t width, uint32_t height);
BcFormat parse_bc_format(const std::string& name);

/// Decodes to RGBA8 (BC4: R,0,0,255; BC5: R,G,0,255; UNORM forms). Interpolated colours are rounded to
/// nearest: BC1 thirds (2a + b + 1) / 3, alpha/red sevenths (6a + b + 3) / 7 and fifths (4a + b + 2) / 5.
/// BC1 with colour0 <= colour1 has a transparent-black fourth colour; BC2/BC3 colour blocks always use four.
RgbaImage decode_bc(BcFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> blocks,
                    const std::string& name);

} // namespace kiln::textures
