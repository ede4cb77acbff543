#pragma once
// The MIPS32 Release 2 instructions static mipsel code uses beyond MIPS I (MIPS32 Architecture Volume II:
// MUL, MOVN/MOVZ, CLZ/CLO, SEB/SEH/WSBH, EXT/INS, ROTR, TEQ/TNE, SYNC). Included by r3000_ops.h, same shape:
// `template <class Bus> void name(Cpu&, Bus&, uint32_t word, uint32_t pc)`. The encoding table offers them in
// the mips32r2 variant only.
#ifndef KILN_R3000_OP
#error "include runtime/core/mips/ops.h instead"
#endif

// MUL writes rd = low 32 bits of rs * rt; HI/LO are UNPREDICTABLE afterwards (left unchanged here, as QEMU does).
KILN_R3000_OP(mul) { set_gpr(c, field_rd(w), detail::rs(c, w) * detail::rt(c, w)); }
KILN_R3000_OP(movz) { if (detail::rt(c, w) == 0) set_gpr(c, field_rd(w), detail::rs(c, w)); }
KILN_R3000_OP(movn) { if (detail::rt(c, w) != 0) set_gpr(c, field_rd(w), detail::rs(c, w)); }
KILN_R3000_OP(clz) { const uint32_t v = detail::rs(c, w); set_gpr(c, field_rd(w), v ? static_cast<uint32_t>(__builtin_clz(v)) : 32u); }
KILN_R3000_OP(clo) { const uint32_t v = ~detail::rs(c, w); set_gpr(c, field_rd(w), v ? static_cast<uint32_t>(__builtin_clz(v)) : 32u); }
KILN_R3000_OP(seb) { set_gpr(c, field_rd(w), static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(detail::rt(c, w))))); }
KILN_R3000_OP(seh) { set_gpr(c, field_rd(w), static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(detail::rt(c, w))))); }
KILN_R3000_OP(wsbh) {
  const uint32_t v = detail::rt(c, w);
  set_gpr(c, field_rd(w), (v & 0x00FF00FFu) << 8 | (v & 0xFF00FF00u) >> 8);
}
/// EXT rt, rs, pos, size: msbd (rd field) = size - 1, lsb (sa field) = pos.
KILN_R3000_OP(ext) {
  const unsigned pos = field_sa(w), size = field_rd(w) + 1;
  const uint32_t mask = size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1;
  set_gpr(c, field_rt(w), (detail::rs(c, w) >> pos) & mask);
}
/// INS rt, rs, pos, size: msb (rd field) = pos + size - 1, lsb (sa field) = pos.
KILN_R3000_OP(ins) {
  const unsigned pos = field_sa(w), msb = field_rd(w);
  if (msb < pos) return; // UNPREDICTABLE; leave rt
  const unsigned size = msb - pos + 1;
  const uint32_t mask = (size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1) << pos;
  set_gpr(c, field_rt(w), (detail::rt(c, w) & ~mask) | ((detail::rs(c, w) << pos) & mask));
}
KILN_R3000_OP(rotr) {
  const unsigned s = field_sa(w);
  const uint32_t v = detail::rt(c, w);
  set_gpr(c, field_rd(w), s ? (v >> s | v << (32 - s)) : v);
}
KILN_R3000_OP(rotrv) {
  const unsigned s = detail::rs(c, w) & 31;
  const uint32_t v = detail::rt(c, w);
  set_gpr(c, field_rd(w), s ? (v >> s | v << (32 - s)) : v);
}
/// TEQ/TNE: GCC guards divisions with `teq divisor, $zero, 7` (the Linux kernel turns code 7 into SIGFPE).
KILN_R3000_OP(teq) { if (detail::rs(c, w) == detail::rt(c, w)) raise_exception(c, ExceptionCode::trap, w, pc); }
KILN_R3000_OP(tne) { if (detail::rs(c, w) != detail::rt(c, w)) raise_exception(c, ExceptionCode::trap, w, pc); }
/// One thread, no other observers: SYNC orders nothing kiln can see.
KILN_R3000_OP(sync) {}

