#pragma once
// One of the SPU's 24 voices (psx-spx "SPU ADPCM Pitch", "SPU Volume and ADSR Generator"): its registers, the
// ADPCM block being played with the three samples before it (for interpolation), the pitch counter, the ADSR
// envelope and the two sweepable volumes.
#include <array>
#include <cstdint>

#include "runtime/platform/psx/spu/adpcm.h"
#include "runtime/platform/psx/spu/envelope.h"

namespace kiln::psx::spu {

/// A fixed or sweeping volume (voice left/right, main left/right): the register and the level it produces.
struct Volume {
  uint16_t reg = 0;
  int16_t level = 0;
  Envelope sweep;
  /// Bit 15 clear: fixed, level = bits 0..14 times 2 (signed). Set: a sweep from the current level.
  void write(uint16_t value);
  void tick();
};

enum class AdsrPhase : uint8_t { attack, decay, sustain, release, off };

struct Voice {
  Volume left, right;
  uint16_t pitch = 0, start = 0, adsr_low = 0, adsr_high = 0, repeat = 0;
  int16_t adsr_level = 0;
  AdsrPhase phase = AdsrPhase::off;
  Envelope adsr;

  uint32_t address = 0;        ///< byte address of the block being played
  uint32_t counter = 0;        ///< pitch counter: bits 12.. the sample in the block, 4..11 the interpolation index
  bool block_loaded = false;   ///< the block at `address` has been decoded into `samples`
  uint8_t block_flags = 0;
  AdpcmHistory history;
  std::array<int16_t, 3 + adpcm_block_samples> samples{}; ///< the previous block's last three, then this block's

  /// Key on: from the start address, envelope 0 in attack, a fresh decoder and interpolation history.
  void key_on();
  /// Key off: release from the current level.
  void key_off();
  /// The interpolated sample at the pitch counter.
  int16_t interpolated() const;
  /// Steps the ADSR envelope once and moves to the next phase when its target is reached.
  void tick_adsr();
};

} // namespace kiln::psx::spu
