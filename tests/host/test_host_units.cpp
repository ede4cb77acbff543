// runtime/host without a display: the resampler against its documented formula, window layouts, the [input]
// table and its errors, the host options, the frame-time summary.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>

#include "runtime/base/error.h"
#include "runtime/gpu/vulkan/presentation_layout.h"
#include "runtime/host/audio_resampler.h"
#include "runtime/host/frame_clock.h"
#include "runtime/host/host_options.h"
#include "runtime/host/input_mapping.h"

using namespace kiln;

namespace {

// docs/host.md: out[n] = s[i] + (s[i+1] - s[i]) * r / out_rate rounded to nearest (halves up), written here in
// floating point from the formula, not from the integer code under test.
std::vector<int16_t> linear_reference(const std::vector<int16_t>& s, uint32_t in_rate, uint32_t out_rate) {
  std::vector<int16_t> out;
  for (uint64_t n = 0;; ++n) {
    const uint64_t i = n * in_rate / out_rate;
    if (i + 1 >= s.size()) break;
    const double fraction = double(n * in_rate % out_rate) / out_rate;
    out.push_back(static_cast<int16_t>(std::floor(s[i] + (s[i + 1] - s[i]) * fraction + 0.5)));
  }
  return out;
}

std::vector<int16_t> tone(size_t frames, double hz, double rate, double amplitude) {
  std::vector<int16_t> s(frames);
  for (size_t k = 0; k < frames; ++k) s[k] = static_cast<int16_t>(std::lround(amplitude * std::sin(2 * M_PI * hz * k / rate)));
  return s;
}

} // namespace

TEST_CASE("the resampler follows its documented linear formula, whole or in chunks", "[host]") {
  for (const auto& [in_rate, out_rate] : {std::pair{44100u, 48000u}, {32000u, 48000u}, {48000u, 44100u}, {48000u, 48000u}}) {
    const std::vector<int16_t> input = tone(4410, 440, in_rate, 30000);
    const auto expected = linear_reference(input, in_rate, out_rate);
    host::Resampler whole(in_rate, out_rate, 1);
    std::vector<int16_t> got;
    whole.push(input.data(), input.size(), got);
    CHECK(got == expected);
    host::Resampler chunked(in_rate, out_rate, 1);
    std::vector<int16_t> pieces;
    for (size_t at = 0; at < input.size(); at += 37) chunked.push(input.data() + at, std::min<size_t>(37, input.size() - at), pieces);
    CHECK(pieces == expected);
  }
}

TEST_CASE("stereo frames resample channel by channel", "[host]") {
  const std::vector<int16_t> left = tone(300, 1000, 32000, 20000), right = tone(300, 250, 32000, -12000);
  std::vector<int16_t> interleaved;
  for (size_t k = 0; k < left.size(); ++k) interleaved.insert(interleaved.end(), {left[k], right[k]});
  host::Resampler resampler(32000, 48000, 2);
  std::vector<int16_t> out;
  resampler.push(interleaved.data(), left.size(), out);
  const auto l = linear_reference(left, 32000, 48000), r = linear_reference(right, 32000, 48000);
  REQUIRE(out.size() == 2 * l.size());
  for (size_t n = 0; n < l.size(); ++n) {
    CHECK(out[2 * n] == l[n]);
    CHECK(out[2 * n + 1] == r[n]);
  }
}

TEST_CASE("frames keep the console's aspect, scale by whole factors or stretch, centred", "[host]") {
  using vulkan::fit_image;
  using vulkan::Scaling;
  CHECK(fit_image(128, 64, 0, 512, 256, Scaling::aspect) == vulkan::PresentRect{0, 0, 512, 256});
  CHECK(fit_image(128, 64, 0, 800, 256, Scaling::aspect) == vulkan::PresentRect{144, 0, 512, 256});   // pillarbox
  CHECK(fit_image(128, 64, 0, 512, 600, Scaling::aspect) == vulkan::PresentRect{0, 172, 512, 256});   // letterbox
  CHECK(fit_image(320, 240, 4.0 / 3, 1000, 700, Scaling::integer) == vulkan::PresentRect{180, 110, 640, 480});
  CHECK(fit_image(256, 240, 4.0 / 3, 1024, 960, Scaling::aspect) == vulkan::PresentRect{0, 96, 1024, 768}); // non-square pixels
  CHECK(fit_image(256, 240, 4.0 / 3, 1024, 960, Scaling::integer) == vulkan::PresentRect{32, 120, 960, 720}); // x3 rows, 4:3
  CHECK(fit_image(128, 64, 0, 100, 30, Scaling::integer) == vulkan::PresentRect{20, 0, 60, 30});      // smaller than the image
  CHECK(fit_image(128, 64, 0, 300, 200, Scaling::stretch) == vulkan::PresentRect{0, 0, 300, 200});
  CHECK(fit_image(128, 64, 0, 0, 0, Scaling::aspect) == vulkan::PresentRect{});                      // minimised
}

