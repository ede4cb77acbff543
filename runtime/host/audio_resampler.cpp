#include "runtime/host/audio_resampler.h"

#include <algorithm>

namespace kiln::host {
namespace {

int64_t floor_divide(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

} // namespace

Resampler::Resampler(uint32_t input_rate, uint32_t output_rate, uint32_t channels)
    : input_rate_(input_rate), output_rate_(output_rate), channels_(channels) {}

void Resampler::push(const int16_t* samples, size_t frames, std::vector<int16_t>& out) {
  pending_.insert(pending_.end(), samples, samples + frames * channels_);
  const uint64_t available = pending_base_ + pending_.size() / channels_;
  for (;;) {
    const uint64_t position = next_output_ * input_rate_;
    const uint64_t i = position / output_rate_;
    const int64_t r = static_cast<int64_t>(position % output_rate_);
    if (i + 1 >= available) break;
    const int16_t* here = &pending_[(i - pending_base_) * channels_];
    for (uint32_t c = 0; c < channels_; ++c) {
      const int64_t delta = int64_t{here[channels_ + c]} - here[c];
      out.push_back(static_cast<int16_t>(here[c] + floor_divide(delta * r + output_rate_ / 2, output_rate_)));
    }
    ++next_output_;
  }
  // Keep input frames from the one the next output frame starts at.
  const uint64_t keep_from = next_output_ * input_rate_ / output_rate_;
  if (keep_from > pending_base_) {
    const uint64_t drop = std::min<uint64_t>(keep_from - pending_base_, pending_.size() / channels_);
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(drop * channels_));
    pending_base_ += drop;
  }
}

} // namespace kiln::host
