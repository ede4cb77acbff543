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
bool is_transfer(const Instruction& i) {
  if (!i.decoded) return false;
  const Flow f = i.encoding().flow;
  return f == Flow::jump || f == Flow::branch || f == Flow::call || f == Flow::jump_register || f == Flow::call_register;
}
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
                           std::vector<DataSegment> data)
    : text_(std::move(text)), base_(base), entry_(entry), variant_(decoder.variant()), name_(std::move(name)), data_(std::move(data)) {
  if (!contains(entry)) throw Error(at_address(name_, entry), "the entry point is outside the text");
  for (uint32_t a = base_; a < end(); a += 4) instructions_.push_back(decoder.decode(word(a), a));
  find_global_pointer();
  discover();
}

uint32_t ProgramImage::word(uint32_t address) const {
  uint32_t w;
  std::memcpy(&w, &text_[address - base_], 4);
  return w;
}

bool ProgramImage::is_delay_slot(uint32_t address) const {
  return address - 4 >= base_ && contains(address - 4) && is_transfer(instruction(address - 4));
}

const Function* ProgramImage::function_at(uint32_t address) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), address, [](uint32_t a, const Function& f) { return a < f.start; });
  if (it == functions_.begin()) return nullptr;
  --it;
  return address < it->end ? &*it : nullptr;
}

void ProgramImage::rebuild_functions() {
  functions_.clear();
  for (auto it = starts_.begin(); it != starts_.end(); ++it) {
    const auto next = std::next(it);
    functions_.push_back(Function{*it, next == starts_.end() ? end() : *next});
  }
}

void ProgramImage::discover() {
  starts_.insert(entry_);
  for (const Instruction& i : instructions_)
    if (i.decoded && (i.opcode == Opcode::jal || is_branch_and_link(i)) && contains(static_target(i)) &&
        !is_delay_slot(static_target(i)))
      starts_.insert(static_target(i));
  for (int round = 0; round < 16; ++round) {
    const size_t before = starts_.size();
    rebuild_functions();
    resolve_jump_tables();
    // Static branches and jumps that leave their function become tail calls: their targets start functions.
    for (const Function& f : functions_) {
      for (uint32_t a = f.start; a < f.end; a += 4) {
        const Instruction& i = instruction(a);
        if (!i.decoded) continue;
        const Flow flow = i.encoding().flow;
        if (flow != Flow::jump && flow != Flow::branch) continue;
        const uint32_t t = static_target(i);
        if (contains(t) && (t < f.start || t >= f.end) && !is_delay_slot(t)) starts_.insert(t);
      }
    }
    for (const auto& [jr, table] : jump_tables_) {
      const Function* f = function_at(jr);
      for (uint32_t t : table.targets)
        if (f && (t < f->start || t >= f->end)) starts_.insert(t);
    }
    add_code_pointers();
    if (starts_.size() == before) break;
  }
  rebuild_functions();
  resolve_jump_tables();
}