TEST_CASE("an input table replaces the bindings of the buttons it names", "[host]") {
  const auto mapping = host::apply_input_text("title = 'x'\n[input]\nsouth = [\"Space\", \"pad:b\"]\ndpad_left = \"J\"\n", "kiln.toml",
                                              host::default_input_mapping());
  CHECK(mapping[host::Button::south].keys == std::vector<std::string>{"Space"});
  CHECK(mapping[host::Button::south].controller_buttons == std::vector<std::string>{"b"});
  CHECK(mapping[host::Button::dpad_left].keys == std::vector<std::string>{"J"});
  CHECK(mapping[host::Button::dpad_left].controller_buttons.empty());
  CHECK(mapping[host::Button::east].keys == std::vector<std::string>{"X"}); // untouched default
  CHECK(host::apply_input_text("name = 1\n", "kiln.toml", host::default_input_mapping())[host::Button::start].keys ==
        std::vector<std::string>{"Return"});
}

TEST_CASE("input table errors name the file and line", "[host]") {
  const auto message = [](const char* text) {
    try {
      host::apply_input_text(text, "games/t/kiln.toml", host::default_input_mapping());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message("[input]\nsouth = \"Z\"\nsoth = \"X\"\n"), Catch::Contains("games/t/kiln.toml:3") && Catch::Contains("'soth' is not a pad button"));
  CHECK_THAT(message("\n[input]\nnorth = \"NoSuchKey\"\n"), Catch::Contains("kiln.toml:3") && Catch::Contains("'NoSuchKey' is not a key name"));
  CHECK_THAT(message("[input]\n\nwest = [\"A\",\n \"pad:wrong\"]\n"), Catch::Contains("kiln.toml:4") && Catch::Contains("'pad:wrong' is not a controller button"));
  CHECK_THAT(message("[input]\nstart = 5\n"), Catch::Contains("kiln.toml:2") && Catch::Contains("strings"));
  CHECK_THAT(message("input = 3\n"), Catch::Contains("kiln.toml:1") && Catch::Contains("must be a table"));
  CHECK_THAT(message("[input\n"), Catch::Contains("kiln.toml:1"));
}

TEST_CASE("host options leave the title's own arguments in order", "[host]") {
  std::vector<std::string> arguments{"sample-triangle", "--window", "frames-dir", "--frames", "5", "--scaling", "integer",
                                     "--present-mode", "mailbox", "--capture", "cap", "--hold"};
  const host::HostOptions options = host::take_host_options(arguments);
  CHECK(arguments == std::vector<std::string>{"sample-triangle", "frames-dir"});
  CHECK(options.window);
  CHECK(options.frames == 5u);
  CHECK(options.present.scaling == vulkan::Scaling::integer);
  CHECK(options.present.mode == vulkan::PresentMode::mailbox);
  CHECK(options.capture_directory == "cap");
  CHECK(options.hold);
  std::vector<std::string> bad{"--frames", "0"};
  CHECK_THROWS_WITH(host::take_host_options(bad), Catch::Contains("--frames 0"));
  std::vector<std::string> missing{"--capture"};
  CHECK_THROWS_WITH(host::take_host_options(missing), Catch::Contains("--capture needs a value"));
  std::vector<std::string> mode{"--present-mode", "vsync"};
  CHECK_THROWS_WITH(host::take_host_options(mode), Catch::Contains("fifo, mailbox or immediate"));
}

TEST_CASE("the frame-time line gives min, median and max", "[host]") {
  using std::chrono::milliseconds;
  CHECK(host::FrameClock::summary({milliseconds(17), milliseconds(16), milliseconds(20)}) ==
        "3 frames, frame time min/median/max 16.0/17.0/20.0 ms");
  CHECK(host::FrameClock::summary({}) == "0 frames");
}
