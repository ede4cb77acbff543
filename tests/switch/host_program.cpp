// A small Switch "program" in the host shell, its guest side driven from C++ through the kernel's SVCs and IPC
// (tests/switch/ipc): three 320x180 frames queued through vi's buffer queue (a block-linear nvmap surface; frame
// k is a gradient with a white 16x16 square at x = 16 + 96k, y = 82) and a ramp of 4800 stereo frames
// (sample i = i * 37 - 20000, wrapped to 16 bits) appended to audout:u and played. It takes the host options as
// a recompiled Switch program does (hos::HostSession, the same parser); headless, the frames go to
// $KILN_FRAME_DIR and the audio to kiln-audout.wav as in any Switch run.
//   switch_host_program [HOST OPTIONS] [--wait-for-a] [--check-vsync]
//                                           run (status 0 when every request was answered as expected); with
//                                           --wait-for-a, after the frames wait for hid to report A on No1;
//                                           --check-vsync: how vi's vsync event follows the frames
//   switch_host_program check-audio RAW     SDL's disk driver output (48 kHz stereo S16) is, after its leading
//                                           silence, the ramp exactly (bar its last frame), then silence
//   switch_host_program check-wav RAW WAV   the same for the samples of a 48 kHz stereo WAV (a headless run's)
#define CATCH_CONFIG_RUNNER
#define CATCH_CONFIG_NO_POSIX_SIGNALS // SIGTERM is SDL's quit event, as for any title
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>

#include "runtime/base/error.h"
#include "runtime/platform/switch/host_session.h"
#include "tests/switch/ipc/vi_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;
using namespace kiln::test::vi;

constexpr uint32_t width = 320, height = 180, pitch = width * 4, block_height_log2 = 4, frame_count = 3;
constexpr uint32_t tone_frames = 4800;
constexpr uint64_t names_at = kiln::test::data_base + 0x8000, structs_at = kiln::test::data_base + 0x9000;

host::HostOptions host_options;
bool wait_for_a = false; ///< --wait-for-a: after the frames, wait (up to 20 s) until hid reports A held on No1
bool check_vsync = false; ///< --check-vsync: count the frames after which the vsync event follows the host's clock

