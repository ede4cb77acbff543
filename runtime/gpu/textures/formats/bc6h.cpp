#include "runtime/gpu/textures/formats/bc6h.h"

#include <string_view>

#include "runtime/base/bits.h"
#include "runtime/gpu/textures/formats/bptc.h"

namespace kiln::textures {
namespace {

/// A BC6H mode (Khronos Data Format Specification, "Endpoint and partition parameters for BPTC block modes"
/// and "Block descriptions for BC6H block modes"). `fields` lists, from the first bit after the mode bits,
/// the endpoint bits in the specification's notation: "G2:4" is bit 4 of G2, "R0:9..0" ten bits whose first
/// (lowest block bit) is R0 bit 0, "R0:10..15" six bits whose first is bit 15 (reversed). The two-subset
/// modes end with the 5 partition bits, which are not listed.
struct Bc6hMode {
  uint8_t number;
  bool transformed;           // endpoints 1..3 are deltas from endpoint 0
  uint8_t endpoint_bits;      // EPB
  uint8_t delta_bits[3];      // R, G, B widths of the deltas (transformed modes)
  uint8_t subsets;
  std::string_view fields;
};

constexpr Bc6hMode modes[] = {
    {0, true, 10, {5, 5, 5}, 2,
     "G2:4 B2:4 B3:4 R0:9..0 G0:9..0 B0:9..0 R1:4..0 G3:4 G2:3..0 G1:4..0 B3:0 G3:3..0 B1:4..0 B3:1 B2:3..0 "
     "R2:4..0 B3:2 R3:4..0 B3:3"},
    {1, true, 7, {6, 6, 6}, 2,
     "G2:5 G3:4 G3:5 R0:6..0 B3:0 B3:1 B2:4 G0:6..0 B2:5 B3:2 G2:4 B0:6..0 B3:3 B3:5 B3:4 R1:5..0 G2:3..0 "
     "G1:5..0 G3:3..0 B1:5..0 B2:3..0 R2:5..0 R3:5..0"},
    {2, true, 11, {5, 4, 4}, 2,
     "R0:9..0 G0:9..0 B0:9..0 R1:4..0 R0:10 G2:3..0 G1:3..0 G0:10 B3:0 G3:3..0 B1:3..0 B0:10 B3:1 B2:3..0 "
     "R2:4..0 B3:2 R3:4..0 B3:3"},
    {6, true, 11, {4, 5, 4}, 2,
     "R0:9..0 G0:9..0 B0:9..0 R1:3..0 R0:10 G3:4 G2:3..0 G1:4..0 G0:10 G3:3..0 B1:3..0 B0:10 B3:1 B2:3..0 "
     "R2:3..0 B3:0 B3:2 R3:3..0 G2:4 B3:3"},
    {10, true, 11, {4, 4, 5}, 2,
     "R0:9..0 G0:9..0 B0:9..0 R1:3..0 R0:10 B2:4 G2:3..0 G1:3..0 G0:10 B3:0 G3:3..0 B1:4..0 B0:10 B2:3..0 "
     "R2:3..0 B3:1 B3:2 R3:3..0 B3:4 B3:3"},
    {14, true, 9, {5, 5, 5}, 2,
     "R0:8..0 B2:4 G0:8..0 G2:4 B0:8..0 B3:4 R1:4..0 G3:4 G2:3..0 G1:4..0 B3:0 G3:3..0 B1:4..0 B3:1 B2:3..0 "
     "R2:4..0 B3:2 R3:4..0 B3:3"},
    {18, true, 8, {6, 5, 5}, 2,
     "R0:7..0 G3:4 B2:4 G0:7..0 B3:2 G2:4 B0:7..0 B3:3 B3:4 R1:5..0 G2:3..0 G1:4..0 B3:0 G3:3..0 B1:4..0 "
     "B3:1 B2:3..0 R2:5..0 R3:5..0"},
    {22, true, 8, {5, 6, 5}, 2,
     "R0:7..0 B3:0 B2:4 G0:7..0 G2:5 G2:4 B0:7..0 G3:5 B3:4 R1:4..0 G3:4 G2:3..0 G1:5..0 G3:3..0 B1:4..0 "
     "B3:1 B2:3..0 R2:4..0 B3:2 R3:4..0 B3:3"},
    {26, true, 8, {5, 5, 6}, 2,
     "R0:7..0 B3:1 B2:4 G0:7..0 B2:5 G2:4 B0:7..0 B3:5 B3:4 R1:4..0 G3:4 G2:3..0 G1:4..0 B3:0 G3:3..0 "
     "B1:5..0 B2:3..0 R2:4..0 B3:2 R3:4..0 B3:3"},
    {30, false, 6, {6, 6, 6}, 2,
     "R0:5..0 G3:4 B3:0 B3:1 B2:4 G0:5..0 G2:5 B2:5 B3:2 G2:4 B0:5..0 G3:5 B3:3 B3:5 B3:4 R1:5..0 G2:3..0 "
     "G1:5..0 G3:3..0 B1:5..0 B2:3..0 R2:5..0 R3:5..0"},
    {3, false, 10, {10, 10, 10}, 1, "R0:9..0 G0:9..0 B0:9..0 R1:9..0 G1:9..0 B1:9..0"},
    {7, true, 11, {9, 9, 9}, 1, "R0:9..0 G0:9..0 B0:9..0 R1:8..0 R0:10 G1:8..0 G0:10 B1:8..0 B0:10"},
    {11, true, 12, {8, 8, 8}, 1, "R0:9..0 G0:9..0 B0:9..0 R1:7..0 R0:10..11 G1:7..0 G0:10..11 B1:7..0 B0:10..11"},
    {15, true, 16, {4, 4, 4}, 1, "R0:9..0 G0:9..0 B0:9..0 R1:3..0 R0:10..15 G1:3..0 G0:10..15 B1:3..0 B0:10..15"},
};

const Bc6hMode* find_mode(uint32_t number) {
  for (const Bc6hMode& mode : modes)
    if (mode.number == number) return &mode;
  return nullptr;
}

uint32_t mode_number_of(const uint8_t* block) {
  return (block[0] & 3) < 2 ? block[0] & 3u : block[0] & 31u;
}

uint32_t mode_bits(uint32_t number) { return number < 2 ? 2 : 5; }

uint32_t parse_number(std::string_view text, size_t& i) {
  uint32_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') value = value * 10 + static_cast<uint32_t>(text[i++] - '0');
  return value;
}

/// Walks a mode's field list, calling `bit(endpoint, channel, endpoint_bit, block_bit)` for each block bit.
template <typename Visit>
void for_each_field_bit(const Bc6hMode& mode, Visit&& visit) {
  const std::string_view text = mode.fields;
  uint32_t block_bit = mode_bits(mode.number);
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    const uint32_t channel = text[i] == 'R' ? 0 : text[i] == 'G' ? 1 : 2;
    ++i;
    const uint32_t endpoint = parse_number(text, i);
    ++i; // ':'
    const uint32_t first = parse_number(text, i);
    uint32_t last = first;
    if (i < text.size() && text[i] == '.') {
      i += 2;
      last = parse_number(text, i);
    }
    // The block's lowest bit goes to `last`, then towards `first`.
    const int step = first >= last ? 1 : -1;
    for (int b = static_cast<int>(last);; b += step) {
      visit(endpoint, channel, static_cast<uint32_t>(b), block_bit++);
      if (b == static_cast<int>(first)) break;
    }
  }
}

/// Endpoint unquantization to 16 bits (signed: -0x7FFF..0x7FFF).
int32_t unquantize(int32_t x, uint32_t bits, bool is_signed) {
  if (!is_signed) {
    if (bits >= 15 || x == 0) return x;
    if (x == (1 << bits) - 1) return 0xFFFF;
    return ((x << 15) + 0x4000) >> (bits - 1);
  }
  if (bits >= 16) return x;
  const bool negative = x < 0;
  const int32_t magnitude = negative ? -x : x;
  int32_t value = 0;
  if (magnitude == 0) value = 0;
  else if (magnitude >= (1 << (bits - 1)) - 1) value = 0x7FFF;
  else value = ((magnitude << 15) + 0x4000) >> (bits - 1);
  return negative ? -value : value;
}

/// The interpolated value to half-float bits: unsigned scaled by 31/64, signed magnitude by 31/32.
uint16_t finish(int32_t value, bool is_signed) {
  if (!is_signed) return static_cast<uint16_t>((value * 31) >> 6);
  return static_cast<uint16_t>(value < 0 ? ((-value * 31) >> 5) | 0x8000 : (value * 31) >> 5);
}

} // namespace

