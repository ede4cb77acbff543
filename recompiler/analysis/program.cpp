#include "recompiler/analysis/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "recompiler/isa/aarch64/semantics/semantics.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/log.h"

namespace kiln::analysis {

using a64::ControlFlow;
using a64::Instruction;
using a64::RegKind;

Program::Program(const elf::ElfFile& elf, const a64::Decoder& decoder, const Hints& hints) : elf_(elf), hints_(hints) {
  decode_code(decoder);
  std::set<uint64_t> primaries = seed_entries();
  for (const Hints::Function& f : hints_.functions) {
    if (!is_code(f.address)) throw Error(at_address(elf_.name(), f.address), "a configured function entry is not inside an executable section");
    primaries.insert(f.address);
  }
  for (const auto& [branch, targets] : hints_.jump_tables) {
    if (!is_code(branch) || !instruction(branch)->decoded || instruction(branch)->opcode != "BR")
      throw Error(at_address(elf_.name(), branch), "a configured jump table's branch is not a BR instruction");
  }
  for (int round = 0; round < 64; ++round) {
    build_functions(primaries);
    std::set<uint64_t> added;
    jump_tables_.clear();
    unresolved_.clear();
    jump_table_issues_.clear();
    for (const Function& f : functions_) scan_function(f, added);
    bool grew = false;
    for (uint64_t a : added) grew |= primaries.insert(a).second;
    if (!grew) break;
  }
  // Secondary entries: targets that land inside another function's body.
  std::set<uint64_t> added;
  jump_tables_.clear();
  unresolved_.clear();
  jump_table_issues_.clear();
  for (const Function& f : functions_) scan_function(f, added);
}

void Program::decode_code(const a64::Decoder& decoder) {
  for (const elf::Section& s : elf_.sections())
    if (s.executable() && s.size >= 4 && s.type != 8) ranges_.push_back({s.address, s.address + (s.size & ~uint64_t{3})});
  if (ranges_.empty())
    for (const elf::Segment& s : elf_.segments())
      if (s.executable()) ranges_.push_back({s.address, s.address + (s.file_size & ~uint64_t{3})});
  std::sort(ranges_.begin(), ranges_.end(), [](const CodeRange& a, const CodeRange& b) { return a.start < b.start; });
  for (const CodeRange& r : ranges_) {
    const std::vector<uint8_t> bytes = elf_.read_memory(r.start, r.end - r.start);
    std::vector<Instruction> decoded;
    decoded.reserve(bytes.size() / 4);
    for (size_t at = 0; at + 4 <= bytes.size(); at += 4) {
      const uint32_t word = uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 | uint32_t(bytes[at + 3]) << 24;
      decoded.push_back(decoder.decode(word, r.start + at));
    }
    code_.push_back(std::move(decoded));
  }
}

bool Program::is_code(uint64_t address) const {
  if (address & 3) return false;
  for (const CodeRange& r : ranges_)
    if (address >= r.start && address < r.end) return true;
  return false;
}

const Instruction* Program::instruction(uint64_t address) const {
  for (size_t i = 0; i < ranges_.size(); ++i)
    if (address >= ranges_[i].start && address < ranges_[i].end && (address & 3) == 0) return &code_[i][(address - ranges_[i].start) / 4];
  return nullptr;
}

size_t Program::instruction_count() const {
  size_t count = 0;
  for (const Function& f : functions_) count += (f.end - f.start) / 4;
  return count;
}

std::set<uint64_t> Program::seed_entries() const {
  std::set<uint64_t> entries{elf_.entry()};
  for (const elf::Symbol& s : elf_.symbols())
    if (s.is_function && is_code(s.address)) entries.insert(s.address);
  for (uint64_t f : elf_.init_functions()) if (is_code(f)) entries.insert(f);
  for (uint64_t f : elf_.fini_functions()) if (is_code(f)) entries.insert(f);
  // Code pointers stored in data: any aligned 64-bit word pointing at an instruction.
  for (const elf::Segment& s : elf_.segments()) {
    const auto bytes = elf_.segment_bytes(s);
    for (size_t at = (8 - (s.address & 7)) & 7; at + 8 <= bytes.size(); at += 8) {
      uint64_t value = 0;
      for (int b = 7; b >= 0; --b) value = (value << 8) | bytes[at + b];
      if (is_code(value) && instruction(value)->decoded && (s.executable() ? value != s.address + at : true)) entries.insert(value);
    }
  }
  // Code addresses formed in code (function pointers passed to qsort, atexit...): ADRP+ADD and ADR.
  for (size_t r = 0; r < ranges_.size(); ++r) {
    const auto& code = code_[r];
    for (size_t k = 0; k < code.size(); ++k) {
      const Instruction& i = code[k];
      if (!i.decoded) continue;
      if (i.opcode == "ADRP") {
        const uint64_t page = (i.address & ~uint64_t{0xfff}) + (static_cast<uint64_t>(i.imm(1)) << 12);
        for (size_t n = k + 1; n < std::min(code.size(), k + 8); ++n) {
          const Instruction& add = code[n];
          if (add.decoded && add.opcode == "ADDXri" && add.reg(1) == i.reg(0) && add.imm(3) == 0) {
            const uint64_t value = page + static_cast<uint64_t>(add.imm(2));
            if (is_code(value)) entries.insert(value);
            break;
          }
        }
      }
    }
  }
  return entries;
}

void Program::build_functions(const std::set<uint64_t>& primaries) {
  std::map<uint64_t, const elf::Symbol*> symbols;
  for (const elf::Symbol& s : elf_.symbols())
    if (s.is_function && s.size > 0 && is_code(s.address)) {
      auto& slot = symbols[s.address];
      if (!slot || (slot->name.size() > 0 && slot->name[0] == '_' && s.name[0] != '_')) slot = &s; // prefer public names
    }
  functions_.clear();
  // A primary inside a symbol's range (not at its start) is a secondary entry, not a new function.
  std::vector<uint64_t> starts, inner;
  for (uint64_t p : primaries) {
    auto sym = symbols.upper_bound(p);
    if (sym != symbols.begin()) {
      --sym;
      if (p > sym->first && p < sym->first + sym->second->size) {
        inner.push_back(p);
        continue;
      }
    }
    starts.push_back(p);
  }
  for (size_t k = 0; k < starts.size(); ++k) {
    Function f;
    f.start = starts[k];
    uint64_t end = f.start;
    for (const CodeRange& r : ranges_)
      if (f.start >= r.start && f.start < r.end) end = r.end;
    if (k + 1 < starts.size()) end = std::min(end, starts[k + 1]);
    if (auto sym = symbols.find(f.start); sym != symbols.end()) {
      f.name = sym->second->name;
      end = std::min(end, f.start + sym->second->size);
    }
    for (const Hints::Function& hint : hints_.functions)
      if (hint.address == f.start) {
        if (!hint.name.empty()) f.name = hint.name;
        if (hint.size) end = std::min(end, f.start + hint.size);
      }
    f.end = end;
    functions_.push_back(std::move(f));
  }
  for (uint64_t p : inner)
    if (Function* owner = const_cast<Function*>(function_containing(p))) owner->secondary_entries.insert(p);
}

const Function* Program::function_containing(uint64_t address) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), address, [](uint64_t a, const Function& f) { return a < f.start; });
  if (it == functions_.begin()) return nullptr;
  --it;
  return address < it->end ? &*it : nullptr;
}

