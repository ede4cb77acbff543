#include "runtime/host/frame_clock.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "runtime/base/log.h"

namespace kiln::host {

FrameClock::FrameClock(double rate_hz, bool unthrottled, std::function<void(const std::string&)> report)
    : period_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / rate_hz))),
      unthrottled_(unthrottled), report_(std::move(report)) {
  if (!report_) report_ = [](const std::string& line) { log::info("host: {}", line); };
  next_ = last_ = second_start_ = Clock::now();
  next_ += period_;
}

void FrameClock::tick() {
  if (!unthrottled_) {
    const auto now = Clock::now();
    if (now > next_ + period_) {
      next_ = now; // more than a period late: no burst of catch-up frames
    } else {
      std::this_thread::sleep_until(next_);
    }
    next_ += period_;
  }
  const auto now = Clock::now();
  frame_times_.push_back(now - last_);
  last_ = now;
  ++ticks_;
  if (now - second_start_ >= std::chrono::seconds(1)) {
    report_(summary(std::move(frame_times_)));
    frame_times_.clear();
    second_start_ = now;
  }
}

std::string FrameClock::summary(std::vector<Clock::duration> frame_times) {
  if (frame_times.empty()) return "0 frames";
  std::sort(frame_times.begin(), frame_times.end());
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  return fmt::format("{} frames, frame time min/median/max {:.1f}/{:.1f}/{:.1f} ms", frame_times.size(),
                     ms(frame_times.front()), ms(frame_times[frame_times.size() / 2]), ms(frame_times.back()));
}

} // namespace kiln::host
