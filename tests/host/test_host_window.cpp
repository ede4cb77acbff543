// runtime/host with the real parts, each case on an Xvfb of its own: frames presented through lavapipe's X11
// swapchain read back from the X server with xwd, with the validation layers (synchronization checks on)
// reporting nothing; key events from xdotool (XTEST) and SDL's virtual joystick reaching the pad; audio
// through SDL's disk driver compared sample by sample with a tone resampled by the documented formula.
#include <catch2/catch.hpp>

#include <SDL.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "runtime/host/host.h"
#include "runtime/host/input.h"
#include "tests/host/xvfb_display.h"
#include "tests/host/xwd_image.h"

using namespace kiln;

namespace {

const std::filesystem::path work = std::filesystem::temp_directory_path() / "kiln_tests_host";

int run(const std::string& command) { return std::system(command.c_str()); }

/// A 40x24 frame whose every pixel differs from its neighbours: (x * 6, y * 10, (x + y) * 3 + frame * 40).
std::vector<uint8_t> pattern(uint32_t width, uint32_t height, uint32_t pitch, int frame) {
  std::vector<uint8_t> pixels(size_t{pitch} * height, 0xee);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &pixels[size_t{y} * pitch + x * 4];
      p[0] = uint8_t(x * 6), p[1] = uint8_t(y * 10), p[2] = uint8_t((x + y) * 3 + frame * 40), p[3] = 0xff;
    }
  return pixels;
}

/// Pixels of the window `title` (xwd) that differ from `frame` scaled by `scale` (each frame pixel a
/// scale x scale block at the window's top left).
size_t differing_pixels(const std::string& title, const std::vector<uint8_t>& frame, uint32_t width, uint32_t height,
                        uint32_t pitch, uint32_t scale) {
  const std::string dump = (work / "window.xwd").string();
  REQUIRE(run("xwd -silent -name '" + title + "' -out '" + dump + "'") == 0);
  const RgbaImage window = test::read_xwd(dump);
  REQUIRE(window.width == width * scale);
  REQUIRE(window.height == height * scale);
  size_t wrong = 0;
  for (uint32_t y = 0; y < window.height; ++y)
    for (uint32_t x = 0; x < window.width; ++x)
      for (int c = 0; c < 3; ++c)
        wrong += window.pixels[(size_t{y} * window.width + x) * 4 + c] != frame[size_t{y / scale} * pitch + (x / scale) * 4 + c];
  return wrong;
}

host::HostOptions window_options() {
  host::HostOptions options;
  options.window = true;
  options.validation = true;
  options.unthrottled = true;
  return options;
}

} // namespace

TEST_CASE("a window presents frames that read back from the X server as the frames, without validation messages", "[host]") {
  std::filesystem::create_directories(work);
  test::XvfbDisplay display;
  host::Host host(window_options(), {.title = "kiln host window test"});
  constexpr uint32_t width = 40, height = 24, pitch = 41 * 4; // a padded pitch: rows are copied one by one
  for (int frame = 0; frame < 5; ++frame) {
    const auto pixels = pattern(width, height, pitch, frame);
    REQUIRE(host.present({pixels.data(), width, height, pitch}));
    if (frame == 0 || frame == 4) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the X server draws what was presented
      CHECK(differing_pixels("kiln host window test", pixels, width, height, pitch, 4) == 0);
    }
  }
  CHECK(host.frames_presented() == 5);
  CHECK(host.validation_messages() == 0);
}

TEST_CASE("resizing, minimising and restoring the window go on presenting", "[host]") {
  test::XvfbDisplay display;
  host::Host host(window_options(), {.title = "kiln host resize test"});
  const auto pixels = pattern(40, 24, 160, 1);
  REQUIRE(host.present({pixels.data(), 40, 24, 160}));
  SDL_Window* window = SDL_GetWindowFromID(1);
  REQUIRE(window != nullptr);
  for (const auto& [w, h] : {std::pair{300, 200}, {80, 48}, {640, 120}}) {
    SDL_SetWindowSize(window, w, h);
    for (int i = 0; i < 3; ++i) REQUIRE(host.present({pixels.data(), 40, 24, 160}));
  }
  SDL_MinimizeWindow(window);
  for (int i = 0; i < 3; ++i) REQUIRE(host.present({pixels.data(), 40, 24, 160}));
  SDL_RestoreWindow(window);
  SDL_SetWindowSize(window, 160, 96);
  for (int i = 0; i < 5; ++i) REQUIRE(host.present({pixels.data(), 40, 24, 160}));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  host.present({pixels.data(), 40, 24, 160});
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(differing_pixels("kiln host resize test", pixels, 40, 24, 160, 4) == 0); // 160x96: scale 4 again
  CHECK(host.validation_messages() == 0);
}

TEST_CASE("key events from the X server press the mapped pad buttons", "[host]") {
  test::XvfbDisplay display;
  host::Host host(window_options(), {.title = "kiln host key test"});
  const auto pixels = pattern(40, 24, 160, 0);
  REQUIRE(host.present({pixels.data(), 40, 24, 160}));
  CHECK(host.pad().buttons == 0);
  // XTEST events go to the window under the pointer (no window manager: focus follows the pointer).
  REQUIRE(run("xdotool search --sync --name 'kiln host key test' mousemove --window %1 20 20 keydown Right keydown z") == 0);
  host::PadState pad;
  for (int i = 0; i < 100 && pad.buttons == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    pad = host.pad();
  }
  CHECK(pad.held(host::Button::dpad_right));
  CHECK(pad.held(host::Button::south));
  CHECK(pad.buttons == ((1u << unsigned(host::Button::dpad_right)) | (1u << unsigned(host::Button::south))));
  REQUIRE(run("xdotool keyup Right keyup z") == 0);
  for (int i = 0; i < 100 && pad.buttons != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    pad = host.pad();
  }
  CHECK(pad.buttons == 0);
}

