#pragma once
// The MIPS fallback interpreter, for both MIPS platforms: control that reaches an address of the program's text
// which is not the start of a recompiled function (the middle of one, a jump-table case discovery did not find,
// code only a computed pointer reaches) runs here, one instruction at a time through step() (the same semantics
// as the generated code), until it returns the way a recompiled call returns: to the caller's return address
// ($ra when it was entered) with the caller's stack pointer. Whenever control reaches the start of a recompiled
// function, that function runs instead. The recompiler leaves the decoded text beside the program (one Opcode per
// word), so the runtime needs no decoder.
#include <cstdint>

#include "runtime/core/function_table.h"
#include "runtime/core/guest_log.h"
#include "runtime/core/mips/step.h"

namespace kiln::r3000 {

using FallbackCode = guest::DecodedText<Opcode>;

/// Runs guest code from `address` (c.pc is set to it) until it returns; false (nothing run) when `address` is
/// no instruction of the text. `Platform` names the platform's hooks: `bool enter_compiled(Machine&, uint32_t)`
/// (runs the recompiled function starting there, if there is one), `resume_after_exception(Machine&, uint32_t pc)`
/// and `untranslated(Machine&, uint32_t address, uint32_t word, const char* why)` (does not return).
/// run_fallback_until: the same, until control reaches `link` with the stack pointer at `caller_sp`.
template <class Platform, class Bus, class Machine>
bool run_fallback_until(Machine& m, const FallbackCode& code, uint32_t address, uint32_t link, uint32_t caller_sp) {
  if (code.at(address) == Opcode::count) return false;
  rt::report_fallback_entry(address);
  Cpu& c = m.cpu;
  Bus bus{m};
  c.pc = address;
  for (bool first = true;; first = false) {
    const uint32_t pc = c.pc;
    const bool between_instructions = !c.branch.slot; // not about to run a delay slot
    if (between_instructions && !first) {
      if (pc == link && c.gpr[29] == caller_sp) return true;
      if (Platform::enter_compiled(m, pc)) continue; // it leaves c.pc where it returned to
    }
    const Opcode op = code.at(pc);
    if (op == Opcode::count)
      Platform::untranslated(m, pc, code.contains(pc) ? bus.read32(pc) : 0,
                             code.contains(pc) ? "the fallback interpreter reached a word that is no instruction"
                                               : "the fallback interpreter left the program's text");
    step(c, bus, op, bus.read32(pc));
    if (c.exception_taken) [[unlikely]] Platform::resume_after_exception(m, pc);
  }
}

template <class Platform, class Bus, class Machine>
bool run_fallback(Machine& m, const FallbackCode& code, uint32_t address) {
  return run_fallback_until<Platform, Bus>(m, code, address, m.cpu.gpr[31], m.cpu.gpr[29]);
}

/// A call in the recompiled function [start, end), entered with `entry_link` and `entry_sp`, came back to c.pc
/// instead of after the call: a longjmp landed at the return address of a setjmp, with $sp restored. When c.pc
/// lies in this function and $sp in its frame (below the one it was entered with; a deeper activation of the same
/// function was entered lower), this frame is the one to resume: the rest of it runs in the fallback interpreter
/// until it returns as the function would. Otherwise nothing happens here and the host function returns, so a
/// frame further up takes over.
template <class Platform, class Bus, class Machine>
void resume_frame(Machine& m, const FallbackCode& code, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp) {
  Cpu& c = m.cpu;
  if (c.pc < start || c.pc >= end || c.gpr[29] >= entry_sp) return;
  run_fallback_until<Platform, Bus>(m, code, c.pc, entry_link, entry_sp);
}

} // namespace kiln::r3000
