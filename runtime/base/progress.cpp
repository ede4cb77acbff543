#include "runtime/base/progress.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace kiln {
namespace {
constexpr auto show_after = std::chrono::seconds(1);
constexpr auto redraw_every = std::chrono::milliseconds(100);
constexpr int bar_width = 30;
} // namespace

Progress::Progress(std::string label, uint64_t total)
    : label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()), last_draw_(start_),
      terminal_(isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() { finish(); }

std::string Progress::render() const {
  const uint64_t shown = done_ > total_ ? total_ : done_;
  const int filled = total_ == 0 ? bar_width : static_cast<int>(shown * bar_width / total_);
  return fmt::format("{} [{}{}] {}/{}", label_, std::string(static_cast<size_t>(filled), '#'),
                     std::string(static_cast<size_t>(bar_width - filled), ' '), shown, total_);
}

void Progress::advance(uint64_t count) {
  done_ += count;
  if (!terminal_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < show_after || now - last_draw_ < redraw_every) return;
  last_draw_ = now;
  drawn_ = true;
  std::fprintf(stderr, "\r%s", render().c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (drawn_) std::fprintf(stderr, "\r%s\n", render().c_str());
}

} // namespace kiln
