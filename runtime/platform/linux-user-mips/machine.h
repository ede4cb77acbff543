#pragma once
// A MIPS32r2 little-endian Linux process (o32 ABI) for recompiled mipsel code: the CPU state, the guest's 32-bit
// address space (runtime/platform/linux-syscalls/process32.h) and the memory Bus the semantics in
// runtime/core/mips/ops.h use (variant mips32r2: loads interlock, no load delay).
#include <cstdint>
#include <cstring>

#include "runtime/core/mips/cpu.h"
#include "runtime/platform/linux-syscalls/process32.h"

namespace kiln::mipsel {

struct Machine {
  r3000::Cpu cpu;
  linux_calls::Space32 space;
};

struct Bus {
  Machine& m;
  static constexpr r3000::Variant variant = r3000::Variant::mips32r2;
  template <class T>
  T read(uint32_t a) const {
    T v;
    std::memcpy(&v, m.space.memory + a, sizeof v);
    return v;
  }
  template <class T>
  void write(uint32_t a, T v) const { std::memcpy(m.space.memory + a, &v, sizeof v); }
  uint8_t read8(uint32_t a) const { return read<uint8_t>(a); }
  uint16_t read16(uint32_t a) const { return read<uint16_t>(a); }
  uint32_t read32(uint32_t a) const { return read<uint32_t>(a); }
  void write8(uint32_t a, uint8_t v) const { write(a, v); }
  void write16(uint32_t a, uint16_t v) const { write(a, v); }
  void write32(uint32_t a, uint32_t v) const { write(a, v); }
  uint32_t user_local() const { return m.space.thread_pointer; } ///< RDHWR $29
};

/// Answers the o32 system call in $v0 (arguments $a0-$a3, then the stack at $sp + 16): result in $v0 and
/// $a3 = 0, or the errno in $v0 and $a3 = 1. A call kiln does not answer is reported with its name and `pc` in
/// kiln's log and fails with ENOSYS.
void system_call(Machine& m, uint32_t pc);

} // namespace kiln::mipsel