const Function* Program::function_at(uint64_t start) const {
  const Function* f = function_containing(start);
  return f && f->start == start ? f : nullptr;
}

bool Program::scan_function(const Function& function, std::set<uint64_t>& new_primaries) {
  auto note_target = [&](uint64_t target, bool inside_allowed) {
    if (inside_allowed && target >= function.start && target < function.end) return;
    if (!is_code(target)) return;
    const Function* owner = function_containing(target);
    if (!owner) new_primaries.insert(target);
    else if (owner->start != target) const_cast<Function*>(owner)->secondary_entries.insert(target);
  };
  for (uint64_t a = function.start; a < function.end; a += 4) {
    const Instruction& i = *instruction(a);
    const a64::FlowInfo flow = a64::control_flow(i);
    switch (flow.kind) {
    case ControlFlow::branch:
    case ControlFlow::conditional_branch: note_target(flow.target, true); break;
    case ControlFlow::call: note_target(flow.target, false); break;
    case ControlFlow::indirect_branch: find_jump_table(function, a); break;
    default: break;
    }
  }
  return true;
}

namespace {
bool same_register(const a64::Register& a, const a64::Register& b) {
  return a.index == b.index && a.is_general() && b.is_general() && !a.is_zero() && !b.is_zero();
}
} // namespace

