#pragma once
// The guest's vertical blank on a host clock at the console's rate, independent of the display's refresh:
// tick() returns at the next period boundary (a guest that falls more than a period behind starts a new
// schedule from now instead of running fast to catch up). Unthrottled, tick() returns at once (benchmarks).
// Once per second of host time it reports the frame times of that second (tick to tick) as min/median/max.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace kiln::host {

class FrameClock {
public:
  using Clock = std::chrono::steady_clock;
  /// `report` receives the per-second line; default: the log at info level.
  FrameClock(double rate_hz, bool unthrottled, std::function<void(const std::string&)> report = {});

  void tick();
  uint64_t ticks() const { return ticks_; }
  Clock::duration period() const { return period_; }

  /// "60 frames, frame time min/median/max 16.5/16.7/16.9 ms" for the durations in `frame_times`.
  static std::string summary(std::vector<Clock::duration> frame_times);

private:
  Clock::duration period_;
  bool unthrottled_;
  std::function<void(const std::string&)> report_;
  Clock::time_point next_, last_, second_start_;
  std::vector<Clock::duration> frame_times_;
  uint64_t ticks_ = 0;
};

} // namespace kiln::host
