#pragma once
// One Gekko instruction at a time over the semantics in ops.h: the per-instruction interpreter the tests run
// and the fallback a recompiled program can use for code it did not see ahead of time. The PowerPC has no
// delay slots, so an instruction is: next_pc = pc + 4, the semantics, then pc = next_pc.
#include "runtime/core/ppc/ops.h"

namespace kiln::ppc {

/// Runs the semantics of `op` (decoded from `word`, at `pc`). An Opcode outside the list is an illegal
/// instruction (program exception).
template <class Bus>
inline void execute(Opcode op, Cpu& c, Bus& bus, uint32_t word, uint32_t pc) {
  switch (op) {
#define KILN_PPC_EXECUTE_CASE(name)                                                                             \
  case Opcode::name: name(c, bus, word, pc); return;
    KILN_PPC_INSTRUCTIONS(KILN_PPC_EXECUTE_CASE)
#undef KILN_PPC_EXECUTE_CASE
    case Opcode::count: break;
  }
  detail::illegal(c, pc);
}

/// Executes the instruction at c.pc (already decoded as `op`): afterwards c.pc is the next instruction to
/// run (a branch target, or an exception vector with exception_taken set).
template <class Bus>
inline void step(Cpu& c, Bus& bus, Opcode op, uint32_t word) {
  const uint32_t pc = c.pc;
  c.next_pc = pc + 4;
  c.exception_taken = false;
  execute(op, c, bus, word, pc);
  c.pc = c.next_pc;
}

} // namespace kiln::ppc
