// Disassembly text and test assembly from the encoding table. The text follows GNU objdump -d -M750cl
// (binutils 2.40) operand for operand, simplified mnemonics included, so that the decoder test can compare the
// two on every instruction; the rules below were read off objdump's output, not its source.
#include <fmt/format.h>

#include <array>
#include <string>

#include "recompiler/isa/ppc/encoding_table.h"
#include "runtime/base/error.h"
#include "runtime/core/ppc/fields.h"

namespace kiln::ppc {
namespace {

using namespace trait;

std::string gpr(unsigned r) { return fmt::format("r{}", r); }
std::string fpr(unsigned f) { return fmt::format("f{}", f); }
std::string crf(unsigned f) { return fmt::format("cr{}", f); }

/// A CR bit as objdump writes it: lt/gt/eq/so in CR0, "4*crN+xx" elsewhere.
std::string cr_bit_name(unsigned bi) {
  static constexpr const char* names[4] = {"lt", "gt", "eq", "so"};
  if (bi < 4) return names[bi];
  return fmt::format("4*cr{}+{}", bi >> 2, names[bi & 3]);
}

std::string hex(uint32_t v) { return fmt::format("{:#x}", v); }

/// objdump's SPR mnemonics: "mf<name>"/"mt<name>" with no number, or an indexed family ("mfsprg r3,0").
struct SprName {
  const char* name;
  int index; ///< -1: none; else the number written after the register (mf) or before it (mt)
};
std::optional<SprName> spr_name(unsigned n, bool to_spr) {
  switch (n) {
    case 1: return SprName{"xer", -1};
    case 8: return SprName{"lr", -1};
    case 9: return SprName{"ctr", -1};
    case 18: return SprName{"dsisr", -1};
    case 19: return SprName{"dar", -1};
    case 22: return SprName{"dec", -1};
    case 25: return SprName{"sdr1", -1};
    case 26: return SprName{"srr0", -1};
    case 27: return SprName{"srr1", -1};
    case 282: return SprName{"ear", -1};
    // The POWER real-time clock: objdump names 4/5 when read and 20/21 when written.
    case 4: if (!to_spr) return SprName{"rtcu", -1}; break;
    case 5: if (!to_spr) return SprName{"rtcl", -1}; break;
    case 20: if (to_spr) return SprName{"rtcu", -1}; break;
    case 21: if (to_spr) return SprName{"rtcl", -1}; break;
    case 284: if (to_spr) return SprName{"tbl", -1}; break;
    case 285: if (to_spr) return SprName{"tbu", -1}; break;
    case 287: if (!to_spr) return SprName{"pvr", -1}; break;
    case 920: return SprName{"hid2", -1};
    case 921: return SprName{"wpar", -1};
    case 922: return SprName{"dmau", -1};
    case 923: return SprName{"dmal", -1};
    case 936: return SprName{"ummcr0", -1};
    case 937: return SprName{"upmc1", -1};
    case 938: return SprName{"upmc2", -1};
    case 939: return SprName{"usia", -1};
    case 940: return SprName{"ummcr1", -1};
    case 941: return SprName{"upmc3", -1};
    case 942: return SprName{"upmc4", -1};
    case 952: return SprName{"mmcr0", -1};
    case 953: return SprName{"pmc1", -1};
    case 954: return SprName{"pmc2", -1};
    case 955: return SprName{"sia", -1};
    case 956: return SprName{"mmcr1", -1};
    case 957: return SprName{"pmc3", -1};
    case 958: return SprName{"pmc4", -1};
    case 1008: return SprName{"hid0", -1};
    case 1009: return SprName{"hid1", -1};
    case 1010: return SprName{"iabr", -1};
    case 1011: return SprName{"hid4", -1};
    case 1013: return SprName{"dabr", -1};
    case 1017: return SprName{"l2cr", -1};
    case 1019: return SprName{"ictc", -1};
    case 1020: return SprName{"thrm1", -1};
    case 1021: return SprName{"thrm2", -1};
    case 1022: return SprName{"thrm3", -1};
    default: break;
  }
  if (n >= 272 && n <= 275) return SprName{"sprg", static_cast<int>(n - 272)};
  if (n >= 528 && n <= 543) return SprName{(n & 1) ? (n < 536 ? "ibatl" : "dbatl") : (n < 536 ? "ibatu" : "dbatu"), static_cast<int>(((n - 528) & 7) >> 1)};
  if (n >= 560 && n <= 575) return SprName{(n & 1) ? (n < 568 ? "ibatl" : "dbatl") : (n < 568 ? "ibatu" : "dbatu"), static_cast<int>((((n - 560) & 7) >> 1) + 4)};
  if (n >= 912 && n <= 919) return SprName{"gqr", static_cast<int>(n - 912)};
  return std::nullopt;
}

/// Trap conditions with an objdump mnemonic (PEM "Trap Mnemonics"; objdump's choice among synonyms).
const char* trap_condition(unsigned to) {
  switch (to) {
    case 1: return "lgt";
    case 2: return "llt";
    case 4: return "eq";
    case 5: return "lge";
    case 6: return "lle";
    case 8: return "gt";
    case 12: return "ge";
    case 16: return "lt";
    case 20: return "le";
    case 24: return "ne";
    case 31: return "u";
    default: return nullptr;
  }
}

std::string operand_text(Operand op, uint32_t w, uint32_t address) {
  using namespace field;
  switch (op) {
    case Operand::none: return {};
    case Operand::rd: case Operand::rs: return gpr(d(w));
    case Operand::ra: case Operand::ra_w: case Operand::ra_rw: case Operand::ra0_named: return gpr(a(w));
    case Operand::ra0: return a(w) == 0 ? std::string("0") : gpr(a(w));
    case Operand::rb: return gpr(b(w));
    case Operand::frd: case Operand::frs: return fpr(d(w));
    case Operand::fra: return fpr(a(w));
    case Operand::frb: return fpr(b(w));
    case Operand::frc: return fpr(c(w));
    case Operand::crfd: return crf(crfd(w));
    case Operand::crfs: case Operand::fpscr_crfs: return crf(crfs(w));
    case Operand::crbd: return cr_bit_name(d(w));
    case Operand::crba: return cr_bit_name(a(w));
    case Operand::crbb: return cr_bit_name(b(w));
    case Operand::simm: return fmt::format("{}", simm(w));
    case Operand::uimm: return fmt::format("{}", uimm(w));
    case Operand::d_ra0: return a(w) == 0 ? fmt::format("{}(0)", simm(w)) : fmt::format("{}({})", simm(w), gpr(a(w)));
    case Operand::d_ra_update: return fmt::format("{}({})", simm(w), gpr(a(w)));
    case Operand::psq_d_ra0: case Operand::psq_d_ra_update: return fmt::format("{}({})", psq_d(w), gpr(a(w)));
    case Operand::psq_w: return fmt::format("{}", psq_w(w));
    case Operand::psq_i: return fmt::format("{}", psq_i(w));
    case Operand::psq_wx: return fmt::format("{}", psq_wx(w));
    case Operand::psq_ix: return fmt::format("{}", psq_ix(w));
    case Operand::sh: return fmt::format("{}", b(w));
    case Operand::mb: return fmt::format("{}", c(w));
    case Operand::me: return fmt::format("{}", me(w));
    case Operand::nb: return fmt::format("{}", b(w) == 0 ? 32 : b(w));
    case Operand::to: case Operand::bo: return fmt::format("{}", d(w));
    case Operand::bi: return cr_bit_name(a(w));
    case Operand::bd: return hex(aa(w) ? static_cast<uint32_t>(bd(w)) : address + static_cast<uint32_t>(bd(w)));
    case Operand::li: return hex(aa(w) ? static_cast<uint32_t>(li(w)) : address + static_cast<uint32_t>(li(w)));
    case Operand::spr: case Operand::tbr: return fmt::format("{}", spr_number(w));
    case Operand::sr: return fmt::format("{}", sr(w));
    case Operand::crm: return fmt::format("{}", crm(w));
    case Operand::fm: return fmt::format("{}", fm(w));
    case Operand::fpscr_imm: return fmt::format("{}", fpscr_imm(w));
    case Operand::fpscr_field: return fmt::format("{}", crfd(w));
    case Operand::fpscr_bit: return fmt::format("{}", d(w));
  }
  return {};
}

std::string join(std::string_view mnemonic, std::initializer_list<std::string> operands) {
  std::string out(mnemonic);
  bool first = true;
  for (const std::string& o : operands) {
    if (o.empty()) continue;
    out += first ? " " : ",";
    out += o;
    first = false;
  }
  return out;
}

/// The generic text: the row's mnemonic with its o/./l/a suffixes, then every operand.
std::string plain(const Encoding& row, uint32_t w, uint32_t address, std::string_view mnemonic) {
  std::string text(mnemonic);
  if (row.has(has_oe) && field::oe(w)) text += 'o';
  if (row.has(has_rc) && field::rc(w)) text += '.';
  bool first = true;
  for (Operand op : row.operands) {
    if (op == Operand::none) break;
    text += first ? " " : ",";
    text += operand_text(op, w, address);
    first = false;
  }
  return text;
}

std::string dot(std::string_view mnemonic, uint32_t w) { return std::string(mnemonic) + (field::rc(w) ? "." : ""); }

/// bc/bclr/bcctr in objdump's simplified forms ("bdnzf-", "bnelr+ cr1", "blr") or raw ("bc+ 17,lt,0x10").
std::string branch_text(const Encoding& row, uint32_t w, uint32_t address) {
  using namespace field;
  const unsigned bo = d(w), bi = a(w);
  const char* target_kind = row.opcode == Opcode::bclr ? "lr" : row.opcode == Opcode::bcctr ? "ctr" : "";
  std::string suffix = lk(w) ? "l" : "";
  if (row.opcode == Opcode::bc && aa(w)) suffix += 'a';
  const std::string target = row.opcode == Opcode::bc ? operand_text(Operand::bd, w, address) : std::string();
  // objdump's hint says whether the branch is predicted taken: the y bit reverses the default (backward
  // taken, forward not), so '+' is y XOR "the displacement is negative" (bclr/bcctr: y alone).
  const bool backward = row.opcode == Opcode::bc && bd(w) < 0;
  const char hint = ((bo & 1) != 0) != backward ? '+' : '-';
  const bool ignores_condition = (bo & 16) != 0, decrements = (bo & 4) == 0;
  if (ignores_condition) {
    // BO 1z1zz branches always, 1z0zy decrements CTR (z bits ignored); objdump names only the z = 0 forms
    // with BI = 0, and not bc 20.
    const bool always = (bo & 4) != 0;
    if (bi == 0 && always && bo == 20 && row.opcode != Opcode::bc) return fmt::format("b{}{}", target_kind, suffix);
    if (bi == 0 && !always) {
      const char* ctr = (bo & 2) ? "bdz" : "bdnz";
      return join(fmt::format("{}{}{}{}", ctr, target_kind, suffix, hint), {target});
    }
    // The raw form, marked "+" only for a forward branch with the y bit set.
    std::string mnemonic = fmt::format("{}{}", row.mnemonic, suffix);
    if ((bo & 1) && !backward && !always) mnemonic += '+';
    return join(mnemonic, {fmt::format("{}", bo), cr_bit_name(bi), target});
  }
  if (decrements) {
    const char* ctr = (bo & 2) ? "bdz" : "bdnz";
    const char* sense = (bo & 8) ? "t" : "f";
    return join(fmt::format("{}{}{}{}{}", ctr, sense, target_kind, suffix, hint), {cr_bit_name(bi), target});
  }
  static constexpr const char* when_true[4] = {"lt", "gt", "eq", "so"};
  static constexpr const char* when_false[4] = {"ge", "le", "ne", "ns"};
  const char* condition = (bo & 8) ? when_true[bi & 3] : when_false[bi & 3];
  return join(fmt::format("b{}{}{}{}", condition, target_kind, suffix, hint), {bi >= 4 ? crf(bi >> 2) : std::string(), target});
}

/// rlwinm's simplified forms, in the order objdump prefers them.
std::string rlwinm_text(const Encoding& row, uint32_t w, uint32_t address) {
  using namespace field;
  const unsigned sh = b(w), mb = c(w), me_ = me(w);
  const std::string ra = gpr(a(w)), rs = gpr(d(w));
  if (mb == 0 && me_ == 31) return join(dot("rotlwi", w), {ra, rs, fmt::format("{}", sh)});
  if (mb == 0 && sh != 0 && me_ == 31 - sh) return join(dot("slwi", w), {ra, rs, fmt::format("{}", sh)});
  if (me_ == 31 && sh != 0 && sh == 32 - mb) return join(dot("srwi", w), {ra, rs, fmt::format("{}", mb)});
  if (sh == 0 && me_ == 31) return join(dot("clrlwi", w), {ra, rs, fmt::format("{}", mb)});
  if (sh == 0 && mb == 0) return join(dot("clrrwi", w), {ra, rs, fmt::format("{}", 31 - me_)});
  return plain(row, w, address, row.mnemonic);
}

std::string compare_text(std::string_view mnemonic, uint32_t w, const std::string& second) {
  const unsigned field_d = field::crfd(w);
  return join(mnemonic, {field_d ? crf(field_d) : std::string(), gpr(field::a(w)), second});
}

} // namespace

std::string format_instruction(const Encoding& row, uint32_t w, uint32_t address) {
  using namespace field;
  switch (row.opcode) {
    case Opcode::addi: if (a(w) == 0) return join("li", {gpr(d(w)), fmt::format("{}", simm(w))}); break;
    case Opcode::addis: if (a(w) == 0) return join("lis", {gpr(d(w)), fmt::format("{}", simm(w))}); break;
    case Opcode::ori: if (w == 0x60000000u) return "nop"; break;
    case Opcode::or_: if (d(w) == b(w)) return join(dot("mr", w), {gpr(a(w)), gpr(d(w))}); break;
    case Opcode::nor: if (d(w) == b(w)) return join(dot("not", w), {gpr(a(w)), gpr(d(w))}); break;
    case Opcode::rlwinm: return rlwinm_text(row, w, address);
    case Opcode::rlwnm:
      if (c(w) == 0 && me(w) == 31) return join(dot("rotlw", w), {gpr(a(w)), gpr(d(w)), gpr(b(w))});
      break;
    case Opcode::cmp: return compare_text("cmpw", w, gpr(b(w)));
    case Opcode::cmpl: return compare_text("cmplw", w, gpr(b(w)));
    case Opcode::cmpi: return compare_text("cmpwi", w, fmt::format("{}", simm(w)));
    case Opcode::cmpli: return compare_text("cmplwi", w, fmt::format("{}", uimm(w)));
    case Opcode::crxor: if (d(w) == a(w) && a(w) == b(w)) return join("crclr", {cr_bit_name(d(w))}); break;
    case Opcode::creqv: if (d(w) == a(w) && a(w) == b(w)) return join("crset", {cr_bit_name(d(w))}); break;
    case Opcode::cror: if (a(w) == b(w)) return join("crmove", {cr_bit_name(d(w)), cr_bit_name(a(w))}); break;
    case Opcode::crnor: if (a(w) == b(w)) return join("crnot", {cr_bit_name(d(w)), cr_bit_name(a(w))}); break;
    case Opcode::mtcrf: if (crm(w) == 0xFF) return join("mtcr", {gpr(d(w))}); break;
    case Opcode::b: {
      std::string m = "b";
      if (lk(w)) m += 'l';
      if (aa(w)) m += 'a';
      return join(m, {operand_text(Operand::li, w, address)});
    }
    case Opcode::bc: case Opcode::bclr: case Opcode::bcctr: return branch_text(row, w, address);
    case Opcode::tw:
      if (d(w) == 31 && a(w) == 0 && b(w) == 0) return "trap";
      if (const char* cond = trap_condition(d(w))) return join(fmt::format("tw{}", cond), {gpr(a(w)), gpr(b(w))});
      break;
    case Opcode::twi:
      if (const char* cond = trap_condition(d(w))) return join(fmt::format("tw{}i", cond), {gpr(a(w)), fmt::format("{}", simm(w))});
      break;
    case Opcode::mfspr:
      if (const auto name = spr_name(spr_number(w), false)) {
        const std::string m = fmt::format("mf{}", name->name);
        return name->index < 0 ? join(m, {gpr(d(w))}) : join(m, {gpr(d(w)), fmt::format("{}", name->index)});
      }
      break;
    case Opcode::mtspr:
      if (const auto name = spr_name(spr_number(w), true)) {
        const std::string m = fmt::format("mt{}", name->name);
        return name->index < 0 ? join(m, {gpr(d(w))}) : join(m, {fmt::format("{}", name->index), gpr(d(w))});
      }
      break;
    case Opcode::mftb:
      if (spr_number(w) == 268) return join("mftb", {gpr(d(w))});
      if (spr_number(w) == 269) return join("mftbu", {gpr(d(w))});
      break;
    default: break;
  }
  return plain(row, w, address, row.mnemonic);
}

uint32_t assemble(Opcode opcode, std::initializer_list<int64_t> values, Modifiers modifiers) {
  const Encoding& row = encoding(opcode);
  uint32_t w = row.match;
  const int64_t* next = values.begin();
  auto take = [&]() -> uint32_t {
    if (next == values.end()) throw Error(fmt::format("PowerPC assemble {}: too few operands", row.mnemonic));
    return static_cast<uint32_t>(*next++);
  };
  for (Operand op : row.operands) {
    switch (op) {
      case Operand::none: break;
      case Operand::rd: case Operand::rs: case Operand::frd: case Operand::frs: case Operand::crbd: case Operand::to:
      case Operand::bo: case Operand::fpscr_bit:
        w |= (take() & 31) << 21;
        break;
      case Operand::ra: case Operand::ra0: case Operand::ra0_named: case Operand::ra_w: case Operand::ra_rw:
      case Operand::fra: case Operand::crba: case Operand::bi:
        w |= (take() & 31) << 16;
        break;
      case Operand::rb: case Operand::frb: case Operand::crbb: case Operand::sh: case Operand::nb: w |= (take() & 31) << 11; break;
      case Operand::frc: case Operand::mb: w |= (take() & 31) << 6; break;
      case Operand::me: w |= (take() & 31) << 1; break;
      case Operand::crfd: case Operand::fpscr_field: w |= (take() & 7) << 23; break;
      case Operand::crfs: case Operand::fpscr_crfs: w |= (take() & 7) << 18; break;
      case Operand::simm: case Operand::uimm: w |= take() & 0xFFFF; break;
      case Operand::d_ra0: case Operand::d_ra_update: {
        const uint32_t displacement = take();
        w |= (displacement & 0xFFFF) | (take() & 31) << 16;
        break;
      }
      case Operand::psq_d_ra0: case Operand::psq_d_ra_update: {
        const uint32_t displacement = take();
        w |= (displacement & 0xFFF) | (take() & 31) << 16;
        break;
      }
      case Operand::psq_w: w |= (take() & 1) << 15; break;
      case Operand::psq_i: w |= (take() & 7) << 12; break;
      case Operand::psq_wx: w |= (take() & 1) << 10; break;
      case Operand::psq_ix: w |= (take() & 7) << 7; break;
      case Operand::bd: w |= take() & 0xFFFC; break;
      case Operand::li: w |= take() & 0x03FFFFFC; break;
      case Operand::spr: case Operand::tbr: {
        const uint32_t n = take();
        w |= (n & 31) << 16 | ((n >> 5) & 31) << 11;
        break;
      }
      case Operand::sr: w |= (take() & 15) << 16; break;
      case Operand::crm: w |= (take() & 0xFF) << 12; break;
      case Operand::fm: w |= (take() & 0xFF) << 17; break;
      case Operand::fpscr_imm: w |= (take() & 15) << 12; break;
    }
  }
  if (next != values.end()) throw Error(fmt::format("PowerPC assemble {}: too many operands", row.mnemonic));
  if (modifiers.oe) w |= 1u << 10;
  if (modifiers.rc || modifiers.lk) w |= 1u;
  if (modifiers.aa) w |= 2u;
  return w;
}

} // namespace kiln::ppc