void decode_bc6h_block(const uint8_t* data, bool is_signed, std::array<Rgba16f, 16>& texels) {
  const Bc6hMode* mode = find_mode(mode_number_of(data));
  if (mode == nullptr) {
    texels.fill(Rgba16f{0, 0, 0, 0x3C00});
    return;
  }
  bptc::BlockBits block(data);
  uint32_t raw[4][3] = {};
  uint32_t last_bit = 0;
  for_each_field_bit(*mode, [&](uint32_t endpoint, uint32_t channel, uint32_t bit, uint32_t block_bit) {
    raw[endpoint][channel] |= block.at(block_bit, 1) << bit;
    last_bit = block_bit;
  });
  block.seek(last_bit + 1);
  const uint32_t partition = mode->subsets == 2 ? block.read(5) : 0;

  const uint32_t endpoints = mode->subsets * 2u;
  int32_t endpoint[4][3] = {};
  for (uint32_t channel = 0; channel < 3; ++channel) {
    const uint32_t bits = mode->endpoint_bits;
    const int32_t base = is_signed ? static_cast<int32_t>(sign_extend(raw[0][channel], bits))
                                   : static_cast<int32_t>(raw[0][channel]);
    endpoint[0][channel] = base;
    for (uint32_t e = 1; e < endpoints; ++e) {
      int32_t value = static_cast<int32_t>(raw[e][channel]);
      if (mode->transformed) {
        // A delta of delta_bits, added to endpoint 0 and wrapped at the endpoint width.
        const int32_t delta = static_cast<int32_t>(sign_extend(raw[e][channel], mode->delta_bits[channel]));
        value = (base + delta) & ((1 << bits) - 1);
      }
      endpoint[e][channel] = is_signed ? static_cast<int32_t>(sign_extend(static_cast<uint32_t>(value), bits)) : value;
    }
    for (uint32_t e = 0; e < endpoints; ++e) endpoint[e][channel] = unquantize(endpoint[e][channel], bits, is_signed);
  }

  const uint32_t index_bits = mode->subsets == 2 ? 3 : 4;
  const std::array<uint8_t, 16> indices = bptc::read_indices(block, index_bits, mode->subsets, partition);
  for (uint32_t texel = 0; texel < 16; ++texel) {
    const uint32_t subset = bptc::subset_of(mode->subsets, partition, texel);
    const uint32_t w = bptc::weight(index_bits, indices[texel]);
    for (uint32_t channel = 0; channel < 3; ++channel) {
      const int32_t value = bptc::interpolate(endpoint[subset * 2][channel], endpoint[subset * 2 + 1][channel], w);
      texels[texel][channel] = finish(value, is_signed);
    }
    texels[texel][3] = 0x3C00;
  }
}

std::array<uint8_t, 128> bc6h_field_coverage(uint32_t mode_number) {
  std::array<uint8_t, 128> coverage{};
  const Bc6hMode* mode = find_mode(mode_number);
  if (mode == nullptr) return coverage;
  for (uint32_t bit = 0; bit < mode_bits(mode_number); ++bit) ++coverage[bit];
  uint32_t last_bit = 0;
  for_each_field_bit(*mode, [&](uint32_t, uint32_t, uint32_t, uint32_t block_bit) {
    ++coverage[block_bit];
    last_bit = block_bit;
  });
  // Partition bits, then the indices (46 bits with two anchors of 2 subsets, 63 with one).
  const uint32_t rest = mode->subsets == 2 ? 5 + 46 : 63;
  for (uint32_t bit = last_bit + 1; bit < last_bit + 1 + rest && bit < 128; ++bit) ++coverage[bit];
  return coverage;
}

} // namespace kiln::textures
