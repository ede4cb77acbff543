#pragma once
// SPU-ADPCM (psx-spx "SPU ADPCM Samples"): 16-byte blocks of a shift/filter byte, a flag byte and 28 4-bit
// samples, decoded with one of five prediction filters from the two previous outputs.
#include <array>
#include <cstdint>
#include <span>

namespace kiln::psx::spu {

constexpr unsigned adpcm_block_bytes = 16, adpcm_block_samples = 28;

/// The flag byte (block byte 1).
namespace adpcm_flag {
constexpr uint8_t loop_end = 1u << 0;    ///< set ENDX, continue at the repeat address
constexpr uint8_t loop_repeat = 1u << 1; ///< with loop_end: keep playing; without: release, envelope 0
constexpr uint8_t loop_start = 1u << 2;  ///< the repeat address becomes this block's address
} // namespace adpcm_flag

/// The predictor's memory: the last two decoded samples.
struct AdpcmHistory {
  int16_t old = 0, older = 0;
};

/// Decodes one block into 28 samples and updates the history. Shifts 13..15 act as 9 and filters 5..7 as
/// filter 4 (psx-spx documents shifts 13..15 for the shared XA decoder; filters above 4 are undocumented).
std::array<int16_t, adpcm_block_samples> decode_adpcm_block(std::span<const uint8_t, adpcm_block_bytes> block,
                                                             AdpcmHistory& history);

} // namespace kiln::psx::spu