/// hid as a title starts it (switchbrew "HID services"; the shared memory of "HID Shared Memory": npad No1 at
/// 0x9a00, its FullKey lifo at 0x28: a 0x20-byte header {unused, count of entries, tail, count} and entries of
/// 0x30 bytes, buttons at 0x10), then polls No1's latest state until A (bit 0) is held.
bool pad_a_held(ViFixture& f) {
  constexpr uint64_t shared_at = 0x3000000000, ids_at = kiln::test::data_base + 0xa000;
  const uint32_t hid = f.open_service(0x646968); // "hid"
  REQUIRE(hid != 0);
  REQUIRE(f.request(hid, 0, {0x51, 0}, {}, {}, {}, true) == 0); // CreateAppletResource(aruid)
  const uint32_t resource = f.word(3);
  REQUIRE(f.request(resource, 0, {}) == 0); // GetSharedMemoryHandle
  f.g.cpu().x[0] = f.word(3);
  f.g.cpu().x[1] = shared_at;
  f.g.cpu().x[2] = 0x40000;
  f.g.cpu().x[3] = 1;
  REQUIRE(kiln::test::Guest::svc(f.g.cpu(), 0x13) == 0); // MapSharedMemory, read-only
  REQUIRE(f.request(hid, 100, {0x1, 0, 0x51, 0}, {}, {}, {}, true) == 0); // SetSupportedNpadStyleSet(FullKey)
  poke<uint32_t>(ids_at, 0);                                             // No1
  REQUIRE(f.request(hid, 102, {0x51, 0}, {{ids_at, 4}}, {}, {}, true) == 0); // SetSupportedNpadIdType
  REQUIRE(f.request(hid, 103, {0x51, 0}, {}, {}, {}, true) == 0);        // ActivateNpad
  std::printf("pad: waiting for A\n");
  std::fflush(stdout);
  const uint64_t lifo = shared_at + 0x9a00 + 0x28;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t tail = peek<uint64_t>(lifo + 0x10);
    if (peek<uint64_t>(lifo + 0x18) > 0 && tail < 17 && (peek<uint64_t>(lifo + 0x20 + tail * 0x30 + 0x10) & 1)) {
      std::printf("pad: A held\n");
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

int16_t ramp(uint32_t i) { return static_cast<int16_t>(static_cast<uint16_t>(i * 37 - 20000)); }

uint32_t pixel(uint32_t frame, uint32_t x, uint32_t y) {
  const uint32_t square_x = 16 + 96 * frame, square_y = 82;
  if (x >= square_x && x < square_x + 16 && y >= square_y && y < square_y + 16) return 0xffffffff;
  return (x * 255 / width) | (y * 255 / height) << 8 | 0x40u << 16 | 0xffu << 24;
}

/// Queues the frames through a stray layer's buffer queue: connect, one preallocated buffer, then dequeue,
/// draw and queue it once per frame.
uint32_t wait(ViFixture& f, uint32_t handle, int64_t timeout_ns) {
  poke<uint32_t>(names_at + 0x800, handle);
  f.g.cpu().x[1] = names_at + 0x800;
  f.g.cpu().x[2] = 1;
  f.g.cpu().x[3] = static_cast<uint64_t>(timeout_ns);
  return kiln::test::Guest::svc(f.g.cpu(), 0x18); // WaitSynchronization
}

void present_frames(ViFixture& f) {
  uint32_t vsync = 0, paced = 0;
  if (check_vsync) {
    REQUIRE(f.call(f.display_service, 5202, {1, 0}) == 0); // GetDisplayVsyncEvent(the default display, id 1)
    vsync = f.word(3);
  }
  REQUIRE(f.call(f.display_service, 2030, {0, 0, 1, 0}, window_at, 0x100) == 0); // CreateStrayLayer
  const int32_t id = static_cast<int32_t>(peek<uint32_t>(window_at + peek<uint32_t>(window_at + 4) + 8));
  const uint64_t heap = f.g.heap(0x200000);
  constexpr uint32_t plane_offset = 0x1000;
  const uint32_t rows = (height + (8u << block_height_log2) - 1) / (8u << block_height_log2) * (8u << block_height_log2);
  auto& gpu = hos::gpu_devices();
  uint32_t handle = 0;
  REQUIRE(gpu.create_buffer(plane_offset + pitch * rows, handle) == nvgpu_devices::Status::ok);
  REQUIRE(gpu.allocate_buffer(handle, 0x1000, 0xfe, heap) == nvgpu_devices::Status::ok);
  REQUIRE(f.transact(id, 10, connect_parcel()).back() == 0);
  const std::vector<uint32_t> gb = graphic_buffer(handle, width, height, pitch, plane_offset, block_height_log2);
  REQUIRE(f.transact(id, 14, preallocate_parcel(gb)).back() == 0);
  for (uint32_t frame = 0; frame < frame_count; ++frame) {
    const auto dequeued = f.transact(id, 3, dequeue_parcel(width, height));
    REQUIRE(dequeued.front() == 0); // slot 0
    REQUIRE(dequeued.back() == 0);
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x < width; ++x)
        poke<uint32_t>(heap + plane_offset + block_linear_offset(x * 4, y, pitch, block_height_log2), pixel(frame, x, y));
    REQUIRE(f.transact(id, 7, queue_parcel()).back() == 0);
    if (vsync) {
      // The queue returned at the host frame clock's vertical blank: the event is signalled already, and after a
      // reset vi's own 60 Hz clock stays quiet for the next 8 ms.
      const bool signalled = wait(f, vsync, 0) == 0;
      f.g.cpu().x[0] = vsync;
      kiln::test::Guest::svc(f.g.cpu(), 0x17); // ResetSignal (InvalidState when it was not signalled)
      const bool quiet = wait(f, vsync, 8'000'000) == 0xea01;  // TimedOut
      paced += signalled && quiet;
    }
  }
  if (vsync) std::printf("vsync: %u of %u frames signalled at the host's vblank, then quiet\n", paced, frame_count);
}

/// Appends the ramp to an IAudioOut, starts it and waits until the buffer is released (it has been played).
void play_tone(ViFixture& f) {
  const uint32_t audout = f.open_service(0x753a74756f647561); // "audout:u"
  REQUIRE(audout != 0);
  REQUIRE(f.request(audout, 1, {0, 0, 0x51, 0}, {}, {{names_at, 0}}, {{names_at + 0x100, 0x100}}, true, {0xffff8001}) == 0);
  const uint32_t out = f.word(3);
  REQUIRE(f.request(out, 4, {}) == 0); // RegisterBufferEvent
  const uint32_t event = f.word(3);
  const uint64_t data = f.g.heap(0x200000) + 0x100000;
  for (uint32_t i = 0; i < tone_frames * 2; ++i) poke<int16_t>(data + 2 * i, ramp(i));
  const uint64_t fields[5] = {0, data, tone_frames * 4, tone_frames * 4, 0}; // next, buffer, size, data size, offset
  std::memcpy(rt::host_pointer(structs_at), fields, sizeof fields);
  REQUIRE(f.request(out, 3, {uint32_t(structs_at), uint32_t(structs_at >> 32)}, {}, {{structs_at, 0x28}}) == 0);
  REQUIRE(f.request(out, 1, {}) == 0); // Start
  REQUIRE(wait(f, event, 2'000'000'000) == 0); // released
}

std::vector<int16_t> samples_of(const char* path, size_t offset) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), {}};
  std::vector<int16_t> samples(bytes.size() > offset ? (bytes.size() - offset) / 2 : 0);
  std::memcpy(samples.data(), bytes.data() + offset, samples.size() * 2);
  return samples;
}

