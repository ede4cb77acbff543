#include "runtime/platform/switch/host_session.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "runtime/host/host.h"
#include "runtime/platform/switch/services/hid.h"
#include "runtime/platform/switch/services/vi.h"

namespace kiln::hos {

namespace {

/// How often the session's thread samples the pad (and SDL's events) between frames: hid's 200 Hz.
constexpr std::chrono::milliseconds pad_period(5);
/// The guest's first samples wait this long before they reach the device, so that the device's buffer stays
/// ahead of a title that hands over each buffer just as it starts to sound (audout and audren do): without the
/// margin every late hand-over is an under-run. Buffers up to 70 ms still fit the host's 100 ms latency.
constexpr std::chrono::milliseconds audio_start_margin(30);

host::PlatformTraits switch_platform_traits(const std::string& title) {
  // The console's 1280x720 frames are large already: the window opens at their size unless --scale says.
  return {.title = title, .frame_rate = display_refresh_hz, .display_aspect = 16.0 / 9.0, .window_scale = 1};
}

struct GuestStart {
  const std::function<int()>* guest;
  std::function<void(int)> done;
};

void* guest_thread(void* argument) {
  const GuestStart& start = *static_cast<GuestStart*>(argument);
  start.done((*start.guest)());
  return nullptr;
}

} // namespace

HostSession::HostSession(host::HostOptions options, std::string title, std::function<void()> stop_title)
    : options_(std::move(options)), title_(std::move(title)), stop_title_(std::move(stop_title)) {}

HostSession::~HostSession() = default;

bool HostSession::hosted() const { return options_.window || options_.frames || !options_.capture_directory.empty(); }

void HostSession::connect(SystemSettings& settings) {
  if (!hosted()) return;
  set_frame_sink([this](const RgbaImage& frame, uint64_t number) {
    if (const char* directory = std::getenv("KILN_FRAME_DIR"); directory && *directory) write_frame_file(frame, number);
    present(frame);
  });
  if (!options_.window) return; // headless: no input, and the audio stays in the WAV file
  for (const NpadConfig& npad : settings.npads)
    if (std::find(pad_devices_.begin(), pad_devices_.end(), npad.device) == pad_devices_.end()) pad_devices_.push_back(npad.device);
  pads_.resize(pad_devices_.size());
  set_pad_source([this](const host::PadDevice& device) { return pad(device); });
  settings.audio.host_queue = [this](const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels) {
    queue_audio(samples, frames, rate, channels);
  };
}

int HostSession::run(const std::function<int()>& guest) {
  serving_thread_ = std::this_thread::get_id();
  if (hosted()) {
    try {
      host_ = std::make_unique<host::Host>(options_, switch_platform_traits(title_));
    } catch (const Error& e) {
      log::error("{}", e.what());
      return 2;
    }
  }
  GuestStart start{&guest, [this](int result) {
                     std::lock_guard guard(lock_);
                     guest_result_ = result;
                     guest_done_ = true;
                     changed_.notify_all();
                   }};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, size_t{1} << 30); // guest calls are host calls: a deep host stack
  pthread_t thread;
  if (pthread_create(&thread, &attributes, guest_thread, &start) != 0) {
    log::error("cannot start the guest's main thread");
    return 70;
  }
  if (host_) serve();
  pthread_join(thread, nullptr);
  return guest_result_;
}

void HostSession::serve() {
  std::unique_lock lock(lock_);
  while (!finished_) {
    const auto audio_due = [&] { return !audio_.empty() && (audio_started_ || std::chrono::steady_clock::now() >= audio_start_); };
    changed_.wait_for(lock, pad_period, [&] { return (frame_ && !presented_) || audio_due() || ending_ || guest_done_; });
    if (ending_ || guest_done_) {
      finish_locked(lock);
      return;
    }
    std::vector<AudioChunk> audio;
    if (audio_due()) {
      audio_started_ = true;
      audio = std::move(audio_);
      audio_.clear();
    }
    const RgbaImage* frame = presented_ ? nullptr : frame_;
    lock.unlock();
    for (const AudioChunk& chunk : audio)
      host_->queue_audio(chunk.samples.data(), chunk.samples.size() / chunk.channels, chunk.rate, chunk.channels);
    std::optional<bool> shown;
    if (frame) shown = host_->present({frame->pixels.data(), frame->width, frame->height, frame->width * 4});
    std::vector<host::PadState> pads;
    for (const host::PadDevice& device : pad_devices_) pads.push_back(host_->pad(device));
    if (pad_devices_.empty()) host_->pad(); // reading the pad handles the host's events (quit, hot-plug) either way
    const bool stop_requested = host_->stop_requested();
    if (shown && options_.window) host_vblank(); // the frame clock's vertical blank paces vi's vsync event
    lock.lock();
    if (!pads.empty()) pads_ = std::move(pads);
    if (shown) {
      presented_ = *shown;
      changed_.notify_all();
    } else if (stop_requested && !stopping_title_) { // the window closed between frames
      stopping_title_ = true;
      lock.unlock();
      stop_title_();
      lock.lock();
    }
  }
}

void HostSession::finish_locked(std::unique_lock<std::mutex>& lock) {
  std::vector<AudioChunk> audio = std::move(audio_);
  audio_.clear();
  lock.unlock();
  for (const AudioChunk& chunk : audio)
    host_->queue_audio(chunk.samples.data(), chunk.samples.size() / chunk.channels, chunk.rate, chunk.channels);
  // The title's last sound plays out before the device closes (the buffer holds at most its latency).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (host_->audio() && !host_->audio()->muted() && host_->audio()->buffered_frames() > 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(pad_period);
  host_->finish();
  host_.reset();
  lock.lock();
  finished_ = true;
  changed_.notify_all();
}

void HostSession::end() {
  if (!host_ && !hosted()) return;
  std::unique_lock lock(lock_);
  if (std::this_thread::get_id() == serving_thread_) {
    if (!finished_ && host_) finish_locked(lock);
    return;
  }
  ending_ = true;
  changed_.notify_all();
  changed_.wait(lock, [&] { return finished_; });
}

bool HostSession::present(const RgbaImage& frame) {
  std::unique_lock lock(lock_);
  changed_.wait(lock, [&] { return !frame_ || finished_; }); // one frame at a time
  if (finished_ || ending_) return false;
  frame_ = &frame;
  presented_.reset();
  changed_.notify_all();
  changed_.wait(lock, [&] { return presented_.has_value() || finished_; });
  const bool go_on = presented_.value_or(false);
  frame_ = nullptr;
  presented_.reset();
  changed_.notify_all();
  if (!go_on && !stopping_title_) {
    stopping_title_ = true;
    lock.unlock();
    stop_title_();
  }
  return go_on;
}

host::PadState HostSession::pad(const host::PadDevice& device) {
  std::lock_guard guard(lock_);
  for (size_t i = 0; i < pad_devices_.size(); ++i)
    if (pad_devices_[i] == device && i < pads_.size()) return pads_[i];
  return {};
}

void HostSession::queue_audio(const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels) {
  std::lock_guard guard(lock_);
  if (finished_) return;
  if (!audio_started_ && audio_.empty()) audio_start_ = std::chrono::steady_clock::now() + audio_start_margin;
  audio_.push_back({std::vector<int16_t>(samples, samples + frames * channels), rate, channels});
  changed_.notify_all();
}

} // namespace kiln::hos
