#pragma once
// What each R3000A instruction does: the one copy of the MIPS semantics. Recompiled code calls these with the
// instruction word and its address as constants (the field extraction folds away); the step interpreter
// (r3000_step.h) and the state-vector tests call the very same functions.
//
// Every function has the shape `template <class Bus> void name(Cpu& c, Bus& bus, uint32_t word, uint32_t pc)`.
// Bus is the platform's memory and coprocessor view:
//   static constexpr Variant variant;                         R3000 load delays or MIPS32r2 interlocks
//   uint8_t read8(uint32_t); uint16_t read16(uint32_t); uint32_t read32(uint32_t);
//   void write8(uint32_t, uint8_t); void write16(uint32_t, uint16_t); void write32(uint32_t, uint32_t);
//   kiln::psx::Gte& gte();                                    optional: COP2 (absent = coprocessor unusable)
// Unaligned halves of LWL/LWR/SWL/SWR are issued as the byte/halfword/word accesses that cover them, as the
// hardware's byte enables do.
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

#include "runtime/core/mips/cpu.h"
#include "runtime/core/mips/instructions.h"

namespace kiln::r3000 {

// ---- instruction fields ----
constexpr unsigned field_rs(uint32_t w) { return (w >> 21) & 31; }
constexpr unsigned field_rt(uint32_t w) { return (w >> 16) & 31; }
constexpr unsigned field_rd(uint32_t w) { return (w >> 11) & 31; }
constexpr unsigned field_sa(uint32_t w) { return (w >> 6) & 31; }
constexpr uint32_t field_imm(uint32_t w) { return w & 0xFFFF; }
constexpr uint32_t field_simm(uint32_t w) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(w & 0xFFFF))); }
/// Targets and links are relative to the following instruction (`next`, normally pc + 4: see following_address).
constexpr uint32_t branch_target(uint32_t w, uint32_t next) { return next + (field_simm(w) << 2); }
constexpr uint32_t jump_target(uint32_t w, uint32_t next) { return (next & 0xF0000000u) | ((w & 0x03FFFFFFu) << 2); }

#define KILN_R3000_OP(name)                                                                                      \
  template <class Bus>                                                                                           \
  inline void name([[maybe_unused]] Cpu& c, [[maybe_unused]] Bus& bus, [[maybe_unused]] uint32_t w,             \
                   [[maybe_unused]] uint32_t pc)

namespace detail {
inline uint32_t rs(const Cpu& c, uint32_t w) { return c.gpr[field_rs(w)]; }
inline uint32_t rt(const Cpu& c, uint32_t w) { return c.gpr[field_rt(w)]; }
inline int32_t signed_of(uint32_t v) { return static_cast<int32_t>(v); }

inline void take_branch(Cpu& c, uint32_t target, bool taken) { c.branch = PendingBranch{target, true, taken}; }

/// A loaded value (or MFC0/MFC2/CFC2 result) reaching `reg`: after the next instruction on the R3000, at once
/// on MIPS32r2. A second load to the same register replaces the first one in flight.
template <class Bus>
inline void deliver(Cpu& c, unsigned reg, uint32_t value) {
  if constexpr (Bus::variant == Variant::r3000) {
    if (c.load.reg == static_cast<int32_t>(reg)) c.load.reg = -1;
    c.next_load = PendingLoad{static_cast<int32_t>(reg), value};
  } else {
    set_gpr(c, reg, value);
  }
}

/// The register LWL/LWR merge into: the value still in flight to it, if any (the R3000 forwards it).
template <class Bus>
inline uint32_t merge_base(const Cpu& c, unsigned reg) {
  if constexpr (Bus::variant == Variant::r3000) {
    if (c.load.reg == static_cast<int32_t>(reg)) return c.load.value;
  }
  return c.gpr[reg];
}

/// Effective address; raises AdEL/AdES (with BadVaddr) when it is not aligned to `alignment`.
inline bool address(Cpu& c, uint32_t w, uint32_t pc, uint32_t alignment, bool store, uint32_t& out) {
  out = rs(c, w) + field_simm(w);
  if ((out & (alignment - 1)) == 0) return true;
  c.cop0[cop0::bad_vaddr] = out;
  raise_exception(c, store ? ExceptionCode::address_store : ExceptionCode::address_load, w, pc);
  return false;
}

/// Status.IsC: stores go to the (isolated) cache instead of memory; the BIOS uses this to flush the I-cache.
inline bool cache_isolated(const Cpu& c) { return (c.cop0[cop0::status] & (1u << 16)) != 0; }

template <class Bus>
inline bool cop2_usable(Cpu& c, Bus&, uint32_t w, uint32_t pc) {
  if constexpr (requires(Bus& b) { b.gte(); }) {
    if (c.cop0[cop0::status] & cop0::status_cu2) return true;
  }
  raise_exception(c, ExceptionCode::coprocessor_unusable, w, pc);
  return false;
}
} // namespace detail

