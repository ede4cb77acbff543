#pragma once
// What each Gekko instruction does: the one copy of the PowerPC semantics. Recompiled code calls these with the
// instruction word and its address as constants (the field extraction and the OE/Rc/LK tests fold away); the
// step interpreter (step.h) and the tests call the very same functions.
//
// Every function has the shape `template <class Bus> void name(Cpu& c, Bus& bus, uint32_t word, uint32_t pc)`
// (the Bus is described in cpu.h). A branch sets c.next_pc; nothing else touches it unless it raises an
// exception (raise_exception: next_pc = the vector, exception_taken set). The caller sets next_pc = pc + 4
// before the call when it wants to read it afterwards.
//
// Sources: the PowerPC Programming Environments Manual for 32-bit implementations (PEM), chapter 8 for each
// instruction; the IBM PowerPC 750CL User's Manual (750CL UM) for what the 750CL implements and the Gekko adds.
// Where the manuals leave a result undefined, the 750CL's value as Dolphin documents it from hardware tests
// (read for behaviour only) is used and the comment says so.
#include <bit>
#include <cstdint>

#include "runtime/base/bits.h"
#include "runtime/core/ppc/cpu.h"
#include "runtime/core/ppc/fields.h"
#include "runtime/core/ppc/instructions.h"

