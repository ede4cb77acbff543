#include "recompiler/emit/ppc/program_image.h"

#include <algorithm>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/core/ppc/fields.h"

namespace kiln::ppc {
namespace {

constexpr unsigned trace_window = 48;       ///< instructions searched back for a register's definition
constexpr unsigned table_window = 32;       ///< instructions searched back from a bctr for its table
constexpr size_t max_table_entries = 1024;
constexpr unsigned max_function_probe = 256; ///< instructions read ahead to accept a code pointer past the code

bool is_blr(const Instruction& i) {
  if (!i.decoded) return false;
  const ControlFlow f = i.control_flow();
  return f.kind == FlowKind::return_ && !f.conditional;
}

} // namespace

ProgramImage::ProgramImage(std::vector<uint8_t> text, uint32_t base, uint32_t entry, const Decoder& decoder, std::string name,
                           std::vector<DataSegment> data, std::set<uint64_t> extra_starts, const pipeline::TitleHints& hints)
    : text_(std::move(text)), base_(base), entry_(entry), name_(std::move(name)), data_(std::move(data)), extra_starts_(std::move(extra_starts)) {
  if (!contains(entry)) throw Error(at_address(name_, entry), "the entry point is outside the text");
  instructions_.reserve(text_.size() / 4);
  for (uint32_t a = base_; a < end(); a += 4) instructions_.push_back(decoder.decode(word(a), a));
  found_.emplace(*this, hints);
}

uint32_t ProgramImage::word(uint32_t address) const { return load<uint32_t>(&text_[address - base_], Endian::big); }

std::optional<uint32_t> ProgramImage::read_word(uint32_t address) const {
  if (address & 3) return std::nullopt;
  if (contains(address)) return word(address);
  for (const DataSegment& segment : data_)
    if (address >= segment.address && address - segment.address + 4 <= segment.bytes.size())
      return load<uint32_t>(&segment.bytes[address - segment.address], Endian::big);
  return std::nullopt;
}

bool ProgramImage::is_pc_read(const Instruction& i) const {
  if (!i.decoded) return false;
  const ControlFlow f = i.control_flow();
  return f.kind == FlowKind::call && !f.conditional && f.target && *f.target == i.address + 4;
}

pipeline::Transfer ProgramImage::transfer(uint64_t address) const {
  const Instruction& i = instruction(address);
  pipeline::Transfer t;
  if (!i.decoded || is_pc_read(i)) return t; // bcl 20,31,$+4 only sets LR
  const ControlFlow f = i.control_flow();
  t.conditional = f.conditional;
  t.target = f.target.value_or(0);
  switch (f.kind) {
    case FlowKind::none: break;
    case FlowKind::jump: t.flow = pipeline::Flow::jump; break;
    case FlowKind::call: t.flow = pipeline::Flow::call; break;
    case FlowKind::return_: t.flow = pipeline::Flow::jump_register; t.returns = true; break;
    case FlowKind::indirect_jump: t.flow = pipeline::Flow::jump_register; break;
    case FlowKind::indirect_call: t.flow = pipeline::Flow::call_register; break;
    case FlowKind::trap: case FlowKind::system_call: t.flow = pipeline::Flow::trap; break;
    // rfi leaves for SRR0: the interrupted code, as a return does (the platform entered the handler).
    case FlowKind::exception_return: t.flow = pipeline::Flow::jump_register; t.returns = true; break;
  }
  return t;
}

const Instruction* ProgramImage::writer_of_gpr(uint32_t at, unsigned reg, const Function& f) const {
  for (uint32_t n = 1; n <= trace_window && at >= f.start + 4 * n; ++n) {
    const Instruction& i = instruction(at - 4 * n);
    if (!i.decoded) return nullptr;
    if (i.effects().gpr_write & (1u << reg)) return &i;
  }
  return nullptr;
}

/// The constant `reg` holds just before `at`, when the instructions before it in the function show it: li/lis,
/// addi/addis and ori on a constant, mr, a load from a loaded constant address (a GOT entry), and mflr after the
/// `bcl 20,31,$+4` of position-independent code.
std::optional<uint32_t> ProgramImage::constant_before(uint32_t at, unsigned reg, const Function& f, int depth) const {
  if (depth > 8) return std::nullopt;
  const Instruction* def = writer_of_gpr(at, reg, f);
  if (!def) return std::nullopt;
  const uint32_t w = def->word;
  const unsigned rd = field::d(w), ra = field::a(w), rb = field::b(w);
  auto value = [&](unsigned r) { return constant_before(def->address, r, f, depth + 1); };
  switch (def->opcode) {
    case Opcode::addi: case Opcode::addis: {
      if (rd != reg) return std::nullopt;
      const uint32_t step = def->opcode == Opcode::addi ? static_cast<uint32_t>(field::simm(w)) : static_cast<uint32_t>(field::simm(w)) << 16;
      if (ra == 0) return step;
      const auto base = value(ra);
      return base ? std::optional<uint32_t>(*base + step) : std::nullopt;
    }
    case Opcode::ori: { // ori rA, rS, uimm: the destination is rA
      if (ra != reg) return std::nullopt;
      const auto base = value(rd);
      return base ? std::optional<uint32_t>(*base | field::uimm(w)) : std::nullopt;
    }
    case Opcode::or_: // mr rA, rS (or rA, rS, rS)
      if (ra != reg || rd != rb) return std::nullopt;
      return value(rd);
    case Opcode::lwz: {
      if (rd != reg || ra == 0) return std::nullopt;
      const auto base = value(ra);
      if (!base) return std::nullopt;
      return read_word(*base + static_cast<uint32_t>(field::simm(w)));
    }
    case Opcode::mfspr: {
      if (rd != reg || field::spr_number(w) != 8) return std::nullopt; // mflr
      // LR's value: the nearest instruction before that writes it must be the bcl 20,31,$+4.
      for (uint32_t a = def->address; a >= f.start + 4;) {
        a -= 4;
        const Instruction& i = instruction(a);
        if (!i.decoded) return std::nullopt;
        if (is_pc_read(i)) return a + 4;
        if (i.effects().special_write & special_lr) return std::nullopt;
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

pipeline::IndirectTargets ProgramImage::indirect_targets(const pipeline::DiscoveredFunctions&, const Function& f, uint64_t address) const {
  pipeline::IndirectTargets out;
  const auto bctr = static_cast<uint32_t>(address);
  if (instruction(bctr).control_flow().via != Via::ctr) return out; // a computed return through LR: not a table
  // mtctr rX: the nearest CTR write before the bctr.
  const Instruction* mtctr = nullptr;
  for (uint32_t n = 1; n <= table_window && bctr >= f.start + 4 * n; ++n) {
    const Instruction& i = instruction(bctr - 4 * n);
    if (!i.decoded) break;
    if (i.effects().special_write & special_ctr) {
      if (i.opcode == Opcode::mtspr && field::spr_number(i.word) == 9) mtctr = &i;
      break;
    }
  }
  if (!mtctr) return out;
  const unsigned target_reg = field::d(mtctr->word);
  // The target: an entry loaded with lwzx (absolute), or such an entry added to the table's address (relative).
  const Instruction* def = writer_of_gpr(mtctr->address, target_reg, f);
  if (!def) return out;
  const Instruction* load = nullptr;
  std::optional<uint32_t> relative_to;
  if (def->opcode == Opcode::lwzx && field::d(def->word) == target_reg) {
    load = def;
  } else if (def->opcode == Opcode::add && field::d(def->word) == target_reg) {
    for (unsigned operand : {field::a(def->word), field::b(def->word)}) {
      const Instruction* candidate = writer_of_gpr(def->address, operand, f);
      if (candidate && candidate->opcode == Opcode::lwzx && field::d(candidate->word) == operand) {
        load = candidate;
        const unsigned other = operand == field::a(def->word) ? field::b(def->word) : field::a(def->word);
        relative_to = constant_before(def->address, other, f);
        if (!relative_to) return out;
        break;
      }
    }
  }
  if (!load) return out;
  // lwzx rE, rA, rB: one operand is the table's address, the other the scaled index (slwi rI, rN, 2).
  std::optional<uint32_t> table;
  unsigned index_reg = 32;
  for (unsigned operand : {field::a(load->word), field::b(load->word)}) {
    if (operand == 0) continue;
    if (const auto value = constant_before(load->address, operand, f)) {
      table = value;
    } else if (const Instruction* scale = writer_of_gpr(load->address, operand, f);
               scale && scale->opcode == Opcode::rlwinm && field::b(scale->word) == 2 && field::a(scale->word) == operand) {
      index_reg = field::d(scale->word); // rlwinm rA, rS, 2, 0, 29
    }
  }
  if (!table || (*table & 3)) return out;
  // The bound: `cmplwi crN, rI, N` on the unscaled index before the load.
  size_t count = 0;
  if (index_reg < 32)
    for (uint32_t n = 1; n <= table_window && load->address >= f.start + 4 * n; ++n) {
      const Instruction& i = instruction(load->address - 4 * n);
      if (!i.decoded) break;
      if (i.opcode == Opcode::cmpli && field::a(i.word) == index_reg) {
        count = field::uimm(i.word) + 1;
        break;
      }
    }
  JumpTable jt{bctr, *table, 4, {}};
  for (uint32_t e = *table; jt.targets.size() < (count ? count : max_table_entries); e += 4) {
    const auto entry = read_word(e);
    if (!entry) break;
    const uint32_t target = relative_to ? *relative_to + *entry : *entry;
    if (!contains(target) || (!count && (target < f.start || target >= f.end))) break;
    jt.targets.push_back(target);
  }
  if (jt.targets.empty() || (count && jt.targets.size() != count)) return out;
  out.table = std::move(jt);
  return out;
}

std::vector<pipeline::KnownFunction> ProgramImage::known_functions() const {
  std::vector<pipeline::KnownFunction> known;
  for (uint64_t start : extra_starts_) known.push_back({start, 0, {}});
  return known;
}

void ProgramImage::code_pointers(const pipeline::DiscoveredFunctions& found, std::set<uint64_t>& starts) const {
  // Code ends where the last function reached so far ends its last blr; beyond it lies data (.rodata follows
  // .text), whose values must not become functions unless they read as a whole function.
  uint32_t code_end = base_;
  for (uint32_t a = base_; a < end(); a += 4)
    if (a >= *found.starts().begin() && is_blr(instruction(a)) && found.function_at(a)) code_end = std::max(code_end, a + 4);
  auto plausible = [&](uint32_t t) {
    if (!contains(t) || found.is_function_start(t) || !instruction(t).decoded) return false;
    if (t < code_end) return true;
    for (uint32_t a = t, n = 0; contains(a) && n < max_function_probe; a += 4, ++n) {
      if (!instruction(a).decoded) return false;
      if (is_blr(instruction(a))) return true;
    }
    return false;
  };
  std::set<uint32_t> pointers;
  for (uint32_t a = base_; a < end(); a += 4) {
    if (!found.is_table_word(a) && plausible(word(a))) pointers.insert(word(a));
    const Instruction& i = instruction(a);
    // lis rD, hi followed (within a few instructions) by addi rD', rD, lo or ori rD', rD, lo.
    if (i.decoded && i.opcode == Opcode::addis && field::a(i.word) == 0) {
      const unsigned reg = field::d(i.word);
      for (uint32_t b = a + 4; b < std::min(end(), a + 4 * 8); b += 4) {
        const Instruction& k = instruction(b);
        if (!k.decoded) break;
        uint32_t value = 0;
        if (k.opcode == Opcode::addi && field::a(k.word) == reg) value = (field::uimm(i.word) << 16) + static_cast<uint32_t>(field::simm(k.word));
        else if (k.opcode == Opcode::ori && field::d(k.word) == reg) value = (field::uimm(i.word) << 16) | field::uimm(k.word);
        else continue;
        if (plausible(value)) pointers.insert(value);
        break;
      }
    }
  }
  for (const DataSegment& segment : data_)
    for (size_t k = 0; k + 4 <= segment.bytes.size(); k += 4) {
      const uint32_t w = load<uint32_t>(&segment.bytes[k], Endian::big);
      if (plausible(w)) pointers.insert(w);
    }
  starts.insert(pointers.begin(), pointers.end());
}

} // namespace kiln::ppc
