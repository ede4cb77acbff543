#pragma once
// One BC7 block to RGBA8 (used through decode_bc in bcn.h).
#include <array>
#include <cstdint>

namespace kiln::textures {

using Rgba8 = std::array<uint8_t, 4>;

/// Decodes 16 bytes into 16 texels, row-major. A block whose first byte is zero (no mode bit; reserved)
/// decodes to (0, 0, 0, 0) as the specification requires of hardware.
void decode_bc7_block(const uint8_t* block, std::array<Rgba8, 16>& texels);

} // namespace kiln::textures