namespace kiln::ppc {

#define KILN_PPC_OP(name)                                                                                      \
  template <class Bus>                                                                                         \
  inline void name([[maybe_unused]] Cpu& c, [[maybe_unused]] Bus& bus, [[maybe_unused]] uint32_t w,           \
                   [[maybe_unused]] uint32_t pc)

namespace detail {
using namespace field;

inline uint32_t ra0(const Cpu& c, uint32_t w) { return a(w) ? c.gpr[a(w)] : 0; }
inline uint32_t ea_d(const Cpu& c, uint32_t w) { return ra0(c, w) + static_cast<uint32_t>(simm(w)); }
inline uint32_t ea_x(const Cpu& c, uint32_t w) { return ra0(c, w) + c.gpr[b(w)]; }
/// Update forms: rA is never 0 (the decoder rejects that invalid form).
inline uint32_t ea_du(const Cpu& c, uint32_t w) { return c.gpr[a(w)] + static_cast<uint32_t>(simm(w)); }
inline uint32_t ea_xu(const Cpu& c, uint32_t w) { return c.gpr[a(w)] + c.gpr[b(w)]; }

// ---- exceptions the instructions raise ----
inline void illegal(Cpu& c, uint32_t pc) { raise_exception(c, Exception::program, pc, srr1::illegal); }
/// Supervisor-only instructions and SPRs: a privileged-instruction program exception in user mode.
inline bool supervisor(Cpu& c, uint32_t pc) {
  if (!(c.msr & msr::pr)) return true;
  raise_exception(c, Exception::program, pc, srr1::privileged);
  return false;
}
/// PEM "Alignment Exception": DAR = the address; DSISR identifies the instruction (bits 15-21 its opcode
/// bits, 22-26 rD/rS, 27-31 rA; for the indexed forms from the extended opcode, else from the primary).
inline void alignment(Cpu& c, uint32_t w, uint32_t pc, uint32_t ea) {
  const bool indexed = (w >> 26) == 31;
  uint32_t dsisr = d(w) << 5 | a(w);
  if (indexed) dsisr |= ((w >> 1) & 3) << 15 | ((w >> 6) & 1) << 14 | ((w >> 7) & 15) << 10;
  else dsisr |= ((w >> 26) & 1) << 14 | ((w >> 27) & 15) << 10;
  c.spr[spr::dar] = ea;
  c.spr[spr::dsisr] = dsisr;
  raise_exception(c, Exception::alignment, pc);
}
inline bool word_aligned(Cpu& c, uint32_t w, uint32_t pc, uint32_t ea) {
  if ((ea & 3) == 0) return true;
  alignment(c, w, pc, ea);
  return false;
}

// ---- CR0 and XER ----
/// CR0 from a result (PEM "Condition Register CR0 Field"): LT GT EQ against zero, SO a copy of XER[SO].
inline void record(Cpu& c, uint32_t result) {
  const auto v = static_cast<int32_t>(result);
  c.cr[0] = static_cast<uint8_t>((v < 0 ? cr::lt : v > 0 ? cr::gt : cr::eq) | (c.xer_so ? cr::so : 0));
}
inline void set_overflow(Cpu& c, bool ov) {
  c.xer_ov = ov;
  if (ov) c.xer_so = true;
}
/// The XO-form ending: rD, then XER[OV SO] when OE = 1, then CR0 (which copies the new SO) when Rc = 1.
inline void finish_xo(Cpu& c, uint32_t w, uint32_t result, bool overflow) {
  c.gpr[d(w)] = result;
  if (oe(w)) set_overflow(c, overflow);
  if (rc(w)) record(c, result);
}
/// The X-form logical ending: rA, then CR0 when Rc = 1.
inline void finish_logical(Cpu& c, uint32_t w, uint32_t result) {
  c.gpr[a(w)] = result;
  if (rc(w)) record(c, result);
}

struct Sum {
  uint32_t value;
  bool carry, overflow;
};
/// x + y + carry_in with the carry out and the signed overflow every add/subtract form derives from
/// (subtract from is ~rA + rB + 1).
inline Sum add3(uint32_t x, uint32_t y, uint32_t carry_in) {
  const uint64_t wide = uint64_t{x} + y + carry_in;
  const auto value = static_cast<uint32_t>(wide);
  return {value, (wide >> 32) != 0, ((~(x ^ y) & (x ^ value)) >> 31) != 0};
}

/// Signed comparison result as a CR field (with SO copied).
inline uint8_t compare_signed(const Cpu& c, int32_t x, int32_t y) {
  return static_cast<uint8_t>((x < y ? cr::lt : x > y ? cr::gt : cr::eq) | (c.xer_so ? cr::so : 0));
}
inline uint8_t compare_unsigned(const Cpu& c, uint32_t x, uint32_t y) {
  return static_cast<uint8_t>((x < y ? cr::lt : x > y ? cr::gt : cr::eq) | (c.xer_so ? cr::so : 0));
}

// ---- rotates ----
inline uint32_t rotl(uint32_t v, unsigned n) { return std::rotl(v, static_cast<int>(n & 31)); }
/// MASK(mb, me) with the manuals' MSB-0 bit numbers; mb > me wraps around.
inline uint32_t mask(unsigned mb, unsigned me) {
  const uint32_t m = (~0u >> mb) ^ ((~0u >> me) >> 1);
  return mb <= me ? m : ~m;
}

/// A CR-logical instruction: crbD = op(crbA, crbB).
template <class Op>
inline void cr_logical(Cpu& c, uint32_t w, Op op) {
  set_cr_bit(c, d(w), op(cr_bit(c, a(w)), cr_bit(c, b(w))));
}

// ---- branches ----
/// BO (PEM "Conditional Branch Control"): decrements CTR unless bit 2, then requires CTR != 0 (or == 0 with
/// bit 1) unless bit 2, and the CR bit BI to equal bit 3 unless bit 4.
inline bool branch_condition(Cpu& c, uint32_t w) {
  const unsigned bo = d(w);
  bool ctr_ok = true;
  if (!(bo & 4)) {
    --c.ctr;
    ctr_ok = (c.ctr != 0) != ((bo & 2) != 0);
  }
  const bool cond_ok = (bo & 16) || cr_bit(c, a(w)) == ((bo & 8) != 0);
  return ctr_ok && cond_ok;
}

/// The trap condition of tw/twi (PEM "tw"): TO bits lt gt eq (signed) llt lgt (unsigned), from the top.
inline bool trap_condition(unsigned to, uint32_t x, uint32_t y) {
  const auto sx = static_cast<int32_t>(x), sy = static_cast<int32_t>(y);
  return ((to & 16) && sx < sy) || ((to & 8) && sx > sy) || ((to & 4) && x == y) || ((to & 2) && x < y) ||
         ((to & 1) && x > y);
}

// ---- SPRs ----
enum class SprAccess : uint8_t { none, read, write, read_write };
/// The SPRs the 750CL implements (750CL UM, "Special-Purpose Registers" and the Gekko's HID2, WPAR, DMA, GQR).
constexpr SprAccess spr_access(unsigned n) {
  switch (n) {
    case spr::xer: case spr::lr: case spr::ctr: case spr::dsisr: case spr::dar: case spr::dec: case spr::sdr1:
    case spr::srr0: case spr::srr1: case spr::ear: case spr::hid2: case spr::wpar: case spr::dma_u: case spr::dma_l:
    case spr::mmcr0: case spr::pmc1: case spr::pmc2: case spr::mmcr1: case spr::pmc3: case spr::pmc4:
    case spr::hid0: case spr::iabr: case spr::hid4: case spr::dabr: case spr::l2cr: case spr::ictc:
    case spr::thrm1: case spr::thrm2: case spr::thrm3:
      return SprAccess::read_write;
    case spr::tbl_read: case spr::tbu_read: case spr::pvr: case spr::hid1: case spr::sia:
    case spr::ummcr0: case spr::upmc1: case spr::upmc2: case spr::usia: case spr::ummcr1: case spr::upmc3: case spr::upmc4:
      return SprAccess::read;
    case spr::tbl_write: case spr::tbu_write: return SprAccess::write;
    default: break;
  }
  if ((n >= spr::sprg0 && n < spr::sprg0 + 4) || (n >= spr::ibat0u && n < spr::ibat0u + 16) ||
      (n >= spr::ibat4u && n < spr::ibat4u + 16) || (n >= spr::gqr0 && n < spr::gqr0 + 8))
    return SprAccess::read_write;
  return SprAccess::none;
}
/// Whether the SPR may be accessed at all (illegal / privileged exceptions otherwise).
inline bool spr_allowed(Cpu& c, unsigned n, bool write, uint32_t pc) {
  const SprAccess access = spr_access(n);
  const bool ok = access == SprAccess::read_write || access == (write ? SprAccess::write : SprAccess::read);
  if (!ok) {
    illegal(c, pc);
    return false;
  }
  return !spr::privileged(n) || supervisor(c, pc);
}
/// The user-mode performance monitor SPRs read their supervisor counterparts (750CL UM "UMMCR0" ...).
constexpr unsigned spr_home(unsigned n) { return n >= spr::ummcr0 && n <= spr::upmc4 ? n + 16 : n; }

template <class Bus>
inline uint32_t read_spr(Cpu& c, Bus& bus, unsigned n) {
  if constexpr (requires { bus.spr_read(c, n); }) bus.spr_read(c, n);
  switch (n) {
    case spr::xer: return xer_word(c);
    case spr::lr: return c.lr;
    case spr::ctr: return c.ctr;
    case spr::tbl_read: return static_cast<uint32_t>(c.timebase);
    case spr::tbu_read: return static_cast<uint32_t>(c.timebase >> 32);
    default: return c.spr[spr_home(n)];
  }
}

// ---- string loads and stores (PEM lswi/lswx/stswi/stswx): bytes fill registers from the top, rD upward,
// wrapping from r31 to r0; a register's unfilled low bytes become zero ----
template <class Bus>
inline void load_string(Cpu& c, Bus& bus, unsigned first, uint32_t ea, unsigned count) {
  unsigned reg = (first - 1) & 31, shift = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (shift == 0) {
      reg = (reg + 1) & 31;
      c.gpr[reg] = 0;
      shift = 32;
    }
    shift -= 8;
    c.gpr[reg] |= uint32_t{bus.read8(ea + i)} << shift;
  }
}
template <class Bus>
inline void store_string(const Cpu& c, Bus& bus, unsigned first, uint32_t ea, unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    bus.write8(ea + i, static_cast<uint8_t>(c.gpr[(first + i / 4) & 31] >> (24 - 8 * (i % 4))));
}

template <class Bus>
inline void cache_hook(Cpu& c, Bus& bus, CacheOp op, uint32_t ea) {
  if constexpr (requires { bus.cache_block(c, op, ea); }) bus.cache_block(c, op, ea);
}
template <class Bus>
inline void msr_hook(Cpu& c, Bus& bus) {
  if constexpr (requires { bus.msr_written(c); }) bus.msr_written(c);
}
} // namespace detail

