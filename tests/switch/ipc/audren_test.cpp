// audren:u through sm and the kernel. The requests follow switchbrew's "Audio services" page (OpenAudioRenderer:
// AudioRendererParameter, padding, work buffer size, applet resource user id, pid, two copy handles;
// GetWorkBufferSize; IAudioRenderer's command ids) and the update data is laid out as libnx's audren.h declares
// it (header of 0x40 bytes: revision and the part sizes; behaviour 0x10, memory pools 0x20, voice channel
// resources 0x70, voices 0x170 with wave buffers of 0x38 at 0x60, mixes 0x930, sinks 0x140, performance 0x10;
// reply: header, pools 0x10, voices 0x10, sinks 0x20, performance 0x10, behaviour 0xb0). A mono PCM16 voice at
// 32 kHz must come out of the device sink at 48 kHz as docs/host.md's linear interpolation computes it, here on
// its own: out[n] = s[i] + floor(((s[i+1] - s[i]) * r + 24000) / 48000), i = floor(n * 32000 / 48000),
// r = n * 32000 mod 48000, on both channels.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "runtime/platform/switch/services/audio/audio_destination.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;
namespace stdfs = std::filesystem;

constexpr uint32_t voices = 2, pools = 4 * voices, mix_buffers = 2, tone_frames = 3200;
constexpr uint32_t header_size = 0x40, behavior_size = 0x10, pool_size = 0x20, channel_size = 0x70, voice_size = 0x170, mix_size = 0x930,
                   sink_size = 0x140, performance_size = 0x10;
constexpr uint32_t pools_at = header_size + behavior_size, channels_at = pools_at + pools * pool_size,
                   voices_at = channels_at + voices * channel_size, mixes_at = voices_at + voices * voice_size, sinks_at = mixes_at + mix_size,
                   update_size = sinks_at + sink_size + performance_size;
constexpr uint32_t reply_size = header_size + pools * 0x10 + voices * 0x10 + 0x20 + 0x10 + 0xb0;
constexpr uint32_t revision_4 = 0x34564552; // "REV4"

int16_t tone(uint32_t i) { return static_cast<int16_t>(int32_t(i * 53 % 20000) - 10000); }

/// AudioRendererParameter: rate, sample count, mix buffers, submixes, voices, sinks, effects, performance
/// frames, voice drop (u8 + padding), splitters, splitter destinations, external context, revision.
std::vector<uint32_t> parameter(uint32_t rate) { return {rate, rate / 200, mix_buffers, 0, voices, 1, 0, 0, 0, 0, 0, 0, revision_4}; }

