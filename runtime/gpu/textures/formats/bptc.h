#pragma once
// What BC6H and BC7 (BPTC) share: the 128-bit block read LSB first, the 2- and 3-subset partition patterns and
// their anchor texels, index unpacking, the 6-bit interpolation weights and the interpolation itself
// (Khronos Data Format Specification, "BPTC Compressed Texture Image Formats").
#include <array>
#include <cstdint>

namespace kiln::textures::bptc {

/// A 16-byte block as a little-endian 128-bit number, read field by field from bit 0 upwards.
class BlockBits {
public:
  explicit BlockBits(const uint8_t* block);
  /// The `count` (<= 32) bits at `position`, bit `position` lowest.
  uint32_t at(uint32_t position, uint32_t count) const;
  /// The next `count` bits.
  uint32_t read(uint32_t count);
  uint32_t position() const { return position_; }
  void seek(uint32_t position) { position_ = position; }

private:
  uint64_t low_ = 0, high_ = 0;
  uint32_t position_ = 0;
};

/// The subset (0..subsets-1) of texel 0..15 under partition 0..63 (1, 2 or 3 subsets).
uint32_t subset_of(uint32_t subsets, uint32_t partition, uint32_t texel);
/// True when `texel` is the anchor of its subset: its index is stored one bit short (top bit zero).
bool is_anchor(uint32_t subsets, uint32_t partition, uint32_t texel);
/// Reads 16 indices of `bits` bits each (anchors one bit fewer) from the current position.
std::array<uint8_t, 16> read_indices(BlockBits& block, uint32_t bits, uint32_t subsets, uint32_t partition);
/// The 6-bit interpolation factor (0..64) of `index` for 2-, 3- and 4-bit indices.
uint32_t weight(uint32_t index_bits, uint32_t index);
/// ((64 - w) * e0 + w * e1 + 32) >> 6, arithmetic (BC6H signed endpoints are negative).
inline int32_t interpolate(int32_t e0, int32_t e1, uint32_t w) {
  return ((64 - static_cast<int32_t>(w)) * e0 + static_cast<int32_t>(w) * e1 + 32) >> 6;
}

} // namespace kiln::textures::bptc