// ---- integer arithmetic ----
KILN_PPC_OP(addi) { c.gpr[field::d(w)] = detail::ra0(c, w) + static_cast<uint32_t>(field::simm(w)); }
KILN_PPC_OP(addis) { c.gpr[field::d(w)] = detail::ra0(c, w) + (static_cast<uint32_t>(field::simm(w)) << 16); }
KILN_PPC_OP(addic) {
  const detail::Sum s = detail::add3(c.gpr[field::a(w)], static_cast<uint32_t>(field::simm(w)), 0);
  c.gpr[field::d(w)] = s.value;
  c.xer_ca = s.carry;
}
KILN_PPC_OP(addic_dot) {
  addic(c, bus, w, pc);
  detail::record(c, c.gpr[field::d(w)]);
}
KILN_PPC_OP(subfic) {
  const detail::Sum s = detail::add3(~c.gpr[field::a(w)], static_cast<uint32_t>(field::simm(w)), 1);
  c.gpr[field::d(w)] = s.value;
  c.xer_ca = s.carry;
}
KILN_PPC_OP(mulli) {
  c.gpr[field::d(w)] = static_cast<uint32_t>(static_cast<int32_t>(c.gpr[field::a(w)]) * int64_t{field::simm(w)});
}

namespace detail {
/// The add/subtract XO forms: rD = x + y + carry_in, CA when `sets_carry`.
inline void add_form(Cpu& c, uint32_t w, uint32_t x, uint32_t y, uint32_t carry_in, bool sets_carry) {
  const Sum s = add3(x, y, carry_in);
  if (sets_carry) c.xer_ca = s.carry;
  finish_xo(c, w, s.value, s.overflow);
}
} // namespace detail

