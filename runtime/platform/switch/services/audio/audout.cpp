// audout:u (switchbrew "Audio services"): one output device, "DeviceOut", 48 kHz stereo PCM16. An IAudioOut
// plays its appended buffers in order on a thread of its own, each for as long as it would sound (frames /
// 48000 s, on the host's steady clock), then releases it and signals the buffer event, so a title that waits
// for released buffers is paced as on the console. The samples go to the host's audio queue when a window
// runs (AudioSettings::host_queue), else to a WAV file.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/services/audio/audio_destination.h"
#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

namespace {

constexpr uint32_t audio_module = 153;
constexpr Result device_not_found = make_result(audio_module, 1);
constexpr Result unsupported_sample_rate = make_result(audio_module, 3);
constexpr Result buffer_ring_full = make_result(audio_module, 8);
constexpr Result invalid_address_info = make_result(audio_module, 42);
constexpr Result invalid_volume = make_result(audio_module, 6); ///< kiln's choice for a negative or NaN volume
constexpr uint32_t sample_rate = audio_device_rate, channel_count = audio_device_channels, sample_format_pcm16 = 2;
constexpr uint32_t state_started = 0, state_stopped = 1;
constexpr size_t max_appended_buffers = 32; ///< kiln's ring size
constexpr char device_name[] = "DeviceOut";
constexpr size_t device_name_size = 0x100;

/// AudioOutBuffer as the guest fills it: next (unused), sample buffer address, its size, data size, data offset.
struct AudioOutBuffer {
  uint64_t next, buffer, buffer_size, data_size, data_offset;
};

/// Each sample times `volume`, saturated to the 16-bit range.
void scale(std::vector<int16_t>& samples, float volume) {
  for (int16_t& sample : samples) sample = static_cast<int16_t>(std::clamp(std::lround(sample * volume), -32768l, 32767l));
}

class AudioOut final : public ipc::ServiceObject {
public:
  /// `kernel` signals the buffer event (null only for the documentation's table).
  AudioOut(Kernel* kernel, std::shared_ptr<AudioDestination> destination) : kernel_(kernel), destination_(std::move(destination)) {}
  ~AudioOut() override {
    {
      std::lock_guard lock(lock_);
      quit_ = true;
    }
    wake_.notify_all();
    if (player_.joinable()) player_.join();
  }
  std::string_view name() const override { return "audout:IAudioOut"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetAudioOutState", ipc::bind<&AudioOut::get_state>},
        {1, "Start", ipc::bind<&AudioOut::start>},
        {2, "Stop", ipc::bind<&AudioOut::stop>},
        {3, "AppendAudioOutBuffer", ipc::bind<&AudioOut::append_buffer>},
        {4, "RegisterBufferEvent", ipc::bind<&AudioOut::register_buffer_event>},
        {5, "GetReleasedAudioOutBuffer", ipc::bind<&AudioOut::get_released_buffers>},
        {6, "ContainsAudioOutBuffer", ipc::bind<&AudioOut::contains_buffer>},
        {7, "AppendAudioOutBufferAuto", ipc::bind<&AudioOut::append_buffer>},
        {8, "GetReleasedAudioOutBufferAuto", ipc::bind<&AudioOut::get_released_buffers>},
        {9, "GetAudioOutBufferCount", ipc::bind<&AudioOut::get_buffer_count>},
        {10, "GetAudioOutPlayedSampleCount", ipc::bind<&AudioOut::get_played_sample_count>},
        {11, "FlushAudioOutBuffers", ipc::bind<&AudioOut::flush_buffers>},
        {12, "SetAudioOutVolume", ipc::bind<&AudioOut::set_volume>},
        {13, "GetAudioOutVolume", ipc::bind<&AudioOut::get_volume>},
    };
    return table;
  }
  Result get_state(ipc::Context& c) {
    std::lock_guard lock(lock_);
    c.write<uint32_t>(started_ ? state_started : state_stopped);
    return success;
  }
  Result start(ipc::Context&) {
    {
      std::lock_guard lock(lock_);
      started_ = true;
      if (!player_.joinable()) player_ = std::thread([this] { play(); });
    }
    wake_.notify_all();
    return success;
  }
  Result stop(ipc::Context&) {
    std::lock_guard lock(lock_);
    started_ = false; // the buffers stay queued; the one playing finishes
    return success;
  }
  /// {u64 tag (the guest's pointer to its AudioOutBuffer)} + the AudioOutBuffer in an A (or X) buffer.
  Result append_buffer(ipc::Context& c) {
    const uint64_t tag = c.read<uint64_t>();
    const ipc::GuestBuffer in = c.in_auto(0);
    if (in.size < sizeof(AudioOutBuffer)) return invalid_address_info;
    AudioOutBuffer b;
    std::memcpy(&b, in.host(), sizeof b);
    const uint64_t start = b.buffer + b.data_offset;
    if (b.data_offset > b.buffer_size || b.data_size > b.buffer_size - b.data_offset || start < b.buffer ||
        !c.kernel().memory().accessible(start, std::max<uint64_t>(b.data_size, 1), permission::read)) {
      c.kernel().report_once("audout buffer", fmt::format("audout: AppendAudioOutBuffer at guest address {:#x} names samples at {:#x} "
                                                          "(size {:#x}) outside readable guest memory; replying {:#x}",
                                                          c.pc(), start, b.data_size, invalid_address_info));
      return invalid_address_info;
    }
    {
      std::lock_guard lock(lock_);
      if (queued_.size() >= max_appended_buffers) return buffer_ring_full;
      queued_.push_back({tag, start, b.data_size});
    }
    wake_.notify_all();
    return success;
  }
  Result register_buffer_event(ipc::Context& c) {
    c.push_copy_handle(event_);
    return success;
  }
  /// The tags of released buffers, oldest first, as many as the B (or C) buffer holds; their count.
  Result get_released_buffers(ipc::Context& c) {
    const ipc::GuestBuffer out = c.out_auto(0);
    std::lock_guard lock(lock_);
    uint32_t count = 0;
    for (; count < out.size / 8 && !released_.empty(); ++count) {
      std::memcpy(out.host() + 8 * count, &released_.front(), 8);
      released_.pop_front();
    }
    if (count < out.size / 8) std::memset(out.host() + 8 * count, 0, 8); // libnx stops at a null tag
    c.write(count);
    return success;
  }
  Result contains_buffer(ipc::Context& c) {
    const uint64_t tag = c.read<uint64_t>();
    std::lock_guard lock(lock_);
    const bool queued = std::any_of(queued_.begin(), queued_.end(), [&](const Queued& q) { return q.tag == tag; });
    c.write<uint8_t>(queued || (playing_ && *playing_ == tag));
    return success;
  }

