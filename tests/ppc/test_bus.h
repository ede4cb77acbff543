#pragma once
// A Bus for the semantics tests: 64 KiB of big-endian guest memory at address 0 (an access outside throws,
// which fails the test), a record of the platform hooks the semantics call, and a helper that decodes a word
// with kiln's table and steps it.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "recompiler/isa/ppc/encoding_table.h"
#include "runtime/core/ppc/step.h"

namespace kiln::ppc::test {

struct Bus {
  std::vector<uint8_t> memory = std::vector<uint8_t>(0x10000);
  std::vector<unsigned> sprs_written;
  std::vector<uint32_t> locked_blocks;
  int system_calls = 0;
  bool handles_system_calls = false;

  uint8_t& at(uint32_t a) {
    if (a >= memory.size()) throw std::out_of_range("test bus: address outside memory");
    return memory[a];
  }
  uint8_t read8(uint32_t a) { return at(a); }
  uint16_t read16(uint32_t a) { return static_cast<uint16_t>(at(a) << 8 | at(a + 1)); }
  uint32_t read32(uint32_t a) { return uint32_t{read16(a)} << 16 | read16(a + 2); }
  uint64_t read64(uint32_t a) { return uint64_t{read32(a)} << 32 | read32(a + 4); }
  void write8(uint32_t a, uint8_t v) { at(a) = v; }
  void write16(uint32_t a, uint16_t v) { write8(a, static_cast<uint8_t>(v >> 8)); write8(a + 1, static_cast<uint8_t>(v)); }
  void write32(uint32_t a, uint32_t v) { write16(a, static_cast<uint16_t>(v >> 16)); write16(a + 2, static_cast<uint16_t>(v)); }
  void write64(uint32_t a, uint64_t v) { write32(a, static_cast<uint32_t>(v >> 32)); write32(a + 4, static_cast<uint32_t>(v)); }

  void spr_written(Cpu&, unsigned spr, uint32_t) { sprs_written.push_back(spr); }
  void locked_cache_zero(Cpu&, uint32_t block) { locked_blocks.push_back(block); }
  bool system_call(Cpu&) {
    ++system_calls;
    return handles_system_calls;
  }
};

/// A supervisor-mode Gekko as the SDK's startup leaves it: FP available, paired singles and quantized
/// loads/stores enabled.
inline Cpu gekko() {
  Cpu c;
  c.msr = msr::fp | msr::me | msr::ir | msr::dr;
  c.spr[spr::hid2] = hid2::pse | hid2::lsqe;
  return c;
}

/// Decodes `word` with the table and steps it at c.pc.
inline void run(Cpu& c, Bus& bus, uint32_t word) {
  const Encoding* row = match_encoding(word);
  if (!row) throw std::invalid_argument("test: word is not an instruction");
  step(c, bus, row->opcode, word);
}

inline uint64_t dbl(double v) { return std::bit_cast<uint64_t>(v); }
inline double as_double(uint64_t v) { return std::bit_cast<double>(v); }

} // namespace kiln::ppc::test