KILN_PPC_OP(add) { detail::add_form(c, w, c.gpr[field::a(w)], c.gpr[field::b(w)], 0, false); }
KILN_PPC_OP(addc) { detail::add_form(c, w, c.gpr[field::a(w)], c.gpr[field::b(w)], 0, true); }
KILN_PPC_OP(adde) { detail::add_form(c, w, c.gpr[field::a(w)], c.gpr[field::b(w)], c.xer_ca, true); }
KILN_PPC_OP(addme) { detail::add_form(c, w, c.gpr[field::a(w)], 0xFFFFFFFFu, c.xer_ca, true); }
KILN_PPC_OP(addze) { detail::add_form(c, w, c.gpr[field::a(w)], 0, c.xer_ca, true); }
KILN_PPC_OP(subf) { detail::add_form(c, w, ~c.gpr[field::a(w)], c.gpr[field::b(w)], 1, false); }
KILN_PPC_OP(subfc) { detail::add_form(c, w, ~c.gpr[field::a(w)], c.gpr[field::b(w)], 1, true); }
KILN_PPC_OP(subfe) { detail::add_form(c, w, ~c.gpr[field::a(w)], c.gpr[field::b(w)], c.xer_ca, true); }
KILN_PPC_OP(subfme) { detail::add_form(c, w, ~c.gpr[field::a(w)], 0xFFFFFFFFu, c.xer_ca, true); }
KILN_PPC_OP(subfze) { detail::add_form(c, w, ~c.gpr[field::a(w)], 0, c.xer_ca, true); }
KILN_PPC_OP(neg) { detail::add_form(c, w, ~c.gpr[field::a(w)], 0, 1, false); }
KILN_PPC_OP(mullw) {
  const int64_t product = int64_t{static_cast<int32_t>(c.gpr[field::a(w)])} * static_cast<int32_t>(c.gpr[field::b(w)]);
  detail::finish_xo(c, w, static_cast<uint32_t>(product), product != static_cast<int32_t>(product));
}
KILN_PPC_OP(mulhw) {
  const int64_t product = int64_t{static_cast<int32_t>(c.gpr[field::a(w)])} * static_cast<int32_t>(c.gpr[field::b(w)]);
  detail::finish_xo(c, w, static_cast<uint32_t>(static_cast<uint64_t>(product) >> 32), false);
}
KILN_PPC_OP(mulhwu) {
  const uint64_t product = uint64_t{c.gpr[field::a(w)]} * c.gpr[field::b(w)];
  detail::finish_xo(c, w, static_cast<uint32_t>(product >> 32), false);
}
/// Division by zero and 0x80000000 / -1 are undefined in the PEM; the 750CL gives -1 for a negative dividend
/// and 0 otherwise, and sets OV with OE (Dolphin's hardware-verified divwx).
KILN_PPC_OP(divw) {
  const auto n = static_cast<int32_t>(c.gpr[field::a(w)]), dv = static_cast<int32_t>(c.gpr[field::b(w)]);
  const bool undefined = dv == 0 || (n == INT32_MIN && dv == -1);
  detail::finish_xo(c, w, undefined ? (n < 0 ? 0xFFFFFFFFu : 0u) : static_cast<uint32_t>(n / dv), undefined);
}
/// divwu by zero gives 0 on the 750CL (Dolphin's divwux), OV with OE.
KILN_PPC_OP(divwu) {
  const uint32_t n = c.gpr[field::a(w)], dv = c.gpr[field::b(w)];
  detail::finish_xo(c, w, dv == 0 ? 0u : n / dv, dv == 0);
}

// ---- compares (L = 0: the decoder rejects the 64-bit forms) ----
KILN_PPC_OP(cmp) {
  c.cr[field::crfd(w)] = detail::compare_signed(c, static_cast<int32_t>(c.gpr[field::a(w)]), static_cast<int32_t>(c.gpr[field::b(w)]));
}
KILN_PPC_OP(cmpl) { c.cr[field::crfd(w)] = detail::compare_unsigned(c, c.gpr[field::a(w)], c.gpr[field::b(w)]); }
KILN_PPC_OP(cmpi) { c.cr[field::crfd(w)] = detail::compare_signed(c, static_cast<int32_t>(c.gpr[field::a(w)]), field::simm(w)); }
KILN_PPC_OP(cmpli) { c.cr[field::crfd(w)] = detail::compare_unsigned(c, c.gpr[field::a(w)], field::uimm(w)); }

// ---- logical ----
KILN_PPC_OP(andi_dot) {
  c.gpr[field::a(w)] = c.gpr[field::d(w)] & field::uimm(w);
  detail::record(c, c.gpr[field::a(w)]);
}
KILN_PPC_OP(andis_dot) {
  c.gpr[field::a(w)] = c.gpr[field::d(w)] & (field::uimm(w) << 16);
  detail::record(c, c.gpr[field::a(w)]);
}
KILN_PPC_OP(ori) { c.gpr[field::a(w)] = c.gpr[field::d(w)] | field::uimm(w); }
KILN_PPC_OP(oris) { c.gpr[field::a(w)] = c.gpr[field::d(w)] | (field::uimm(w) << 16); }
KILN_PPC_OP(xori) { c.gpr[field::a(w)] = c.gpr[field::d(w)] ^ field::uimm(w); }
KILN_PPC_OP(xoris) { c.gpr[field::a(w)] = c.gpr[field::d(w)] ^ (field::uimm(w) << 16); }
KILN_PPC_OP(and_) { detail::finish_logical(c, w, c.gpr[field::d(w)] & c.gpr[field::b(w)]); }
KILN_PPC_OP(andc) { detail::finish_logical(c, w, c.gpr[field::d(w)] & ~c.gpr[field::b(w)]); }
KILN_PPC_OP(or_) { detail::finish_logical(c, w, c.gpr[field::d(w)] | c.gpr[field::b(w)]); }
KILN_PPC_OP(orc) { detail::finish_logical(c, w, c.gpr[field::d(w)] | ~c.gpr[field::b(w)]); }
KILN_PPC_OP(xor_) { detail::finish_logical(c, w, c.gpr[field::d(w)] ^ c.gpr[field::b(w)]); }
KILN_PPC_OP(nand) { detail::finish_logical(c, w, ~(c.gpr[field::d(w)] & c.gpr[field::b(w)])); }
KILN_PPC_OP(nor) { detail::finish_logical(c, w, ~(c.gpr[field::d(w)] | c.gpr[field::b(w)])); }
KILN_PPC_OP(eqv) { detail::finish_logical(c, w, ~(c.gpr[field::d(w)] ^ c.gpr[field::b(w)])); }
KILN_PPC_OP(extsb) { detail::finish_logical(c, w, static_cast<uint32_t>(static_cast<int8_t>(c.gpr[field::d(w)]))); }
KILN_PPC_OP(extsh) { detail::finish_logical(c, w, static_cast<uint32_t>(static_cast<int16_t>(c.gpr[field::d(w)]))); }
KILN_PPC_OP(cntlzw) { detail::finish_logical(c, w, static_cast<uint32_t>(std::countl_zero(c.gpr[field::d(w)]))); }

