#pragma once
// Where the process's audio goes, shared by audout:u and audren:u so they write one stream: the host's audio
// queue when a window runs (AudioSettings::host_queue), else a WAV file created at the first samples.
#include <memory>
#include <mutex>
#include <optional>
#include <span>

#include "runtime/base/wav_file.h"
#include "runtime/platform/switch/services/registry.h"
#include "runtime/platform/switch/services/settings.h"

namespace kiln::hos {

constexpr uint32_t audio_device_rate = 48000, audio_device_channels = 2;

class AudioDestination {
public:
  explicit AudioDestination(AudioSettings settings) : settings_(std::move(settings)) {}
  /// Interleaved stereo frames at 48 kHz, in the order they play.
  void play(std::span<const int16_t> samples);

private:
  AudioSettings settings_;
  std::mutex lock_;
  std::optional<WavStream> wav_;
  bool failed_ = false;
};

void register_audio_out(ServiceRegistry& registry, std::shared_ptr<AudioDestination> destination);      ///< audio/audout.cpp
void register_audio_renderer(ServiceRegistry& registry, std::shared_ptr<AudioDestination> destination); ///< audio/audren.cpp

} // namespace kiln::hos
