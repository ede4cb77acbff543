// Capture and replay: a recorded frame replays to the same draws and memory, twice over; damaged files are
// reported with their offset.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/maxwell/replay.h"
#include "runtime/gpu/maxwell/synthetic_frame.h"
#include "tests/gpu/maxwell/maxwell_test_support.h"

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;

namespace {
std::filesystem::path temp_file(const char* name) {
  return std::filesystem::temp_directory_path() / (std::string("kiln_maxwell_") + name);
}

Capture record_frame(size_t& draws) {
  RecordingBackend backend;
  Gpu gpu(&backend);
  CaptureRecorder recorder(gpu);
  submit_synthetic_frame(gpu, SyntheticFrameOptions{40});
  REQUIRE(gpu.run().idle);
  REQUIRE(gpu.diagnostics().empty());
  draws = backend.draws;
  // A CPU write between submissions, and a second submission that reads it through a copy.
  // The constant buffer page was read by the GPU before, so the capture holds its old content.
  gpu.memory().write_u32(0x204010ff0, 0xfeedface);
  recorder.note_cpu_write(0x204010ff0, 4);
  StreamBuilder s;
  s.assume_bound(4, ClassId::copy);
  const uint32_t copy[] = {2, 0x4010ff0, 2, 0x4060000, 0, 0, 4, 1};
  s.incrementing(4, "OFFSET_IN_UPPER", copy);
  s.method(4, "LAUNCH_DMA", 1u | (1u << 7) | (1u << 8));
  gpu.submit(0, s.place(gpu.memory(), 0x203000000));
  REQUIRE(gpu.run().idle);
  return recorder.finish();
}
} // namespace

TEST_CASE("a captured frame replays to the same draws and memory, and twice to identical state", "[maxwell][capture]") {
  size_t draws = 0;
  const Capture capture = record_frame(draws);
  CHECK(draws == 80); // 40 direct draws and 40 through the macro
  const auto path = temp_file("frame.kgc");
  capture.save(path);
  const Capture loaded = Capture::load(path);
  CHECK(loaded.pages == capture.pages);
  // Two submissions; between them the CPU write the test reports, and the reports page the first submission's GPU
  // work wrote (the recorder records every touched page that changed; replaying it rewrites the same bytes).
  std::vector<std::pair<int, uint64_t>> events;
  for (const auto& e : loaded.events) events.emplace_back(int(e.kind), e.address);
  CHECK(events == std::vector<std::pair<int, uint64_t>>{{0, 0}, {1, 0x204010ff0}, {1, 0x204020000}, {0, 0}});

  const ReplayResult first = replay(loaded);
  const ReplayResult second = replay(loaded);
  CHECK(first.error_count() == 0);
  size_t replayed_draws = 0;
  for (const auto& event : first.events) replayed_draws += std::holds_alternative<std::shared_ptr<const DrawSnapshot>>(event);
  CHECK(replayed_draws == draws);
  CHECK(first.memory_digest == second.memory_digest);
  REQUIRE(first.events.size() == second.events.size());
  for (size_t i = 0; i < first.events.size(); ++i) {
    if (const auto* a = std::get_if<std::shared_ptr<const DrawSnapshot>>(&first.events[i])) {
      REQUIRE(**a == *std::get<std::shared_ptr<const DrawSnapshot>>(second.events[i]));
    }
  }
  CHECK(first.uploaded_macros.size() == 1);
  std::filesystem::remove(path);
}

TEST_CASE("the replay applies CPU writes between submissions", "[maxwell][capture]") {
  size_t draws = 0;
  const Capture capture = record_frame(draws);
  Gpu initial;
  map_capture_memory(initial, capture);
  CHECK(initial.memory().read_u32(0x204010ff0) == 0); // the page as the frame found it
  uint32_t copied = 0;
  ReplayOptions options;
  options.after = [&](const Gpu& gpu) { copied = gpu.memory().read_u32(0x204060000); };
  const ReplayResult result = replay(capture, options);
  CHECK(result.error_count() == 0);
  CHECK(copied == 0xfeedface); // the CPU write event reached memory before the copy read it
}

