#pragma once
// MIPS32r2 COP1 arithmetic as o32 Linux runs it (FR = 0, legacy NaN encoding: the quiet bit clear means quiet,
// as on the 24Kf that qemu-mipsel models). Included by r3000_ops.h, same shape as every op. Results come from
// the host's IEEE arithmetic under the FCSR rounding mode; the host's exception flags become FCSR Cause/Flags.
// NaNs are handled here, not by the host: MIPS' legacy quiet/signaling bit is the inverse of the host's, and an
// invalid operation gives the MIPS default NaN (7FF7FFFF_FFFFFFFF / 7FBFFFFF), not the host's.
// FCSR: RM bits 0-1, Flags 2-6, Enables 7-11, Cause 12-17 (each I U O Z V from bit 0 up), FCC0 bit 23,
// FCC1-7 bits 25-31 (MIPS32 Architecture Volume I, "Floating Point Control and Status Register").
// Enabled exceptions are recorded but do not trap (glibc leaves them disabled).
#ifndef KILN_R3000_OP
#error "include runtime/core/mips/ops.h instead"
#endif


namespace fpu {
constexpr uint32_t inexact = 1, underflow = 2, overflow = 4, divide_by_zero = 8, invalid = 16;
constexpr unsigned fmt_single = 0x10, fmt_double = 0x11, fmt_word = 0x14;
constexpr uint32_t fcsr_writable = 0xFF83FFFFu; ///< what CTC1 $31 can change (bits 18-22 read as zero)

inline unsigned fmt(uint32_t w) { return field_rs(w); }
inline unsigned ft(uint32_t w) { return field_rt(w); }
inline unsigned fs(uint32_t w) { return field_rd(w); }
inline unsigned fd(uint32_t w) { return field_sa(w); }

inline float get_s(const Cpu& c, unsigned f) { return std::bit_cast<float>(c.fpr[f]); }
inline void set_s(Cpu& c, unsigned f, float v) { c.fpr[f] = std::bit_cast<uint32_t>(v); }
/// FR = 0: a double is the even/odd pair, low word in the even register.
inline double get_d(const Cpu& c, unsigned f) { return std::bit_cast<double>(uint64_t{c.fpr[f | 1]} << 32 | c.fpr[f & 30]); }
inline void set_d(Cpu& c, unsigned f, double v) {
  const auto bits = std::bit_cast<uint64_t>(v);
  c.fpr[f & 30] = static_cast<uint32_t>(bits);
  c.fpr[f | 1] = static_cast<uint32_t>(bits >> 32);
}

template <class T> struct Traits;
template <> struct Traits<float> {
  using T = float;
  using Bits = uint32_t;
  static constexpr Bits quiet_bit = 1u << 22, default_nan = 0x7FBFFFFFu;
  static T get(const Cpu& c, unsigned f) { return get_s(c, f); }
  static void set(Cpu& c, unsigned f, T v) { set_s(c, f, v); }
};
template <> struct Traits<double> {
  using T = double;
  using Bits = uint64_t;
  static constexpr Bits quiet_bit = uint64_t{1} << 51, default_nan = 0x7FF7FFFFFFFFFFFFull;
  static T get(const Cpu& c, unsigned f) { return get_d(c, f); }
  static void set(Cpu& c, unsigned f, T v) { set_d(c, f, v); }
};
/// Legacy MIPS: a NaN with the top mantissa bit set signals.
template <class T> bool is_signaling(T v) { return std::isnan(v) && (std::bit_cast<typename Traits<T>::Bits>(v) & Traits<T>::quiet_bit); }
template <class T> T default_nan() { return std::bit_cast<T>(Traits<T>::default_nan); }

/// Records an operation's exceptions: Cause is replaced, Flags accumulate.
inline void raise(Cpu& c, uint32_t flags) { c.fcsr = (c.fcsr & ~(0x3Fu << 12)) | flags << 12 | flags << 2; }

inline int host_rounding(uint32_t fcsr) {
  switch (fcsr & 3) {
    case 1: return FE_TOWARDZERO;
    case 2: return FE_UPWARD;
    case 3: return FE_DOWNWARD;
    default: return FE_TONEAREST;
  }
}
inline uint32_t host_flags(int raised) {
  return (raised & FE_INEXACT ? inexact : 0) | (raised & FE_UNDERFLOW ? underflow : 0) | (raised & FE_OVERFLOW ? overflow : 0) |
         (raised & FE_DIVBYZERO ? divide_by_zero : 0) | (raised & FE_INVALID ? invalid : 0);
}

/// Runs `op` on the host under the guest's rounding mode and returns its result and exceptions. The operands
/// pass through volatile so the host compiler cannot move the arithmetic outside the flag window.
template <class R, class A, class Op>
R host_compute(const Cpu& c, A a, A b, Op op, uint32_t& flags) {
  const int mode = host_rounding(c.fcsr);
  if (mode != FE_TONEAREST) std::fesetround(mode);
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile A va = a, vb = b;
  volatile R r = op(va, vb);
  flags = host_flags(std::fetestexcept(FE_ALL_EXCEPT));
  if (mode != FE_TONEAREST) std::fesetround(FE_TONEAREST);
  return r;
}

/// add/sub/mul/div/sqrt in format T: NaN operands propagate as qemu's MIPS legacy rules do (a signaling one
/// is invalid and gives the default NaN, else the first quiet NaN), an invalid result is the default NaN.
template <class T, class Op>
void arithmetic(Cpu& c, uint32_t w, bool unary, Op op) {
  const T a = Traits<T>::get(c, fs(w)), b = unary ? T{} : Traits<T>::get(c, ft(w));
  T result;
  uint32_t flags = 0;
  if (std::isnan(a) || std::isnan(b)) {
    if (is_signaling(a) || is_signaling(b)) { result = default_nan<T>(); flags = invalid; }
    else result = std::isnan(a) ? a : b;
  } else {
    result = host_compute<T>(c, a, b, op, flags);
    if (std::isnan(result)) result = default_nan<T>();
  }
  raise(c, flags);
  Traits<T>::set(c, fd(w), result);
}
template <class Op> void arithmetic_fmt(Cpu& c, uint32_t w, bool unary, Op op) {
  if (fmt(w) == fmt_double) arithmetic<double>(c, w, unary, op);
  else arithmetic<float>(c, w, unary, op);
}

/// A value in format `fmt` as a double (exact for S and W).
inline double source(const Cpu& c, unsigned format, unsigned f) {
  if (format == fmt_double) return get_d(c, f);
  if (format == fmt_single) return get_s(c, f);
  return static_cast<int32_t>(c.fpr[f]);
}

/// round/trunc/ceil/floor/cvt.w: to int32 with `mode`; NaN or out of range is invalid and gives 7FFFFFFFh.
inline void to_word(Cpu& c, uint32_t w, int mode) {
  const double x = source(c, fmt(w), fs(w));
  double r = 0;
  switch (mode) {
    case FE_TOWARDZERO: r = std::trunc(x); break;
    case FE_UPWARD: r = std::ceil(x); break;
    case FE_DOWNWARD: r = std::floor(x); break;
    default: r = std::nearbyint(x); break; // the host runs round-to-nearest-even outside host_compute
  }
  if (std::isnan(x) || r < -2147483648.0 || r > 2147483647.0) {
    raise(c, invalid);
    c.fpr[fd(w)] = 0x7FFFFFFFu;
    return;
  }
  raise(c, r != x ? inexact : 0u);
  c.fpr[fd(w)] = static_cast<uint32_t>(static_cast<int32_t>(r));
}

/// The condition bit cc: 0 is FCSR bit 23, 1-7 are bits 25-31.
inline unsigned cc_bit(unsigned cc) { return cc == 0 ? 23 : 24 + cc; }
inline bool condition(const Cpu& c, unsigned cc) { return (c.fcsr >> cc_bit(cc)) & 1; }

/// C.cond.fmt: cond bit 0 = unordered, 1 = equal, 2 = less; bit 3 makes a quiet NaN invalid too.
template <class T>
void compare(Cpu& c, uint32_t w) {
  const T a = Traits<T>::get(c, fs(w)), b = Traits<T>::get(c, ft(w));
  const unsigned cond = w & 15;
  const bool unordered = std::isnan(a) || std::isnan(b);
  const bool result = unordered ? (cond & 1) : ((cond & 2) && a == b) || ((cond & 4) && a < b);
  raise(c, unordered && ((cond & 8) || is_signaling(a) || is_signaling(b)) ? invalid : 0u);
  const unsigned bit = cc_bit((w >> 8) & 7);
  c.fcsr = (c.fcsr & ~(1u << bit)) | uint32_t{result} << bit;
}
} // namespace fpu

