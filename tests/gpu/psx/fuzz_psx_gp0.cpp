// Random GP0/GP1 traffic: whatever the words, the GPU must not crash, must not touch memory outside VRAM
// (the fuzz build runs under AddressSanitizer, and VRAM is a heap array with red zones on both sides),
// and GP1(01h) must always bring it back to "no command pending".
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "runtime/gpu/psx/gpu.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr size_t record = 5; // port selector + little-endian word
  constexpr size_t max_records = 64; // enough for command sequences; keeps 20000 runs short
  // One GPU for all inputs (a fresh 1 MiB VRAM per input costs more than the drawing), reset to power-on state.
  static kiln::psx::Gpu gpu;
  gpu.write_gp1(0x00000000);
  gpu.write_gp1(0x09000000);
  gpu.vram().pixels.fill(0);
  for (size_t i = 0; i + record <= size && i / record < max_records; i += record) {
    const uint32_t word = uint32_t{data[i + 1]} | uint32_t{data[i + 2]} << 8 | uint32_t{data[i + 3]} << 16 |
                          uint32_t{data[i + 4]} << 24;
    switch (data[i] & 3) {
      case 0:
      case 1: gpu.write_gp0(word); break;
      case 2: gpu.write_gp1(word); break;
      case 3: (void)gpu.read_gpuread(); break;
    }
    const kiln::psx::DrawState& state = gpu.draw_state();
    if (state.clip_x1 > 1023 || state.clip_y1 > 1023 || state.offset_x < -1024 || state.offset_x > 1023) std::abort();
  }
  gpu.write_gp1(0x01000000);
  if (gpu.pending_command()) std::abort();
  return 0;
}
