#include "runtime/platform/psx/host_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "runtime/base/error.h"
#include "runtime/host/host.h"

namespace kiln::psx {
namespace {

uint8_t axis_byte(int16_t value) { return static_cast<uint8_t>((value + 32768) >> 8); }

/// The controller on port 1 is the host's pad.
class HostPad final : public PadSource {
public:
  explicit HostPad(host::Host& host) : host_(host) {}
  PadInput poll(unsigned) override { return pad_input_from(host_.pad()); }

private:
  host::Host& host_;
};

/// The SPU's frames go to the host once per VBLANK, from the third on: the first hand-over carries three
/// frames' worth, so the device's buffer starts with enough to cover the jitter of the guest's frame times.
class HostAudio final : public AudioSink {
public:
  static constexpr unsigned vblanks_before_start = 3;
  explicit HostAudio(host::Host& host) : host_(host) {}
  void push(std::span<const StereoFrame> frames) override { pending_.insert(pending_.end(), frames.begin(), frames.end()); }
  void vblank(unsigned frame) {
    if (frame >= vblanks_before_start) flush();
  }
  void flush() {
    static_assert(sizeof(StereoFrame) == 2 * sizeof(int16_t));
    if (!pending_.empty()) host_.queue_audio(&pending_[0].left, pending_.size(), spu_sample_rate, 2);
    pending_.clear();
  }

private:
  host::Host& host_;
  std::vector<StereoFrame> pending_;
};

} // namespace

PadInput pad_input_from(const host::PadState& pad) {
  using host::Button;
  static constexpr std::array<std::pair<Button, uint16_t>, host::button_count> buttons{{
      {Button::south, pad_button::cross}, {Button::east, pad_button::circle}, {Button::west, pad_button::square},
      {Button::north, pad_button::triangle}, {Button::dpad_up, pad_button::up}, {Button::dpad_down, pad_button::down},
      {Button::dpad_left, pad_button::left}, {Button::dpad_right, pad_button::right}, {Button::start, pad_button::start},
      {Button::select, pad_button::select}, {Button::left_shoulder, pad_button::l1}, {Button::right_shoulder, pad_button::r1},
      {Button::left_trigger, pad_button::l2}, {Button::right_trigger, pad_button::r2}, {Button::left_stick, pad_button::l3},
      {Button::right_stick, pad_button::r3},
  }};
  PadInput input;
  for (const auto& [button, bit] : buttons)
    if (pad.held(button)) input.pressed |= bit;
  input.left_x = axis_byte(pad.axes[static_cast<size_t>(host::Axis::left_x)]);
  input.left_y = axis_byte(pad.axes[static_cast<size_t>(host::Axis::left_y)]);
  input.right_x = axis_byte(pad.axes[static_cast<size_t>(host::Axis::right_x)]);
  input.right_y = axis_byte(pad.axes[static_cast<size_t>(host::Axis::right_y)]);
  return input;
}

namespace {

host::PlatformTraits psx_platform_traits(const std::string& title) {
  return {.title = title, .frame_rate = ntsc_vblank_hz, .display_aspect = 4.0 / 3.0};
}

int run_in_host(const ProgramImage& image, RunOptions run_options, const host::HostOptions& host_options,
                const std::string& title, const std::function<void(Machine&)>& execute) {
  host::Host host(host_options, psx_platform_traits(title));
  HostPad pad(host);
  HostAudio audio(host);
  if (host_options.window) {
    if (run_options.pad_script.empty()) run_options.pad_source = &pad;
    run_options.audio_sink = &audio;
  }
  if (host_options.window || !host_options.capture_directory.empty()) {
    run_options.present = [&](const RgbaImage& frame) {
      audio.vblank(static_cast<unsigned>(host.frames_presented() + 1));
      return host.present({frame.pixels.data(), frame.width, frame.height, frame.width * 4});
    };
  }
  const int code = run(image, run_options, execute);
  audio.flush();
  host.finish();
  return code;
}

} // namespace

int run_with_host(const ProgramImage& image, std::vector<std::string> arguments, const std::string& title,
                  const std::function<void(Machine&)>& execute) {
  // --frames is the run's (0 allowed: until the program exits); the host's reading of it would refuse 0.
  std::vector<std::string> run_arguments;
  for (size_t i = 0; i < arguments.size();) {
    if (arguments[i] == "--frames" && i + 1 < arguments.size()) {
      run_arguments.insert(run_arguments.end(), {arguments[i], arguments[i + 1]});
      arguments.erase(arguments.begin() + static_cast<ptrdiff_t>(i), arguments.begin() + static_cast<ptrdiff_t>(i + 2));
    } else {
      ++i;
    }
  }
  const host::HostOptions host_options = host::take_host_options(arguments);
  run_arguments.insert(run_arguments.end(), arguments.begin(), arguments.end());
  return run_in_host(image, parse_run_options(run_arguments), host_options, title, execute);
}

int run_with_host(const ProgramImage& image, RunOptions run_options, std::vector<std::string> host_arguments,
                  const std::string& title, const std::function<void(Machine&)>& execute) {
  const host::HostOptions host_options = host::take_host_options(host_arguments);
  if (!host_arguments.empty())
    throw Error(fmt::format("unknown option '{}' (host options:\n{})", host_arguments[0], host::host_options_help()));
  return run_in_host(image, std::move(run_options), host_options, title, execute);
}

} // namespace kiln::psx
