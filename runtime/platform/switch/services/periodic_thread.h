#pragma once
// A host thread that runs a tick at a fixed period until it is stopped: the clocks of services (vi's vsync
// event, hid's input sampling). Ticks keep to the schedule (each is due one period after the last was due),
// and stop() returns once the thread has ended, so an owner that declares it last may use its own members
// in the tick.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace kiln::hos {

class PeriodicThread {
public:
  PeriodicThread() = default;
  PeriodicThread(const PeriodicThread&) = delete;
  PeriodicThread& operator=(const PeriodicThread&) = delete;
  ~PeriodicThread() { stop(); }

  /// Starts the thread unless it runs already.
  void start(std::chrono::microseconds period, std::function<void()> tick) {
    std::lock_guard guard(lock_);
    if (thread_.joinable()) return;
    thread_ = std::thread([this, period, tick = std::move(tick)] {
      auto due = std::chrono::steady_clock::now();
      std::unique_lock held(lock_);
      while (true) {
        due += period;
        if (wake_.wait_until(held, due, [this] { return stopping_; })) return;
        held.unlock();
        tick();
        held.lock();
      }
    });
  }
  void stop() {
    {
      std::lock_guard guard(lock_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

private:
  std::mutex lock_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace kiln::hos
