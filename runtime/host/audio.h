#pragma once
// Audio output on SDL: the guest's signed 16-bit frames at its own rate and channel count are converted to the
// device's channels (output channel c takes input channel min(c, channels - 1)), resampled to the device rate
// (audio_resampler.h) and held in a buffer of bounded latency that SDL's callback drains. A callback that finds
// too few frames plays silence for the rest and counts an under-run; frames that do not fit are dropped and
// counted. Without an audio device the output is muted: queue() discards and says so once.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "runtime/host/audio_resampler.h"

namespace kiln::host {

struct AudioOptions {
  uint32_t device_rate = 48000;
  uint32_t device_channels = 2;
  uint32_t latency_ms = 100; ///< the most audio the buffer holds
  bool start_paused = false; ///< the device stays silent until resume() (tests queue a whole tone first)
};

struct AudioStatistics {
  uint64_t underruns = 0;        ///< callbacks that ran out of frames
  uint64_t silent_frames = 0;    ///< frames of silence those callbacks played
  uint64_t dropped_frames = 0;   ///< frames that did not fit the latency buffer
  uint64_t played_frames = 0;    ///< frames handed to the device
};

class AudioOutput {
public:
  /// Opens SDL's default audio device (SDL_AUDIODRIVER picks the driver); muted when there is none.
  explicit AudioOutput(const AudioOptions& options = {});
  ~AudioOutput();
  AudioOutput(const AudioOutput&) = delete;
  AudioOutput& operator=(const AudioOutput&) = delete;

  bool muted() const { return device_ == 0; }
  uint32_t device_rate() const { return rate_; }
  uint32_t device_channels() const { return channels_; }
  /// `frames` interleaved frames of `channels` channels at `rate` Hz.
  void queue(const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels);
  void resume();
  /// Frames waiting in the buffer.
  size_t buffered_frames() const;
  AudioStatistics statistics() const;

private:
  static void callback(void* self, uint8_t* stream, int bytes);

  uint32_t device_ = 0;
  uint32_t rate_ = 0, channels_ = 0;
  size_t capacity_frames_ = 0;
  std::optional<Resampler> resampler_;
  std::vector<int16_t> converted_, resampled_;
  mutable std::mutex mutex_; ///< guards ring_ and statistics_ (the callback runs on SDL's audio thread)
  std::vector<int16_t> ring_;
  size_t ring_start_ = 0, ring_frames_ = 0;
  AudioStatistics statistics_;
};

} // namespace kiln::host
