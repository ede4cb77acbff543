#pragma once
// The system counter: Horizon's tick runs at 19.2 MHz (CNTFRQ_EL0); GetSystemTick, CNTPCT_EL0 and CNTVCT_EL0
// all read this one count, taken from the host's monotonic clock.
#include <time.h>

#include <cstdint>

namespace kiln::hos {

constexpr uint64_t tick_frequency = 19200000;

inline uint64_t ticks_from_nanoseconds(uint64_t nanoseconds) {
  // 19.2 MHz is 12/625 ticks per nanosecond; split so the product cannot overflow.
  return nanoseconds / 625 * 12 + nanoseconds % 625 * 12 / 625;
}

inline uint64_t system_tick() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return ticks_from_nanoseconds(static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec));
}

} // namespace kiln::hos
