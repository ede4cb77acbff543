#pragma once
// The SPU's envelope stepper (psx-spx "Envelope Operation depending on Shift/Step/Mode/Direction"), shared by
// the ADSR phases and the volume sweeps: once per 44.1 kHz sample a counter advances, and when its bit 15 is
// reached the level takes one step.
#include <cstdint>

namespace kiln::psx::spu {

struct EnvelopeRate {
  uint8_t shift = 0; ///< 0..1Fh: fast..slow
  uint8_t step = 0;  ///< 0..3: "+7,+6,+5,+4" when increasing, "-8,-7,-6,-5" when decreasing
  bool exponential = false;
  bool decreasing = false;
  bool negative_phase = false; ///< sweeps only: the volume is phase-inverted
};

class Envelope {
public:
  /// One 44.1 kHz tick: may step `level`.
  void tick(int16_t& level, const EnvelopeRate& rate);
  /// A new phase (or sweep) starts counting from zero.
  void restart() { counter_ = 0; }

private:
  uint32_t counter_ = 0;
};

} // namespace kiln::psx::spu
