#include "recompiler/emit/mips/function_discovery.h"

#include <algorithm>
#include <cstring>

#include "runtime/base/error.h"
#include "runtime/core/mips/ops.h"

namespace kiln::mips {
namespace {

constexpr unsigned ra = 31, gp = 28, t9 = 25;
constexpr unsigned jump_table_window = 16; ///< instructions searched before a JR for the table's address
constexpr unsigned gp_table_window = 48;   ///< the same for $gp-relative tables (the address may be set before a loop)
constexpr size_t max_table_entries = 1024;
constexpr unsigned max_function_probe = 256; ///< instructions read ahead to accept a code pointer past the code

bool is_jr_ra(const Instruction& i) { return i.decoded && i.opcode == Opcode::jr && r3000::field_rs(i.word) == ra; }
} // namespace

bool is_branch_and_link(const Instruction& i) {
  return i.decoded && i.opcode == Opcode::bcondz && (r3000::field_rt(i.word) & 0x1E) == 0x10;
}
bool is_unconditional(const Instruction& i) {
  return i.opcode == Opcode::j || (i.opcode == Opcode::beq && r3000::field_rs(i.word) == r3000::field_rt(i.word));
}


uint32_t static_target(const Instruction& i) {
  if (i.opcode == Opcode::j || i.opcode == Opcode::jal) return r3000::jump_target(i.word, i.address + 4);
  return r3000::branch_target(i.word, i.address + 4);
}

ProgramImage::ProgramImage(std::vector<uint8_t> text, uint32_t base, uint32_t entry, const Decoder& decoder, std::string name,
                           std::vector<DataSegment> data, const pipeline::TitleHints& hints)
    : text_(std::move(text)), base_(base), entry_(entry), variant_(decoder.variant()), name_(std::move(name)), data_(std::move(data)) {
  if (!contains(entry)) throw Error(at_address(name_, entry), "the entry point is outside the text");
  for (uint32_t a = base_; a < end(); a += 4) instructions_.push_back(decoder.decode(word(a), a));
  find_global_pointer();
  found_.emplace(*this, hints);
}

uint32_t ProgramImage::word(uint32_t address) const {
  uint32_t w;
  std::memcpy(&w, &text_[address - base_], 4);
  return w;
}

pipeline::Transfer ProgramImage::transfer(uint64_t address) const {
  const Instruction& i = instruction(address);
  pipeline::Transfer t;
  if (!i.decoded) return t;
  t.delay_slot = true;
  switch (i.encoding().flow) {
    case Flow::none: t.delay_slot = false; break;
    case Flow::trap: t.flow = pipeline::Flow::trap; t.delay_slot = false; break;
    case Flow::jump: t.flow = pipeline::Flow::jump; t.target = static_target(i); break;
    case Flow::branch:
      t.flow = is_branch_and_link(i) ? pipeline::Flow::call : pipeline::Flow::jump;
      t.target = static_target(i);
      t.conditional = !is_unconditional(i);
      break;
    case Flow::call: t.flow = pipeline::Flow::call; t.target = static_target(i); break;
    case Flow::jump_register: t.flow = pipeline::Flow::jump_register; t.returns = r3000::field_rs(i.word) == ra; break;
    case Flow::call_register: t.flow = pipeline::Flow::call_register; break;
  }
  return t;
}

void ProgramImage::code_pointers(const pipeline::DiscoveredFunctions& found, std::set<uint64_t>& starts) const {
  // Code ends where the last function reached so far ends its last JR $ra; beyond it lies data (GNU ld puts
  // .rodata and .data after .text), whose string addresses must not become functions.
  uint32_t code_end = base_;
  for (uint32_t a = base_; a < end(); a += 4)
    if (a >= *found.starts().begin() && is_jr_ra(instruction(a))) {
      const Function* f = found.function_at(a);
      if (f) code_end = std::max(code_end, a + 8);
    }
  auto plausible = [&](uint32_t t) {
    if (!contains(t) || (t & 3) || found.is_delay_slot(t) || found.is_function_start(t)) return false;
    if (t < code_end) return true;
    // Past the known code (data follows the code in GNU ld's layout): only what reads as a whole function, every
    // word an instruction up to a JR $ra and its delay slot. Text decodes into invalid opcodes quickly (ASCII
    // letters are opcodes 18h-1Eh), and zero padding never reaches a return.
    for (uint32_t a = t, n = 0; contains(a) && n < max_function_probe; a += 4, ++n) {
      if (!instruction(a).decoded) return false;
      if (is_jr_ra(instruction(a))) return contains(a + 4) && instruction(a + 4).decoded;
    }
    return false;
  };
  std::set<uint32_t> pointers;
  for (uint32_t a = base_; a < end(); a += 4) {
    const uint32_t w = word(a);
    if (!found.is_table_word(a) && plausible(w)) pointers.insert(w);
    const Instruction& i = instruction(a);
    if (i.decoded && i.opcode == Opcode::lui) { // LUI rt, hi followed (within a few instructions) by ADDIU rt, rt, lo
      for (uint32_t b = a + 4; b < std::min(end(), a + 4 * 8); b += 4) {
        const Instruction& k = instruction(b);
        if (!k.decoded || k.opcode != Opcode::addiu || r3000::field_rs(k.word) != r3000::field_rt(i.word)) continue;
        const uint32_t value = (r3000::field_imm(i.word) << 16) + r3000::field_simm(k.word);
        if (plausible(value)) pointers.insert(value);
        break;
      }
    }
  }
  // abicalls code takes a local function's address as `lw r, %got(f)($gp); addiu r2, r, %lo(f)`.
  if (gp_)
    for (uint32_t a = base_; a + 4 < end(); a += 4) {
      const Instruction& i = instruction(a);
      if (!i.decoded || i.opcode != Opcode::lw || r3000::field_rs(i.word) != gp) continue;
      const std::optional<uint32_t> page = read_word(*gp_ + r3000::field_simm(i.word));
      if (!page) continue;
      for (uint32_t b = a + 4; b < std::min(end(), a + 4 * 8); b += 4) {
        const Instruction& k = instruction(b);
        if (!k.decoded || k.opcode != Opcode::addiu || r3000::field_rs(k.word) != r3000::field_rt(i.word)) continue;
        if (plausible(*page + r3000::field_simm(k.word))) pointers.insert(*page + r3000::field_simm(k.word));
        break;
      }
    }
  for (const DataSegment& segment : data_)
    for (size_t k = 0; k + 4 <= segment.bytes.size(); k += 4) {
      uint32_t w;
      std::memcpy(&w, &segment.bytes[k], 4);
      if (plausible(w)) pointers.insert(w);
    }
  starts.insert(pointers.begin(), pointers.end());
}

std::optional<uint32_t> ProgramImage::read_word(uint32_t address) const {
  if (address & 3) return std::nullopt;
  if (contains(address)) return word(address);
  for (const DataSegment& segment : data_)
    if (address >= segment.address && address - segment.address + 4 <= segment.bytes.size()) {
      uint32_t w;
      std::memcpy(&w, &segment.bytes[address - segment.address], 4);
      return w;
    }
  return std::nullopt;
}

void ProgramImage::find_global_pointer() {
  // abicalls functions open with `lui $gp, hi; addiu $gp, $gp, lo; addu $gp, $gp, $t9` ($t9 = the function's
  // address): $gp = _gp, the same in every function of a static executable. The value most prologues give wins.
  std::map<uint32_t, size_t> votes;
  for (uint32_t a = base_; a + 8 < end(); a += 4) {
    const Instruction &hi = instruction(a), &lo = instruction(a + 4), &add = instruction(a + 8);
    if (!hi.decoded || !lo.decoded || !add.decoded) continue;
    if (hi.opcode != Opcode::lui || r3000::field_rt(hi.word) != gp) continue;
    if (lo.opcode != Opcode::addiu || r3000::field_rt(lo.word) != gp || r3000::field_rs(lo.word) != gp) continue;
    if (add.opcode != Opcode::addu || r3000::field_rd(add.word) != gp || r3000::field_rs(add.word) != gp || r3000::field_rt(add.word) != t9) continue;
    ++votes[(r3000::field_imm(hi.word) << 16) + r3000::field_simm(lo.word) + a];
  }
  size_t best = 0;
  for (const auto& [value, count] : votes)
    if (count > best) { best = count; gp_ = value; }
}

std::optional<JumpTable> ProgramImage::gp_relative_table(uint32_t at, const Function& f) const {
  // GCC's switch in abicalls code: entries are offsets from $gp (.gpword):
  //   [sltiu t, index, N] ... lw page, %got(table)($gp); addiu base, page, %lo(table); addu p, base, index*4;
  //   lw entry, 0(p); addu target, entry, $gp; jr target
  if (!gp_) return std::nullopt;
  const unsigned target_reg = r3000::field_rs(instruction(at).word);
  // Walking back: the add of $gp, the entry load, the add of the scaled index to the table address, the
  // table address (`addiu base, base, %lo`), its GOT load. The table address may be set up before a loop.
  enum class Want { gp_add, entry, index_add, base, got, done } want = Want::gp_add;
  unsigned entry_reg = 0, address_reg = 0, base_candidates[2] = {0, 0}, base_reg = 0, scaled_reg = 0;
  int32_t entry_offset = 0, lo = 0, got_offset = 0;
  for (uint32_t n = 1; n <= gp_table_window && at - 4 * n >= f.start && want != Want::done; ++n) {
    const Instruction& k = instruction(at - 4 * n);
    if (!k.decoded) break;
    const unsigned rs = r3000::field_rs(k.word), rt = r3000::field_rt(k.word), rd = r3000::field_rd(k.word);
    const auto simm = static_cast<int32_t>(r3000::field_simm(k.word));
    switch (want) {
      case Want::gp_add:
        if (k.opcode == Opcode::addu && rd == target_reg && (rs == gp || rt == gp)) {
          entry_reg = rs == gp ? rt : rs;
          want = Want::entry;
        } else if (n > 2) return std::nullopt;
        break;
      case Want::entry:
        if (k.opcode == Opcode::lw && rt == entry_reg) { entry_offset = simm; address_reg = rs; want = Want::index_add; }
        break;
      case Want::index_add:
        if (k.opcode == Opcode::addu && rd == address_reg) { base_candidates[0] = rs; base_candidates[1] = rt; want = Want::base; }
        break;
      case Want::base:
        if (k.opcode == Opcode::addiu && (rt == base_candidates[0] || rt == base_candidates[1])) {
          scaled_reg = rt == base_candidates[0] ? base_candidates[1] : base_candidates[0];
          base_reg = rs; // the register the GOT load fills
          lo = simm;
          want = Want::got;
        }
        break;
      case Want::got:
        if (k.opcode == Opcode::lw && rs == gp && rt == base_reg) { got_offset = simm; want = Want::done; }
        break;
      case Want::done: break;
    }
  }
  if (want != Want::done) return std::nullopt;
  const std::optional<uint32_t> page = read_word(*gp_ + static_cast<uint32_t>(got_offset));
  if (!page) return std::nullopt;
  JumpTable table;
  table.jump_address = at;
  table.table_address = *page + static_cast<uint32_t>(lo + entry_offset);
  // The bound: `sll scaled, index, 2` and before it `sltiu t, index, N` (or `andi index, x, N - 1`). Without it the entries are read while
  // they stay inside the function (a neighbouring table's entries only add unused cases).
  uint32_t count = 0;
  unsigned index_reg = 32;
  for (uint32_t n = 1; n <= gp_table_window && at - 4 * n >= f.start; ++n) {
    const Instruction& k = instruction(at - 4 * n);
    if (!k.decoded) break;
    if (index_reg == 32 && k.opcode == Opcode::sll && r3000::field_rd(k.word) == scaled_reg && r3000::field_sa(k.word) == 2)
      index_reg = r3000::field_rt(k.word);
    else if (index_reg != 32 && k.opcode == Opcode::sltiu && r3000::field_rs(k.word) == index_reg) {
      count = r3000::field_imm(k.word);
      break;
    } else if (index_reg != 32 && k.opcode == Opcode::andi && r3000::field_rt(k.word) == index_reg) {
      count = r3000::field_imm(k.word) + 1; // `andi index, n, 7`: eight entries (glibc's word copy loops)
      break;
    }
  }
  for (uint32_t e = table.table_address; table.targets.size() < (count ? count : max_table_entries); e += 4) {
    const std::optional<uint32_t> entry = read_word(e);
    if (!entry) break;
    const uint32_t t = *gp_ + *entry;
    if (!contains(t) || (t & 3) || (!count && (t < f.start || t >= f.end))) break;
    table.targets.push_back(t);
  }
  if (table.targets.empty() || (count && table.targets.size() != count)) return std::nullopt;
  return table;
}

std::optional<uint32_t> ProgramImage::constant_register(uint32_t at, unsigned reg, const Function& f,
                                                        const pipeline::DiscoveredFunctions& found) const {
  // The BIOS call stub's shape: `li reg, imm` (ADDIU or ORI from $zero) right before `jr reg`, and nothing
  // branches to the JR itself (which could arrive with another value).
  if (at < f.start + 4) return std::nullopt;
  const Instruction& k = instruction(at - 4);
  if (!k.decoded || (k.opcode != Opcode::addiu && k.opcode != Opcode::ori) || r3000::field_rs(k.word) != 0 ||
      r3000::field_rt(k.word) != reg || reg == 0)
    return std::nullopt;
  if (found.is_delay_slot(at - 4)) return std::nullopt;
  for (uint32_t a = f.start; a < f.end; a += 4) {
    const Instruction& i = instruction(a);
    if (i.decoded && (i.encoding().flow == Flow::branch || i.encoding().flow == Flow::jump) && static_target(i) == at)
      return std::nullopt;
  }
  return k.opcode == Opcode::ori ? r3000::field_imm(k.word) : r3000::field_simm(k.word);
}

std::optional<JumpTable> ProgramImage::absolute_table(uint32_t a, const Function& f) const {
  // GCC: sltiu t, index, N ... lui base, %hi(table) [addiu base, base, %lo(table)] ... lw target, %lo(base) ... jr target
  uint32_t hi = 0, lo_add = 0, lo_load = 0, count = 0;
  bool have_hi = false, have_add = false, have_load = false;
  for (uint32_t n = 1; n <= jump_table_window && a - 4 * n >= f.start; ++n) {
    const Instruction& k = instruction(a - 4 * n);
    if (!k.decoded) break;
    if (k.opcode == Opcode::lw && !have_load) { lo_load = r3000::field_simm(k.word); have_load = true; }
    if (k.opcode == Opcode::addiu && !have_hi && !have_add) { lo_add = r3000::field_simm(k.word); have_add = true; }
    if (k.opcode == Opcode::lui && !have_hi) { hi = r3000::field_imm(k.word) << 16; have_hi = true; }
    if (k.opcode == Opcode::sltiu && count == 0) count = r3000::field_imm(k.word);
  }
  if (!have_hi || !have_load) return std::nullopt;
  for (uint32_t base : {hi + lo_add + lo_load, hi + lo_load}) {
    if (!contains(base) || (base & 3)) continue;
    std::vector<uint64_t> targets;
    for (uint32_t e = base; contains(e) && targets.size() < (count ? count : max_table_entries); e += 4) {
      const uint32_t t = word(e);
      if (!contains(t) || (t & 3)) break;
      if (!count && (t < f.start || t >= f.end)) break; // no bound known: entries while they stay inside
      targets.push_back(t);
    }
    if (!targets.empty() && (!count || targets.size() == count)) return JumpTable{a, base, 4, std::move(targets)};
    if (!have_add) break;
  }
  return std::nullopt;
}

pipeline::IndirectTargets ProgramImage::indirect_targets(const pipeline::DiscoveredFunctions& found, const Function& f, uint64_t a) const {
  pipeline::IndirectTargets out;
  const auto jr = static_cast<uint32_t>(a);
  if (auto table = gp_relative_table(jr, f)) out.table = std::move(table);
  else out.table = absolute_table(jr, f);
  if (!out.table)
    if (auto target = constant_register(jr, r3000::field_rs(instruction(a).word), f, found)) out.constant = *target;
  return out;
}

} // namespace kiln::mips