void ProgramImage::add_code_pointers() {
  // Code ends where the last function reached so far ends its last JR $ra; beyond it lies data (GNU ld puts
  // .rodata and .data after .text), whose string addresses must not become functions.
  uint32_t code_end = base_;
  for (uint32_t a = base_; a < end(); a += 4)
    if (a >= *starts_.begin() && is_jr_ra(instruction(a))) {
      const Function* f = function_at(a);
      if (f) code_end = std::max(code_end, a + 8);
    }
  auto plausible = [&](uint32_t t) {
    if (!contains(t) || (t & 3) || is_delay_slot(t) || starts_.count(t)) return false;
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
  std::set<uint32_t> found;
  for (uint32_t a = base_; a < end(); a += 4) {
    const uint32_t w = word(a);
    if (!table_words_.count(a) && plausible(w)) found.insert(w);
    const Instruction& i = instruction(a);
    if (i.decoded && i.opcode == Opcode::lui) { // LUI rt, hi followed (within a few instructions) by ADDIU rt, rt, lo
      for (uint32_t b = a + 4; b < std::min(end(), a + 4 * 8); b += 4) {
        const Instruction& k = instruction(b);
        if (!k.decoded || k.opcode != Opcode::addiu || r3000::field_rs(k.word) != r3000::field_rt(i.word)) continue;
        const uint32_t value = (r3000::field_imm(i.word) << 16) + r3000::field_simm(k.word);
        if (plausible(value)) found.insert(value);
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
        if (plausible(*page + r3000::field_simm(k.word))) found.insert(*page + r3000::field_simm(k.word));
        break;
      }
    }
  for (const DataSegment& segment : data_)
    for (size_t k = 0; k + 4 <= segment.bytes.size(); k += 4) {
      uint32_t w;
      std::memcpy(&w, &segment.bytes[k], 4);
      if (plausible(w)) found.insert(w);
    }
  starts_.insert(found.begin(), found.end());
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

std::optional<uint32_t> ProgramImage::constant_register(uint32_t at, unsigned reg, const Function& f) const {
  // The BIOS call stub's shape: `li reg, imm` (ADDIU or ORI from $zero) right before `jr reg`, and nothing
  // branches to the JR itself (which could arrive with another value).
  if (at < f.start + 4) return std::nullopt;
  const Instruction& k = instruction(at - 4);
  if (!k.decoded || (k.opcode != Opcode::addiu && k.opcode != Opcode::ori) || r3000::field_rs(k.word) != 0 ||
      r3000::field_rt(k.word) != reg || reg == 0)
    return std::nullopt;
  if (is_delay_slot(at - 4)) return std::nullopt;
  for (uint32_t a = f.start; a < f.end; a += 4) {
    const Instruction& i = instruction(a);
    if (i.decoded && (i.encoding().flow == Flow::branch || i.encoding().flow == Flow::jump) && static_target(i) == at)
      return std::nullopt;
  }
  return k.opcode == Opcode::ori ? r3000::field_imm(k.word) : r3000::field_simm(k.word);
}

void ProgramImage::resolve_jump_tables() {
  jump_tables_.clear();
  table_words_.clear();
  unresolved_jumps_.clear();
  constant_jumps_.clear();
  for (const Function& f : functions_) {
    for (uint32_t a = f.start; a < f.end; a += 4) {
      const Instruction& jr = instruction(a);
      if (!jr.decoded || jr.opcode != Opcode::jr || r3000::field_rs(jr.word) == ra) continue;
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
      JumpTable table;
      table.jump_address = a;
      if (auto gp_table = gp_relative_table(a, f)) table = std::move(*gp_table);
      else if (have_hi && have_load) {
        for (uint32_t base : {hi + lo_add + lo_load, hi + lo_load}) {
          if (!contains(base) || (base & 3)) continue;
          std::vector<uint32_t> targets;
          for (uint32_t e = base; contains(e) && targets.size() < (count ? count : max_table_entries); e += 4) {
            const uint32_t t = word(e);
            if (!contains(t) || (t & 3)) break;
            if (!count && (t < f.start || t >= f.end)) break; // no bound known: entries while they stay inside
            targets.push_back(t);
          }
          if (!targets.empty() && (!count || targets.size() == count)) {
            table.table_address = base;
            table.targets = std::move(targets);
            break;
          }
          if (!have_add) break;
        }
      }
      if (table.targets.empty()) {
        if (auto target = constant_register(a, r3000::field_rs(jr.word), f)) constant_jumps_[a] = *target;
        else unresolved_jumps_.push_back(a);
        continue;
      }
      for (size_t e = 0; e < table.targets.size(); ++e) table_words_.insert(table.table_address + 4 * static_cast<uint32_t>(e));
      jump_tables_[a] = std::move(table);
    }
  }
}

} // namespace kiln::mips