TEST_CASE("CPU writes a title never reports are captured at the next submission", "[maxwell][capture]") {
  RecordingBackend backend;
  Gpu gpu(&backend);
  CaptureRecorder recorder(gpu);
  submit_synthetic_frame(gpu, SyntheticFrameOptions{2});
  REQUIRE(gpu.run().idle);
  // As a running title does: the CPU rewrites memory the GPU read before (the constant buffer page) and submits
  // a copy of it, without calling note_cpu_write.
  gpu.memory().write_u32(0x204010ff0, 0x600dcafe);
  StreamBuilder s;
  s.assume_bound(4, ClassId::copy);
  const uint32_t copy[] = {2, 0x4010ff0, 2, 0x4060000, 0, 0, 4, 1};
  s.incrementing(4, "OFFSET_IN_UPPER", copy);
  s.method(4, "LAUNCH_DMA", 1u | (1u << 7) | (1u << 8));
  gpu.submit(0, s.place(gpu.memory(), 0x203000000));
  REQUIRE(gpu.run().idle);
  REQUIRE(gpu.memory().read_u32(0x204060000) == 0x600dcafe);
  const Capture capture = recorder.finish();
  size_t page_writes = 0;
  for (const CaptureEvent& event : capture.events) page_writes += event.kind == CaptureEvent::Kind::cpu_write && event.address == 0x204010000;
  CHECK(page_writes == 1);

  uint32_t copied = 0;
  ReplayOptions options;
  options.after = [&](const Gpu& replayed) { copied = replayed.memory().read_u32(0x204060000); };
  CHECK(replay(capture, options).error_count() == 0);
  CHECK(copied == 0x600dcafe); // without the recorded page the replay would copy the constant buffer's old word
}

TEST_CASE("damaged capture files are reported with file and offset", "[maxwell][capture]") {
  const auto path = temp_file("damaged.kgc");
  kiln::write_file_if_changed(path, std::string("KILNGPU2........"));
  try {
    Capture::load(path);
    FAIL("no error");
  } catch (const kiln::Error& error) {
    CHECK(error.location().file == path.string());
    CHECK(error.location().offset == 0u);
  }
  size_t draws = 0;
  record_frame(draws).save(path);
  auto bytes = kiln::read_file(path);
  bytes.resize(bytes.size() - 7);
  std::filesystem::remove(path);
  kiln::write_file_if_changed(path, bytes);
  CHECK_THROWS_AS(Capture::load(path), kiln::Error);
  std::filesystem::remove(path);
}

TEST_CASE("KILN_GPU_CAPTURE records what a GPU processes until it is destroyed", "[maxwell][capture]") {
  const auto path = temp_file("environment.kgc");
  std::filesystem::remove(path);
  ::setenv("KILN_GPU_CAPTURE", path.c_str(), 1);
  {
    Gpu gpu;
    submit_synthetic_frame(gpu, SyntheticFrameOptions{2});
    REQUIRE(gpu.run().idle);
  }
  ::unsetenv("KILN_GPU_CAPTURE");
  REQUIRE(std::filesystem::exists(path));
  const ReplayResult result = replay(Capture::load(path));
  CHECK(result.error_count() == 0);
  size_t draws = 0;
  for (const auto& event : result.events) draws += std::holds_alternative<std::shared_ptr<const DrawSnapshot>>(event);
  CHECK(draws == 4);
  std::filesystem::remove(path);
}

TEST_CASE("a capture keeps each channel's host class, so an Ampere channel's host methods replay", "[maxwell][capture]") {
  RecordingBackend backend;
  Gpu gpu(&backend);
  gpu.memory().map_owned(arena, arena_size);
  CaptureRecorder recorder(gpu);
  gpu.create_channel();                     // B06F
  gpu.create_channel(ClassId::host_ampere); // C56F
  StreamBuilder s;
  s.host(host_method::sem_addr_lo, static_cast<uint32_t>(data)).host(host_method::sem_addr_hi, static_cast<uint32_t>(data >> 32));
  s.host(host_method::sem_payload_lo, 0x5150).host(host_method::sem_execute, 1); // RELEASE, 32-bit
  gpu.submit(1, s.place(gpu.memory(), pushbuffers));
  REQUIRE(gpu.run().idle);
  const auto path = temp_file("ampere.kgc");
  recorder.finish().save(path);
  const Capture loaded = Capture::load(path);
  CHECK(loaded.host_classes == std::vector<uint32_t>{0xb06f, 0xc56f});
  const ReplayResult result = replay(loaded);
  CHECK(result.error_count() == 0);
  CHECK(result.memory_digest == replay(loaded).memory_digest);
  std::filesystem::remove(path);
}