// ---- shifts ----
KILN_R3000_OP(sll) { set_gpr(c, field_rd(w), detail::rt(c, w) << field_sa(w)); }
KILN_R3000_OP(srl) { set_gpr(c, field_rd(w), detail::rt(c, w) >> field_sa(w)); }
KILN_R3000_OP(sra) { set_gpr(c, field_rd(w), static_cast<uint32_t>(detail::signed_of(detail::rt(c, w)) >> field_sa(w))); }
KILN_R3000_OP(sllv) { set_gpr(c, field_rd(w), detail::rt(c, w) << (detail::rs(c, w) & 31)); }
KILN_R3000_OP(srlv) { set_gpr(c, field_rd(w), detail::rt(c, w) >> (detail::rs(c, w) & 31)); }
KILN_R3000_OP(srav) {
  set_gpr(c, field_rd(w), static_cast<uint32_t>(detail::signed_of(detail::rt(c, w)) >> (detail::rs(c, w) & 31)));
}

// ---- jumps and branches: each sets c.branch; the delay slot runs before control moves ----
KILN_R3000_OP(j) { detail::take_branch(c, jump_target(w, following_address(c, pc)), true); }
KILN_R3000_OP(jal) {
  detail::take_branch(c, jump_target(w, following_address(c, pc)), true);
  set_gpr(c, 31, following_address(c, pc) + 4);
}
KILN_R3000_OP(jr) { detail::take_branch(c, detail::rs(c, w), true); }
KILN_R3000_OP(jalr) {
  detail::take_branch(c, detail::rs(c, w), true); // target read before the link write (rd may equal rs)
  set_gpr(c, field_rd(w), following_address(c, pc) + 4);
}
KILN_R3000_OP(beq) { detail::take_branch(c, branch_target(w, following_address(c, pc)), detail::rs(c, w) == detail::rt(c, w)); }
KILN_R3000_OP(bne) { detail::take_branch(c, branch_target(w, following_address(c, pc)), detail::rs(c, w) != detail::rt(c, w)); }
KILN_R3000_OP(blez) { detail::take_branch(c, branch_target(w, following_address(c, pc)), detail::signed_of(detail::rs(c, w)) <= 0); }
KILN_R3000_OP(bgtz) { detail::take_branch(c, branch_target(w, following_address(c, pc)), detail::signed_of(detail::rs(c, w)) > 0); }
/// REGIMM as the R3000A decodes it: rt bit 0 selects >= 0 (else < 0); rt = 1000x links, taken or not.
KILN_R3000_OP(bcondz) {
  const unsigned rt_field = field_rt(w);
  const int32_t value = detail::signed_of(detail::rs(c, w));
  detail::take_branch(c, branch_target(w, following_address(c, pc)), (rt_field & 1) ? value >= 0 : value < 0);
  if ((rt_field & 0x1E) == 0x10) set_gpr(c, 31, following_address(c, pc) + 4);
}

// ---- traps ----
KILN_R3000_OP(syscall) { raise_exception(c, ExceptionCode::syscall, w, pc); }
KILN_R3000_OP(break_) { raise_exception(c, ExceptionCode::breakpoint, w, pc); }

