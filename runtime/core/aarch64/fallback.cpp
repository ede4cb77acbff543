#include "runtime/core/aarch64/fallback.h"

#include <algorithm>

#include "runtime/core/guest_log.h"

namespace kiln::rt {
namespace {

const FallbackStep* steps_begin = nullptr;
const FallbackStep* steps_end = nullptr;

const FallbackStep* find_step(uint64_t address) {
  const FallbackStep* it = std::lower_bound(steps_begin, steps_end, address, [](const FallbackStep& s, uint64_t a) { return s.address < a; });
  return it != steps_end && it->address == address ? it : nullptr;
}

} // namespace

void set_fallback_steps(const FallbackStep* steps, size_t count) {
  steps_begin = steps;
  steps_end = steps + count;
  set_missing_function_handler(run_fallback);
}

bool run_fallback(Cpu* cpu, uint64_t address, ControlTransfer how) {
  const FallbackStep* step = find_step(address);
  if (!step) return false;
  if (how == ControlTransfer::branch && step->resume_point) return false; // longjmp: the frame suspended there resumes
  report_fallback_entry(address);
  // Where the code entered here returns to, as compiled functions keep it (c->link, set by call_guest and
  // branch_guest): a RET anywhere else is a non-local return (longjmp, the unwinder) that the frames further
  // up take over. The frames this run creates lie below the stack pointer it starts with.
  const uint64_t link = cpu->link;
  const uint64_t entry_sp = cpu->sp;
  cpu->pc = address;
  for (;;) {
    const uint64_t sp_before = cpu->sp;
    const StepResult result = step->step(cpu);
    if (result == StepResult::returned) {
      if (cpu->pc != link) cpu->unwind_target = cpu->pc;
      return true;
    }
    if (const uint64_t target = cpu->unwind_target) [[unlikely]] {
      // A call made here ended in a non-local jump. As in compiled frames: it continues in this run when its
      // stack pointer lies in the frames this run owns, otherwise the host frames further up take it over.
      if (!(sp_before <= cpu->sp && (cpu->sp < entry_sp || cpu->sp == sp_before))) return true;
      cpu->unwind_target = 0;
      cpu->pc = target;
    }
    // Straight-line code: the next step is the next table entry (entries of compiled functions have none).
    if (step + 1 < steps_end && step[1].address == cpu->pc) {
      ++step;
      continue;
    }
    if (find_function(cpu->pc)) {
      branch_guest(cpu, cpu->pc, link); // compiled code again: a tail call, whose return is ours
      return true;
    }
    const FallbackStep* found = find_step(cpu->pc);
    if (!found) stop_outside_code(cpu->pc);
    if (result == StepResult::branched_indirect && found->resume_point) {
      cpu->unwind_target = cpu->pc; // longjmp from interpreted code
      return true;
    }
    step = found;
  }
}

} // namespace kiln::rt
