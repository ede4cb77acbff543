#pragma once
// The fallback interpreter: when control reaches a guest address that has no recompiled function, the program
// keeps running by executing the guest code there one instruction at a time. Each instruction's step is C++
// the recompiler emitted from the same semantics as the compiled code (recompiler/isa/aarch64/semantics) for
// every instruction it did not place in a compiled function; docs/porting.md says why this form was chosen.
// Every address the fallback is entered at is reported once in kiln's log (guest_log.h) and, when the variable
// KILN_DISCOVERY_LOG names a file, appended there as TOML for `kiln discover apply`.
#include <cstddef>
#include <cstdint>

#include "runtime/core/cpu.h"

namespace kiln::rt {

enum class StepResult : uint8_t {
  next,     ///< c->pc holds the next guest address
  returned, ///< RET (c->pc holds its target): back to whoever called into the fallback
};
using StepFunction = StepResult (*)(Cpu*);

struct FallbackStep {
  uint64_t address;
  StepFunction step;
};

/// Installs the steps (sorted by address) and makes call_guest() use the fallback for unknown addresses.
void set_fallback_steps(const FallbackStep* steps, size_t count);

/// Runs guest code from `address` until it returns; false when `address` has no step either.
bool run_fallback(Cpu* cpu, uint64_t address);

} // namespace kiln::rt
