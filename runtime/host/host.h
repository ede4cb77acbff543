#pragma once
// The host shell a platform runs its title in: a window with Vulkan presentation (or headless), the pad read
// from keyboard and controllers, audio output, and the frame clock that paces the console's vertical blank.
// It knows nothing of any platform: a platform describes itself with PlatformTraits and talks to the Host
// through present(), pad(), queue_audio() and the frame clock inside present() (docs/host.md).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/host/audio.h"
#include "runtime/host/frame_clock.h"
#include "runtime/host/host_options.h"
#include "runtime/host/input_mapping.h"

namespace kiln::vulkan {
class Context;
class Presenter;
} // namespace kiln::vulkan

namespace kiln::host {

class Input;
class Window;

struct PlatformTraits {
  std::string title;           ///< the window's title
  double frame_rate = 60;      ///< the console's vertical blank rate in Hz
  double display_aspect = 0;   ///< the picture's width:height on the console's display (0: square pixels)
  InputMapping input = default_input_mapping(); ///< the platform's default pad mapping
  uint32_t window_scale = 4;   ///< the window opens at this multiple of the first frame's size unless --scale says
};

class Host {
public:
  /// Opens SDL's video and controllers, the window and Vulkan in window mode. Errors: no display, no Vulkan
  /// device that can present, a bad --input file; each says what to do instead.
  Host(const HostOptions& options, PlatformTraits platform);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  /// One guest frame: shown in the window (the window opens at the first frame's size times --scale), written
  /// to --capture, then the frame clock waits for the next vertical blank. False when the title should stop:
  /// the window was closed or --frames were presented.
  bool present(const vulkan::CpuImage& image);
  /// The pad now (events are handled first); all released when headless.
  PadState pad(PadDevice device = {});
  /// Guest audio (signed 16-bit interleaved); the device opens at the first call unless --mute.
  void queue_audio(const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels);
  /// The title has ended: with --hold the window keeps its last frame until it is closed.
  void finish();

  const HostOptions& options() const { return options_; }
  bool windowed() const { return window_ != nullptr; }
  bool stop_requested() const;
  uint64_t frames_presented() const { return frames_presented_; }
  /// Validation messages of the presentation device (0 without KILN_VULKAN_VALIDATION=1).
  size_t validation_messages() const;
  AudioOutput* audio() { return audio_.get(); }

private:
  void handle_events();
  void open_window(uint32_t width, uint32_t height);
  void show(const vulkan::CpuImage& image);

  HostOptions options_;
  PlatformTraits platform_;
  FrameClock clock_;
  bool sdl_video_ = false;
  std::unique_ptr<Input> input_;
  std::unique_ptr<Window> window_;
  std::unique_ptr<vulkan::Context> context_;
  std::unique_ptr<vulkan::Presenter> presenter_;
  std::unique_ptr<AudioOutput> audio_;
  std::vector<uint8_t> last_frame_;
  vulkan::CpuImage last_image_;
  uint64_t frames_presented_ = 0;
};

} // namespace kiln::host
