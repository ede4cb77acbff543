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
template <class Platform, class Bus, class Machine>
bool run_fallback(Machine& m, const FallbackCode& code, uint32_t address) {
  if (code.at(address) == Opcode::count) return false;
  rt::report_fallback_entry(address);
  Cpu& c = m.cpu;
  Bus bus{m};
  const uint32_t link = c.gpr[31], caller_sp = c.gpr[29];
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

} // namespace kiln::r3000