  /// Buffers appended and not yet released (the one playing included).
  Result get_buffer_count(ipc::Context& c) {
    std::lock_guard lock(lock_);
    c.write<uint32_t>(static_cast<uint32_t>(queued_.size() + (playing_ ? 1 : 0)));
    return success;
  }
  /// Sample frames (one per channel pair) of the buffers played to their end.
  Result get_played_sample_count(ipc::Context& c) {
    std::lock_guard lock(lock_);
    c.write<uint64_t>(played_frames_);
    return success;
  }
  /// Releases every buffer still waiting to play (not the one playing), unplayed; whether there was one.
  Result flush_buffers(ipc::Context& c) {
    std::lock_guard lock(lock_);
    const bool flushed = !queued_.empty();
    for (const Queued& q : queued_) released_.push_back(q.tag);
    queued_.clear();
    if (flushed) c.kernel().signal(*event_);
    c.write<uint8_t>(flushed);
    return success;
  }
  Result set_volume(ipc::Context& c) {
    const float volume = c.read<float>();
    if (!(volume >= 0.0f)) return invalid_volume; // negative or NaN
    std::lock_guard lock(lock_);
    volume_ = volume;
    return success;
  }
  Result get_volume(ipc::Context& c) {
    std::lock_guard lock(lock_);
    c.write(volume_);
    return success;
  }

private:
  struct Queued {
    uint64_t tag, address, size;
  };

  void play() {
    using clock = std::chrono::steady_clock;
    std::unique_lock lock(lock_);
    clock::time_point next_start = clock::now();
    for (;;) {
      wake_.wait(lock, [&] { return quit_ || (started_ && !queued_.empty()); });
      if (quit_) return;
      const Queued buffer = queued_.front();
      queued_.pop_front();
      playing_ = buffer.tag;
      // The samples as they are now: the guest may not touch a buffer until it is released.
      std::vector<int16_t> samples(buffer.size / sizeof(int16_t));
      std::memcpy(samples.data(), rt::host_pointer(buffer.address), samples.size() * sizeof(int16_t));
      if (volume_ != 1.0f) scale(samples, volume_);
      lock.unlock();
      destination_->play(samples);
      const auto now = clock::now();
      if (next_start < now) next_start = now; // the queue ran dry: playback restarts now
      next_start += std::chrono::nanoseconds(uint64_t{1000000000} * (samples.size() / channel_count) / sample_rate);
      lock.lock();
      wake_.wait_until(lock, next_start, [&] { return quit_; });
      if (quit_) return;
      playing_.reset();
      played_frames_ += samples.size() / channel_count;
      released_.push_back(buffer.tag);
      kernel_->signal(*event_);
    }
  }