TEST_CASE("a virtual controller plugged in, pressed and unplugged reaches the pad", "[host]") {
  test::XvfbDisplay display;
  host::Host host(window_options(), {.title = "kiln host controller test"});
  SDL_VirtualJoystickDesc desc{};
  desc.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
  desc.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
  desc.naxes = SDL_CONTROLLER_AXIS_MAX;
  desc.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
  desc.name = "kiln virtual pad";
  const int device = SDL_JoystickAttachVirtualEx(&desc);
  REQUIRE(device >= 0);
  SDL_Joystick* joystick = SDL_JoystickOpen(device); // the handle the test sets inputs through
  REQUIRE(joystick != nullptr);
  CHECK(host.pad().buttons == 0); // the added event opens it as a controller
  REQUIRE(SDL_JoystickSetVirtualButton(joystick, SDL_CONTROLLER_BUTTON_DPAD_LEFT, 1) == 0);
  REQUIRE(SDL_JoystickSetVirtualButton(joystick, SDL_CONTROLLER_BUTTON_START, 1) == 0);
  REQUIRE(SDL_JoystickSetVirtualAxis(joystick, SDL_CONTROLLER_AXIS_LEFTX, 20000) == 0);
  SDL_JoystickUpdate();
  const host::PadState pad = host.pad();
  CHECK(pad.buttons == ((1u << unsigned(host::Button::dpad_left)) | (1u << unsigned(host::Button::start))));
  CHECK(pad.axes[size_t(host::Axis::left_x)] == 20000);
  SDL_JoystickClose(joystick);
  REQUIRE(SDL_JoystickDetachVirtual(device) == 0); // unplugged mid-run: no crash, nothing held
  CHECK(host.pad() == host::PadState{});
}

TEST_CASE("audio through SDL's disk driver is the queued tone resampled by the documented formula", "[host]") {
  std::filesystem::create_directories(work);
  const std::string file = (work / "tone.raw").string();
  setenv("SDL_AUDIODRIVER", "disk", 1);
  setenv("SDL_DISKAUDIOFILE", file.c_str(), 1);
  REQUIRE(SDL_Init(0) == 0);
  // A 441 Hz tone of amplitude 12000 at 44.1 kHz mono (100 samples a period), 0.1 s, into a 48 kHz stereo device.
  std::vector<int16_t> input(4410);
  for (size_t k = 0; k < input.size(); ++k) input[k] = int16_t(std::lround(12000 * std::sin(2 * M_PI * double(k) / 100)));
  std::vector<int16_t> expected; // out[n] = s[i] + (s[i+1] - s[i]) * r / 48000, nearest, halves up (docs/host.md)
  for (uint64_t n = 0;; ++n) {
    const uint64_t i = n * 44100 / 48000;
    if (i + 1 >= input.size()) break;
    expected.push_back(int16_t(std::floor(input[i] + (input[i + 1] - input[i]) * double(n * 44100 % 48000) / 48000 + 0.5)));
  }
  host::AudioStatistics statistics;
  {
    host::AudioOutput audio({.device_rate = 48000, .device_channels = 2, .latency_ms = 250, .start_paused = true});
    REQUIRE_FALSE(audio.muted());
    REQUIRE(audio.device_rate() == 48000);
    for (size_t at = 0; at < input.size(); at += 441) audio.queue(input.data() + at, 441, 44100, 1); // 10 ms chunks
    CHECK(audio.buffered_frames() == expected.size());
    audio.resume();
    for (int i = 0; i < 200 && audio.buffered_frames() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // at least one callback past the end: an under-run
    statistics = audio.statistics();
  }
  SDL_Quit();
  unsetenv("SDL_AUDIODRIVER");
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<int16_t> written(bytes.size() / 2);
  std::memcpy(written.data(), bytes.data(), written.size() * 2);
  // SDL's audio thread writes whole buffers of silence while the device is paused, so the tone starts after as
  // many silent frames as buffers went by before resume(): align its first non-zero frame with the expected one.
  const auto first_sounding = [](const std::vector<int16_t>& samples, size_t stride) {
    size_t n = 0;
    while (n * stride < samples.size() && samples[n * stride] == 0) ++n;
    return n;
  };
  const size_t expected_start = first_sounding(expected, 1);
  const size_t written_start = first_sounding(written, 2);
  REQUIRE(written_start >= expected_start);
  const size_t lead = written_start - expected_start; // silent frames written while paused
  REQUIRE(written.size() >= 2 * (lead + expected.size()));
  size_t wrong = 0;
  for (size_t n = 0; n < expected.size(); ++n)
    wrong += written[2 * (lead + n)] != expected[n] || written[2 * (lead + n) + 1] != expected[n];
  CHECK(wrong == 0);
  for (size_t k = 2 * (lead + expected.size()); k < written.size(); ++k) CHECK(written[k] == 0); // silence after
  CHECK(statistics.played_frames == expected.size());
  CHECK(statistics.underruns >= 1);
  CHECK(statistics.dropped_frames == 0);
}