KILN_R3000_OP(fadd) { fpu::arithmetic_fmt(c, w, false, [](auto a, auto b) { return a + b; }); }
KILN_R3000_OP(fsub) { fpu::arithmetic_fmt(c, w, false, [](auto a, auto b) { return a - b; }); }
KILN_R3000_OP(fmul) { fpu::arithmetic_fmt(c, w, false, [](auto a, auto b) { return a * b; }); }
KILN_R3000_OP(fdiv) { fpu::arithmetic_fmt(c, w, false, [](auto a, auto b) { return a / b; }); }
KILN_R3000_OP(fsqrt) { fpu::arithmetic_fmt(c, w, true, [](auto a, auto) { return std::sqrt(a); }); }
// ABS/NEG/MOV change bits only (no flags, Cause kept), as qemu's MIPS helpers do.
KILN_R3000_OP(fabs) {
  if (fpu::fmt(w) == fpu::fmt_double) {
    c.fpr[fpu::fd(w) & 30] = c.fpr[fpu::fs(w) & 30];
    c.fpr[fpu::fd(w) | 1] = c.fpr[fpu::fs(w) | 1] & 0x7FFFFFFFu;
  } else c.fpr[fpu::fd(w)] = c.fpr[fpu::fs(w)] & 0x7FFFFFFFu;
}
KILN_R3000_OP(fneg) {
  if (fpu::fmt(w) == fpu::fmt_double) {
    c.fpr[fpu::fd(w) & 30] = c.fpr[fpu::fs(w) & 30];
    c.fpr[fpu::fd(w) | 1] = c.fpr[fpu::fs(w) | 1] ^ 0x80000000u;
  } else c.fpr[fpu::fd(w)] = c.fpr[fpu::fs(w)] ^ 0x80000000u;
}
namespace fpu {
inline void move(Cpu& c, uint32_t w) {
  if (fmt(w) == fmt_double) set_d(c, fd(w), get_d(c, fs(w)));
  else c.fpr[fd(w)] = c.fpr[fs(w)];
}
} // namespace fpu
KILN_R3000_OP(fmov) { fpu::move(c, w); }
KILN_R3000_OP(round_w) { fpu::to_word(c, w, FE_TONEAREST); }
KILN_R3000_OP(trunc_w) { fpu::to_word(c, w, FE_TOWARDZERO); }
KILN_R3000_OP(ceil_w) { fpu::to_word(c, w, FE_UPWARD); }
KILN_R3000_OP(floor_w) { fpu::to_word(c, w, FE_DOWNWARD); }
KILN_R3000_OP(cvt_w) { fpu::to_word(c, w, fpu::host_rounding(c.fcsr)); }
/// CVT.S from D (rounds) or W (rounds above 2^24).
KILN_R3000_OP(cvt_s) {
  const double x = fpu::source(c, fpu::fmt(w), fpu::fs(w));
  uint32_t flags = 0;
  float r;
  if (std::isnan(x)) {
    const uint64_t bits = std::bit_cast<uint64_t>(x);
    if (fpu::is_signaling(x)) { r = fpu::default_nan<float>(); flags = fpu::invalid; }
    else r = std::bit_cast<float>(static_cast<uint32_t>(bits >> 63 << 31 | 0x7F800000u | ((bits >> 29) & 0x007FFFFFu)));
  } else r = fpu::host_compute<float>(c, x, 0.0, [](double a, double) { return static_cast<float>(a); }, flags);
  fpu::raise(c, flags);
  fpu::set_s(c, fpu::fd(w), r);
}
KILN_R3000_OP(cvt_s_w) { cvt_s(c, bus, w, pc); }
/// CVT.D from S or W: exact.
KILN_R3000_OP(cvt_d) {
  const double x = fpu::source(c, fpu::fmt(w), fpu::fs(w));
  uint32_t flags = 0;
  double r = x;
  if (std::isnan(x) && fpu::fmt(w) == fpu::fmt_single) {
    const uint32_t bits = c.fpr[fpu::fs(w)];
    if (fpu::is_signaling(fpu::get_s(c, fpu::fs(w)))) { r = fpu::default_nan<double>(); flags = fpu::invalid; }
    else r = std::bit_cast<double>(uint64_t{bits >> 31} << 63 | 0x7FF0000000000000ull | uint64_t{bits & 0x007FFFFFu} << 29);
  }
  fpu::raise(c, flags);
  fpu::set_d(c, fpu::fd(w), r);
}
KILN_R3000_OP(c_cond) {
  if (fpu::fmt(w) == fpu::fmt_double) fpu::compare<double>(c, w);
  else fpu::compare<float>(c, w);
}
/// BC1F/BC1T: rt field = cc << 2 | nd << 1 | tf (the likely forms, nd = 1, are not in the table).
KILN_R3000_OP(bc1) {
  detail::take_branch(c, branch_target(w, following_address(c, pc)), fpu::condition(c, (w >> 18) & 7) == ((w >> 16) & 1));
}
/// MOVF/MOVT rd, rs, cc (GPRs) and MOVF.fmt/MOVT.fmt fd, fs, cc.
KILN_R3000_OP(movcf) {
  if (fpu::condition(c, (w >> 18) & 7) == ((w >> 16) & 1)) set_gpr(c, field_rd(w), detail::rs(c, w));
}
KILN_R3000_OP(movcf_fmt) {
  if (fpu::condition(c, (w >> 18) & 7) == ((w >> 16) & 1)) fpu::move(c, w);
}
KILN_R3000_OP(movz_fmt) { if (c.gpr[fpu::ft(w)] == 0) fpu::move(c, w); }
KILN_R3000_OP(movn_fmt) { if (c.gpr[fpu::ft(w)] != 0) fpu::move(c, w); }
/// MFHC1/MTHC1 with FR = 0: the high half of the double in the pair fs is the odd register.
KILN_R3000_OP(mfhc1) { set_gpr(c, field_rt(w), c.fpr[fpu::fs(w) | 1]); }
KILN_R3000_OP(mthc1) { c.fpr[fpu::fs(w) | 1] = detail::rt(c, w); }
