#pragma once
// One BC6H block to RGBA16F (half-float bit patterns; used through decode_bc6h in bcn.h).
#include <array>
#include <cstdint>

namespace kiln::textures {

using Rgba16f = std::array<uint16_t, 4>;

/// Decodes 16 bytes into 16 texels, row-major, alpha 1.0 (0x3C00). Reserved modes (19, 23, 27, 31) decode to
/// (0, 0, 0, 1) as the specification requires.
void decode_bc6h_block(const uint8_t* block, bool is_signed, std::array<Rgba16f, 16>& texels);

/// For tests: the number of block bits each mode's field description assigns, counted per bit position;
/// every position from the mode bits up to the indices must be assigned exactly once.
std::array<uint8_t, 128> bc6h_field_coverage(uint32_t mode_number);

} // namespace kiln::textures
