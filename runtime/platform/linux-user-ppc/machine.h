#pragma once
// A 32-bit big-endian PowerPC Linux process (the ppc32 SysV ABI) for recompiled code: the Gekko/750 CPU state,
// the guest's 32-bit address space (runtime/platform/linux-syscalls/process32.h) and the Bus the semantics in
// runtime/core/ppc/ops.h use: big-endian loads and stores, and `sc` answered as a Linux system call.
#include <cstdint>
#include <cstring>

#include "runtime/base/bits.h"
#include "runtime/core/ppc/cpu.h"
#include "runtime/platform/linux-syscalls/process32.h"

namespace kiln::ppc_linux {

struct Machine {
  ppc::Cpu cpu;
  linux_calls::Space32 space;
};

/// Answers the system call `sc` made: number in r0, arguments in r3-r8; the result in r3 with CR0[SO] clear, or
/// the errno in r3 with CR0[SO] set. A call kiln does not answer is reported in kiln's log and fails with ENOSYS.
void system_call(Machine& m, uint32_t pc);

struct Bus {
  Machine& m;
  template <class T>
  T read(uint32_t a) const {
    return load<T>(m.space.memory + a, Endian::big);
  }
  template <class T>
  void write(uint32_t a, T v) const {
    store<T>(m.space.memory + a, v, Endian::big);
  }
  uint8_t read8(uint32_t a) const { return m.space.memory[a]; }
  uint16_t read16(uint32_t a) const { return read<uint16_t>(a); }
  uint32_t read32(uint32_t a) const { return read<uint32_t>(a); }
  uint64_t read64(uint32_t a) const { return read<uint64_t>(a); }
  void write8(uint32_t a, uint8_t v) const { m.space.memory[a] = v; }
  void write16(uint32_t a, uint16_t v) const { write(a, v); }
  void write32(uint32_t a, uint32_t v) const { write(a, v); }
  void write64(uint32_t a, uint64_t v) const { write(a, v); }
  /// sc is a Linux system call here (the semantics' hook: no exception is raised); c.pc is the sc's address.
  bool system_call(ppc::Cpu& c) const {
    ppc_linux::system_call(m, c.pc);
    return true;
  }
};

} // namespace kiln::ppc_linux
