#pragma once
// The one walk over a grid of 4x4 compressed blocks shared by every BCn decoder: size checks, bounds-checked
// reading through ByteReader, partial blocks clipped at the right and bottom edges.
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::textures {

/// Decodes width x height texels from row-major blocks of `block_bytes`; `decode_block(const uint8_t*,
/// std::array<Texel, 16>&)` fills one block's texels in row-major order. Returns texels row by row.
template <typename Texel, typename DecodeBlock>
std::vector<Texel> decode_block_grid(uint32_t width, uint32_t height, uint32_t block_bytes,
                                     std::span<const uint8_t> blocks, const std::string& name,
                                     DecodeBlock&& decode_block) {
  if (width == 0 || height == 0 || width > 65536 || height > 65536) {
    throw Error(in_file(name), fmt::format("BC image of {}x{} texels (each side must be 1..65536)", width, height));
  }
  const uint64_t size = uint64_t{div_ceil(width, 4u)} * div_ceil(height, 4u) * block_bytes;
  const std::span<const uint8_t> data = ByteReader(blocks, name).span_at(0, size);
  std::vector<Texel> texels(size_t{width} * height);
  std::array<Texel, 16> block{};
  size_t offset = 0;
  for (uint32_t by = 0; by < height; by += 4) {
    for (uint32_t bx = 0; bx < width; bx += 4, offset += block_bytes) {
      decode_block(data.data() + offset, block);
      for (uint32_t y = 0; y < 4 && by + y < height; ++y)
        for (uint32_t x = 0; x < 4 && bx + x < width; ++x) texels[size_t{by + y} * width + bx + x] = block[y * 4 + x];
    }
  }
  return texels;
}

} // namespace kiln::textures