// ---- HI/LO ----
KILN_R3000_OP(mfhi) { set_gpr(c, field_rd(w), c.hi); }
KILN_R3000_OP(mflo) { set_gpr(c, field_rd(w), c.lo); }
KILN_R3000_OP(mthi) { c.hi = detail::rs(c, w); }
KILN_R3000_OP(mtlo) { c.lo = detail::rs(c, w); }
KILN_R3000_OP(mult) {
  const int64_t product = int64_t{detail::signed_of(detail::rs(c, w))} * detail::signed_of(detail::rt(c, w));
  c.lo = static_cast<uint32_t>(product);
  c.hi = static_cast<uint32_t>(static_cast<uint64_t>(product) >> 32);
}
KILN_R3000_OP(multu) {
  const uint64_t product = uint64_t{detail::rs(c, w)} * detail::rt(c, w);
  c.lo = static_cast<uint32_t>(product);
  c.hi = static_cast<uint32_t>(product >> 32);
}
/// Division never traps: by zero LO = -1 (dividend >= 0) or +1, HI = dividend; 0x80000000 / -1 gives
/// LO = 0x80000000, HI = 0 (psx-spx "CPU Arithmetic").
KILN_R3000_OP(div) {
  const int32_t n = detail::signed_of(detail::rs(c, w)), d = detail::signed_of(detail::rt(c, w));
  if (d == 0) {
    c.lo = n >= 0 ? 0xFFFFFFFFu : 1u;
    c.hi = static_cast<uint32_t>(n);
  } else if (n == INT32_MIN && d == -1) {
    c.lo = 0x80000000u;
    c.hi = 0;
  } else {
    c.lo = static_cast<uint32_t>(n / d);
    c.hi = static_cast<uint32_t>(n % d);
  }
}
KILN_R3000_OP(divu) {
  const uint32_t n = detail::rs(c, w), d = detail::rt(c, w);
  c.lo = d == 0 ? 0xFFFFFFFFu : n / d;
  c.hi = d == 0 ? n : n % d;
}

// ---- ALU ----
KILN_R3000_OP(add) {
  int32_t result;
  if (__builtin_add_overflow(detail::signed_of(detail::rs(c, w)), detail::signed_of(detail::rt(c, w)), &result))
    return raise_exception(c, ExceptionCode::overflow, w, pc);
  set_gpr(c, field_rd(w), static_cast<uint32_t>(result));
}
KILN_R3000_OP(sub) {
  int32_t result;
  if (__builtin_sub_overflow(detail::signed_of(detail::rs(c, w)), detail::signed_of(detail::rt(c, w)), &result))
    return raise_exception(c, ExceptionCode::overflow, w, pc);
  set_gpr(c, field_rd(w), static_cast<uint32_t>(result));
}
KILN_R3000_OP(addu) { set_gpr(c, field_rd(w), detail::rs(c, w) + detail::rt(c, w)); }
KILN_R3000_OP(subu) { set_gpr(c, field_rd(w), detail::rs(c, w) - detail::rt(c, w)); }
KILN_R3000_OP(and_) { set_gpr(c, field_rd(w), detail::rs(c, w) & detail::rt(c, w)); }
KILN_R3000_OP(or_) { set_gpr(c, field_rd(w), detail::rs(c, w) | detail::rt(c, w)); }
KILN_R3000_OP(xor_) { set_gpr(c, field_rd(w), detail::rs(c, w) ^ detail::rt(c, w)); }
KILN_R3000_OP(nor) { set_gpr(c, field_rd(w), ~(detail::rs(c, w) | detail::rt(c, w))); }
KILN_R3000_OP(slt) {
  set_gpr(c, field_rd(w), detail::signed_of(detail::rs(c, w)) < detail::signed_of(detail::rt(c, w)) ? 1u : 0u);
}
KILN_R3000_OP(sltu) { set_gpr(c, field_rd(w), detail::rs(c, w) < detail::rt(c, w) ? 1u : 0u); }

// ---- immediates ----
KILN_R3000_OP(addi) {
  int32_t result;
  if (__builtin_add_overflow(detail::signed_of(detail::rs(c, w)), detail::signed_of(field_simm(w)), &result))
    return raise_exception(c, ExceptionCode::overflow, w, pc);
  set_gpr(c, field_rt(w), static_cast<uint32_t>(result));
}
KILN_R3000_OP(addiu) { set_gpr(c, field_rt(w), detail::rs(c, w) + field_simm(w)); }
KILN_R3000_OP(slti) {
  set_gpr(c, field_rt(w), detail::signed_of(detail::rs(c, w)) < detail::signed_of(field_simm(w)) ? 1u : 0u);
}
KILN_R3000_OP(sltiu) { set_gpr(c, field_rt(w), detail::rs(c, w) < field_simm(w) ? 1u : 0u); }
KILN_R3000_OP(andi) { set_gpr(c, field_rt(w), detail::rs(c, w) & field_imm(w)); }
KILN_R3000_OP(ori) { set_gpr(c, field_rt(w), detail::rs(c, w) | field_imm(w)); }
KILN_R3000_OP(xori) { set_gpr(c, field_rt(w), detail::rs(c, w) ^ field_imm(w)); }
KILN_R3000_OP(lui) { set_gpr(c, field_rt(w), field_imm(w) << 16); }

