#include "runtime/platform/psx/spu/envelope.h"

#include <algorithm>

namespace kiln::psx::spu {

void Envelope::tick(int16_t& level, const EnvelopeRate& rate) {
  const int shift = rate.shift;
  int32_t step = 7 - rate.step;
  if (rate.decreasing != rate.negative_phase) step = ~step;
  step *= 1 << std::max(0, 11 - shift);
  uint32_t increment = shift > 11 + 15 ? 0u : 0x8000u >> std::max(0, shift - 11);
  const bool increasing = !rate.decreasing;
  if (rate.exponential && increasing && level > 0x6000) {
    if (shift < 10) {
      step /= 4;
    } else if (shift >= 11) {
      increment /= 4;
    } else {
      step /= 2;
      increment /= 2;
    }
  } else if (rate.exponential && rate.decreasing) {
    // "AdsrStep*AdsrLevel/8000h", as an arithmetic shift: truncating towards zero would leave a level of 1
    // that never reaches 0 at the faster rates.
    step = (step * level) >> 15;
  }
  // A rate of all ones (step 3, shift 1Fh) never steps; every other rate steps at least once per 8000h ticks.
  if ((rate.step | (rate.shift << 2)) != 0x7F) increment = std::max(increment, 1u);

  counter_ += increment;
  if (!(counter_ & 0x8000)) return;
  counter_ = 0;
  int32_t next = level + step;
  if (increasing) next = std::clamp(next, -0x8000, 0x7FFF);
  else if (rate.negative_phase) next = std::clamp(next, -0x8000, 0);
  else next = std::max(next, 0);
  level = static_cast<int16_t>(next);
}

} // namespace kiln::psx::spu
