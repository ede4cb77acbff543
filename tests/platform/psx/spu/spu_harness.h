#pragma once
// Driving the SPU the way a program does: through its registers on the CPU bus (1F801C00h..), with sound RAM
// written by the manual-write FIFO.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/platform/psx/machine.h"

namespace spu_test {

constexpr uint32_t spu_register(uint32_t offset) { return 0x1F801C00u + offset; }
constexpr uint32_t voice_register(unsigned voice, uint32_t offset) { return spu_register(voice * 0x10 + offset); }
constexpr uint32_t spucnt = spu_register(0x1AA), spustat = spu_register(0x1AE), transfer_address = spu_register(0x1A6),
                   transfer_fifo = spu_register(0x1A8), transfer_control = spu_register(0x1AC),
                   key_on = spu_register(0x188), key_off = spu_register(0x18C), endx = spu_register(0x19C),
                   main_left = spu_register(0x180), main_right = spu_register(0x182), irq_address = spu_register(0x1A4);
constexpr uint16_t spu_on = 0xC000; // SPUCNT: enable, unmute, transfer mode "stop"

struct Spu {
  kiln::psx::Machine m{kiln::psx::Machine::Options{0, {}, {}, [](std::string_view) {}}};

  void write(uint32_t address, uint16_t value) { m.write16(address, value); }
  uint16_t read(uint32_t address) { return m.read16(address); }

  /// psx-spx "SPU RAM Manual Write", 32 halfwords at a time.
  void upload(uint32_t byte_address, std::span<const uint8_t> bytes) {
    write(spucnt, spu_on);
    write(transfer_control, 0x0004);
    write(transfer_address, static_cast<uint16_t>(byte_address / 8));
    for (size_t at = 0; at < bytes.size();) {
      for (unsigned h = 0; h < 32 && at < bytes.size(); ++h, at += 2)
        write(transfer_fifo, static_cast<uint16_t>(bytes[at] | (at + 1 < bytes.size() ? bytes[at + 1] << 8 : 0)));
      write(spucnt, spu_on | 0x0010); // manual write: the FIFO goes to sound RAM
      write(spucnt, spu_on);
    }
  }
  std::vector<kiln::psx::StereoFrame> run(unsigned samples) {
    std::vector<kiln::psx::StereoFrame> out;
    for (unsigned i = 0; i < samples; ++i) out.push_back(m.spu.tick());
    return out;
  }
};

/// A 16-byte ADPCM block: shift/filter byte, flags, then 28 nibbles (first sample in the low nibble).
inline std::vector<uint8_t> block(uint8_t shift_filter, uint8_t flags, std::span<const int> nibbles) {
  std::vector<uint8_t> b(16, 0);
  b[0] = shift_filter;
  b[1] = flags;
  for (size_t i = 0; i < nibbles.size() && i < 28; ++i) b[2 + i / 2] |= static_cast<uint8_t>((nibbles[i] & 0xF) << ((i & 1) * 4));
  return b;
}

} // namespace spu_test
