#pragma once
// The Gekko's paired singles (750CL UM "Paired-Single Instructions", "Graphics Quantization Registers"): every
// ps_* works on both halves of its FPRs at single precision, the psq_* loads and stores convert through a GQR.
// Included by ops.h. Every paired-single instruction is illegal unless HID2[PSE] (the SDK sets it in its
// startup code), psq_l/psq_lu/psq_st/psq_stu also unless HID2[LSQE], and all need MSR[FP]. Exceptions of
// either half are recorded; FPRF, FR and FI describe ps0's result (ps1's for ps_sum1, whose ps0 is a copy).
#ifndef KILN_PPC_OP
#error "include runtime/core/ppc/ops.h instead"
#endif

#include <algorithm>

namespace kiln::ppc {
namespace paired {

inline bool enabled(Cpu& c, uint32_t pc) {
  if (!(c.spr[spr::hid2] & hid2::pse)) {
    detail::illegal(c, pc);
    return false;
  }
  return fpu::available(c, pc);
}
/// psq_l/psq_lu/psq_st/psq_stu: HID2[LSQE] (750CL UM "HID2": load/store quantized enable, non-indexed forms).
inline bool quantized_enabled(Cpu& c, uint32_t pc) {
  if (!(c.spr[spr::hid2] & hid2::lsqe)) {
    detail::illegal(c, pc);
    return false;
  }
  return fpu::available(c, pc);
}

/// Which half's result the FPSCR's FPRF/FR/FI describe.
enum class Reporting : uint8_t { ps0, ps1 };

/// Writes both halves unless an enabled invalid or zero-divide exception in either suppresses the write.
inline void commit_pair(Cpu& c, uint32_t w, uint32_t pc, const fpu::Result& r0, const fpu::Result& r1,
                        Reporting reporting = Reporting::ps0) {
  const uint32_t exceptions = r0.exceptions | r1.exceptions;
  const bool suppressed = ((exceptions & fpu::vx_any) && (c.fpscr & fpu::ve)) || ((exceptions & fpu::zx) && (c.fpscr & fpu::ze));
  fpu::raise(c, exceptions);
  if (suppressed) {
    fpu::set_fr_fi(c, false, false);
  } else {
    const fpu::Result& reported = reporting == Reporting::ps0 ? r0 : r1;
    c.fpr[field::d(w)] = Fpr{r0.value, r1.value};
    fpu::set_fr_fi(c, reported.rounded_up, reported.inexact);
    fpu::set_fprf(c, fpu::class_of_single(reported.value));
  }
  fpu::finish(c, w, pc, exceptions != 0);
}

/// ps_add/sub/mul/div/madd/msub (and negated): each half with the same half of every operand, or with
/// frC's ps0 / ps1 for both (`c_half` 0 or 1, the muls/madds forms; -1: the same half).
inline void arithmetic(Cpu& c, uint32_t w, uint32_t pc, fpu::Arith op, bool negate = false, int c_half = -1) {
  const Fpr a = c.fpr[field::a(w)], b = c.fpr[field::b(w)], m = c.fpr[field::c(w)];
  const bool multiplies = op == fpu::Arith::mul || op == fpu::Arith::madd || op == fpu::Arith::msub;
  uint64_t c0 = c_half == 1 ? m.ps1 : m.ps0, c1 = c_half == 0 ? m.ps0 : m.ps1;
  if (multiplies) {
    c0 = fpu::round_multiplier(c0);
    c1 = fpu::round_multiplier(c1);
  }
  fpu::Result r0 = fpu::arithmetic(c.fpscr, op, a.ps0, b.ps0, c0, true);
  fpu::Result r1 = fpu::arithmetic(c.fpscr, op, a.ps1, b.ps1, c1, true);
  if (negate) {
    r0 = fpu::negated(r0);
    r1 = fpu::negated(r1);
  }
  commit_pair(c, w, pc, r0, r1);
}

/// ps_sum1's copied half: the significand rounded to single precision (24 bits, to nearest even) with the
/// exponent kept as it is (Dolphin's hardware-tested ps_sum1); NaNs pass unchanged.
constexpr uint64_t round_significand(uint64_t x) {
  if (fpu::is_nan(x)) return x;
  const uint64_t low = x & 0x1FFFFFFF, kept = x & ~0x1FFFFFFFull;
  const bool up = low > 0x10000000 || (low == 0x10000000 && (kept & 0x20000000));
  return up ? kept + 0x20000000 : kept;
}

// ---- quantization (750CL UM "GQRn"): a GQR holds LD_TYPE bits 16-18, LD_SCALE 24-29, ST_TYPE 0-2,
// ST_SCALE 8-13; types 0 float, 4 u8, 5 u16, 6 s8, 7 s16 (1-3 are reserved: treated as float here); the
// scale is 6-bit signed: a load multiplies by 2^-scale, a store by 2^scale ----
constexpr unsigned type_float = 0, type_u8 = 4, type_u16 = 5, type_s8 = 6, type_s16 = 7;
constexpr unsigned element_size(unsigned type) {
  return type == type_u8 || type == type_s8 ? 1 : type == type_u16 || type == type_s16 ? 2 : 4;
}
constexpr int signed_scale(uint32_t six_bits) { return six_bits >= 32 ? static_cast<int>(six_bits) - 64 : static_cast<int>(six_bits); }

inline uint64_t dequantize(uint32_t raw, unsigned type, int scale) {
  double v;
  switch (type) {
    case type_u8: v = static_cast<uint8_t>(raw); break;
    case type_u16: v = static_cast<uint16_t>(raw); break;
    case type_s8: v = static_cast<int8_t>(raw); break;
    case type_s16: v = static_cast<int16_t>(raw); break;
    default: return fpu::single_to_double(raw);
  }
  return fpu::bits(std::ldexp(v, -scale)); // exact: at most 16 significant bits, scale within +-32
}

/// Store conversion: the value as a single times 2^scale, clamped to the type's range and truncated toward
/// zero (Dolphin's ScaleAndClamp); a NaN stores 0 (not checked against hardware).
inline uint32_t quantize(uint64_t x, unsigned type, int scale) {
  if (type != type_u8 && type != type_u16 && type != type_s8 && type != type_s16) return fpu::double_to_single_flushed(x);
  const float scaled = static_cast<float>(fpu::value(x)) * std::ldexp(1.0f, scale);
  if (std::isnan(scaled)) return 0;
  float lo = 0, hi = 0;
  switch (type) {
    case type_u8: hi = 255; break;
    case type_u16: hi = 65535; break;
    case type_s8: lo = -128; hi = 127; break;
    default: lo = -32768; hi = 32767; break;
  }
  return static_cast<uint32_t>(static_cast<int32_t>(std::clamp(scaled, lo, hi)));
}

template <class Bus>
inline uint32_t read_element(Bus& bus, uint32_t ea, unsigned size) {
  return size == 1 ? bus.read8(ea) : size == 2 ? bus.read16(ea) : bus.read32(ea);
}
template <class Bus>
inline void write_element(Bus& bus, uint32_t ea, unsigned size, uint32_t v) {
  if (size == 1) bus.write8(ea, static_cast<uint8_t>(v));
  else if (size == 2) bus.write16(ea, static_cast<uint16_t>(v));
  else bus.write32(ea, v);
}

/// psq_l*: one element into ps0 with ps1 = 1.0 (W = 1), or two consecutive elements.
template <class Bus>
inline void load(Cpu& c, Bus& bus, unsigned fd, uint32_t ea, unsigned one, unsigned gqr) {
  const uint32_t q = c.spr[spr::gqr0 + gqr];
  const unsigned type = (q >> 16) & 7, size = element_size(type);
  const int scale = signed_scale((q >> 24) & 0x3F);
  const uint64_t ps0 = dequantize(read_element(bus, ea, size), type, scale);
  const uint64_t ps1 = one ? fpu::bits(1.0) : dequantize(read_element(bus, ea + size, size), type, scale);
  c.fpr[fd] = Fpr{ps0, ps1};
}
template <class Bus>
inline void store(const Cpu& c, Bus& bus, unsigned fs, uint32_t ea, unsigned one, unsigned gqr) {
  const uint32_t q = c.spr[spr::gqr0 + gqr];
  const unsigned type = q & 7, size = element_size(type);
  const int scale = signed_scale((q >> 8) & 0x3F);
  write_element(bus, ea, size, quantize(c.fpr[fs].ps0, type, scale));
  if (!one) write_element(bus, ea + size, size, quantize(c.fpr[fs].ps1, type, scale));
}
} // namespace paired

// ---- paired-single loads and stores ----
KILN_PPC_OP(psq_l) {
  if (!paired::quantized_enabled(c, pc)) return;
  paired::load(c, bus, field::d(w), detail::ra0(c, w) + static_cast<uint32_t>(field::psq_d(w)), field::psq_w(w), field::psq_i(w));
}
KILN_PPC_OP(psq_lu) {
  if (!paired::quantized_enabled(c, pc)) return;
  const uint32_t ea = c.gpr[field::a(w)] + static_cast<uint32_t>(field::psq_d(w));
  paired::load(c, bus, field::d(w), ea, field::psq_w(w), field::psq_i(w));
  c.gpr[field::a(w)] = ea;
}
KILN_PPC_OP(psq_lx) {
  if (!paired::enabled(c, pc)) return;
  paired::load(c, bus, field::d(w), detail::ea_x(c, w), field::psq_wx(w), field::psq_ix(w));
}
KILN_PPC_OP(psq_lux) {
  if (!paired::enabled(c, pc)) return;
  const uint32_t ea = detail::ea_xu(c, w);
  paired::load(c, bus, field::d(w), ea, field::psq_wx(w), field::psq_ix(w));
  c.gpr[field::a(w)] = ea;
}
KILN_PPC_OP(psq_st) {
  if (!paired::quantized_enabled(c, pc)) return;
  paired::store(c, bus, field::d(w), detail::ra0(c, w) + static_cast<uint32_t>(field::psq_d(w)), field::psq_w(w), field::psq_i(w));
}
KILN_PPC_OP(psq_stu) {
  if (!paired::quantized_enabled(c, pc)) return;
  const uint32_t ea = c.gpr[field::a(w)] + static_cast<uint32_t>(field::psq_d(w));
  paired::store(c, bus, field::d(w), ea, field::psq_w(w), field::psq_i(w));
  c.gpr[field::a(w)] = ea;
}
KILN_PPC_OP(psq_stx) {
  if (!paired::enabled(c, pc)) return;
  paired::store(c, bus, field::d(w), detail::ea_x(c, w), field::psq_wx(w), field::psq_ix(w));
}
KILN_PPC_OP(psq_stux) {
  if (!paired::enabled(c, pc)) return;
  const uint32_t ea = detail::ea_xu(c, w);
  paired::store(c, bus, field::d(w), ea, field::psq_wx(w), field::psq_ix(w));
  c.gpr[field::a(w)] = ea;
}

// ---- paired-single arithmetic ----
KILN_PPC_OP(ps_add) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::add); }
KILN_PPC_OP(ps_sub) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::sub); }
KILN_PPC_OP(ps_mul) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::mul); }
KILN_PPC_OP(ps_div) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::div); }
KILN_PPC_OP(ps_madd) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::madd); }
KILN_PPC_OP(ps_msub) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::msub); }
KILN_PPC_OP(ps_nmadd) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::madd, true); }
KILN_PPC_OP(ps_nmsub) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::msub, true); }
KILN_PPC_OP(ps_muls0) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::mul, false, 0); }
KILN_PPC_OP(ps_muls1) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::mul, false, 1); }
KILN_PPC_OP(ps_madds0) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::madd, false, 0); }
KILN_PPC_OP(ps_madds1) { if (paired::enabled(c, pc)) paired::arithmetic(c, w, pc, fpu::Arith::madd, false, 1); }
/// ps_sum0: ps0 = frA.ps0 + frB.ps1, ps1 = frC.ps1 unchanged.
KILN_PPC_OP(ps_sum0) {
  if (!paired::enabled(c, pc)) return;
  const Fpr a = c.fpr[field::a(w)], b = c.fpr[field::b(w)], m = c.fpr[field::c(w)];
  fpu::Result copied;
  copied.value = m.ps1;
  paired::commit_pair(c, w, pc, fpu::arithmetic(c.fpscr, fpu::Arith::add, a.ps0, b.ps1, 0, true), copied);
}
/// ps_sum1: ps0 = frC.ps0 (its significand rounded to single), ps1 = frA.ps0 + frB.ps1.
KILN_PPC_OP(ps_sum1) {
  if (!paired::enabled(c, pc)) return;
  const Fpr a = c.fpr[field::a(w)], b = c.fpr[field::b(w)], m = c.fpr[field::c(w)];
  fpu::Result copied;
  copied.value = paired::round_significand(m.ps0);
  paired::commit_pair(c, w, pc, copied, fpu::arithmetic(c.fpscr, fpu::Arith::add, a.ps0, b.ps1, 0, true),
                      paired::Reporting::ps1);
}
// Merges and sign moves copy bits; no FPSCR change.
namespace paired {
inline void move(Cpu& c, uint32_t w, uint32_t pc, uint64_t ps0, uint64_t ps1) {
  c.fpr[field::d(w)] = Fpr{ps0, ps1};
  fpu::finish(c, w, pc, false);
}
} // namespace paired
KILN_PPC_OP(ps_merge00) { if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::a(w)].ps0, c.fpr[field::b(w)].ps0); }
KILN_PPC_OP(ps_merge01) { if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::a(w)].ps0, c.fpr[field::b(w)].ps1); }
KILN_PPC_OP(ps_merge10) { if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::a(w)].ps1, c.fpr[field::b(w)].ps0); }
KILN_PPC_OP(ps_merge11) { if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::a(w)].ps1, c.fpr[field::b(w)].ps1); }
KILN_PPC_OP(ps_neg) {
  if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::b(w)].ps0 ^ fpu::sign_bit, c.fpr[field::b(w)].ps1 ^ fpu::sign_bit);
}
KILN_PPC_OP(ps_abs) {
  if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::b(w)].ps0 & ~fpu::sign_bit, c.fpr[field::b(w)].ps1 & ~fpu::sign_bit);
}
KILN_PPC_OP(ps_nabs) {
  if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::b(w)].ps0 | fpu::sign_bit, c.fpr[field::b(w)].ps1 | fpu::sign_bit);
}
KILN_PPC_OP(ps_mr) { if (paired::enabled(c, pc)) paired::move(c, w, pc, c.fpr[field::b(w)].ps0, c.fpr[field::b(w)].ps1); }
/// ps_sel: per half, frA >= 0 ? frC : frB (as fsel).
KILN_PPC_OP(ps_sel) {
  if (!paired::enabled(c, pc)) return;
  const Fpr a = c.fpr[field::a(w)], b = c.fpr[field::b(w)], m = c.fpr[field::c(w)];
  auto select = [](uint64_t x, uint64_t if_ge, uint64_t if_lt) {
    return !fpu::is_nan(x) && (fpu::is_zero(x) || !(x >> 63)) ? if_ge : if_lt;
  };
  paired::move(c, w, pc, select(a.ps0, m.ps0, b.ps0), select(a.ps1, m.ps1, b.ps1));
}
/// ps_res: fres's estimate per half.
KILN_PPC_OP(ps_res) {
  if (!paired::enabled(c, pc)) return;
  const Fpr b = c.fpr[field::b(w)];
  const uint32_t kept = c.fpscr & (fpu::fr | fpu::fi);
  const fpu::Result r0 = fpu::reciprocal_estimate(b.ps0, false), r1 = fpu::reciprocal_estimate(b.ps1, false);
  paired::commit_pair(c, w, pc, r0, r1);
  if (!r0.exceptions && !r1.exceptions) c.fpscr = (c.fpscr & ~(fpu::fr | fpu::fi)) | kept;
}
/// ps_rsqrte: frsqrte's estimate per half, rounded to single under RN.
KILN_PPC_OP(ps_rsqrte) {
  if (!paired::enabled(c, pc)) return;
  const Fpr b = c.fpr[field::b(w)];
  const uint32_t kept = c.fpscr & (fpu::fr | fpu::fi);
  auto half = [&](uint64_t x) {
    fpu::Result r = fpu::reciprocal_estimate(x, true);
    if (!fpu::is_nan(r.value) && !fpu::is_inf(r.value)) {
      const double v = fpu::value(r.value);
      r.value = fpu::bits(fpu::round_to_single(c.fpscr, v).value);
    }
    return r;
  };
  const fpu::Result r0 = half(b.ps0), r1 = half(b.ps1);
  paired::commit_pair(c, w, pc, r0, r1);
  if (!r0.exceptions && !r1.exceptions) c.fpscr = (c.fpscr & ~(fpu::fr | fpu::fi)) | kept;
}
KILN_PPC_OP(ps_cmpu0) { if (paired::enabled(c, pc)) fpu::compare(c, w, pc, c.fpr[field::a(w)].ps0, c.fpr[field::b(w)].ps0, false); }
KILN_PPC_OP(ps_cmpu1) { if (paired::enabled(c, pc)) fpu::compare(c, w, pc, c.fpr[field::a(w)].ps1, c.fpr[field::b(w)].ps1, false); }
KILN_PPC_OP(ps_cmpo0) { if (paired::enabled(c, pc)) fpu::compare(c, w, pc, c.fpr[field::a(w)].ps0, c.fpr[field::b(w)].ps0, true); }
KILN_PPC_OP(ps_cmpo1) { if (paired::enabled(c, pc)) fpu::compare(c, w, pc, c.fpr[field::a(w)].ps1, c.fpr[field::b(w)].ps1, true); }

} // namespace kiln::ppc