// ---- rotates and shifts ----
KILN_PPC_OP(rlwinm) {
  detail::finish_logical(c, w, detail::rotl(c.gpr[field::d(w)], field::b(w)) & detail::mask(field::c(w), field::me(w)));
}
KILN_PPC_OP(rlwnm) {
  detail::finish_logical(c, w, detail::rotl(c.gpr[field::d(w)], c.gpr[field::b(w)]) & detail::mask(field::c(w), field::me(w)));
}
KILN_PPC_OP(rlwimi) {
  const uint32_t m = detail::mask(field::c(w), field::me(w));
  detail::finish_logical(c, w, (detail::rotl(c.gpr[field::d(w)], field::b(w)) & m) | (c.gpr[field::a(w)] & ~m));
}
/// slw/srw/sraw use six bits of rB: 32..63 shift everything out.
KILN_PPC_OP(slw) {
  const unsigned n = c.gpr[field::b(w)] & 63;
  detail::finish_logical(c, w, n >= 32 ? 0u : c.gpr[field::d(w)] << n);
}
KILN_PPC_OP(srw) {
  const unsigned n = c.gpr[field::b(w)] & 63;
  detail::finish_logical(c, w, n >= 32 ? 0u : c.gpr[field::d(w)] >> n);
}
namespace detail {
/// sraw/srawi: CA is set when the source is negative and any 1 bit is shifted out.
inline void shift_right_algebraic(Cpu& c, uint32_t w, unsigned n) {
  const auto v = static_cast<int32_t>(c.gpr[field::d(w)]);
  if (n >= 32) {
    c.xer_ca = v < 0;
    finish_logical(c, w, v < 0 ? 0xFFFFFFFFu : 0u);
    return;
  }
  c.xer_ca = v < 0 && n != 0 && (static_cast<uint32_t>(v) & ((1u << n) - 1)) != 0;
  finish_logical(c, w, static_cast<uint32_t>(v >> n));
}
} // namespace detail
KILN_PPC_OP(sraw) { detail::shift_right_algebraic(c, w, c.gpr[field::b(w)] & 63); }
KILN_PPC_OP(srawi) { detail::shift_right_algebraic(c, w, field::b(w)); }

// ---- condition register ----
KILN_PPC_OP(crand) { detail::cr_logical(c, w, [](bool x, bool y) { return x && y; }); }
KILN_PPC_OP(crandc) { detail::cr_logical(c, w, [](bool x, bool y) { return x && !y; }); }
KILN_PPC_OP(creqv) { detail::cr_logical(c, w, [](bool x, bool y) { return x == y; }); }
KILN_PPC_OP(crnand) { detail::cr_logical(c, w, [](bool x, bool y) { return !(x && y); }); }
KILN_PPC_OP(crnor) { detail::cr_logical(c, w, [](bool x, bool y) { return !(x || y); }); }
KILN_PPC_OP(cror) { detail::cr_logical(c, w, [](bool x, bool y) { return x || y; }); }
KILN_PPC_OP(crorc) { detail::cr_logical(c, w, [](bool x, bool y) { return x || !y; }); }
KILN_PPC_OP(crxor) { detail::cr_logical(c, w, [](bool x, bool y) { return x != y; }); }
KILN_PPC_OP(mcrf) { c.cr[field::crfd(w)] = c.cr[field::crfs(w)]; }
/// mcrxr: CR field = XER[SO OV CA 0], and those XER bits are cleared.
KILN_PPC_OP(mcrxr) {
  c.cr[field::crfd(w)] = static_cast<uint8_t>((c.xer_so ? 8 : 0) | (c.xer_ov ? 4 : 0) | (c.xer_ca ? 2 : 0));
  c.xer_so = c.xer_ov = c.xer_ca = false;
}
KILN_PPC_OP(mtcrf) {
  const unsigned crm = field::crm(w);
  const uint32_t v = c.gpr[field::d(w)];
  for (unsigned i = 0; i < 8; ++i)
    if (crm & (0x80u >> i)) c.cr[i] = static_cast<uint8_t>((v >> (28 - 4 * i)) & 15);
}
KILN_PPC_OP(mfcr) { c.gpr[field::d(w)] = cr_word(c); }

