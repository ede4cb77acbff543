#include "runtime/host/audio.h"

#include <SDL.h>

#include <algorithm>
#include <cstring>

#include "runtime/base/log.h"

namespace kiln::host {

AudioOutput::AudioOutput(const AudioOptions& options) {
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
    log::warning("host: no audio ({}); running muted", SDL_GetError());
    return;
  }
  SDL_AudioSpec want{}, have{};
  want.freq = static_cast<int>(options.device_rate);
  want.format = AUDIO_S16SYS;
  want.channels = static_cast<Uint8>(options.device_channels);
  want.samples = 512;
  want.callback = &AudioOutput::callback;
  want.userdata = this;
  device_ = SDL_OpenAudioDevice(nullptr, 0, &want, &have, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE);
  if (device_ == 0) {
    log::warning("host: no audio device ({}); running muted", SDL_GetError());
    return;
  }
  rate_ = static_cast<uint32_t>(have.freq);
  channels_ = have.channels;
  capacity_frames_ = std::max<size_t>(1, size_t{rate_} * options.latency_ms / 1000);
  ring_.assign(capacity_frames_ * channels_, 0);
  log::verbose("host: audio {} Hz, {} channels, {} ms buffer ({})", rate_, channels_, options.latency_ms, SDL_GetCurrentAudioDriver());
  if (!options.start_paused) SDL_PauseAudioDevice(device_, 0);
}

AudioOutput::~AudioOutput() {
  if (device_) SDL_CloseAudioDevice(device_);
}

void AudioOutput::resume() {
  if (device_) SDL_PauseAudioDevice(device_, 0);
}

void AudioOutput::queue(const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels) {
  if (device_ == 0 || frames == 0 || channels == 0 || rate == 0) return;
  converted_.resize(frames * channels_);
  for (size_t f = 0; f < frames; ++f)
    for (uint32_t c = 0; c < channels_; ++c) converted_[f * channels_ + c] = samples[f * channels + std::min(c, channels - 1)];
  if (!resampler_ || resampler_->input_rate() != rate) resampler_.emplace(rate, rate_, channels_);
  resampled_.clear();
  resampler_->push(converted_.data(), frames, resampled_);
  const size_t count = resampled_.size() / channels_;
  std::lock_guard lock(mutex_);
  const size_t fits = std::min(count, capacity_frames_ - ring_frames_);
  for (size_t f = 0; f < fits; ++f) {
    const size_t slot = (ring_start_ + ring_frames_ + f) % capacity_frames_;
    std::memcpy(&ring_[slot * channels_], &resampled_[f * channels_], channels_ * sizeof(int16_t));
  }
  ring_frames_ += fits;
  statistics_.dropped_frames += count - fits;
}

void AudioOutput::callback(void* user, uint8_t* stream, int bytes) {
  auto& self = *static_cast<AudioOutput*>(user);
  auto* out = reinterpret_cast<int16_t*>(stream);
  const size_t wanted = static_cast<size_t>(bytes) / (sizeof(int16_t) * self.channels_);
  std::lock_guard lock(self.mutex_);
  const size_t given = std::min(wanted, self.ring_frames_);
  for (size_t f = 0; f < given; ++f) {
    std::memcpy(out + f * self.channels_, &self.ring_[self.ring_start_ * self.channels_], self.channels_ * sizeof(int16_t));
    self.ring_start_ = (self.ring_start_ + 1) % self.capacity_frames_;
  }
  self.ring_frames_ -= given;
  std::memset(out + given * self.channels_, 0, (wanted - given) * self.channels_ * sizeof(int16_t));
  self.statistics_.played_frames += given;
  if (given < wanted) {
    ++self.statistics_.underruns;
    self.statistics_.silent_frames += wanted - given;
  }
}

size_t AudioOutput::buffered_frames() const {
  std::lock_guard lock(mutex_);
  return ring_frames_;
}

AudioStatistics AudioOutput::statistics() const {
  std::lock_guard lock(mutex_);
  return statistics_;
}

} // namespace kiln::host
