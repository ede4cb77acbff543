#include "recompiler/pipeline/function_discovery.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/error.h"

namespace kiln::pipeline {
namespace {
constexpr int max_rounds = 64; ///< each round only adds starts; real programs settle in three or four
} // namespace

DiscoveredFunctions::DiscoveredFunctions(const CodeView& code, const TitleHints& hints) : code_(code), ranges_(code.code_ranges()) {
  auto is_instruction = [&](uint64_t address) { return contains(address) && !(address & 3); };
  auto in_code = [&](uint64_t address, const std::string& where, const char* what) {
    if (!is_instruction(address))
      throw Error(in_file(where), fmt::format("{} {:#x} is not an instruction address of the program's code [{:#x}, {:#x})", what, address,
                                              code_.code_start(), code_.code_end()));
  };
  for (const TitleHints::Entry& f : hints.functions) {
    if (!f.required && !is_instruction(f.address)) continue; // a map's symbol in another module
    in_code(f.address, f.where, "function");
    entries_.insert(f.address);
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

const CodeRange* DiscoveredFunctions::range_of(uint64_t address) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address, [](uint64_t a, const CodeRange& r) { return a < r.start; });
  if (it == ranges_.begin()) return nullptr;
  --it;
  return address < it->end ? &*it : nullptr;
}

std::vector<Function> DiscoveredFunctions::compiled_functions() const {
  std::vector<Function> out;
  for (const Function& f : functions_)
    if (!ignored_.count(f.start)) out.push_back(f);
  return out;
}

bool DiscoveredFunctions::is_delay_slot(uint64_t address) const {
  if (address < 4 || !contains(address - 4) || !code_.decoded(address - 4)) return false;
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
  // An entry inside a function of known size (not at its start) enters that function rather than starting one.
  starts_.clear();
  std::vector<uint64_t> inner;
  for (uint64_t entry : entries_) {
    if (auto sized = sizes_.upper_bound(entry); sized != sizes_.begin()) {
      --sized;
      if (entry > sized->first && entry - sized->first < sized->second) {
        inner.push_back(entry);
        continue;
      }
    }
    starts_.insert(entry);
  }
  functions_.clear();
  for (auto it = starts_.begin(); it != starts_.end(); ++it) {
    Function f;
    f.start = *it;
    const CodeRange* range = range_of(f.start);
    f.end = range ? range->end : f.start;
    if (const auto next = std::next(it); next != starts_.end()) f.end = std::min(f.end, *next);
    if (const auto size = sizes_.find(f.start); size != sizes_.end()) f.end = std::min(f.end, f.start + size->second);
    if (const auto name = names_.find(f.start); name != names_.end()) f.name = name->second;
    functions_.push_back(std::move(f));
  }
  for (uint64_t entry : inner)
    if (Function* owner = const_cast<Function*>(function_at(entry))) owner->secondary_entries.insert(entry);
}

void DiscoveredFunctions::discover() {
  entries_.insert(code_.entry());
  for (const KnownFunction& known : code_.known_functions()) {
    if (!contains(known.start)) continue;
    entries_.insert(known.start);
    if (known.size) {
      auto [size, added] = sizes_.emplace(known.start, known.size);
      if (!added) size->second = std::min(size->second, known.size);
    }
    if (!known.name.empty()) names_[known.start] = known.name;
  }
  const bool split = code_.inner_targets() == InnerTargets::start_function;
  // A call's target starts a function; where calls may enter functions, only when no function holds it (below).
  if (split)
    for (const CodeRange& range : ranges_)
      for (uint64_t a = range.start; a < range.end; a += 4) {
        if (!code_.decoded(a)) continue;
        const Transfer t = code_.transfer(a);
        if (t.flow == Flow::call && contains(t.target) && !is_delay_slot(t.target)) entries_.insert(t.target);
      }
  for (int round = 0; round < max_rounds; ++round) {
    const size_t before = entries_.size();
    rebuild_functions();
    resolve_indirect_jumps();
    std::set<uint64_t> found;
    scan_static_targets(found);
    entries_.insert(found.begin(), found.end());
    std::set<uint64_t> pointers;
    code_.code_pointers(*this, pointers);
    entries_.insert(pointers.begin(), pointers.end());
    if (entries_.size() == before) return; // the partition stands, with the secondary entries its scan found
  }
  rebuild_functions();
  resolve_indirect_jumps();
  if (!split) {
    std::set<uint64_t> beyond; // entries one more round would add: left out, as the rounds are spent
    scan_static_targets(beyond);
  }
}

void DiscoveredFunctions::scan_static_targets(std::set<uint64_t>& entries) {
  const bool split = code_.inner_targets() == InnerTargets::start_function;
  // Where targets split functions, a new start counts at once (the front end's code pointers see it this round).
  auto enter = [&](uint64_t target) {
    if (!contains(target) || is_delay_slot(target)) return;
    if (split) {
      entries.insert(target);
      starts_.insert(target);
      return;
    }
    const Function* owner = function_at(target);
    if (!owner) entries.insert(target);
    else if (owner->start != target) const_cast<Function*>(owner)->secondary_entries.insert(target);
  };
  for (const Function& f : functions_) {
    auto inside = [&](uint64_t t) { return t >= f.start && t < f.end; };
    for (uint64_t a = f.start; a < f.end; a += 4) {
      if (!code_.decoded(a)) continue;
      const Transfer t = code_.transfer(a);
      // Static branches and jumps that leave their function are tail calls; calls are seeded above when they split.
      if (t.flow == Flow::jump && !inside(t.target)) enter(t.target);
      if (t.flow == Flow::call && !split) enter(t.target);
    }
  }
  for (const auto& [jump, table] : jump_tables_) {
    const Function* f = function_at(jump);
    if (!f) continue;
    const uint64_t start = f->start, end = f->end; // `enter` may change the function's entries, never its bounds
    for (uint64_t t : table.targets)
      if (t < start || t >= end) {
        if (split) entries.insert(t), starts_.insert(t); // the front end or the porter placed it in the code
        else enter(t);
      }
  }
}

void DiscoveredFunctions::resolve_indirect_jumps() {
  jump_tables_.clear();
  table_words_.clear();
  unresolved_jumps_.clear();
  constant_jumps_.clear();
  table_issues_.clear();
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
      if (found.issue) table_issues_.push_back(std::move(*found.issue));
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