/// GCC's switch lowering: cmp wI, #N; b.hi default; adrp xT, table; add xT, xT, :lo12:table;
/// ldr{b,h,sw} wE, [xT, wI, uxtw #s]; adr xB, anchor; add xD, xB, wE, sxt{b,h,w} #2; br xD.
void Program::find_jump_table(const Function& function, uint64_t branch_address) {
  if (const auto hint = hints_.jump_tables.find(branch_address); hint != hints_.jump_tables.end()) {
    for (uint64_t target : hint->second)
      if (target < function.start || target >= function.end)
        throw Error(at_address(elf_.name(), branch_address), fmt::format("configured jump-table target {:#x} is outside the function [{:#x}, {:#x})", target, function.start, function.end));
    jump_tables_[branch_address] = JumpTable{branch_address, 0, hint->second};
    return;
  }
  const Instruction& br = *instruction(branch_address);
  auto unresolved = [&] { unresolved_.push_back(branch_address); };
  const Instruction* add = nullptr;
  const Instruction* load = nullptr;
  std::optional<uint64_t> anchor, table;
  std::optional<uint64_t> bound;
  a64::Register index_register;
  const uint64_t window_start = std::max(function.start, branch_address >= 4 * 24 ? branch_address - 4 * 24 : 0);
  for (uint64_t a = branch_address; a > window_start;) {
    a -= 4;
    const Instruction& i = *instruction(a);
    if (!i.decoded) break;
    const std::string_view op = i.opcode;
    if (!add) {
      if ((op == "ADDXrx" || op == "ADDXrs") && same_register(i.reg(0), br.reg(0))) add = &i;
      continue;
    }
    if (!anchor && op == "ADR" && same_register(i.reg(0), add->reg(1))) { anchor = i.address + static_cast<uint64_t>(i.imm(1)); continue; }
    if (!load && (op == "LDRBBroW" || op == "LDRHHroW" || op == "LDRSWroW" || op == "LDRWroW" || op == "LDRBBroX" || op == "LDRHHroX" || op == "LDRWroX" || op == "LDRSWroX") &&
        same_register(i.reg(0), add->reg(2))) {
      load = &i;
      index_register = i.reg(2);
      continue;
    }
    if (load && !table && op == "ADDXri" && same_register(i.reg(0), load->reg(1))) {
      // the ADRP that pairs with it comes before
      for (uint64_t b = a; b > window_start;) {
        b -= 4;
        const Instruction& p = *instruction(b);
        if (p.decoded && p.opcode == "ADRP" && same_register(p.reg(0), i.reg(1))) {
          table = (p.address & ~uint64_t{0xfff}) + (static_cast<uint64_t>(p.imm(1)) << 12) + static_cast<uint64_t>(i.imm(2));
          break;
        }
      }
      continue;
    }
    if (load && (op == "SUBSWri" || op == "SUBSXri") && i.reg(0).is_zero() && same_register(i.reg(1), index_register)) {
      bound = static_cast<uint64_t>(i.imm(2)) << i.imm(3);
      break;
    }
  }
  if (add && load && !table) {
    // The table address is often loop-invariant and materialised once, far from the dispatch: accept the
    // function's ADRP+ADD pairs into that register if they all agree.
    const a64::Register base = load->reg(1);
    for (uint64_t a = function.start; a + 4 < function.end; a += 4) {
      const Instruction& p = *instruction(a);
      if (!p.decoded || p.opcode != "ADRP" || !same_register(p.reg(0), base)) continue;
      for (uint64_t b = a + 4; b < std::min(function.end, a + 4 * 8); b += 4) {
        const Instruction& q = *instruction(b);
        if (q.decoded && q.opcode == "ADDXri" && same_register(q.reg(0), base) && same_register(q.reg(1), base)) {
          const uint64_t value = (p.address & ~uint64_t{0xfff}) + (static_cast<uint64_t>(p.imm(1)) << 12) + static_cast<uint64_t>(q.imm(2));
          if (table && *table != value) return unresolved();
          table = value;
          break;
        }
      }
    }
  }
  if (!add || !load || !anchor || !table) return unresolved();
  // Without the bounding CMP in reach, read entries while they land inside the function: extra cases are
  // harmless (each is a real instruction; the run-time value picks the right one, anything else is dispatched).
  const bool bounded = bound.has_value() && *bound <= 4096;
  if (!bounded) bound = 255;
  const std::string_view lop = load->opcode;
  const unsigned size = lop.starts_with("LDRBB") ? 1 : lop.starts_with("LDRHH") ? 2 : 4;
  const bool signed_load = lop.starts_with("LDRSW");
  // The ADD's operand extend says how the entry is read: (type << 3) | shift (rx) or a plain shift (rs).
  unsigned shift = 0, extend = 3;
  if (add->opcode == "ADDXrx") { extend = (add->imm(3) >> 3) & 7; shift = add->imm(3) & 7; }
  else shift = add->imm(3) & 63;
  JumpTable jt{branch_address, *table, {}};
  try {
    const elf::Segment* segment = elf_.segment_at(*table);
    if (!segment) return unresolved();
    const uint64_t available = (segment->address + segment->memory_size - *table) / size;
    if (!bounded) bound = std::min<uint64_t>(*bound, available - 1);
    const std::vector<uint8_t> bytes = elf_.read_memory(*table, (*bound + 1) * size);
    for (uint64_t k = 0; k <= *bound; ++k) {
      uint64_t raw = 0;
      for (unsigned b = 0; b < size; ++b) raw |= uint64_t{bytes[k * size + b]} << (8 * b);
      int64_t value;
      const unsigned width = extend == 4 ? 8 : extend == 5 ? 16 : extend == 6 ? 32 : extend == 0 ? 8 : extend == 1 ? 16 : extend == 2 ? 32 : 64;
      if (signed_load && size == 4) value = static_cast<int32_t>(raw);
      else value = static_cast<int64_t>(raw);
      if (extend >= 4) value = sign_extend(static_cast<uint64_t>(value), width);
      else if (width < 64) value &= static_cast<int64_t>((uint64_t{1} << width) - 1);
      const uint64_t target = *anchor + (static_cast<uint64_t>(value) << shift);
      if (target < function.start || target >= function.end || !is_code(target)) {
        if (bounded || k == 0) {
          jump_table_issues_.push_back({branch_address, *table, fmt::format("case {} targets {:#x}, outside the function [{:#x}, {:#x})", k, target, function.start, function.end)});
          return unresolved();
        }
        break;
      }
      jt.targets.push_back(target);
    }
  } catch (const Error&) {
    if (bounded || jt.targets.empty()) return unresolved();
  }
  if (!bounded)
    jump_table_issues_.push_back({branch_address, *table, fmt::format("unbounded: no bounding CMP in reach; {} cases read while their targets stayed inside the function", jt.targets.size())});
  jump_tables_[branch_address] = std::move(jt);
}

} // namespace kiln::analysis
