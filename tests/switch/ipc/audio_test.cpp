// audout:u through sm and the kernel, requests from switchbrew's "Audio services" page (IAudioOutManager,
// IAudioOut, AudioOutBuffer: next, sample buffer, buffer size, data size, data offset) and IPC_Marshalling.
// The appended samples must come out in the WAV file exactly (RIFF layout: "fmt " at 12, "data" at 36), and
// buffers are released no faster than 48000 frames a second.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "runtime/platform/switch/services/default_services.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;
namespace stdfs = std::filesystem;

constexpr uint64_t names_at = test::data_base + 0x1000, structs_at = test::data_base + 0x2000, tags_at = test::data_base + 0x3000;
constexpr uint64_t handles_at = test::data_base + 0x3800;
constexpr uint32_t frames_per_buffer = 1200, buffers = 3; // 25 ms each at 48 kHz

struct Fixture : test::IpcFixture {
  stdfs::path wav = stdfs::temp_directory_path() / ("kiln_audout_" + std::to_string(::getpid()) + ".wav");
  uint32_t audout = 0;
  Fixture() {
    hos::AudioSettings settings;
    settings.wav_path = wav.string();
    hos::register_audio_out(*registry, settings);
    audout = open_service(0x753a74756f647561); // "audout:u"
    REQUIRE(audout != 0);
  }
  ~Fixture() { stdfs::remove(wav); }
  /// OpenAudioOut of the default device (empty name) for aruid 0x51: the IAudioOut.
  uint32_t open_default_out() {
    REQUIRE(request(audout, 1, {0, 0, 0x51, 0}, {}, {{names_at, 0}}, {{names_at + 0x100, 0x100}}, true, {0xffff8001}) == 0);
    return word(3);
  }
  /// Appends the AudioOutBuffer at `header` naming `frames` stereo frames at `data`.
  void append(uint32_t out, uint64_t header, uint64_t data, uint32_t frames) {
    const uint64_t fields[5] = {0, data, frames * 4u, frames * 4u, 0}; // next, buffer, size, data size, offset
    std::memcpy(rt::host_pointer(header), fields, sizeof fields);
    REQUIRE(request(out, 3, {uint32_t(header), uint32_t(header >> 32)}, {}, {{header, 0x28}}) == 0);
  }
  std::string wav_file() const {
    std::ifstream in(wav, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  uint32_t wait(uint32_t event, int64_t timeout_ns) {
    poke<uint32_t>(handles_at, event);
    g.cpu().x[1] = handles_at;
    g.cpu().x[2] = 1;
    g.cpu().x[3] = static_cast<uint64_t>(timeout_ns);
    return test::Guest::svc(g.cpu(), 0x18); // WaitSynchronization
  }
};

TEST_CASE("audout:u plays appended buffers at 48 kHz into the WAV, releasing them as they finish") {
  Fixture f;
  // ListAudioOuts: names of 0x100 bytes into a B buffer; the count.
  REQUIRE(f.request(f.audout, 0, {}, {}, {}, {{names_at, 0x100}}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(names_at))) == "DeviceOut");
  // OpenAudioOut {u32 rate 0, u16 channels 0, u16 pad, u64 aruid} + pid + the process handle, name in (A, empty:
  // the default) and out (B); replies {rate, channels, format, state} and the IAudioOut.
  std::memcpy(rt::host_pointer(names_at), "DeviceOut", 10);
  REQUIRE(f.request(f.audout, 1, {0, 0, 0x51, 0}, {}, {{names_at, 10}}, {{names_at + 0x100, 0x100}}, true, {0xffff8001}) == 0);
  const uint32_t out = f.word(3);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 48000);
  CHECK(peek<uint32_t>(f.tls + 0x24) == 2);
  CHECK(peek<uint32_t>(f.tls + 0x28) == 2); // PcmInt16
  CHECK(peek<uint32_t>(f.tls + 0x2c) == 1); // Stopped
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(names_at + 0x100))) == "DeviceOut");
  // Another device name, another rate: refused.
  std::memcpy(rt::host_pointer(names_at), "Speaker", 8);
  CHECK(f.request(f.audout, 1, {0, 0, 0x51, 0}, {}, {{names_at, 8}}, {{names_at + 0x100, 0x100}}, true, {0xffff8001}) == 0x299); // 153-1
  CHECK(f.request(f.audout, 1, {44100, 2, 0x51, 0}, {}, {{names_at, 0}}, {{names_at + 0x100, 0x100}}, true, {0xffff8001}) == 0x699); // 153-3

  REQUIRE(f.request(out, 4, {}) == 0); // RegisterBufferEvent: a copy handle
  const uint32_t event = f.word(3);

  // Three buffers of a known ramp in heap memory, each with its AudioOutBuffer.
  const uint64_t samples = f.g.heap(0x200000);
  std::vector<int16_t> expected;
  for (uint32_t i = 0; i < buffers * frames_per_buffer * 2; ++i) expected.push_back(static_cast<int16_t>(i * 37 - 20000));
  for (uint32_t b = 0; b < buffers; ++b) {
    const uint64_t data = samples + b * 0x10000, header = structs_at + b * 0x40;
    std::memcpy(rt::host_pointer(data + 0x20), expected.data() + b * frames_per_buffer * 2, frames_per_buffer * 4);
    const uint64_t fields[5] = {0, data, 0x10000, frames_per_buffer * 4, 0x20}; // next, buffer, size, data size, offset
    std::memcpy(rt::host_pointer(header), fields, sizeof fields);
    REQUIRE(f.request(out, 3, {uint32_t(header), uint32_t(header >> 32)}, {}, {{header, 0x28}}) == 0);
  }
  REQUIRE(f.request(out, 6, {uint32_t(structs_at), uint32_t(structs_at >> 32)}) == 0); // ContainsAudioOutBuffer
  CHECK(peek<uint8_t>(f.tls + 0x20) == 1);
  // A buffer whose samples are not in guest memory.
  const uint64_t bad[5] = {0, 0x1000, 0x1000, 0x100, 0};
  std::memcpy(rt::host_pointer(structs_at + 0x100), bad, sizeof bad);
  CHECK(f.request(out, 3, {uint32_t(structs_at + 0x100), uint32_t((structs_at + 0x100) >> 32)}, {}, {{structs_at + 0x100, 0x28}}) ==
        0x5499); // 153-42

  REQUIRE(f.request(out, 0, {}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1); // still stopped: nothing plays
  CHECK(f.wait(event, 50'000'000) == 0xea01); // TimedOut
  const auto started = std::chrono::steady_clock::now();
  REQUIRE(f.request(out, 1, {}) == 0); // Start
  REQUIRE(f.request(out, 0, {}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0);

  std::vector<uint64_t> released;
  while (released.size() < buffers) {
    REQUIRE(f.wait(event, 2'000'000'000) == 0);
    f.g.cpu().x[0] = event;
    REQUIRE(test::Guest::svc(f.g.cpu(), 0x17) == 0); // ResetSignal
    REQUIRE(f.request(out, 5, {}, {}, {}, {{tags_at, 8 * 4}}) == 0); // GetReleasedAudioOutBuffer
    for (uint32_t i = 0; i < peek<uint32_t>(f.tls + 0x20); ++i) released.push_back(peek<uint64_t>(tags_at + 8 * i));
  }
  const double elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  CHECK(elapsed_ms >= buffers * 25.0 - 1); // played at 48000 frames a second, not at once
  CHECK(released == std::vector<uint64_t>{structs_at, structs_at + 0x40, structs_at + 0x80});
  REQUIRE(f.request(out, 6, {uint32_t(structs_at), uint32_t(structs_at >> 32)}) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 0);
  REQUIRE(f.request(out, 2, {}) == 0); // Stop

  const std::string file = f.wav_file();
  REQUIRE(file.size() == 44 + expected.size() * 2);
  CHECK(file.substr(0, 4) == "RIFF");
  CHECK(file.substr(8, 8) == "WAVEfmt ");
  uint32_t rate = 0, data_bytes = 0;
  uint16_t channels = 0, bits = 0;
  std::memcpy(&channels, file.data() + 22, 2);
  std::memcpy(&rate, file.data() + 24, 4);
  std::memcpy(&bits, file.data() + 34, 2);
  std::memcpy(&data_bytes, file.data() + 40, 4);
  CHECK(channels == 2);
  CHECK(rate == 48000);
  CHECK(bits == 16);
  CHECK(data_bytes == expected.size() * 2);
  CHECK(std::memcmp(file.data() + 44, expected.data(), expected.size() * 2) == 0);
}

TEST_CASE("IAudioOut counts buffers and played frames, flushes unplayed buffers and scales by its volume") {
  Fixture f;
  const uint32_t out = f.open_default_out();
  REQUIRE(f.request(out, 4, {}) == 0); // RegisterBufferEvent
  const uint32_t event = f.word(3);
  const uint64_t samples = f.g.heap(0x200000);
  std::vector<int16_t> ramp;
  for (uint32_t i = 0; i < frames_per_buffer * 2; ++i) ramp.push_back(static_cast<int16_t>(i * 53 - 30000));
  std::memcpy(rt::host_pointer(samples), ramp.data(), ramp.size() * 2);

  // Stopped: three buffers wait; FlushAudioOutBuffers (11) releases them unplayed and says it flushed.
  for (uint32_t b = 0; b < 3; ++b) f.append(out, structs_at + b * 0x40, samples, frames_per_buffer);
  REQUIRE(f.request(out, 9, {}) == 0); // GetAudioOutBufferCount
  CHECK(peek<uint32_t>(f.tls + 0x20) == 3);
  REQUIRE(f.request(out, 11, {}) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 1);
  CHECK(f.wait(event, 0) == 0); // signalled
  REQUIRE(f.request(out, 5, {}, {}, {}, {{tags_at, 8 * 4}}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 3);
  CHECK(peek<uint64_t>(tags_at + 16) == structs_at + 0x80);
  REQUIRE(f.request(out, 9, {}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0);
  REQUIRE(f.request(out, 11, {}) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 0); // nothing left to flush
  REQUIRE(f.request(out, 10, {}) == 0);    // GetAudioOutPlayedSampleCount
  CHECK(peek<uint64_t>(f.tls + 0x20) == 0);

  // Volume (12/13): 1 at first; a negative volume is refused (153-6); at 0.5 every sample is halved, rounded.
  REQUIRE(f.request(out, 13, {}) == 0);
  CHECK(peek<float>(f.tls + 0x20) == 1.0f);
  const float minus_one = -1.0f, half = 0.5f;
  uint32_t bits;
  std::memcpy(&bits, &minus_one, 4);
  CHECK(f.request(out, 12, {bits}) == 0xc99);
  std::memcpy(&bits, &half, 4);
  REQUIRE(f.request(out, 12, {bits}) == 0);
  REQUIRE(f.request(out, 13, {}) == 0);
  CHECK(peek<float>(f.tls + 0x20) == 0.5f);
  f.append(out, structs_at, samples, frames_per_buffer);
  f.g.cpu().x[0] = event;
  REQUIRE(test::Guest::svc(f.g.cpu(), 0x17) == 0); // ResetSignal
  REQUIRE(f.request(out, 1, {}) == 0);             // Start
  REQUIRE(f.wait(event, 2'000'000'000) == 0);
  REQUIRE(f.request(out, 10, {}) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == frames_per_buffer);
  REQUIRE(f.request(out, 2, {}) == 0);

  const std::string file = f.wav_file();
  REQUIRE(file.size() == 44 + ramp.size() * 2); // the flushed buffers never played
  std::vector<int16_t> played(ramp.size());
  std::memcpy(played.data(), file.data() + 44, played.size() * 2);
  size_t differing = 0;
  for (size_t i = 0; i < ramp.size(); ++i) differing += played[i] != static_cast<int16_t>(std::lround(ramp[i] * 0.5));
  CHECK(differing == 0);
}

} // namespace
