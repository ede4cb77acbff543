#pragma once
// The Maxwell/Tegra GOB ("group of bytes"): 64 bytes x 8 rows = 512 bytes, the unit of block-linear layout.
// Inside a GOB the byte at (x, y) (x in bytes 0..63, y in rows 0..7) lives at
//   x[3:0] -> bits 3:0, y[0] -> bit 4, x[4] -> bit 5, y[2:1] -> bits 7:6, x[5] -> bit 8
// (Tegra X1 TRM "Block Linear"; envytools g80-surface.rst). So 16 bytes of one row are always contiguous:
// a GOB is 32 chunks of 16 bytes, which is what the fast paths move.
#include <cstdint>

namespace kiln::textures {

inline constexpr uint32_t gob_width_bytes = 64;
inline constexpr uint32_t gob_height_rows = 8;
inline constexpr uint32_t gob_size_bytes = 512;
inline constexpr uint32_t gob_chunk_bytes = 16; ///< contiguous run of one row inside a GOB

/// Byte offset inside a GOB of byte `x` (0..63) of row `y` (0..7).
constexpr uint32_t gob_offset(uint32_t x, uint32_t y) {
  return ((x >> 5) & 1) << 8 | ((y >> 1) & 3) << 6 | ((x >> 4) & 1) << 5 | (y & 1) << 4 | (x & 15);
}

/// Offset of the 16-byte chunk `chunk` (0..3, i.e. bytes chunk*16..chunk*16+15) of row `y` (0..7).
constexpr uint32_t gob_chunk_offset(uint32_t chunk, uint32_t y) { return gob_offset(chunk * gob_chunk_bytes, y); }

} // namespace kiln::textures