// ---- loads ----
KILN_R3000_OP(lb) {
  uint32_t a;
  if (detail::address(c, w, pc, 1, false, a))
    detail::deliver<Bus>(c, field_rt(w), static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(bus.read8(a)))));
}
KILN_R3000_OP(lbu) {
  uint32_t a;
  if (detail::address(c, w, pc, 1, false, a)) detail::deliver<Bus>(c, field_rt(w), bus.read8(a));
}
KILN_R3000_OP(lh) {
  uint32_t a;
  if (detail::address(c, w, pc, 2, false, a))
    detail::deliver<Bus>(c, field_rt(w), static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(bus.read16(a)))));
}
KILN_R3000_OP(lhu) {
  uint32_t a;
  if (detail::address(c, w, pc, 2, false, a)) detail::deliver<Bus>(c, field_rt(w), bus.read16(a));
}
KILN_R3000_OP(lw) {
  uint32_t a;
  if (detail::address(c, w, pc, 4, false, a)) detail::deliver<Bus>(c, field_rt(w), bus.read32(a));
}
/// LWL: the bytes from the aligned word's start up to `a` fill rt from the top.
KILN_R3000_OP(lwl) {
  const uint32_t a = detail::rs(c, w) + field_simm(w);
  const uint32_t old = detail::merge_base<Bus>(c, field_rt(w));
  uint32_t value = 0;
  switch (a & 3) {
    case 0: value = (old & 0x00FFFFFFu) | uint32_t{bus.read8(a)} << 24; break;
    case 1: value = (old & 0x0000FFFFu) | uint32_t{bus.read16(a - 1)} << 16; break;
    case 2: {
      const uint32_t low = bus.read16(a - 2);
      value = (old & 0x000000FFu) | low << 8 | uint32_t{bus.read8(a)} << 24;
      break;
    }
    default: value = bus.read32(a - 3); break;
  }
  detail::deliver<Bus>(c, field_rt(w), value);
}
/// LWR: the bytes from `a` to the aligned word's end fill rt from the bottom.
KILN_R3000_OP(lwr) {
  const uint32_t a = detail::rs(c, w) + field_simm(w);
  const uint32_t old = detail::merge_base<Bus>(c, field_rt(w));
  uint32_t value = 0;
  switch (a & 3) {
    case 0: value = bus.read32(a); break;
    case 1: {
      const uint32_t low = bus.read8(a);
      value = (old & 0xFF000000u) | low | uint32_t{bus.read16(a + 1)} << 8;
      break;
    }
    case 2: value = (old & 0xFFFF0000u) | bus.read16(a); break;
    default: value = (old & 0xFFFFFF00u) | bus.read8(a); break;
  }
  detail::deliver<Bus>(c, field_rt(w), value);
}

// ---- stores ----
KILN_R3000_OP(sb) {
  uint32_t a;
  if (detail::address(c, w, pc, 1, true, a) && !detail::cache_isolated(c)) bus.write8(a, static_cast<uint8_t>(detail::rt(c, w)));
}
KILN_R3000_OP(sh) {
  uint32_t a;
  if (detail::address(c, w, pc, 2, true, a) && !detail::cache_isolated(c)) bus.write16(a, static_cast<uint16_t>(detail::rt(c, w)));
}
KILN_R3000_OP(sw) {
  uint32_t a;
  if (detail::address(c, w, pc, 4, true, a) && !detail::cache_isolated(c)) bus.write32(a, detail::rt(c, w));
}
/// SWL: the top bytes of rt go to the aligned word's start up to `a`.
KILN_R3000_OP(swl) {
  if (detail::cache_isolated(c)) return;
  const uint32_t a = detail::rs(c, w) + field_simm(w), value = detail::rt(c, w);
  switch (a & 3) {
    case 0: bus.write8(a, static_cast<uint8_t>(value >> 24)); break;
    case 1: bus.write16(a - 1, static_cast<uint16_t>(value >> 16)); break;
    case 2:
      bus.write16(a - 2, static_cast<uint16_t>(value >> 8));
      bus.write8(a, static_cast<uint8_t>(value >> 24));
      break;
    default: bus.write32(a - 3, value); break;
  }
}
/// SWR: the bottom bytes of rt go to `a` up to the aligned word's end.
KILN_R3000_OP(swr) {
  if (detail::cache_isolated(c)) return;
  const uint32_t a = detail::rs(c, w) + field_simm(w), value = detail::rt(c, w);
  switch (a & 3) {
    case 0: bus.write32(a, value); break;
    case 1:
      bus.write8(a, static_cast<uint8_t>(value));
      bus.write16(a + 1, static_cast<uint16_t>(value >> 8));
      break;
    case 2: bus.write16(a, static_cast<uint16_t>(value)); break;
    default: bus.write8(a, static_cast<uint8_t>(value)); break;
  }
}

