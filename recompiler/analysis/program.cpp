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

namespace {
/// How an instruction moves control, as discovery reads it.
pipeline::Transfer transfer_of(const Instruction& i) {
  const a64::FlowInfo flow = a64::control_flow(i);
  pipeline::Transfer t;
  t.target = flow.target;
  switch (flow.kind) {
  case ControlFlow::none: break;
  case ControlFlow::branch: t.flow = pipeline::Flow::jump; break;
  case ControlFlow::conditional_branch: t.flow = pipeline::Flow::jump, t.conditional = true; break;
  case ControlFlow::call: t.flow = pipeline::Flow::call; break;
  case ControlFlow::indirect_branch: t.flow = pipeline::Flow::jump_register; break;
  case ControlFlow::indirect_call: t.flow = pipeline::Flow::call_register; break;
  case ControlFlow::ret: t.flow = pipeline::Flow::jump_register, t.returns = true; break;
  case ControlFlow::stop: t.flow = pipeline::Flow::trap; break; // control ends here: nothing for discovery to follow
  }
  return t;
}
} // namespace

Program::Program(const elf::ElfFile& elf, const a64::Decoder& decoder, const Hints& hints) : elf_(elf), hints_(hints) {
  decode_code(decoder);
  for (const Hints::Function& f : hints_.functions)
    if (!is_code(f.address)) throw Error(at_address(elf_.name(), f.address), "a configured function entry is not inside an executable section");
  for (const auto& [branch, targets] : hints_.jump_tables) {
    if (!is_code(branch) || !instruction(branch)->decoded || instruction(branch)->opcode != "BR")
      throw Error(at_address(elf_.name(), branch), "a configured jump table's branch is not a BR instruction");
  }
  found_.emplace(*this);
  // An indirect branch no entry of its function reaches is dead code, not an unresolved branch.
  unresolved_ = found_->unresolved_jumps();
  std::set<uint64_t> unreached;
  for (const Function& f : functions())
    if (std::any_of(unresolved_.begin(), unresolved_.end(), [&](uint64_t a) { return a >= f.start && a < f.end; }))
      for (uint64_t a : unreached_instructions(f)) unreached.insert(a);
  std::erase_if(unresolved_, [&](uint64_t a) { return unreached.count(a) != 0; });
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
    std::vector<pipeline::Transfer> transfers;
    transfers.reserve(decoded.size());
    for (const Instruction& i : decoded) transfers.push_back(transfer_of(i));
    code_.push_back(std::move(decoded));
    transfers_.push_back(std::move(transfers));
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

std::vector<uint64_t> Program::unreached_instructions(const Function& function) const {
  std::set<uint64_t> reached;
  std::vector<uint64_t> pending{function.start};
  pending.insert(pending.end(), function.secondary_entries.begin(), function.secondary_entries.end());
  auto inside = [&](uint64_t a) { return a >= function.start && a < function.end; };
  while (!pending.empty()) {
    uint64_t a = pending.back();
    pending.pop_back();
    while (inside(a) && reached.insert(a).second) {
      const a64::FlowInfo flow = a64::control_flow(*instruction(a));
      if (flow.kind == a64::ControlFlow::branch || flow.kind == a64::ControlFlow::conditional_branch)
        if (inside(flow.target)) pending.push_back(flow.target);
      if (flow.kind == a64::ControlFlow::indirect_branch)
        if (const auto table = jump_tables().find(a); table != jump_tables().end())
          pending.insert(pending.end(), table->second.targets.begin(), table->second.targets.end());
      if (flow.kind == a64::ControlFlow::branch || flow.kind == a64::ControlFlow::indirect_branch || flow.kind == a64::ControlFlow::ret ||
          flow.kind == a64::ControlFlow::stop)
        break;
      a += 4;
    }
  }
  std::vector<uint64_t> out;
  for (uint64_t a = function.start; a < function.end; a += 4)
    if (!reached.count(a)) out.push_back(a);
  return out;
}

size_t Program::instruction_count() const {
  size_t count = 0;
  for (const Function& f : functions()) count += (f.end - f.start) / 4;
  return count;
}

std::vector<pipeline::KnownFunction> Program::known_functions() const {
  std::set<uint64_t> entries; // besides the ELF's entry point, which discovery adds
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
  std::vector<pipeline::KnownFunction> known;
  for (uint64_t start : entries) known.push_back({start, 0, {}});
  // A function symbol with a size names its function and ends it there; of several at one address, a public name.
  std::map<uint64_t, const elf::Symbol*> symbols;
  for (const elf::Symbol& s : elf_.symbols())
    if (s.is_function && s.size > 0 && is_code(s.address)) {
      auto& slot = symbols[s.address];
      if (!slot || (slot->name.size() > 0 && slot->name[0] == '_' && s.name[0] != '_')) slot = &s; // prefer public names
    }
  for (const auto& [start, symbol] : symbols) known.push_back({start, symbol->size, symbol->name});
  for (const Hints::Function& hint : hints_.functions) known.push_back({hint.address, hint.size, hint.name});
  return known;
}

const Function* Program::function_at(uint64_t start) const {
  const Function* f = function_containing(start);
  return f && f->start == start ? f : nullptr;
}

pipeline::Transfer Program::transfer(uint64_t address) const {
  for (size_t i = 0; i < ranges_.size(); ++i)
    if (address >= ranges_[i].start && address < ranges_[i].end) return transfers_[i][(address - ranges_[i].start) / 4];
  return {};
}

pipeline::IndirectTargets Program::indirect_targets(const pipeline::DiscoveredFunctions&, const Function& function, uint64_t address) const {
  return find_jump_table(function, address);
}

namespace {
bool same_register(const a64::Register& a, const a64::Register& b) {
  return a.index == b.index && a.is_general() && b.is_general() && !a.is_zero() && !b.is_zero();
}

/// The bit of a general register in Instruction::writes (x0..x30, sp = 31); XZR/WZR have none.
bool writes_register(const Instruction& i, const a64::Register& r) {
  if (!r.is_general() || r.is_zero()) return false;
  return (i.writes >> (r.is_sp() ? 31 : r.index)) & 1;
}

/// Bytes stored by a plain store of the frame (STR/STUR/STP of one type code), 0 for anything else.
unsigned store_size(std::string_view type) {
  if (type == "X" || type == "D") return 8;
  if (type == "W" || type == "S") return 4;
  if (type == "Q") return 16;
  if (type == "HH" || type == "H") return 2;
  if (type == "BB" || type == "B") return 1;
  return 0;
}

/// Follows a register's value backwards through one function, far enough for a jump table's base: ADRP, ADR,
/// ADD/SUB of an immediate, register moves, and spills (a 64-bit store to a frame slot of sp or x29 that a load
/// reads back). Like the idiom matcher before it, it reads the instructions before a use in address order: a
/// value is trusted only when every definition it meets agrees, and a stack slot only when every store to it
/// in the function stores the same constant and the frame base does not move after the prologue.
class ValueTracer {
public:
  ValueTracer(const Program& program, const Function& function) : program_(program), function_(function) {}

  /// The nearest instruction before `at` (within the window, never before the function) that writes `r`.
  const Instruction* definition(const a64::Register& r, uint64_t at) const {
    const uint64_t window_start = std::max(function_.start, at >= 4 * window ? at - 4 * window : 0);
    for (uint64_t a = at; a > window_start;) {
      a -= 4;
      const Instruction& i = *program_.instruction(a);
      if (!i.decoded) return nullptr;
      if (writes_register(i, r) && !returns_soon(a)) return &i;
    }
    return nullptr;
  }

  /// Whether the instruction at `a` is in an epilogue: a RET follows within a few instructions, with no other
  /// control flow between. Code there (restoring callee-saved registers, popping the frame) reaches no later
  /// instruction, so reading backwards in address order must not take it for a definition.
  bool returns_soon(uint64_t a) const {
    for (uint64_t b = a + 4; b < std::min(function_.end, a + 4 * 5); b += 4) {
      const Instruction& next = *program_.instruction(b);
      if (!next.decoded) return false;
      if (next.opcode == "RET") return true;
      if (a64::control_flow(next).kind != ControlFlow::none) return false;
    }
    return false;
  }

  /// The constant `r` holds just before the instruction at `at`, when the function's code shows it.
  std::optional<uint64_t> constant(const a64::Register& r, uint64_t at, int depth = 0) const {
    if (depth > max_depth || !r.is_general() || r.is_zero()) return std::nullopt;
    if (const Instruction* def = definition(r, at)) return value_written(*def, r, depth + 1);
    return invariant(r, depth + 1);
  }

private:
  static constexpr uint64_t window = 64;
  static constexpr int max_depth = 8;

  /// The value `def` writes to `r`, if it is a constant the tracer understands.
  std::optional<uint64_t> value_written(const Instruction& def, const a64::Register& r, int depth) const {
    const std::string_view op = def.opcode;
    if (def.operands.empty() || def.operands[0].kind != a64::Operand::Kind::reg || !same_register(def.reg(0), r)) return std::nullopt;
    if (op == "ADRP") return (def.address & ~uint64_t{0xfff}) + (static_cast<uint64_t>(def.imm(1)) << 12);
    if (op == "ADR") return def.address + static_cast<uint64_t>(def.imm(1));
    if (op == "ADDXri" || op == "SUBXri") {
      const auto base = constant(def.reg(1), def.address, depth);
      if (!base) return std::nullopt;
      const uint64_t step = static_cast<uint64_t>(def.imm(2)) << def.imm(3);
      return op == "ADDXri" ? *base + step : *base - step;
    }
    if (op == "ORRXrs" && def.reg(1).is_zero() && def.imm(3) == 0) return constant(def.reg(2), def.address, depth); // MOV
    if ((op == "LDRXui" || op == "LDURXi") && (def.reg(1).is_sp() || def.reg(1).index == 29))
      return slot_constant(def.reg(1), op == "LDRXui" ? def.imm(2) * 8 : def.imm(2), def.address, depth);
    return std::nullopt;
  }

  /// A register defined nowhere in reach: every definition in the function must give the same constant (a table
  /// address materialised once, before a loop).
  std::optional<uint64_t> invariant(const a64::Register& r, int depth) const {
    if (depth > 3) return std::nullopt;
    std::optional<uint64_t> value;
    for (uint64_t a = function_.start; a < function_.end; a += 4) {
      const Instruction& i = *program_.instruction(a);
      if (!i.decoded || !writes_register(i, r) || returns_soon(a)) continue;
      if (i.opcode == "ADRP" && completed_by_add(i)) continue; // the page alone is never the value used
      const auto v = value_written(i, r, depth);
      if (!v || (value && *value != *v)) return std::nullopt;
      value = v;
    }
    return value;
  }

  /// Whether an ADD of the low 12 bits to the same register follows the ADRP closely (one value in two steps).
  bool completed_by_add(const Instruction& adrp) const {
    for (uint64_t b = adrp.address + 4; b < std::min(function_.end, adrp.address + 4 * 8); b += 4) {
      const Instruction& q = *program_.instruction(b);
      if (q.decoded && q.opcode == "ADDXri" && same_register(q.reg(0), adrp.reg(0)) && same_register(q.reg(1), adrp.reg(0))) return true;
    }
    return false;
  }

  /// The constant in the 8-byte frame slot [base + offset] when loaded at `load_at`.
  std::optional<uint64_t> slot_constant(const a64::Register& base, int64_t offset, uint64_t load_at, int depth) const {
    std::optional<uint64_t> value;
    uint64_t first_store = ~uint64_t{0};
    for (uint64_t a = function_.start; a < function_.end; a += 4) {
      const Instruction& i = *program_.instruction(a);
      if (!i.decoded || i.opcode.substr(0, 2) != "ST") continue;
      std::string_view op = i.opcode;
      // (first stored operand, base operand, offset in bytes, bytes per register, register count)
      size_t stored = 0, base_at = 0;
      int64_t at = 0;
      unsigned size = 0, count = 1;
      if (op.starts_with("STP") && op.ends_with("i") && !op.ends_with("pre") && !op.ends_with("post")) {
        size = store_size(op.substr(3, op.size() - 4));
        base_at = 2, count = 2;
        at = i.imm(3) * size;
      } else if (op.starts_with("STUR") && op.ends_with("i")) {
        size = store_size(op.substr(4, op.size() - 5));
        base_at = 1;
        at = i.imm(2);
      } else if (op.starts_with("STR") && op.ends_with("ui")) {
        size = store_size(op.substr(3, op.size() - 5));
        base_at = 1;
        at = i.imm(2) * size;
      } else {
        // A register-offset store from the frame base could reach the slot; pre/post-indexed ones are the
        // prologue's and epilogue's saves (their base moves, which the check below covers).
        if ((op.ends_with("roX") || op.ends_with("roW")) && same_register(i.reg(1), base)) return std::nullopt;
        continue;
      }
      if (size == 0 || !same_register(i.reg(base_at), base)) continue;
      for (unsigned k = 0; k < count; ++k) {
        const int64_t from = at + k * size;
        if (from + size <= offset || from >= offset + 8) continue; // does not touch the slot
        if (from != offset || size != 8 || !(op.find('X') != std::string_view::npos)) return std::nullopt; // partial or vector
        const auto v = constant(i.reg(stored + k), i.address, depth);
        if (!v || (value && *value != *v)) return std::nullopt;
        value = v;
        first_store = std::min(first_store, i.address);
      }
    }
    if (!value) return std::nullopt;
    // The frame base may change only before the first store (the prologue) or in an epilogue; otherwise
    // offsets name different slots at store and load.
    for (uint64_t a = function_.start; a < function_.end; a += 4) {
      const Instruction& i = *program_.instruction(a);
      if (!i.decoded || !writes_register(i, base) || returns_soon(a)) continue;
      if (a >= first_store || a >= load_at) return std::nullopt;
    }
    return value;
  }

  const Program& program_;
  const Function& function_;
};

/// The entry a table load reads: LDR{B,H,SW,W} with a register index, or an 8-byte LDR for absolute tables.
struct TableLoad {
  unsigned size = 0;
  bool signed_entry = false;
};
std::optional<TableLoad> table_load(std::string_view op) {
  static const std::pair<std::string_view, TableLoad> loads[] = {
      {"LDRBBroW", {1, false}}, {"LDRBBroX", {1, false}}, {"LDRHHroW", {2, false}}, {"LDRHHroX", {2, false}},
      {"LDRWroW", {4, false}},  {"LDRWroX", {4, false}},  {"LDRSWroW", {4, true}},  {"LDRSWroX", {4, true}},
      {"LDRXroW", {8, false}},  {"LDRXroX", {8, false}},
  };
  for (const auto& [name, load] : loads)
    if (op == name) return load;
  return std::nullopt;
}
} // namespace

/// Jump tables: the BR's target is either anchor + (entry << shift) (GCC: ldr{b,h,sw} wE, [xT, wI, uxtw #s];
/// adr xB, anchor; add xD, xB, wE, sxt{b,h,w} #2; br xD; Clang adds the entry to the table itself) or an
/// absolute entry (ldr xD, [xT, xI, lsl #3], or [xA] with xA = xT + xI << 3). The table's base and the anchor
/// are traced through register moves, computed addresses and stack slots (ValueTracer); the bound is the CMP
/// before the B.HI, or entries are read while their targets stay inside the function.
pipeline::IndirectTargets Program::find_jump_table(const Function& function, uint64_t branch_address) const {
  pipeline::IndirectTargets out;
  if (const auto hint = hints_.jump_tables.find(branch_address); hint != hints_.jump_tables.end()) {
    for (uint64_t target : hint->second)
      if (target < function.start || target >= function.end)
        throw Error(at_address(elf_.name(), branch_address), fmt::format("configured jump-table target {:#x} is outside the function [{:#x}, {:#x})", target, function.start, function.end));
    out.table = JumpTable{branch_address, 0, 4, hint->second};
    return out;
  }
  const Instruction& br = *instruction(branch_address);
  auto unresolved = [&] { return out; }; // with an issue, when one was noted
  const ValueTracer tracer(*this, function);
  const Instruction* def = tracer.definition(br.reg(0), branch_address);
  if (!def) return unresolved();
  // A PLT stub: adrp x16, GOT page; ldr x17, [x16, #slot]; (add x16, ...;) br x17, the slot holding a code address
  // (an ExeFS module's GOT entry, filled by kiln's relocations).
  if (def->opcode == "LDRXui" && same_register(def->reg(0), br.reg(0)) && !def->reg(1).is_sp()) {
    if (const auto base = tracer.constant(def->reg(1), def->address)) {
      const uint64_t slot = *base + static_cast<uint64_t>(def->imm(2)) * 8;
      if (const elf::Segment* segment = elf_.segment_at(slot); segment && !segment->executable() && segment->contains(slot + 7)) {
        const std::vector<uint8_t> bytes = elf_.read_memory(slot, 8);
        uint64_t target = 0;
        for (int b = 7; b >= 0; --b) target = (target << 8) | bytes[static_cast<size_t>(b)];
        // A slot pointing back into the stub's own function is a lazy-binding placeholder (a static binary's
        // IPLT before its IRELATIVE relocations run), not the target.
        const bool own = target >= function.start && target < function.end;
        if (is_code(target) && instruction(target)->decoded && !own) {
          out.constant = target;
          return out;
        }
      }
    }
  }
  const Instruction* load = nullptr;
  std::optional<uint64_t> anchor, table;
  a64::Register index_register;
  TableLoad entry;
  unsigned shift = 0, extend = 3;
  if ((def->opcode == "ADDXrx" || def->opcode == "ADDXrs") && same_register(def->reg(0), br.reg(0))) {
    // relative entries: the ADD's operand extend says how the entry is read: (type << 3) | shift (rx) or a shift (rs)
    if (def->opcode == "ADDXrx") { extend = (def->imm(3) >> 3) & 7; shift = def->imm(3) & 7; }
    else if ((def->imm(3) >> 6) == 0) shift = def->imm(3) & 63;
    else return unresolved();
    load = tracer.definition(def->reg(2), def->address);
    if (!load || !table_load(load->opcode) || table_load(load->opcode)->size == 8 || !same_register(load->reg(0), def->reg(2))) return unresolved();
    anchor = tracer.constant(def->reg(1), def->address);
  } else if ((def->opcode == "LDRXroX" || def->opcode == "LDRXroW") && same_register(def->reg(0), br.reg(0))) {
    load = def; // absolute entries
  } else if (def->opcode == "LDRXui" && def->imm(2) == 0 && same_register(def->reg(0), br.reg(0))) {
    // absolute entries at a computed address: add xA, xT, xI, lsl #3; ldr xD, [xA]
    const Instruction* address = tracer.definition(def->reg(1), def->address);
    if (!address || !same_register(address->reg(0), def->reg(1)) || !(address->opcode == "ADDXrs" || address->opcode == "ADDXrx")) return unresolved();
    const bool scaled = address->opcode == "ADDXrs" ? address->imm(3) == 3 : (address->imm(3) & 7) == 3 && ((address->imm(3) >> 3) & 3) >= 2;
    if (!scaled) return unresolved();
    table = tracer.constant(address->reg(1), address->address);
    index_register = address->reg(2);
    entry = {8, false};
  } else {
    return unresolved();
  }
  if (load) {
    entry = *table_load(load->opcode);
    // The index must be scaled by the entry size (or the entries be bytes).
    if (entry.size > 1 && load->imm(4) == 0) return unresolved();
    table = tracer.constant(load->reg(1), load->address);
    index_register = load->reg(2);
  }
  const bool absolute = entry.size == 8;
  if (!table || (!absolute && !anchor)) {
    out.issue = pipeline::TableIssue{branch_address, table.value_or(0),
                                     fmt::format("the {} could not be traced to a constant", !table ? "table's address" : "entries' anchor (ADR)")};
    return unresolved();
  }
  // The bound: `cmp wI, #N` (SUBS to the zero register) on the index, or on a value loaded from the same frame
  // slot as the index (-O0 reloads it).
  const uint64_t use = load ? load->address : def->address;
  const Instruction* index_load = tracer.definition(index_register, use);
  auto same_slot = [](const Instruction* a, const Instruction* b) {
    return a && b && a->opcode.starts_with("LDR") && a->opcode.ends_with("ui") && a->opcode == b->opcode && same_register(a->reg(1), b->reg(1)) &&
           (a->reg(1).is_sp() || a->reg(1).index == 29) && a->imm(2) == b->imm(2);
  };
  std::optional<uint64_t> bound;
  for (uint64_t a = use, stop = std::max(function.start, use >= 4 * 24 ? use - 4 * 24 : 0); a > stop;) {
    a -= 4;
    const Instruction& i = *instruction(a);
    if (!i.decoded) break;
    if ((i.opcode == "SUBSWri" || i.opcode == "SUBSXri") && i.reg(0).is_zero() &&
        (same_register(i.reg(1), index_register) || same_slot(tracer.definition(i.reg(1), a), index_load))) {
      bound = static_cast<uint64_t>(i.imm(2)) << i.imm(3);
      break;
    }
  }
  // Without the bounding CMP in reach, read entries while they land inside the function: extra cases are
  // harmless (each is a real instruction; the run-time value picks the right one, anything else is dispatched).
  const bool bounded = bound.has_value() && *bound <= 4096;
  if (!bounded) bound = 255;
  JumpTable jt{branch_address, *table, entry.size, {}};
  try {
    const elf::Segment* segment = elf_.segment_at(*table);
    if (!segment) {
      out.issue = pipeline::TableIssue{branch_address, *table, "the table's address is in no loaded segment"};
      return unresolved();
    }
    const uint64_t available = (segment->address + segment->memory_size - *table) / entry.size;
    if (!bounded) bound = std::min<uint64_t>(*bound, available - 1);
    const std::vector<uint8_t> bytes = elf_.read_memory(*table, (*bound + 1) * entry.size);
    const unsigned width = extend == 4 ? 8 : extend == 5 ? 16 : extend == 6 ? 32 : extend == 0 ? 8 : extend == 1 ? 16 : extend == 2 ? 32 : 64;
    for (uint64_t k = 0; k <= *bound; ++k) {
      uint64_t raw = 0;
      for (unsigned b = 0; b < entry.size; ++b) raw |= uint64_t{bytes[k * entry.size + b]} << (8 * b);
      uint64_t target = raw;
      if (!absolute) {
        int64_t value = entry.signed_entry ? static_cast<int32_t>(raw) : static_cast<int64_t>(raw);
        if (extend >= 4) value = sign_extend(static_cast<uint64_t>(value), width);
        else if (width < 64) value &= static_cast<int64_t>((uint64_t{1} << width) - 1);
        target = *anchor + (static_cast<uint64_t>(value) << shift);
      }
      if (target < function.start || target >= function.end || !is_code(target)) {
        if (bounded || k == 0) {
          out.issue = pipeline::TableIssue{branch_address, *table,
                                           fmt::format("case {} targets {:#x}, outside the function [{:#x}, {:#x})", k, target, function.start, function.end)};
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
    out.issue = pipeline::TableIssue{branch_address, *table,
                                     fmt::format("unbounded: no bounding CMP in reach; {} cases read while their targets stayed inside the function", jt.targets.size())};
  out.table = std::move(jt);
  return out;
}

} // namespace kiln::analysis
