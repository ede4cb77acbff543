#pragma once
// Streaming linear-interpolation resampler for interleaved signed 16-bit audio (docs/host.md states the formula
// the audio tests derive their expected samples from): output frame n lies at input position
// p = n * input_rate / output_rate; with i = floor(p) and r = (n * input_rate) mod output_rate,
//   out[n] = s[i] + floor(((s[i + 1] - s[i]) * r + output_rate / 2) / output_rate)
// (division rounding towards minus infinity; the output_rate / 2 term rounds to nearest, halves upwards).
// Each output frame is written once s[i + 1] has arrived, so chunked input gives the same stream as whole input.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln::host {

class Resampler {
public:
  Resampler(uint32_t input_rate, uint32_t output_rate, uint32_t channels);
  /// Adds `frames` input frames and appends every output frame they complete to `out`.
  void push(const int16_t* samples, size_t frames, std::vector<int16_t>& out);
  uint32_t input_rate() const { return input_rate_; }

private:
  uint32_t input_rate_, output_rate_, channels_;
  std::vector<int16_t> pending_; ///< input frames from index pending_base_ on
  uint64_t pending_base_ = 0;    ///< input frame index of pending_[0]
  uint64_t next_output_ = 0;     ///< n of the next output frame
};

} // namespace kiln::host
