#pragma once
// The AArch64 guest CPU state a recompiled program runs on. Recompiled functions keep general registers and
// flags in locals and spill them here at calls, indirect branches and system calls.
#include <cstdint>
#include <cstring>

namespace kiln::rt {

union alignas(16) V128 {
  uint8_t u8[16];
  int8_t s8[16];
  uint16_t u16[8];
  int16_t s16[8];
  uint32_t u32[4];
  int32_t s32[4];
  uint64_t u64[2];
  int64_t s64[2];
  float f32[4];
  double f64[2];
};

struct Cpu {
  uint64_t x[31] = {};
  uint64_t sp = 0;
  uint64_t pc = 0;            ///< entry address for multi-entry functions and dispatch; PC for traps
  uint32_t n = 0, z = 0, c = 0, v = 0;
  V128 v_regs[32] = {};
  uint64_t tpidr = 0;
  uint64_t fpcr = 0, fpsr = 0;
  uint64_t exclusive_address = ~uint64_t{0}; ///< monitor for LDXR/STXR (single-threaded)
  uint64_t exclusive_value = 0;
  /// Non-zero while host frames unwind towards a guest frame: a RET to an address other than the one its function
  /// was entered with, or a BR to an address no function starts at (longjmp, the C++ unwinder's landing pads).
  /// Each call site checks it; the frame that owns the address at this stack pointer resumes there.
  uint64_t unwind_target = 0;
  /// The guest address the host caller continues at when the called host function returns normally: the
  /// return address for calls, the caller's own link for tail calls. A RET to any other address is non-local.
  uint64_t link = 0;
};

} // namespace kiln::rt