struct Fixture : test::IpcFixture {
  stdfs::path wav = stdfs::temp_directory_path() / ("kiln_audren_" + std::to_string(::getpid()) + ".wav");
  uint32_t audren = 0;
  uint64_t in = 0, out = 0, samples = 0;
  Fixture() {
    hos::AudioSettings settings;
    settings.wav_path = wav.string();
    hos::register_audio_renderer(*registry, std::make_shared<hos::AudioDestination>(settings));
    audren = open_service(0x753a6e6572647561); // "audren:u"
    REQUIRE(audren != 0);
    const uint64_t heap = g.heap(0x200000);
    in = heap, out = heap + 0x10000, samples = heap + 0x20000;
  }
  ~Fixture() { stdfs::remove(wav); }
  template <typename T>
  void put(uint64_t at, T value) { poke<T>(in + at, value); }
  /// The update data of the test's configuration; voice 0 plays the tone when `queue_tone`.
  void write_update(bool first) {
    std::memset(rt::host_pointer(in), 0, update_size);
    const uint32_t header[16] = {revision_4, behavior_size, pools * pool_size, voices * voice_size, voices * channel_size, 0, mix_size, sink_size,
                                 performance_size, 0, 0, 0, 0, 0, 0, update_size};
    std::memcpy(rt::host_pointer(in), header, sizeof header);
    put<uint32_t>(header_size, revision_4);
    put<uint64_t>(pools_at, samples); // pool 0: the tone's memory, asked to attach; the others released (6)
    put<uint64_t>(pools_at + 8, 0x10000);
    put<uint32_t>(pools_at + 0x10, first ? 4 : 5);
    for (uint32_t p = 1; p < pools; ++p) put<uint32_t>(pools_at + p * pool_size + 0x10, 6);
    for (uint32_t c = 0; c < voices; ++c) put<uint32_t>(channels_at + c * channel_size, c); // ids
    put<float>(channels_at + 4, 1.0f);      // channel 0 into mix buffer 0 ...
    put<float>(channels_at + 8, 1.0f);      // ... and 1
    put<uint8_t>(channels_at + 0x64, 1);    // in use
    const uint64_t v = voices_at;           // voice 0
    put<uint32_t>(v, 0);
    put<uint32_t>(v + 4, 0x10000000);       // node id (type 1, voice 0)
    put<uint8_t>(v + 8, first);             // is_new
    put<uint8_t>(v + 9, 1);                 // is_used
    put<uint8_t>(v + 0xa, 0);               // started
    put<uint8_t>(v + 0xb, 2);               // PCM16
    put<uint32_t>(v + 0xc, 32000);
    put<uint32_t>(v + 0x18, 1);             // mono
    put<float>(v + 0x1c, 1.0f);             // pitch
    put<float>(v + 0x20, 1.0f);             // volume
    put<uint32_t>(v + 0x3c, first ? 1 : 0); // wave buffers queued
    put<uint32_t>(v + 0x58, 0);             // the final mix
    put<uint32_t>(v + 0x5c, 0xffffffff);    // no splitter
    put<uint64_t>(v + 0x60, samples);       // wave buffer 0: the whole tone
    put<uint64_t>(v + 0x68, tone_frames * 2);
    put<int32_t>(v + 0x70, 0);
    put<int32_t>(v + 0x74, tone_frames);
    for (uint32_t w = 0; w < 4; ++w) put<uint8_t>(v + 0x60 + w * 0x38 + 0x1a, !(first && w == 0)); // sent_to_server
    put<uint32_t>(v + 0x140, 0);            // channel resource 0
    put<float>(mixes_at, 1.0f);             // the final mix: volume 1, 48 kHz, 2 buffers, in use, id 0
    put<uint32_t>(mixes_at + 4, 48000);
    put<uint32_t>(mixes_at + 8, mix_buffers);
    put<uint8_t>(mixes_at + 0xc, 1);
    put<uint32_t>(mixes_at + 0x10, 0);
    put<uint32_t>(mixes_at + 0x18, 0x20000000);
    put<uint32_t>(mixes_at + 0x924, 0x7fffffff);
    put<uint32_t>(mixes_at + 0x928, 0xffffffff);
    put<uint8_t>(sinks_at, 1);              // a device sink, in use
    put<uint8_t>(sinks_at + 1, 1);
    std::memcpy(rt::host_pointer(in + sinks_at + 0x20), "MainAudioOut", 13);
    put<uint32_t>(sinks_at + 0x120, 2);     // two inputs: mix buffers 0 and 1
    put<uint8_t>(sinks_at + 0x124, 0);
    put<uint8_t>(sinks_at + 0x125, 1);
  }
  uint32_t update(uint32_t renderer, uint32_t out_size = reply_size) {
    std::memset(rt::host_pointer(out), 0xee, reply_size);
    return request(renderer, 4, {}, {}, {{in, update_size}}, {{out, out_size}, {out + 0x1000, 0x10}});
  }
  uint32_t wait(uint32_t event, int64_t timeout_ns) {
    poke<uint32_t>(test::data_base + 0x800, event);
    g.cpu().x[1] = test::data_base + 0x800;
    g.cpu().x[2] = 1;
    g.cpu().x[3] = static_cast<uint64_t>(timeout_ns);
    return test::Guest::svc(g.cpu(), 0x18);
  }
};

