#pragma once
// The Switch process in the host shell (runtime/host, docs/host.md): vi's queued frames presented in the window
// (16:9 kept; the window opens at the frame's size), hid's pad source the host's pad, audout's and audren's
// samples to the host's audio queue. All SDL work happens on the thread that runs the session (the process's
// first thread); the guest runs on a thread of its own and hands frames and audio over. A frame hand-over
// returns once the host's frame clock reached the next vertical blank, so the guest's frame loop is paced by
// it. Headless without --capture or --frames, nothing of the host is opened: frames and audio go to the PNG
// and WAV files as before.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "runtime/base/png_image.h"
#include "runtime/host/host_options.h"
#include "runtime/host/pad_state.h"
#include "runtime/platform/switch/services/settings.h"

namespace kiln::host {
class Host;
}

namespace kiln::hos {

constexpr double display_refresh_hz = 60;

class HostSession {
public:
  /// `stop_title` ends the title when the host asks (window closed, --frames presented); it runs on the guest's
  /// thread that presented, or on the session's thread when the window was closed between frames.
  HostSession(host::HostOptions options, std::string title, std::function<void()> stop_title);
  ~HostSession();
  HostSession(const HostSession&) = delete;
  HostSession& operator=(const HostSession&) = delete;

  /// Whether a host::Host is opened at all (a window, --capture or --frames).
  bool hosted() const;
  /// Points vi's frame sink and hid's pad source at the host and, in a window, the audio at its queue.
  void connect(SystemSettings& settings);
  /// Runs `guest` on a thread with a deep stack (guest calls are host calls) while this thread serves the
  /// host; returns `guest`'s result once it returns and the host has finished (--hold waits here).
  int run(const std::function<int()>& guest);
  /// The title is ending (from any thread): the host finishes (--hold keeps the window until it is closed) and
  /// closes; returns once it has. Later calls return at once.
  void end();

  /// A guest frame, from a guest thread: false when the title should stop.
  bool present(const RgbaImage& frame);
  /// A host device's pad as last sampled by the session's thread (every few milliseconds and at each frame):
  /// the devices hid's npads read (connect() learns them from the settings).
  host::PadState pad(const host::PadDevice& device);
  /// Interleaved signed 16-bit samples from a guest thread, handed to the host's audio queue.
  void queue_audio(const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels);

private:
  struct AudioChunk {
    std::vector<int16_t> samples;
    uint32_t rate, channels;
  };
  void serve();
  void finish_locked(std::unique_lock<std::mutex>& lock);

  host::HostOptions options_;
  std::string title_;
  std::function<void()> stop_title_;
  std::unique_ptr<host::Host> host_;
  std::thread::id serving_thread_;
  std::mutex lock_;
  std::condition_variable changed_;
  const RgbaImage* frame_ = nullptr; ///< the frame a guest thread waits to have presented
  std::optional<bool> presented_;    ///< present()'s answer for frame_
  std::vector<AudioChunk> audio_;
  bool audio_started_ = false;                      ///< the first samples have gone to the host
  std::chrono::steady_clock::time_point audio_start_; ///< when the first samples may go
  std::vector<host::PadDevice> pad_devices_;
  std::vector<host::PadState> pads_; ///< one per pad_devices_ entry
  bool guest_done_ = false, ending_ = false, finished_ = false, stopping_title_ = false;
  int guest_result_ = 0;
};

} // namespace kiln::hos
