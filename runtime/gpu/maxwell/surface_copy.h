#pragma once
// Moving rectangles of bytes between surfaces in guest memory, pitch-linear or block-linear; shared by the copy,
// inline-to-memory and 2D engines. Each access first asks the GPU's backend to synchronise the bytes it touches
// (a render target the renderer wrote but has not written back yet), so engines see the 3D work before them.
#include <cstdint>
#include <span>

namespace kiln::maxwell {

class Gpu;

/// A surface as the engines describe it.
struct Surface {
  uint64_t address = 0;
  bool block_linear = false;
  uint32_t pitch = 0;         ///< bytes per row (pitch layout)
  uint32_t width = 0;         ///< bytes per row of the surface (block-linear layout)
  uint32_t height = 0, depth = 1, layer = 0;
  uint32_t block_height_log2 = 0, block_depth_log2 = 0; ///< GOBs per block (block-linear layout)
};

/// Writes `bytes`, `rows` rows of `row_bytes` each, into `surface` at byte column `x`, row `y`.
void write_rows(Gpu& gpu, const Surface& surface, uint32_t x, uint32_t y, uint32_t row_bytes,
                uint32_t rows, std::span<const uint8_t> bytes);
/// Reads `rows` rows of `row_bytes` from `surface` at byte column `x`, row `y`.
void read_rows(Gpu& gpu, const Surface& surface, uint32_t x, uint32_t y, uint32_t row_bytes,
               uint32_t rows, std::span<uint8_t> bytes);

} // namespace kiln::maxwell