// ---- loads ----
KILN_PPC_OP(lbz) { c.gpr[field::d(w)] = bus.read8(detail::ea_d(c, w)); }
KILN_PPC_OP(lbzx) { c.gpr[field::d(w)] = bus.read8(detail::ea_x(c, w)); }
KILN_PPC_OP(lhz) { c.gpr[field::d(w)] = bus.read16(detail::ea_d(c, w)); }
KILN_PPC_OP(lhzx) { c.gpr[field::d(w)] = bus.read16(detail::ea_x(c, w)); }
KILN_PPC_OP(lha) { c.gpr[field::d(w)] = static_cast<uint32_t>(static_cast<int16_t>(bus.read16(detail::ea_d(c, w)))); }
KILN_PPC_OP(lhax) { c.gpr[field::d(w)] = static_cast<uint32_t>(static_cast<int16_t>(bus.read16(detail::ea_x(c, w)))); }
KILN_PPC_OP(lwz) { c.gpr[field::d(w)] = bus.read32(detail::ea_d(c, w)); }
KILN_PPC_OP(lwzx) { c.gpr[field::d(w)] = bus.read32(detail::ea_x(c, w)); }
// Update forms: the load, then rA = EA (rA != rD, the decoder rejects the invalid form).
KILN_PPC_OP(lbzu) { const uint32_t ea = detail::ea_du(c, w); c.gpr[field::d(w)] = bus.read8(ea); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(lbzux) { const uint32_t ea = detail::ea_xu(c, w); c.gpr[field::d(w)] = bus.read8(ea); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(lhzu) { const uint32_t ea = detail::ea_du(c, w); c.gpr[field::d(w)] = bus.read16(ea); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(lhzux) { const uint32_t ea = detail::ea_xu(c, w); c.gpr[field::d(w)] = bus.read16(ea); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(lhau) {
  const uint32_t ea = detail::ea_du(c, w);
  c.gpr[field::d(w)] = static_cast<uint32_t>(static_cast<int16_t>(bus.read16(ea)));
  c.gpr[field::a(w)] = ea;
}
KILN_PPC_OP(lhaux) {
  const uint32_t ea = detail::ea_xu(c, w);
  c.gpr[field::d(w)] = static_cast<uint32_t>(static_cast<int16_t>(bus.read16(ea)));
  c.gpr[field::a(w)] = ea;
}
KILN_PPC_OP(lwzu) { const uint32_t ea = detail::ea_du(c, w); c.gpr[field::d(w)] = bus.read32(ea); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(lwzux) { const uint32_t ea = detail::ea_xu(c, w); c.gpr[field::d(w)] = bus.read32(ea); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(lhbrx) { c.gpr[field::d(w)] = kiln::byteswap(bus.read16(detail::ea_x(c, w))); }
KILN_PPC_OP(lwbrx) { c.gpr[field::d(w)] = kiln::byteswap(bus.read32(detail::ea_x(c, w))); }
/// lmw/stmw need a word-aligned address on the 750CL (750CL UM "Alignment Exception").
KILN_PPC_OP(lmw) {
  uint32_t ea = detail::ea_d(c, w);
  if (!detail::word_aligned(c, w, pc, ea)) return;
  for (unsigned r = field::d(w); r < 32; ++r, ea += 4) c.gpr[r] = bus.read32(ea);
}
KILN_PPC_OP(lswi) { detail::load_string(c, bus, field::d(w), detail::ra0(c, w), field::b(w) == 0 ? 32 : field::b(w)); }
/// lswx: XER's byte count; with a count of 0 rD is left as it was (PEM: undefined).
KILN_PPC_OP(lswx) { detail::load_string(c, bus, field::d(w), detail::ea_x(c, w), c.xer_byte_count); }
KILN_PPC_OP(lwarx) {
  const uint32_t ea = detail::ea_x(c, w);
  if (!detail::word_aligned(c, w, pc, ea)) return;
  c.reserved = true;
  c.reserve_address = ea;
  c.gpr[field::d(w)] = bus.read32(ea);
}

// ---- stores ----
KILN_PPC_OP(stb) { bus.write8(detail::ea_d(c, w), static_cast<uint8_t>(c.gpr[field::d(w)])); }
KILN_PPC_OP(stbx) { bus.write8(detail::ea_x(c, w), static_cast<uint8_t>(c.gpr[field::d(w)])); }
KILN_PPC_OP(sth) { bus.write16(detail::ea_d(c, w), static_cast<uint16_t>(c.gpr[field::d(w)])); }
KILN_PPC_OP(sthx) { bus.write16(detail::ea_x(c, w), static_cast<uint16_t>(c.gpr[field::d(w)])); }
KILN_PPC_OP(stw) { bus.write32(detail::ea_d(c, w), c.gpr[field::d(w)]); }
KILN_PPC_OP(stwx) { bus.write32(detail::ea_x(c, w), c.gpr[field::d(w)]); }
// Update forms store rS as it was before rA is updated (they may be the same register: stwu r1,-16(r1)).
KILN_PPC_OP(stbu) { const uint32_t ea = detail::ea_du(c, w); bus.write8(ea, static_cast<uint8_t>(c.gpr[field::d(w)])); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(stbux) { const uint32_t ea = detail::ea_xu(c, w); bus.write8(ea, static_cast<uint8_t>(c.gpr[field::d(w)])); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(sthu) { const uint32_t ea = detail::ea_du(c, w); bus.write16(ea, static_cast<uint16_t>(c.gpr[field::d(w)])); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(sthux) { const uint32_t ea = detail::ea_xu(c, w); bus.write16(ea, static_cast<uint16_t>(c.gpr[field::d(w)])); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(stwu) { const uint32_t ea = detail::ea_du(c, w); bus.write32(ea, c.gpr[field::d(w)]); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(stwux) { const uint32_t ea = detail::ea_xu(c, w); bus.write32(ea, c.gpr[field::d(w)]); c.gpr[field::a(w)] = ea; }
KILN_PPC_OP(sthbrx) { bus.write16(detail::ea_x(c, w), kiln::byteswap(static_cast<uint16_t>(c.gpr[field::d(w)]))); }
KILN_PPC_OP(stwbrx) { bus.write32(detail::ea_x(c, w), kiln::byteswap(c.gpr[field::d(w)])); }
KILN_PPC_OP(stmw) {
  uint32_t ea = detail::ea_d(c, w);
  if (!detail::word_aligned(c, w, pc, ea)) return;
  for (unsigned r = field::d(w); r < 32; ++r, ea += 4) bus.write32(ea, c.gpr[r]);
}
KILN_PPC_OP(stswi) { detail::store_string(c, bus, field::d(w), detail::ra0(c, w), field::b(w) == 0 ? 32 : field::b(w)); }
KILN_PPC_OP(stswx) { detail::store_string(c, bus, field::d(w), detail::ea_x(c, w), c.xer_byte_count); }
/// stwcx.: stores only while lwarx's reservation holds for the same 32-byte reservation granule (750CL UM
/// "Atomic Memory References"); CR0 = 0 0 stored SO; the reservation is gone either way.
KILN_PPC_OP(stwcx_dot) {
  const uint32_t ea = detail::ea_x(c, w);
  if (!detail::word_aligned(c, w, pc, ea)) return;
  const bool store = c.reserved && (c.reserve_address & ~31u) == (ea & ~31u);
  if (store) bus.write32(ea, c.gpr[field::d(w)]);
  c.reserved = false;
  c.cr[0] = static_cast<uint8_t>((store ? cr::eq : 0) | (c.xer_so ? cr::so : 0));
}

// ---- branches ----
KILN_PPC_OP(b) {
  const uint32_t target = (field::aa(w) ? 0 : pc) + static_cast<uint32_t>(field::li(w));
  if (field::lk(w)) c.lr = pc + 4;
  c.next_pc = target;
}
KILN_PPC_OP(bc) {
  const bool taken = detail::branch_condition(c, w);
  if (field::lk(w)) c.lr = pc + 4;
  c.next_pc = taken ? (field::aa(w) ? 0 : pc) + static_cast<uint32_t>(field::bd(w)) : pc + 4;
}
/// bclr reads LR before bclrl writes it (PEM: the target is the old LR).
KILN_PPC_OP(bclr) {
  const uint32_t target = c.lr & ~3u;
  const bool taken = detail::branch_condition(c, w);
  if (field::lk(w)) c.lr = pc + 4;
  c.next_pc = taken ? target : pc + 4;
}
KILN_PPC_OP(bcctr) {
  const bool taken = detail::branch_condition(c, w); // BO never decrements CTR here (invalid form)
  if (field::lk(w)) c.lr = pc + 4;
  c.next_pc = taken ? (c.ctr & ~3u) : pc + 4;
}

// ---- system ----
/// sc: the platform's system call when the Bus has one (linux-user), else the system call exception with
/// SRR0 = the next instruction (PEM "System Call Exception"), where Dolphin OS has its handler.
KILN_PPC_OP(sc) {
  if constexpr (requires { bus.system_call(c); }) {
    if (bus.system_call(c)) return;
  }
  raise_exception(c, Exception::system_call, pc + 4);
}
/// rfi: MSR takes SRR1's saved bits back, control goes to SRR0.
KILN_PPC_OP(rfi) {
  if (!detail::supervisor(c, pc)) return;
  c.msr = (c.msr & ~msr::saved) | (c.spr[spr::srr1] & msr::saved);
  c.next_pc = c.spr[spr::srr0] & ~3u;
  detail::msr_hook(c, bus);
}
KILN_PPC_OP(tw) {
  if (detail::trap_condition(field::d(w), c.gpr[field::a(w)], c.gpr[field::b(w)]))
    raise_exception(c, Exception::program, pc, srr1::trap);
}
KILN_PPC_OP(twi) {
  if (detail::trap_condition(field::d(w), c.gpr[field::a(w)], static_cast<uint32_t>(field::simm(w))))
    raise_exception(c, Exception::program, pc, srr1::trap);
}
KILN_PPC_OP(mfspr) {
  const unsigned n = field::spr_number(w);
  if (detail::spr_allowed(c, n, false, pc)) c.gpr[field::d(w)] = detail::read_spr(c, bus, n);
}
/// mtspr: XER keeps its implemented bits, the time base halves go to TB; the platform sees every write
/// (DEC, the locked-cache DMA at DMA_L, HID0's cache controls, WPAR).
KILN_PPC_OP(mtspr) {
  const unsigned n = field::spr_number(w);
  if (!detail::spr_allowed(c, n, true, pc)) return;
  const uint32_t v = c.gpr[field::d(w)];
  uint32_t old = 0;
  switch (n) {
    case spr::xer: old = xer_word(c); set_xer_word(c, v); break;
    case spr::lr: old = c.lr; c.lr = v; break;
    case spr::ctr: old = c.ctr; c.ctr = v; break;
    case spr::tbl_write:
      old = static_cast<uint32_t>(c.timebase);
      c.timebase = (c.timebase & 0xFFFFFFFF00000000ull) | v;
      break;
    case spr::tbu_write:
      old = static_cast<uint32_t>(c.timebase >> 32);
      c.timebase = (c.timebase & 0xFFFFFFFFull) | uint64_t{v} << 32;
      break;
    default: old = c.spr[n]; c.spr[n] = v; break;
  }
  if constexpr (requires { bus.spr_written(c, n, old); }) bus.spr_written(c, n, old);
}
/// mftb: TBR 268 reads TBL, 269 TBU (user mode may read both).
KILN_PPC_OP(mftb) {
  const unsigned n = field::spr_number(w);
  if (n != spr::tbl_read && n != spr::tbu_read) return detail::illegal(c, pc);
  c.gpr[field::d(w)] = detail::read_spr(c, bus, n);
}
KILN_PPC_OP(mfmsr) {
  if (detail::supervisor(c, pc)) c.gpr[field::d(w)] = c.msr;
}
KILN_PPC_OP(mtmsr) {
  if (!detail::supervisor(c, pc)) return;
  c.msr = c.gpr[field::d(w)];
  detail::msr_hook(c, bus);
}
KILN_PPC_OP(mfsr) {
  if (detail::supervisor(c, pc)) c.gpr[field::d(w)] = c.sr[field::sr(w)];
}
KILN_PPC_OP(mtsr) {
  if (detail::supervisor(c, pc)) c.sr[field::sr(w)] = c.gpr[field::d(w)];
}
KILN_PPC_OP(mfsrin) {
  if (detail::supervisor(c, pc)) c.gpr[field::d(w)] = c.sr[c.gpr[field::b(w)] >> 28];
}
KILN_PPC_OP(mtsrin) {
  if (detail::supervisor(c, pc)) c.sr[c.gpr[field::b(w)] >> 28] = c.gpr[field::d(w)];
}
// Ordering and TLB maintenance have no effect on a single in-order core over host memory.
KILN_PPC_OP(sync) {}
KILN_PPC_OP(isync) {}
KILN_PPC_OP(eieio) {}
KILN_PPC_OP(tlbie) { (void)detail::supervisor(c, pc); }
KILN_PPC_OP(tlbsync) { (void)detail::supervisor(c, pc); }
/// eciwx/ecowx: external control through EAR; EAR[E] (bit 31) clear is a DSI with DSISR[11] (PEM "eciwx").
KILN_PPC_OP(eciwx) {
  const uint32_t ea = detail::ea_x(c, w);
  if (!(c.spr[spr::ear] & 0x80000000u)) {
    c.spr[spr::dar] = ea;
    c.spr[spr::dsisr] = 1u << 20;
    return raise_exception(c, Exception::dsi, pc);
  }
  if (detail::word_aligned(c, w, pc, ea)) c.gpr[field::d(w)] = bus.read32(ea);
}
KILN_PPC_OP(ecowx) {
  const uint32_t ea = detail::ea_x(c, w);
  if (!(c.spr[spr::ear] & 0x80000000u)) {
    c.spr[spr::dar] = ea;
    c.spr[spr::dsisr] = 1u << 20 | 1u << 25; // and "store"
    return raise_exception(c, Exception::dsi, pc);
  }
  if (detail::word_aligned(c, w, pc, ea)) bus.write32(ea, c.gpr[field::d(w)]);
}

// ---- cache ----
KILN_PPC_OP(dcbf) { detail::cache_hook(c, bus, CacheOp::flush, detail::ea_x(c, w)); }
KILN_PPC_OP(dcbst) { detail::cache_hook(c, bus, CacheOp::store, detail::ea_x(c, w)); }
KILN_PPC_OP(dcbt) { detail::cache_hook(c, bus, CacheOp::touch, detail::ea_x(c, w)); }
KILN_PPC_OP(dcbtst) { detail::cache_hook(c, bus, CacheOp::touch_for_store, detail::ea_x(c, w)); }
KILN_PPC_OP(dcbi) {
  if (detail::supervisor(c, pc)) detail::cache_hook(c, bus, CacheOp::invalidate, detail::ea_x(c, w));
}
KILN_PPC_OP(icbi) { detail::cache_hook(c, bus, CacheOp::invalidate_instruction, detail::ea_x(c, w)); }
/// dcbz: the 32-byte block containing EA becomes zero.
KILN_PPC_OP(dcbz) {
  const uint32_t block = detail::ea_x(c, w) & ~31u;
  for (uint32_t i = 0; i < 32; i += 8) bus.write64(block + i, 0);
}
/// dcbz_l: allocates and zeroes a block of the locked half of the data cache (750CL UM "Locked Cache"); illegal
/// unless HID2[LCE]. The platform owns the locked cache; without one the block is zeroed in memory.
KILN_PPC_OP(dcbz_l) {
  if (!(c.spr[spr::hid2] & hid2::lce)) return detail::illegal(c, pc);
  const uint32_t block = detail::ea_x(c, w) & ~31u;
  if constexpr (requires { bus.locked_cache_zero(c, block); }) {
    bus.locked_cache_zero(c, block);
  } else {
    for (uint32_t i = 0; i < 32; i += 8) bus.write64(block + i, 0);
  }
}

} // namespace kiln::ppc

#include "runtime/core/ppc/fpu_ops.h"
#include "runtime/core/ppc/paired_ops.h"

#undef KILN_PPC_OP