  Kernel* kernel_;
  std::shared_ptr<AudioDestination> destination_;
  std::shared_ptr<ReadableEvent> event_ = std::make_shared<ReadableEvent>();
  std::mutex lock_;
  std::condition_variable wake_;
  bool started_ = false, quit_ = false;
  std::deque<Queued> queued_;
  std::deque<uint64_t> released_;
  std::optional<uint64_t> playing_;
  uint64_t played_frames_ = 0;
  float volume_ = 1.0f;
  std::thread player_; ///< started by the first Start
};

class AudioOutManager final : public ipc::ServiceObject {
public:
  explicit AudioOutManager(std::shared_ptr<AudioDestination> destination) : destination_(std::move(destination)) {}
  std::string_view name() const override { return "audout:u"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "ListAudioOuts", ipc::bind<&AudioOutManager::list_audio_outs>},
        {1, "OpenAudioOut", ipc::bind<&AudioOutManager::open_audio_out>},
        {2, "ListAudioOutsAuto", ipc::bind<&AudioOutManager::list_audio_outs>},
        {3, "OpenAudioOutAuto", ipc::bind<&AudioOutManager::open_audio_out>},
    };
    return table;
  }
  /// The device names (0x100 bytes each) into the B (or C) buffer; their count.
  Result list_audio_outs(ipc::Context& c) {
    const ipc::GuestBuffer out = c.out_auto(0);
    uint32_t count = 0;
    if (out.size >= device_name_size) {
      std::memset(out.host(), 0, device_name_size);
      std::memcpy(out.host(), device_name, sizeof device_name);
      count = 1;
    }
    c.write(count);
    return success;
  }
  /// {u32 sample rate (0: the default), u16 channel count (0: the default), u16 padding, u64 applet resource
  /// user id} + the process handle + the device name in (A or X; empty: the default) and out (B or C);
  /// replies {u32 sample rate, u32 channel count, u32 sample format, u32 state} and the IAudioOut.
  Result open_audio_out(ipc::Context& c) {
    const uint32_t rate = c.read<uint32_t>();
    c.read<uint16_t>(); // channel count: the output is stereo whatever is asked, as the reply says
    const ipc::GuestBuffer name_in = c.in_auto(0);
    std::string name(reinterpret_cast<const char*>(name_in.host()), name_in.size ? strnlen(reinterpret_cast<const char*>(name_in.host()), name_in.size) : 0);
    if (!name.empty() && name != device_name) {
      c.kernel().report_once("audout device " + name, fmt::format("audout: OpenAudioOut at guest address {:#x} asked for device '{}'; "
                                                                 "kiln has only '{}' (replying {:#x})",
                                                                 c.pc(), name, device_name, device_not_found));
      return device_not_found;
    }
    if (rate != 0 && rate != sample_rate) {
      c.kernel().report_once(fmt::format("audout rate {}", rate), fmt::format("audout: OpenAudioOut at guest address {:#x} asked for {} Hz; "
                                                                             "the device plays {} Hz (replying {:#x})",
                                                                             c.pc(), rate, sample_rate, unsupported_sample_rate));
      return unsupported_sample_rate;
    }
    const ipc::GuestBuffer name_out = c.out_auto(0);
    if (name_out.size) {
      std::memset(name_out.host(), 0, name_out.size);
      std::memcpy(name_out.host(), device_name, std::min<uint64_t>(sizeof device_name, name_out.size));
    }
    c.write(sample_rate);
    c.write(channel_count);
    c.write(sample_format_pcm16);
    c.write(state_stopped);
    c.push_object(std::make_shared<AudioOut>(&c.kernel(), destination_));
    return success;
  }

private:
  std::shared_ptr<AudioDestination> destination_;
};

} // namespace

void AudioDestination::play(std::span<const int16_t> samples) {
  std::lock_guard lock(lock_);
  if (settings_.host_queue) {
    settings_.host_queue(samples.data(), samples.size() / audio_device_channels, audio_device_rate, audio_device_channels);
    return;
  }
  if (failed_) return;
  try {
    if (!wav_) wav_.emplace(settings_.wav_path, audio_device_rate, audio_device_channels);
    wav_->append(samples);
  } catch (const Error& e) {
    log::error("audio: {}; the audio is dropped", e.what());
    failed_ = true;
  }
}

void register_audio_out(ServiceRegistry& registry, const AudioSettings& settings) {
  register_audio_out(registry, std::make_shared<AudioDestination>(settings));
}

void register_audio_out(ServiceRegistry& registry, std::shared_ptr<AudioDestination> destination) {
  registry.add("audout:u", [destination] { return std::make_shared<AudioOutManager>(destination); });
  registry.add_interface("audout:IAudioOut", [destination] { return std::make_shared<AudioOut>(nullptr, destination); });
}

} // namespace kiln::hos
