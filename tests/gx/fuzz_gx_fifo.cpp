// Feeds arbitrary bytes through the FIFO ring and the command grammar in bursts: every byte is consumed,
// reported or kept as a partial command; nothing may crash, hang or grow without bound.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/gpu/gx/fifo.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> ram(0x20000);
  // The input also serves as guest RAM, so display lists and arrays read fuzzer-chosen bytes.
  for (size_t i = 0; i < size && 0x8000 + i < ram.size(); ++i) ram[0x8000 + i] = data[i];
  kiln::gx::CommandProcessor processor(ram);
  kiln::gx::CommandFifo fifo(ram, processor);
  fifo.set_ring(0x1000, 0x1FE0);
  for (size_t at = 0; at < size; at += kiln::gx::burst_bytes) {
    std::array<uint8_t, kiln::gx::burst_bytes> burst{};
    for (size_t i = 0; i < burst.size() && at + i < size; ++i) burst[i] = data[at + i];
    fifo.write_burst(burst);
    fifo.run();
    (void)processor.take_events();
  }
  return 0;
}
