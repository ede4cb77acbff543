#pragma once
// A progress bar on stderr for work that takes more than a second (files, functions, shaders).
// It stays silent for short work and when stderr is not a terminal, so logs and tests stay clean.
#include <chrono>
#include <cstdint>
#include <string>

namespace kiln {

class Progress {
public:
  Progress(std::string label, uint64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(uint64_t count = 1);
  void finish();
  uint64_t done() const { return done_; }
  /// The line the bar would draw now, e.g. "translating [#####     ] 50/100".
  std::string render() const;

private:
  std::string label_;
  uint64_t total_;
  uint64_t done_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
  bool finished_ = false;
  bool terminal_;
};

} // namespace kiln
