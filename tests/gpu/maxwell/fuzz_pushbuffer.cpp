// libFuzzer target: arbitrary bytes as GPFIFO entries and pushbuffer words on two channels. Every outcome must
// be a diagnostic, never a crash, a hang or an unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/gpu/maxwell/gpu.h"

using namespace kiln::maxwell;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  constexpr uint64_t base = 0x100000000;
  constexpr uint64_t arena = 0x40000;
  RecordingBackend backend;
  Gpu gpu(&backend);
  std::span<uint8_t> memory = gpu.memory().map_owned(base, arena);
  const size_t words = std::min<size_t>((size - 4) / 4, arena / 4 - 16);
  std::memcpy(memory.data(), data + 4, words * 4);
  gpu.create_channel();
  gpu.create_channel();
  // The first bytes choose how the words are split into entries (counts crossing entries, empty entries) and
  // where an extra, possibly unmapped, entry points.
  const uint32_t split = words == 0 ? 0 : data[0] % (words + 1);
  gpu.submit(0, GpfifoEntry::commands(base, split));
  gpu.submit(0, GpfifoEntry::commands(base + split * 4ull, static_cast<uint32_t>(words - split)));
  gpu.submit(1, GpfifoEntry::commands(base + (data[1] % 64) * 4ull, data[2]));
  gpu.submit(1, GpfifoEntry::decode(static_cast<uint32_t>(base) + data[3] * 0x1000u, (data[3] << 10) | 1));
  gpu.run(RunOptions{std::chrono::milliseconds(0), true});
  return 0;
}