// ---- COP0 ----
KILN_R3000_OP(mfc0) { detail::deliver<Bus>(c, field_rt(w), c.cop0[field_rd(w)]); }
KILN_R3000_OP(mtc0) {
  const unsigned reg = field_rd(w);
  const uint32_t value = detail::rt(c, w);
  if (reg == cop0::cause) {
    c.cop0[reg] = (c.cop0[reg] & ~cop0::cause_ip_software) | (value & cop0::cause_ip_software);
  } else if (reg != cop0::prid && reg != cop0::bad_vaddr && reg != cop0::epc && reg != cop0::tar) {
    c.cop0[reg] = value;
  }
}
/// RFE pops the KU/IE stack (the old pair stays in bits 4-5).
KILN_R3000_OP(rfe) {
  uint32_t& status = c.cop0[cop0::status];
  status = (status & ~0x0Fu) | ((status >> 2) & 0x0Fu);
}

// ---- COP2 = GTE ----
KILN_R3000_OP(mfc2) {
  if (detail::cop2_usable(c, bus, w, pc)) {
    if constexpr (requires(Bus& b) { b.gte(); }) detail::deliver<Bus>(c, field_rt(w), bus.gte().read_data(field_rd(w)));
  }
}
KILN_R3000_OP(cfc2) {
  if (detail::cop2_usable(c, bus, w, pc)) {
    if constexpr (requires(Bus& b) { b.gte(); }) detail::deliver<Bus>(c, field_rt(w), bus.gte().read_control(field_rd(w)));
  }
}
KILN_R3000_OP(mtc2) {
  if (detail::cop2_usable(c, bus, w, pc)) {
    if constexpr (requires(Bus& b) { b.gte(); }) bus.gte().write_data(field_rd(w), detail::rt(c, w));
  }
}
KILN_R3000_OP(ctc2) {
  if (detail::cop2_usable(c, bus, w, pc)) {
    if constexpr (requires(Bus& b) { b.gte(); }) bus.gte().write_control(field_rd(w), detail::rt(c, w));
  }
}
/// COP2 imm25: a GTE command. A command number the GTE does not know is a reserved instruction.
KILN_R3000_OP(cop2) {
  if (detail::cop2_usable(c, bus, w, pc)) {
    if constexpr (requires(Bus& b) { b.gte(); }) {
      if (!bus.gte().execute(w & 0x01FFFFFFu)) raise_exception(c, ExceptionCode::reserved_instruction, w, pc);
    }
  }
}
KILN_R3000_OP(lwc2) {
  uint32_t a;
  if (detail::cop2_usable(c, bus, w, pc) && detail::address(c, w, pc, 4, false, a)) {
    if constexpr (requires(Bus& b) { b.gte(); }) bus.gte().write_data(field_rt(w), bus.read32(a));
  }
}
KILN_R3000_OP(swc2) {
  uint32_t a;
  if (detail::cop2_usable(c, bus, w, pc) && detail::address(c, w, pc, 4, true, a) && !detail::cache_isolated(c)) {
    if constexpr (requires(Bus& b) { b.gte(); }) bus.write32(a, bus.gte().read_data(field_rt(w)));
  }
}

#include "runtime/core/mips/mips32r2_ops.h"
#include "runtime/core/mips/fpu_ops.h"

#undef KILN_R3000_OP

} // namespace kiln::r3000
