#include "recompiler/analysis/dirty_registers.h"

#include <deque>

#include "recompiler/isa/aarch64/semantics/semantics.h"

namespace kiln::analysis {

using a64::RegisterMask, a64::all_registers;

std::map<uint64_t, RegisterMask> dirty_before(const Program& program, const Function& function, const std::map<uint64_t, RegisterMask>& writes,
                                              const std::set<uint64_t>& clean_starts) {
  std::map<uint64_t, RegisterMask> before;
  auto inside = [&](uint64_t a) { return a >= function.start && a < function.end; };
  std::deque<uint64_t> work;
  auto reach = [&](uint64_t a, RegisterMask dirty) {
    if (!inside(a)) return;
    auto [it, fresh] = before.try_emplace(a, dirty);
    if (!fresh) {
      if ((it->second | dirty) == it->second) return;
      it->second |= dirty;
    }
    work.push_back(a);
  };
  reach(function.start, 0);
  for (uint64_t a : clean_starts) reach(a, 0);
  while (!work.empty()) {
    const uint64_t a = work.front();
    work.pop_front();
    const a64::Instruction& instruction = *program.instruction(a);
    if (!instruction.decoded) continue;
    const a64::FlowInfo flow = a64::control_flow(instruction);
    const auto w = writes.find(a);
    // Code the caller did not emit counts as writing everything.
    const RegisterMask after = before[a] | (w != writes.end() ? w->second : all_registers);
    switch (flow.kind) {
    case a64::ControlFlow::call:
    case a64::ControlFlow::indirect_call: reach(a + 4, 0); break; // reloaded, or kept by the callee
    case a64::ControlFlow::none:
      reach(a + 4, instruction.opcode == "SVC" ? 0 : after); // SVC reloads every register
      break;
    case a64::ControlFlow::conditional_branch:
      reach(a + 4, after);
      reach(flow.target, after);
      break;
    case a64::ControlFlow::branch: reach(flow.target, after); break;
    case a64::ControlFlow::indirect_branch:
      if (const auto table = program.jump_tables().find(a); table != program.jump_tables().end())
        for (uint64_t t : table->second.targets) reach(t, after);
      break;
    case a64::ControlFlow::ret:
    case a64::ControlFlow::stop: break;
    }
  }
  return before;
}

} // namespace kiln::analysis
