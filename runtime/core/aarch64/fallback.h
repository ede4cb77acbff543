#pragma once
// The fallback interpreter: when control reaches a guest address that has no recompiled function, the program
// keeps running by executing the guest code there one instruction at a time. Each instruction's step is C++
// the recompiler emitted from the same semantics as the compiled code (recompiler/isa/aarch64/semantics) for
// every instruction of the executable sections except the entries of compiled functions: a jump into the
// middle of compiled code runs there in the interpreter until it returns, and the interpreter goes back to
// compiled code when it reaches a compiled function's entry. docs/porting.md says why this form was chosen.
// Every address the fallback is entered at is reported once in kiln's log (guest_log.h) and, when the variable
// KILN_DISCOVERY_LOG names a file, appended there as TOML for `kiln discover apply`.
#include <cstddef>
#include <cstdint>

#include "runtime/core/aarch64/cpu.h"
#include "runtime/core/aarch64/dispatch.h"

namespace kiln::rt {

enum class StepResult : uint8_t {
  next,            ///< c->pc holds the next guest address
  branched_indirect, ///< a BR: c->pc holds its target (a non-local jump when that is a resume point)
  returned,        ///< RET (c->pc holds its target): back to whoever called into the fallback
};
using StepFunction = StepResult (*)(Cpu*);

struct FallbackStep {
  uint64_t address;
  StepFunction step;
  /// A compiled frame suspended at a call resumes here after a non-local jump (the return site of a call to
  /// setjmp and other functions that return twice): a BR here is longjmp, which the frames on the host stack
  /// take over (Cpu::unwind_target), not a jump the interpreter follows.
  bool resume_point;
};

/// Installs the steps (sorted by address) and makes call_guest() use the fallback for unknown addresses.
void set_fallback_steps(const FallbackStep* steps, size_t count);

/// Runs guest code from `address` until it returns; false when `address` has no step either (or, for a
/// `ControlTransfer::branch`, is a resume point: the caller unwinds to it instead).
bool run_fallback(Cpu* cpu, uint64_t address, ControlTransfer how);

} // namespace kiln::rt
