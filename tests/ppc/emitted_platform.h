#pragma once
// The platform the generated-code test compiles recompiled functions against (recompiler/emit/ppc/function_writer
// names it `kiln_platform`): a Machine with the CPU and a memory whose every byte has a value (a hash of the
// address and the state's seed, unless written), a Bus that records every access and platform hook in order,
// and the platform calls: control leaving the function (call_guest) and an exception (resume_after_exception)
// end the run by throwing, so what the function did up to there is what the test compares with step().
#include <cstdint>
#include <vector>

#include "runtime/core/ppc/cpu.h"
#include "runtime/core/ppc/instructions.h"

namespace kiln::ppc::emitted {

/// One thing the semantics did through the Bus.
struct Access {
  enum Kind : uint8_t { read, write, spr_read, spr_written, msr_written, cache_block, system_call };
  Kind kind;
  uint8_t size;     ///< bytes (read, write); the CacheOp (cache_block)
  uint32_t address; ///< the address (read, write, cache_block); the SPR number (spr_read, spr_written)
  uint64_t value;   ///< read or written value; the old value (spr_written)
  bool operator==(const Access&) const = default;
};

struct Machine {
  Cpu cpu;
  uint64_t memory_seed = 0;
  bool handles_system_calls = false; ///< what the Bus's system_call hook answers
  std::vector<Access> log;
  std::vector<std::pair<uint32_t, uint8_t>> written; ///< bytes stored, in order

  uint8_t byte(uint32_t a) const {
    for (auto it = written.rbegin(); it != written.rend(); ++it)
      if (it->first == a) return it->second;
    uint64_t x = memory_seed ^ (uint64_t{a} * 0x9E3779B97F4A7C15ull);
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return static_cast<uint8_t>(x >> 56);
  }
  uint64_t read(uint32_t a, unsigned size) {
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v = v << 8 | byte(a + i);
    log.push_back({Access::read, static_cast<uint8_t>(size), a, v});
    return v;
  }
  void write(uint32_t a, unsigned size, uint64_t v) {
    log.push_back({Access::write, static_cast<uint8_t>(size), a, v});
    for (unsigned i = 0; i < size; ++i) written.emplace_back(a + i, static_cast<uint8_t>(v >> (8 * (size - 1 - i))));
  }
};

/// Every hook but locked_cache_zero, whose default (the block zeroed through writes) is then what runs.
struct Bus {
  Machine& m;
  uint8_t read8(uint32_t a) { return static_cast<uint8_t>(m.read(a, 1)); }
  uint16_t read16(uint32_t a) { return static_cast<uint16_t>(m.read(a, 2)); }
  uint32_t read32(uint32_t a) { return static_cast<uint32_t>(m.read(a, 4)); }
  uint64_t read64(uint32_t a) { return m.read(a, 8); }
  void write8(uint32_t a, uint8_t v) { m.write(a, 1, v); }
  void write16(uint32_t a, uint16_t v) { m.write(a, 2, v); }
  void write32(uint32_t a, uint32_t v) { m.write(a, 4, v); }
  void write64(uint32_t a, uint64_t v) { m.write(a, 8, v); }
  bool system_call(Cpu&) {
    m.log.push_back({Access::system_call, 0, 0, 0});
    return m.handles_system_calls;
  }
  void spr_read(Cpu&, unsigned spr) { m.log.push_back({Access::spr_read, 0, spr, 0}); }
  void spr_written(Cpu&, unsigned spr, uint32_t old) { m.log.push_back({Access::spr_written, 0, spr, old}); }
  void msr_written(Cpu& c) { m.log.push_back({Access::msr_written, 0, 0, c.msr}); }
  void cache_block(Cpu&, CacheOp op, uint32_t ea) { m.log.push_back({Access::cache_block, static_cast<uint8_t>(op), ea, 0}); }
};

/// How a generated function's run ended besides returning: control left it for `address`, or the instruction
/// at `address` raised an exception.
struct LeftFor {
  uint32_t address;
};
struct RaisedAt {
  uint32_t address;
};
struct Untranslated {
  uint32_t address;
};

[[noreturn]] inline void call_guest(Machine&, uint32_t address) { throw LeftFor{address}; }
[[noreturn]] inline void resume_after_exception(Machine&, uint32_t pc) { throw RaisedAt{pc}; }
[[noreturn]] inline void untranslated(Machine&, uint32_t address, uint32_t, const char*) { throw Untranslated{address}; }
/// Unreachable here: every call leaves through call_guest, which does not come back.
[[noreturn]] inline void returned_elsewhere(Machine&, uint32_t call_address, uint32_t, uint32_t, uint32_t, uint32_t) {
  throw Untranslated{call_address};
}

/// One generated case: an instruction of `form` (tests/ppc/emitted_forms.h) at `address`, as the one-instruction
/// function `function`.
struct Case {
  Opcode opcode;
  const char* form;
  uint32_t word, address;
  void (*function)(Machine&);
};

} // namespace kiln::ppc::emitted

/// The generated table (emitted_case_table.cpp in the build tree).
extern const kiln::ppc::emitted::Case kiln_emitted_cases[];
extern const size_t kiln_emitted_case_count;
