#pragma once
// One instruction at a time over the semantics in r3000_ops.h: what the R3000 pipeline does around each
// instruction (branch delay slot, load delay slot, exception entry). The state-vector tests run this; it is
// also the fallback a recompiled program can use for code it did not see ahead of time.
#include "runtime/core/mips/ops.h"

namespace kiln::r3000 {

/// Runs the semantics of `op` (decoded from `word`, at `pc`) without touching PC or the delay state.
template <class Bus>
inline void execute(Opcode op, Cpu& c, Bus& bus, uint32_t word, uint32_t pc) {
  switch (op) {
#define KILN_R3000_EXECUTE_CASE(name)                                                                            \
  case Opcode::name: name(c, bus, word, pc); return;
    KILN_R3000_INSTRUCTIONS(KILN_R3000_EXECUTE_CASE)
#undef KILN_R3000_EXECUTE_CASE
    case Opcode::count: break;
  }
  raise_exception(c, ExceptionCode::reserved_instruction, word, pc);
}

/// The pipeline rules around a delay slot, shared by step() and recompiled code: the branch issued by the
/// previous instruction becomes the one whose slot runs now ...
inline void begin_delay_slot(Cpu& c) {
  c.delay = c.branch;
  c.branch = PendingBranch{};
}
/// ... and once the slot has run, it is over: the caller goes to the target when `taken`.
inline PendingBranch end_delay_slot(Cpu& c) {
  const PendingBranch done = c.delay;
  c.delay = PendingBranch{};
  return done;
}

/// Recompiled code's shortcut for a delay slot that can neither raise an exception nor branch: nothing reads
/// c.delay while such a slot runs (only branches, via following_address, and raise_exception do), so the branch
/// is taken out before the slot runs and c.delay stays empty. The state afterwards is the same as with
/// begin_delay_slot/end_delay_slot.
inline PendingBranch take_issued_branch(Cpu& c) {
  const PendingBranch issued = c.branch;
  c.branch = PendingBranch{};
  return issued;
}

/// Executes the instruction at c.pc (already decoded): afterwards PC is the next instruction to run (the
/// branch target once a delay slot has run, the vector after an exception), the load issued by the previous
/// instruction has landed unless this one overwrote its register, and c.branch / c.load describe what is
/// still pending for the next instruction.
template <class Bus>
inline void step(Cpu& c, Bus& bus, Opcode op, uint32_t word) {
  const uint32_t pc = c.pc;
  begin_delay_slot(c);
  c.exception_taken = false;
  execute(op, c, bus, word, pc);
  if constexpr (Bus::variant == Variant::r3000) retire_load(c);
  const PendingBranch delay = end_delay_slot(c);
  if (!c.exception_taken) c.pc = (delay.slot && delay.taken) ? delay.target : pc + 4;
}

} // namespace kiln::r3000
