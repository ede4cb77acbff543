#include "recompiler/pipeline/function_discovery.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/error.h"

namespace kiln::pipeline {
namespace {
constexpr int max_rounds = 16; ///< each round only adds starts; real programs settle in three or four
} // namespace

DiscoveredFunctions::DiscoveredFunctions(const CodeView& code, const TitleHints& hints) : code_(code) {
  auto is_instruction = [&](uint64_t address) { return contains(address) && !(address & 3); };
  auto in_code = [&](uint64_t address, const std::string& where, const char* what) {
    if (!is_instruction(address))
      throw Error(in_file(where), fmt::format("{} {:#x} is not an instruction address of the program's code [{:#x}, {:#x})", what, address,
                                              code_.code_start(), code_.code_end()));
  };
  for (const TitleHints::Entry& f : hints.functions) {
    if (!f.required && !is_instruction(f.address)) continue; // a map's symbol in another module
    in_code(f.address, f.where, "function");
    starts_.insert(f.address);
  }
  for (const TitleHints::Table& t : hints.jump_tables) {
    in_code(t.jump, t.where, "jump table branch");
    const Transfer transfer = code_.decoded(t.jump) ? code_.transfer(t.jump) : Transfer{};
    if (transfer.flow != Flow::jump_register || transfer.returns)
      throw Error(in_file(t.where), fmt::format("jump table branch {:#x} is not an indirect jump", t.jump));
    for (uint64_t target : t.targets) in_code(target, t.where, "jump table target");
    if (!given_tables_.emplace(t.jump, t.targets).second)
      throw Error(in_file(t.where), fmt::format("jump table at {:#x} is described twice", t.jump));
  }
  discover();
  for (const TitleHints::Entry& i : hints.ignored) {
    if (is_function_start(i.address)) {
      ignored_.insert(i.address);
      continue;
    }
    const Function* owner = function_at(i.address);
    throw Error(in_file(i.where), owner ? fmt::format("ignored function {:#x} is inside function {:#x}, not at its start", i.address, owner->start)
                                        : fmt::format("ignored function {:#x} is not a function discovery found (add it under [[functions]])", i.address));
  }
}

std::vector<Function> DiscoveredFunctions::compiled_functions() const {
  std::vector<Function> out;
  for (const Function& f : functions_)
    if (!ignored_.count(f.start)) out.push_back(f);
  return out;
}

bool DiscoveredFunctions::is_delay_slot(uint64_t address) const {
  if (address < code_.code_start() + 4 || !contains(address - 4) || !code_.decoded(address - 4)) return false;
  const Transfer t = code_.transfer(address - 4);
  return t.delay_slot && t.is_transfer();
}

const Function* DiscoveredFunctions::function_at(uint64_t address) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), address, [](uint64_t a, const Function& f) { return a < f.start; });
  if (it == functions_.begin()) return nullptr;
  --it;
  return address < it->end ? &*it : nullptr;
}

void DiscoveredFunctions::rebuild_functions() {
  functions_.clear();
  for (auto it = starts_.begin(); it != starts_.end(); ++it) {
    const auto next = std::next(it);
    functions_.push_back(Function{*it, next == starts_.end() ? code_.code_end() : *next});
  }
}

void DiscoveredFunctions::discover() {
  starts_.insert(code_.entry());
  for (uint64_t start : code_.known_starts())
    if (contains(start)) starts_.insert(start);
  for (uint64_t a = code_.code_start(); a < code_.code_end(); a += 4) {
    if (!code_.decoded(a)) continue;
    const Transfer t = code_.transfer(a);
    if (t.flow == Flow::call && contains(t.target) && !is_delay_slot(t.target)) starts_.insert(t.target);
  }
  for (int round = 0; round < max_rounds; ++round) {
    const size_t before = starts_.size();
    rebuild_functions();
    resolve_indirect_jumps();
    // Static branches and jumps that leave their function become tail calls: their targets start functions.
    for (const Function& f : functions_)
      for (uint64_t a = f.start; a < f.end; a += 4) {
        if (!code_.decoded(a)) continue;
        const Transfer t = code_.transfer(a);
        if (t.flow != Flow::jump) continue;
        if (contains(t.target) && (t.target < f.start || t.target >= f.end) && !is_delay_slot(t.target)) starts_.insert(t.target);
      }
    for (const auto& [jump, table] : jump_tables_) {
      const Function* f = function_at(jump);
      for (uint64_t t : table.targets)
        if (f && (t < f->start || t >= f->end)) starts_.insert(t);
    }
    std::set<uint64_t> pointers;
    code_.code_pointers(*this, pointers);
    starts_.insert(pointers.begin(), pointers.end());
    if (starts_.size() == before) break;
  }
  rebuild_functions();
  resolve_indirect_jumps();
}

void DiscoveredFunctions::resolve_indirect_jumps() {
  jump_tables_.clear();
  table_words_.clear();
  unresolved_jumps_.clear();
  constant_jumps_.clear();
  for (const Function& f : functions_)
    for (uint64_t a = f.start; a < f.end; a += 4) {
      if (!code_.decoded(a)) continue;
      const Transfer t = code_.transfer(a);
      if (t.flow != Flow::jump_register || t.returns) continue;
      IndirectTargets found;
      if (const auto given = given_tables_.find(a); given != given_tables_.end())
        found.table = JumpTable{a, 0, 4, given->second};
      else
        found = code_.indirect_targets(*this, f, a);
      if (found.table && !found.table->targets.empty()) {
        JumpTable& table = *found.table;
        if (table.table_address)
          for (size_t e = 0; e < table.targets.size(); ++e) table_words_.insert(table.table_address + table.entry_size * e);
        jump_tables_[a] = std::move(table);
      } else if (found.constant) {
        constant_jumps_[a] = *found.constant;
      } else {
        unresolved_jumps_.push_back(a);
      }
    }
}

} // namespace kiln::pipeline
