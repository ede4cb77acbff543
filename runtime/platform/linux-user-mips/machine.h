#pragma once
// A MIPS32r2 little-endian Linux process (o32 ABI) for recompiled mipsel code: the CPU state, the guest's
// 32-bit address space and the memory Bus the semantics in runtime/core/mips/ops.h use (variant mips32r2:
// loads interlock, no load delay).
//
// The address space is one host reservation of 4 GiB, so every 32-bit guest address lands inside it; only the
// pages the process maps (ELF segments, stack, brk, mmap) are accessible, any other access faults on the host.
#include <cstdint>
#include <cstring>

#include "runtime/core/mips/cpu.h"

namespace kiln::mipsel {

struct Machine {
  r3000::Cpu cpu;
  uint8_t* memory = nullptr; ///< guest address 0
  uint32_t brk_start = 0, brk_current = 0;
  uint32_t mmap_next = 0;       ///< next free address for anonymous mappings (grows up)
  uint32_t thread_pointer = 0;  ///< set_thread_area; RDHWR $29 reads it
};

struct Bus {
  Machine& m;
  static constexpr r3000::Variant variant = r3000::Variant::mips32r2;
  template <class T>
  T read(uint32_t a) const {
    T v;
    std::memcpy(&v, m.memory + a, sizeof v);
    return v;
  }
  template <class T>
  void write(uint32_t a, T v) const { std::memcpy(m.memory + a, &v, sizeof v); }
  uint8_t read8(uint32_t a) const { return read<uint8_t>(a); }
  uint16_t read16(uint32_t a) const { return read<uint16_t>(a); }
  uint32_t read32(uint32_t a) const { return read<uint32_t>(a); }
  void write8(uint32_t a, uint8_t v) const { write(a, v); }
  void write16(uint32_t a, uint16_t v) const { write(a, v); }
  void write32(uint32_t a, uint32_t v) const { write(a, v); }
  uint32_t user_local() const { return m.thread_pointer; } ///< RDHWR $29
};

/// Reserves the 4 GiB address space (inaccessible until mapped).
void create_address_space(Machine& m);
/// Makes [address, address + size) readable and writable (page granular).
void map_guest(Machine& m, uint32_t address, uint32_t size);

/// The process ends (exit / exit_group): unwinds out of the recompiled code to run_recompiled.
struct ProcessExit {
  int status;
};

/// Answers the o32 system call in $v0 (arguments $a0-$a3, then the stack at $sp + 16): result in $v0 and
/// $a3 = 0, or the errno in $v0 and $a3 = 1. An unknown number is a kiln::Error naming it and `pc`.
void system_call(Machine& m, uint32_t pc);

} // namespace kiln::mipsel
