#include "runtime/platform/psx/spu/voice.h"

#include "runtime/platform/psx/spu/gaussian.h"

namespace kiln::psx::spu {

void Volume::write(uint16_t value) {
  reg = value;
  if (!(value & 0x8000)) level = static_cast<int16_t>(static_cast<uint16_t>(value << 1));
  sweep.restart();
}

void Volume::tick() {
  if (!(reg & 0x8000)) return;
  const EnvelopeRate rate{static_cast<uint8_t>((reg >> 2) & 0x1F), static_cast<uint8_t>(reg & 3), (reg & 0x4000) != 0,
                          (reg & 0x2000) != 0, (reg & 0x1000) != 0};
  sweep.tick(level, rate);
}

void Voice::key_on() {
  address = uint32_t{start} * 8;
  counter = 0;
  block_loaded = false;
  history = {};
  samples.fill(0);
  adsr_level = 0;
  phase = AdsrPhase::attack;
  adsr.restart();
}

void Voice::key_off() {
  if (phase == AdsrPhase::off) return;
  phase = AdsrPhase::release;
  adsr.restart();
}

int16_t Voice::interpolated() const {
  const unsigned i = counter >> 12;
  return static_cast<int16_t>(interpolate_gaussian((counter >> 4) & 0xFF, samples[i], samples[i + 1], samples[i + 2], samples[i + 3]));
}

void Voice::tick_adsr() {
  // The ADSR register fields (psx-spx "1F801C08h+N*10h"); decay and release always step by "-8" (step field 0).
  EnvelopeRate rate;
  switch (phase) {
    case AdsrPhase::attack:
      rate = {static_cast<uint8_t>((adsr_low >> 10) & 0x1F), static_cast<uint8_t>((adsr_low >> 8) & 3), (adsr_low & 0x8000) != 0, false, false};
      break;
    case AdsrPhase::decay: rate = {static_cast<uint8_t>((adsr_low >> 4) & 0xF), 0, true, true, false}; break;
    case AdsrPhase::sustain:
      rate = {static_cast<uint8_t>((adsr_high >> 8) & 0x1F), static_cast<uint8_t>((adsr_high >> 6) & 3), (adsr_high & 0x8000) != 0,
              (adsr_high & 0x4000) != 0, false};
      break;
    case AdsrPhase::release: rate = {static_cast<uint8_t>(adsr_high & 0x1F), 0, (adsr_high & 0x20) != 0, true, false}; break;
    case AdsrPhase::off: return;
  }
  adsr.tick(adsr_level, rate);
  const int32_t sustain_level = ((adsr_low & 0xF) + 1) * 0x800;
  AdsrPhase next = phase;
  if (phase == AdsrPhase::attack && adsr_level >= 0x7FFF) next = AdsrPhase::decay;
  else if (phase == AdsrPhase::decay && adsr_level <= sustain_level) next = AdsrPhase::sustain;
  else if (phase == AdsrPhase::release && adsr_level <= 0) next = AdsrPhase::off;
  if (next != phase) {
    phase = next;
    adsr.restart();
  }
}

} // namespace kiln::psx::spu