// MADD/MADDU/MSUB/MSUBU: HI:LO += / -= rs * rt (64-bit).
namespace detail {
inline uint64_t hilo(const Cpu& c) { return uint64_t{c.hi} << 32 | c.lo; }
inline void set_hilo(Cpu& c, uint64_t v) { c.hi = static_cast<uint32_t>(v >> 32); c.lo = static_cast<uint32_t>(v); }
inline uint64_t signed_product(const Cpu& c, uint32_t w) {
  return static_cast<uint64_t>(int64_t{signed_of(rs(c, w))} * signed_of(rt(c, w)));
}
} // namespace detail
KILN_R3000_OP(madd) { detail::set_hilo(c, detail::hilo(c) + detail::signed_product(c, w)); }
KILN_R3000_OP(maddu) { detail::set_hilo(c, detail::hilo(c) + uint64_t{detail::rs(c, w)} * detail::rt(c, w)); }
KILN_R3000_OP(msub) { detail::set_hilo(c, detail::hilo(c) - detail::signed_product(c, w)); }
KILN_R3000_OP(msubu) { detail::set_hilo(c, detail::hilo(c) - uint64_t{detail::rs(c, w)} * detail::rt(c, w)); }

/// LL/SC: one guest thread and no interrupts between them, so SC always succeeds (rt = 1).
KILN_R3000_OP(ll) {
  uint32_t a;
  if (detail::address(c, w, pc, 4, false, a)) set_gpr(c, field_rt(w), bus.read32(a));
}
KILN_R3000_OP(sc) {
  uint32_t a;
  if (detail::address(c, w, pc, 4, true, a)) {
    bus.write32(a, detail::rt(c, w));
    set_gpr(c, field_rt(w), 1);
  }
}
KILN_R3000_OP(pref) {} // a cache hint

/// RDHWR rt, $29 reads UserLocal, the TLS pointer Linux keeps from set_thread_area (Bus::user_local()). Other
/// hardware registers (CPU number, counter) are not offered: Reserved Instruction, as a kernel that hides them.
KILN_R3000_OP(rdhwr) {
  if constexpr (requires(Bus& b) { b.user_local(); }) {
    if (field_rd(w) == 29) return set_gpr(c, field_rt(w), bus.user_local());
  }
  raise_exception(c, ExceptionCode::reserved_instruction, w, pc);
}

// COP1 moves and loads/stores (the arithmetic is in r3000_fpu_ops.h). FR = 0: LDC1/SDC1 move the even/odd
// register pair; FIR (control register 0) reads 0 (no FPU features), FCSR is register 31.
KILN_R3000_OP(lwc1) {
  uint32_t a;
  if (detail::address(c, w, pc, 4, false, a)) c.fpr[field_rt(w)] = bus.read32(a);
}
KILN_R3000_OP(swc1) {
  uint32_t a;
  if (detail::address(c, w, pc, 4, true, a)) bus.write32(a, c.fpr[field_rt(w)]);
}
KILN_R3000_OP(ldc1) {
  uint32_t a;
  if (detail::address(c, w, pc, 8, false, a)) {
    const unsigned f = field_rt(w) & 30;
    c.fpr[f] = bus.read32(a);
    c.fpr[f + 1] = bus.read32(a + 4);
  }
}
KILN_R3000_OP(sdc1) {
  uint32_t a;
  if (detail::address(c, w, pc, 8, true, a)) {
    const unsigned f = field_rt(w) & 30;
    bus.write32(a, c.fpr[f]);
    bus.write32(a + 4, c.fpr[f + 1]);
  }
}
KILN_R3000_OP(mfc1) { set_gpr(c, field_rt(w), c.fpr[field_rd(w)]); }
KILN_R3000_OP(mtc1) { c.fpr[field_rd(w)] = detail::rt(c, w); }
KILN_R3000_OP(cfc1) { set_gpr(c, field_rt(w), field_rd(w) == 31 ? c.fcsr : 0u); }
/// CTC1 $31: bits 18-22 are not writable (they read as zero, as on the 24Kf qemu-mipsel models).
KILN_R3000_OP(ctc1) { if (field_rd(w) == 31) c.fcsr = detail::rt(c, w) & 0xFF83FFFFu; }
