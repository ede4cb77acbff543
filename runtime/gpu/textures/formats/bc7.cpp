#include "runtime/gpu/textures/formats/bc7.h"

#include <bit>
#include <utility>

#include "runtime/gpu/textures/formats/bptc.h"

namespace kiln::textures {
namespace {

/// Per-mode field widths (Khronos Data Format Specification, "Mode-dependent BPTC parameters").
struct Bc7Mode {
  uint8_t subsets;         // NS
  uint8_t partition_bits;  // PB
  uint8_t rotation_bits;   // RB
  uint8_t selector_bits;   // ISB
  uint8_t colour_bits;     // CB, per channel and endpoint
  uint8_t alpha_bits;      // AB (0: alpha is 255)
  uint8_t endpoint_pbits;  // EPB: one P-bit per endpoint
  uint8_t shared_pbits;    // SPB: one P-bit per subset
  uint8_t index_bits;      // IB
  uint8_t index_bits_2;    // IB2 (secondary indices)
};

constexpr Bc7Mode modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

/// A channel of `bits` (4..8) bits to 8 by replicating its top bits below it.
uint8_t expand(uint32_t value, uint32_t bits) {
  value <<= 8 - bits;
  return static_cast<uint8_t>(value | value >> bits);
}

} // namespace

void decode_bc7_block(const uint8_t* data, std::array<Rgba8, 16>& texels) {
  if (data[0] == 0) {
    texels.fill(Rgba8{0, 0, 0, 0});
    return;
  }
  const uint32_t mode_number = static_cast<uint32_t>(std::countr_zero(data[0]));
  const Bc7Mode& mode = modes[mode_number];
  bptc::BlockBits block(data);
  block.seek(mode_number + 1);
  const uint32_t partition = block.read(mode.partition_bits);
  const uint32_t rotation = block.read(mode.rotation_bits);
  const uint32_t selector = block.read(mode.selector_bits);

  // Endpoints as [subset * 2 + endpoint][channel], first the raw fields (colour channel-major, then alpha).
  const uint32_t endpoints = mode.subsets * 2u;
  uint32_t raw[6][4] = {};
  for (uint32_t channel = 0; channel < 3; ++channel)
    for (uint32_t e = 0; e < endpoints; ++e) raw[e][channel] = block.read(mode.colour_bits);
  for (uint32_t e = 0; e < endpoints && mode.alpha_bits > 0; ++e) raw[e][3] = block.read(mode.alpha_bits);
  uint32_t pbit[6] = {};
  for (uint32_t e = 0; e < endpoints && mode.endpoint_pbits > 0; ++e) pbit[e] = block.read(1);
  if (mode.shared_pbits > 0) {
    for (uint32_t s = 0; s < mode.subsets; ++s) pbit[s * 2] = pbit[s * 2 + 1] = block.read(1);
  }
  const uint32_t has_pbit = mode.endpoint_pbits | mode.shared_pbits;
  Rgba8 endpoint[6];
  for (uint32_t e = 0; e < endpoints; ++e) {
    for (uint32_t channel = 0; channel < 3; ++channel) {
      endpoint[e][channel] = expand(raw[e][channel] << has_pbit | pbit[e], mode.colour_bits + has_pbit);
    }
    endpoint[e][3] = mode.alpha_bits == 0 ? 255 : expand(raw[e][3] << has_pbit | pbit[e], mode.alpha_bits + has_pbit);
  }

  const std::array<uint8_t, 16> primary = bptc::read_indices(block, mode.index_bits, mode.subsets, partition);
  std::array<uint8_t, 16> secondary{};
  if (mode.index_bits_2 > 0) secondary = bptc::read_indices(block, mode.index_bits_2, 1, 0);
  // Colour from the secondary indices when the selector bit is set; alpha from them when the block has
  // secondary indices and the selector is clear.
  const bool colour_secondary = selector != 0;
  const bool alpha_secondary = mode.index_bits_2 > 0 && selector == 0;
  const uint32_t colour_bits = colour_secondary ? mode.index_bits_2 : mode.index_bits;
  const uint32_t alpha_bits = alpha_secondary ? mode.index_bits_2 : mode.index_bits;

  for (uint32_t texel = 0; texel < 16; ++texel) {
    const uint32_t subset = bptc::subset_of(mode.subsets, partition, texel);
    const Rgba8& e0 = endpoint[subset * 2];
    const Rgba8& e1 = endpoint[subset * 2 + 1];
    const uint32_t colour_weight = bptc::weight(colour_bits, (colour_secondary ? secondary : primary)[texel]);
    const uint32_t alpha_weight = bptc::weight(alpha_bits, (alpha_secondary ? secondary : primary)[texel]);
    Rgba8& out = texels[texel];
    for (uint32_t channel = 0; channel < 3; ++channel) {
      out[channel] = static_cast<uint8_t>(bptc::interpolate(e0[channel], e1[channel], colour_weight));
    }
    out[3] = static_cast<uint8_t>(bptc::interpolate(e0[3], e1[3], alpha_weight));
    if (rotation != 0) std::swap(out[3], out[rotation - 1]);
  }
}

} // namespace kiln::textures