TEST_CASE("audren:u renders a 32 kHz PCM16 voice through the final mix into the device sink at 48 kHz") {
  Fixture f;
  // GetWorkBufferSize: a page-rounded size; an unsupported rate is refused with 153-41.
  REQUIRE(f.request(f.audren, 1, parameter(48000)) == 0);
  const uint64_t work = peek<uint64_t>(f.tls + 0x20);
  CHECK(work >= 0x1000);
  CHECK(work % 0x1000 == 0);
  CHECK(f.request(f.audren, 1, parameter(44100)) == 0x5299);
  // OpenAudioRenderer: the parameter, padding, the work buffer size, the aruid; pid and two copy handles.
  std::vector<uint32_t> open = parameter(48000);
  open.insert(open.end(), {0, uint32_t(work), uint32_t(work >> 32), 0, 0});
  REQUIRE(f.request(f.audren, 0, open, {}, {}, {}, true, {0xffff8001, 0xffff8001}) == 0);
  const uint32_t renderer = f.word(3);
  REQUIRE(f.request(renderer, 0, {}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 48000);
  REQUIRE(f.request(renderer, 1, {}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 240);
  REQUIRE(f.request(renderer, 3, {}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1); // stopped
  REQUIRE(f.request(renderer, 7, {}) == 0); // QuerySystemEvent
  const uint32_t event = f.word(3);
  CHECK(f.wait(event, 100'000'000) == 0); // a frame is signalled every 5 ms

  for (uint32_t i = 0; i < tone_frames; ++i) poke<int16_t>(f.samples + 2 * i, tone(i));
  f.write_update(true);
  // A reply buffer too small, and a part size that does not fit the configuration: 153-42.
  CHECK(f.update(renderer, 0x40) == 0x5499);
  poke<uint32_t>(f.in + 12, voice_size); // one voice's worth instead of two
  CHECK(f.update(renderer) == 0x5499);
  f.write_update(true);
  REQUIRE(f.update(renderer) == 0);
  CHECK(peek<uint32_t>(f.out + 4) == 0xb0);              // behaviour out
  CHECK(peek<uint32_t>(f.out + 8) == pools * 0x10);      // memory pools out
  CHECK(peek<uint32_t>(f.out + 12) == voices * 0x10);    // voices out
  CHECK(peek<uint32_t>(f.out + 0x1c) == 0x20);           // sinks out
  CHECK(peek<uint32_t>(f.out + 0x3c) == reply_size);
  CHECK(peek<uint32_t>(f.out + header_size) == 5);       // pool 0 attached
  CHECK(peek<uint32_t>(f.out + header_size + 0x10) == 0); // pool 1 unchanged
  REQUIRE(f.request(renderer, 5, {}) == 0);              // Start
  REQUIRE(f.request(renderer, 3, {}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0);

  // Frames are rendered as the clock runs: the wave buffer is consumed, then only silence follows.
  const uint64_t voice_out = f.out + header_size + pools * 0x10;
  const auto started = std::chrono::steady_clock::now();
  uint32_t consumed = 0;
  while (consumed == 0 && std::chrono::steady_clock::now() - started < std::chrono::seconds(2)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    f.write_update(false);
    REQUIRE(f.update(renderer) == 0);
    consumed = peek<uint32_t>(voice_out + 8);
  }
  CHECK(consumed == 1);
  CHECK(peek<uint64_t>(voice_out) == tone_frames); // played_sample_count
  std::this_thread::sleep_for(std::chrono::milliseconds(150)); // the resampled tone (100 ms) is mixed out
  REQUIRE(f.request(renderer, 6, {}) == 0);                    // Stop
  std::this_thread::sleep_for(std::chrono::milliseconds(20));

  std::ifstream file(f.wav, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(file), {}};
  REQUIRE(bytes.size() > 44);
  std::vector<int16_t> got((bytes.size() - 44) / 2);
  std::memcpy(got.data(), bytes.data() + 44, got.size() * 2);
  std::vector<int16_t> expected;
  for (uint64_t n = 0;; ++n) {
    const uint64_t i = n * 32000 / 48000, r = n * 32000 % 48000;
    if (i + 1 >= tone_frames) break;
    const int64_t a = tone(uint32_t(i)), b = tone(uint32_t(i + 1)), num = (b - a) * int64_t(r) + 24000;
    const int64_t step = num >= 0 ? num / 48000 : -((-num + 47999) / 48000); // floor
    expected.insert(expected.end(), {int16_t(a + step), int16_t(a + step)});
  }
  CHECK(expected.size() == 2 * 4799);
  size_t start = 0;
  while (start < got.size() && got[start] == 0) ++start;
  REQUIRE(start % 2 == 0);
  REQUIRE(got.size() >= start + expected.size());
  size_t differ = 0;
  for (size_t k = 0; k < expected.size(); ++k) differ += got[start + k] != expected[k];
  CHECK(differ == 0);
  size_t after = 0;
  for (size_t k = start + expected.size(); k < got.size(); ++k) after += got[k] != 0;
  CHECK(after == 0);
  CHECK((got.size() % (240 * 2)) == 0); // whole 5 ms frames of 240 samples
}

} // namespace
