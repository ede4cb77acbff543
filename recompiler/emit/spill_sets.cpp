#include "recompiler/emit/spill_sets.h"

#include <cctype>
#include <deque>

#include "recompiler/isa/aarch64/semantics/semantics.h"

namespace kiln::emit {
namespace {

bool identifier_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }

/// Whether `code` at `at` starts the assignment `name = ` (not `==`), with `name` a whole identifier.
bool assigns(std::string_view code, size_t at, size_t length) {
  if (at > 0 && (identifier_char(code[at - 1]) || code[at - 1] == '.' || code[at - 1] == '>')) return false;
  const std::string_view rest = code.substr(at + length);
  return rest.size() >= 3 && rest[0] == ' ' && rest[1] == '=' && rest[2] != '=';
}

} // namespace

RegisterMask written_registers(std::string_view code) {
  RegisterMask mask = 0;
  for (size_t at = 0; at < code.size(); ++at) {
    const char ch = code[at];
    if (at > 0 && identifier_char(code[at - 1])) continue;
    if (ch == 'x' && at + 1 < code.size() && std::isdigit(static_cast<unsigned char>(code[at + 1]))) {
      size_t end = at + 1;
      unsigned index = 0;
      while (end < code.size() && std::isdigit(static_cast<unsigned char>(code[end]))) index = index * 10 + unsigned(code[end++] - '0');
      if (index <= 30 && (end == code.size() || !identifier_char(code[end])) && assigns(code, at, end - at)) mask |= RegisterMask{1} << index;
    } else if (code.compare(at, 2, "sp") == 0 && (at + 2 == code.size() || !identifier_char(code[at + 2])) && assigns(code, at, 2)) {
      mask |= RegisterMask{1} << 31;
    }
  }
  // Flags: assigned directly (MSR NZCV, CCMP) or passed by reference to a helper (add_flags, fp_compare...).
  // Any local named like a flag counts, which only makes the set larger.
  if (code.find("n, z, cf, vf") != std::string_view::npos) mask |= flags_bit;
  for (std::string_view flag : {"n", "z", "cf", "vf"})
    for (size_t at = code.find(flag); at != std::string_view::npos; at = code.find(flag, at + 1))
      if ((at + flag.size() == code.size() || !identifier_char(code[at + flag.size()])) && assigns(code, at, flag.size())) mask |= flags_bit;
  return mask;
}

std::map<uint64_t, RegisterMask> dirty_before(const analysis::Program& program, const analysis::Function& function,
                                              const std::map<uint64_t, std::string_view>& code, const std::set<uint64_t>& clean_starts) {
  std::map<uint64_t, RegisterMask> before, writes;
  for (const auto& [address, text] : code) writes[address] = written_registers(text);
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
    // Unknown code (not emitted by the caller) counts as writing everything.
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

} // namespace kiln::emit