/// SDL's disk driver output in `path` is, after its leading silence, `expected` exactly, then silence. The last
/// frame may be missing: the host's resampler writes an output frame once the input frame after it has arrived
/// (docs/host.md), and after the last one nothing arrives.
int check_audio(const char* path, const std::vector<int16_t>& expected, const char* what) {
  const std::vector<int16_t> out = samples_of(path, 0);
  size_t start = 0;
  while (start < out.size() && out[start] == 0) ++start;
  start -= start % 2;
  size_t equal = 0;
  while (start + equal < out.size() && equal < expected.size() && out[start + equal] == expected[equal]) ++equal;
  size_t after = 0;
  for (size_t k = start + equal; k < out.size(); ++k) after += out[k] != 0;
  std::printf("%s: %zu leading silent frames, then %zu of %zu frames equal to %s, %zu non-zero samples after\n", path, start / 2,
              equal / 2, expected.size() / 2, what, after);
  return expected.size() >= 2 && equal >= expected.size() - 2 && after == 0 ? 0 : 1;
}

} // namespace

TEST_CASE("a Switch program's frames and audio reach the host shell") {
  hos::SystemSettings settings;
  hos::HostSession session(host_options, "kiln: switch_host_program", [] {});
  session.connect(settings);
  const int result = session.run([&settings] {
    ViFixture f(settings, false);
    present_frames(f);
    if (wait_for_a) return pad_a_held(f) ? 0 : 1;
    play_tone(f);
    return 0;
  });
  CHECK(result == 0);
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "check-audio") {
    std::vector<int16_t> expected;
    for (uint32_t i = 0; i < tone_frames * 2; ++i) expected.push_back(ramp(i));
    return check_audio(argv[2], expected, "the ramp");
  }
  if (argc == 4 && std::string(argv[1]) == "check-wav") // a 48 kHz stereo WAV: its data follows the 44-byte header
    return check_audio(argv[2], samples_of(argv[3], 44), argv[3]);
  std::vector<std::string> arguments(argv + 1, argv + argc);
  try {
    host_options = host::take_host_options(arguments);
  } catch (const Error& e) {
    std::fprintf(stderr, "kiln: %s\n", e.what());
    return 64;
  }
  for (const auto& [name, flag] : {std::pair{"--wait-for-a", &wait_for_a}, std::pair{"--check-vsync", &check_vsync}})
    if (!arguments.empty() && arguments[0] == name) {
      *flag = true;
      arguments.erase(arguments.begin());
    }
  if (!arguments.empty()) {
    std::fprintf(stderr, "kiln: unknown option '%s'\n", arguments[0].c_str());
    return 64;
  }
  char* catch_arguments[] = {argv[0], nullptr};
  return Catch::Session().run(1, catch_arguments);
}
