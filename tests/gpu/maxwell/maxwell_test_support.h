#pragma once
// Shared setup for the Maxwell command-processor tests: a GPU with one mapped arena and helpers to submit.
#include <cstdint>

#include "runtime/gpu/maxwell/channel.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/stream_builder.h"

namespace kiln::maxwell::test {

inline constexpr uint64_t arena = 0x100000000;   // GPU address of the test arena
inline constexpr uint64_t arena_size = 0x400000;
inline constexpr uint64_t pushbuffers = arena;    // pushbuffers go here
inline constexpr uint64_t data = arena + 0x200000; // everything else here

struct TestGpu {
  RecordingBackend backend;
  Gpu gpu{&backend};
  uint64_t next_pushbuffer = pushbuffers;
  ClassId host = ClassId::host; ///< host class of the channels submit() creates

  TestGpu() { gpu.memory().map_owned(arena, arena_size); }

  /// Places `stream` in memory and queues it on `channel` (created on demand).
  GpfifoEntry submit(const StreamBuilder& stream, uint32_t channel = 0) {
    while (gpu.channel_count() <= channel) gpu.create_channel(host);
    const GpfifoEntry entry = stream.place(gpu.memory(), next_pushbuffer);
    next_pushbuffer += (stream.size() * 4 + 0xff) & ~uint64_t{0xff};
    gpu.submit(channel, entry);
    return entry;
  }
  RunResult run(int timeout_ms = 20) { return gpu.run(RunOptions{std::chrono::milliseconds(timeout_ms)}); }
  Engine* engine(uint32_t channel, ClassId class_id) { return gpu.channel(channel).engine_of_class(static_cast<uint32_t>(class_id)); }
};

} // namespace kiln::maxwell::test
