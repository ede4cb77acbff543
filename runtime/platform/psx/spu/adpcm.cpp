#include "runtime/platform/psx/spu/adpcm.h"

#include <algorithm>

namespace kiln::psx::spu {
namespace {

// psx-spx "Pos/neg Tables" (CD-XA section; the SPU has the fifth pair too), in 64ths.
constexpr int positive_weight[5] = {0, 60, 115, 98, 122};
constexpr int negative_weight[5] = {0, 0, -52, -55, -60};

} // namespace

std::array<int16_t, adpcm_block_samples> decode_adpcm_block(std::span<const uint8_t, adpcm_block_bytes> block,
                                                             AdpcmHistory& history) {
  unsigned shift = block[0] & 0x0F;
  if (shift > 12) shift = 9;
  const unsigned filter = std::min(4u, static_cast<unsigned>(block[0] >> 4) & 7u);
  std::array<int16_t, adpcm_block_samples> out{};
  for (unsigned i = 0; i < adpcm_block_samples; ++i) {
    const unsigned nibble = (block[2 + i / 2] >> ((i & 1) * 4)) & 0xF;
    // The nibble is the top 4 bits of a 16-bit value, shifted right arithmetically.
    const int expanded = static_cast<int16_t>(static_cast<uint16_t>(nibble << 12)) >> shift;
    const int predicted = (history.old * positive_weight[filter] + history.older * negative_weight[filter] + 32) / 64;
    const int16_t sample = static_cast<int16_t>(std::clamp(expanded + predicted, -0x8000, 0x7FFF));
    out[i] = sample;
    history.older = history.old;
    history.old = sample;
  }
  return out;
}

} // namespace kiln::psx::spu
