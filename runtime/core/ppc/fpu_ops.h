#pragma once
// The 750CL FPU: double and single arithmetic with the FPSCR as the PEM ("Floating-Point Execution Models",
// "Floating-Point Program Exceptions") and the 750CL UM ("Floating-Point Unit") define it. Included by ops.h.
//
// Results are the host's IEEE arithmetic under FPSCR[RN], computed so that every result is rounded once:
// double results directly, single results through round-to-odd in double (exact for double-precision
// operands too, as the 750CL rounds the exact result to single once). FR (fraction rounded up) and FI
// (inexact) come from a second, round-toward-zero evaluation; tininess is detected before rounding, as the
// PowerPC does (x86 detects it after). NaN propagation, the invalid-operation subclasses and the default
// QNaN (0x7FF8000000000000) are handled here, not by the host.
// The Gekko rounds the multiplier frC of single-precision multiplies to 24 fraction bits first (rounding half
// away from zero), as Dolphin documents from hardware tests; single arithmetic writes ps0 and ps1.
// Not modelled: the exponent adjustment of an enabled overflow/underflow (OE/UE = 1: the result is written as
// with OE/UE = 0); the program exception for an enabled exception is taken precisely after the instruction.
#ifndef KILN_PPC_OP
#error "include runtime/core/ppc/ops.h instead"
#endif

#include <bit>
#include <cfenv>
#include <cfloat>
#include <cmath>
#include <optional>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "runtime/core/ppc/estimates.h"

namespace kiln::ppc {
namespace fpu {

// FPSCR bits (PEM "Floating-Point Status and Control Register").
constexpr uint32_t fx = 1u << 31, fex = 1u << 30, vx = 1u << 29, ox = 1u << 28, ux = 1u << 27, zx = 1u << 26,
                   xx = 1u << 25, vxsnan = 1u << 24, vxisi = 1u << 23, vxidi = 1u << 22, vxzdz = 1u << 21,
                   vximz = 1u << 20, vxvc = 1u << 19, fr = 1u << 18, fi = 1u << 17, vxsoft = 1u << 10,
                   vxsqrt = 1u << 9, vxcvi = 1u << 8, ve = 1u << 7, oe = 1u << 6, ue = 1u << 5, ze = 1u << 4,
                   xe = 1u << 3, ni = 1u << 2;
constexpr unsigned fprf_shift = 12;
constexpr uint32_t fprf_bits = 0x1Fu << fprf_shift, fpcc_bits = 0xFu << fprf_shift;
constexpr uint32_t vx_any = vxsnan | vxisi | vxidi | vxzdz | vximz | vxvc | vxsoft | vxsqrt | vxcvi;
/// The exception bits: any of them going from 0 to 1 sets FX (mtfsf/mtfsfi excepted).
constexpr uint32_t exception_bits = ox | ux | zx | xx | vx_any;
/// Bit 11 (MSB-0 bit 20) is reserved: it reads as zero and writes to it are dropped.
constexpr uint32_t reserved = 1u << 11;

// FPRF classes (PEM "Floating-Point Result Flags").
constexpr uint32_t class_qnan = 0x11, class_neg_inf = 0x09, class_neg_normal = 0x08, class_neg_denormal = 0x18,
                   class_neg_zero = 0x12, class_pos_zero = 0x02, class_pos_denormal = 0x14, class_pos_normal = 0x04,
                   class_pos_inf = 0x05;
// FPCC, the low four FPRF bits, from a comparison: < > = unordered.
constexpr uint32_t fpcc_less = 8, fpcc_greater = 4, fpcc_equal = 2, fpcc_unordered = 1;

using estimate::default_nan;
using estimate::exponent_bits;
using estimate::fraction_bits;
using estimate::quiet_bit;
using estimate::sign_bit;

constexpr bool is_nan(uint64_t x) { return (x & exponent_bits) == exponent_bits && (x & fraction_bits) != 0; }
constexpr bool is_snan(uint64_t x) { return is_nan(x) && !(x & quiet_bit); }
constexpr bool is_inf(uint64_t x) { return (x & ~sign_bit) == exponent_bits; }
constexpr bool is_zero(uint64_t x) { return (x & ~sign_bit) == 0; }
inline double value(uint64_t x) { return std::bit_cast<double>(x); }
inline uint64_t bits(double v) { return std::bit_cast<uint64_t>(v); }

/// lfs/psq_l: a single in double format, exactly (PEM "Floating-Point Load Instructions"); NaNs keep their
/// payload and signaling bit, denormals become normal doubles.
constexpr uint64_t single_to_double(uint32_t s) {
  const uint64_t sign = uint64_t{s >> 31} << 63;
  const uint32_t exponent = (s >> 23) & 0xFF, fraction = s & 0x7FFFFF;
  if (exponent == 0xFF) return sign | exponent_bits | uint64_t{fraction} << 29;
  if (exponent != 0) return sign | uint64_t{exponent - 127 + 1023} << 52 | uint64_t{fraction} << 29;
  if (fraction == 0) return sign;
  unsigned shift = 0;
  uint32_t f = fraction;
  while (!(f & 0x800000)) {
    f <<= 1;
    ++shift;
  }
  return sign | uint64_t{1023 - 126 - shift} << 52 | uint64_t{f & 0x7FFFFF} << 29;
}

/// stfs: the PEM's store conversion, which truncates rather than rounds: doubles in or above the single
/// normal range (and zero, infinities, NaNs) keep sign, two exponent bits and the top fraction bits; those
/// in the denormal range are denormalized. Below that the PEM leaves the result undefined; the 750CL stores
/// the same bit selection as for the normal range (Dolphin's hardware-tested ConvertToSingle).
constexpr uint32_t double_to_single_bits(uint64_t x) {
  const auto exponent = static_cast<uint32_t>((x >> 52) & 0x7FF);
  if (exponent > 896 || (x & ~sign_bit) == 0 || exponent < 874)
    return static_cast<uint32_t>(((x >> 32) & 0xC0000000u) | ((x >> 29) & 0x3FFFFFFFu));
  const uint32_t significand = static_cast<uint32_t>(0x80000000u | ((x & fraction_bits) >> 21));
  return (significand >> (905 - exponent)) | static_cast<uint32_t>((x >> 32) & 0x80000000u);
}
/// psq_st's float conversion: as stfs, except that the single denormal range becomes a signed zero.
constexpr uint32_t double_to_single_flushed(uint64_t x) {
  const auto exponent = static_cast<uint32_t>((x >> 52) & 0x7FF);
  if (exponent > 896 || (x & ~sign_bit) == 0)
    return static_cast<uint32_t>(((x >> 32) & 0xC0000000u) | ((x >> 29) & 0x3FFFFFFFu));
  return static_cast<uint32_t>((x >> 32) & 0x80000000u);
}

constexpr uint32_t classify(bool negative, bool nan, bool inf, bool zero, bool denormal) {
  if (nan) return class_qnan;
  if (inf) return negative ? class_neg_inf : class_pos_inf;
  if (zero) return negative ? class_neg_zero : class_pos_zero;
  if (denormal) return negative ? class_neg_denormal : class_pos_denormal;
  return negative ? class_neg_normal : class_pos_normal;
}
constexpr uint32_t class_of_double(uint64_t x) {
  return classify(x >> 63, is_nan(x), is_inf(x), is_zero(x), (x & exponent_bits) == 0);
}
/// A single-precision result (held in double format) is classified as a single: 2^-130 is denormal there.
inline uint32_t class_of_single(uint64_t x) {
  const auto e = static_cast<int>((x >> 52) & 0x7FF);
  return classify(x >> 63, is_nan(x), is_inf(x), is_zero(x), e != 0x7FF && e < 1023 - 126);
}

/// VX and FEX are summaries: VX of the invalid-operation bits, FEX of the exceptions whose enable is set.
inline void update_summaries(Cpu& c) {
  uint32_t f = c.fpscr & ~(vx | fex);
  if (f & vx_any) f |= vx;
  if ((f >> 22) & f & (ve | oe | ue | ze | xe)) f |= fex;
  c.fpscr = f;
}
/// Records exception bits (sticky); FX is set when one of them was clear before.
inline void raise(Cpu& c, uint32_t exceptions) {
  if (exceptions & ~c.fpscr & exception_bits) c.fpscr |= fx;
  c.fpscr |= exceptions;
  update_summaries(c);
}
inline void set_fprf(Cpu& c, uint32_t cls) { c.fpscr = (c.fpscr & ~fprf_bits) | cls << fprf_shift; }
inline void set_fr_fi(Cpu& c, bool rounded_up, bool inexact) {
  c.fpscr = (c.fpscr & ~(fr | fi)) | (rounded_up ? fr : 0) | (inexact ? fi : 0);
}

/// FP unavailable exception when MSR[FP] is clear (750CL UM "Floating-Point Unavailable Exception"): Dolphin
/// OS saves the FPRs lazily through it.
inline bool available(Cpu& c, uint32_t pc) {
  if (c.msr & msr::fp) return true;
  raise_exception(c, Exception::fp_unavailable, pc);
  return false;
}
/// The end of every FPSCR-changing instruction: CR1 = FX FEX VX OX with Rc, and the program exception when an
/// exception was raised while enabled (FEX) and MSR[FE0]/[FE1] ask for one.
inline void finish(Cpu& c, uint32_t w, uint32_t pc, bool raised) {
  if (field::rc(w)) c.cr[1] = static_cast<uint8_t>(c.fpscr >> 28);
  if (raised && (c.fpscr & fex) && (c.msr & (msr::fe0 | msr::fe1)))
    raise_exception(c, Exception::program, pc, srr1::fp_enabled);
}

/// The arithmetic operations (madd: a * c + b).
enum class Arith : uint8_t { add, sub, mul, div, madd, msub };

/// The guest's rounding modes (FPSCR[RN]).
enum class Mode : uint8_t { nearest = 0, toward_zero = 1, upward = 2, downward = 3 };
inline Mode rounding_mode(uint32_t fpscr) { return static_cast<Mode>(fpscr & 3); }
/// How a rounded result is computed: `fast` takes the round-to-nearest fast path where it can decide,
/// `mode_switching` always switches the host's mode (the reference the fast path is tested against).
enum class Path : uint8_t { fast, mode_switching };


/// The host's rounding mode and exception flags. On x86-64 the double and single arithmetic is SSE, ruled by
/// MXCSR alone: reading and writing it (stmxcsr/ldmxcsr) costs a few cycles, where <cfenv>'s fesetround also
/// rewrites the x87 control word and fetestexcept reads both units. Other hosts use <cfenv>.
/// A HostMode switches for its lifetime and restores the host's state (round to nearest) afterwards.
class HostMode {
public:
#if defined(__SSE2__)
  explicit HostMode(Mode m) : saved_(_mm_getcsr()) { set(m); }
  ~HostMode() { _mm_setcsr(saved_); }
  /// MXCSR's RC field: 00 nearest, 01 down, 10 up, 11 toward zero; the flags (bits 0-5) cleared.
  void set(Mode m) {
    static constexpr uint32_t rc[] = {0x0000, 0x6000, 0x4000, 0x2000};
    _mm_setcsr((saved_ & ~(0x6000u | 0x3Fu)) | rc[static_cast<unsigned>(m)]);
  }
  void clear_flags() { _mm_setcsr(_mm_getcsr() & ~0x3Fu); }
  bool inexact() const { return _mm_getcsr() & 0x20; }
  bool overflow() const { return _mm_getcsr() & 0x08; }

private:
  uint32_t saved_;
#else
  explicit HostMode(Mode m) { set(m); }
  ~HostMode() { std::fesetround(FE_TONEAREST); }
  void set(Mode m) {
    static constexpr int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
    std::fesetround(modes[static_cast<unsigned>(m)]);
    clear_flags();
  }
  void clear_flags() { std::feclearexcept(FE_ALL_EXCEPT); }
  bool inexact() const { return std::fetestexcept(FE_INEXACT); }
  bool overflow() const { return std::fetestexcept(FE_OVERFLOW); }
#endif
  HostMode(const HostMode&) = delete;
  HostMode& operator=(const HostMode&) = delete;
};

struct Rounded {
  double value;
  bool inexact, rounded_up, overflow, tiny;
};

/// A double rounded once more to single precision under round to nearest, as round-to-odd leaves it: `odd` is
/// the exact result rounded to odd in double (`lost`: that rounding was inexact), so that the host's
/// conversion rounds the exact result once.
inline Rounded single_from_odd(double odd, bool lost) {
  const volatile double source = odd;
  const float result = static_cast<float>(source);
  Rounded r{};
  r.value = result;
  r.overflow = std::isinf(result) && !std::isinf(odd);
  r.inexact = lost || r.value != odd;
  r.rounded_up = r.inexact && std::fabs(r.value) > std::fabs(odd);
  r.tiny = odd != 0.0 && std::fabs(odd) < static_cast<double>(FLT_MIN);
  return r;
}

/// `op` (host double arithmetic on volatile operands) rounded under the guest's mode to double or single, by
/// switching the host's rounding mode: the reference every mode goes through, and the one the round-to-nearest
/// fast path (below) must agree with.
/// tiny: the exact result was nonzero and below the smallest normal of the precision (before rounding).
template <class Op>
inline Rounded round_result(uint32_t fpscr, bool single, Op op) {
  Rounded r{};
  const Mode mode = rounding_mode(fpscr);
  if (!single) {
    HostMode host(mode);
    volatile double result = op();
    r.value = result;
    r.inexact = host.inexact();
    r.overflow = host.overflow();
    double toward_zero = result;
    if (r.inexact) {
      host.set(Mode::toward_zero);
      volatile double t = op();
      toward_zero = t;
      r.rounded_up = std::fabs(r.value) > std::fabs(toward_zero);
    }
    r.tiny = toward_zero != 0.0 ? std::fabs(toward_zero) < DBL_MIN : r.inexact;
    return r;
  }
  // Round to odd in double (truncate, then set the last bit if anything was lost), then to single: the one
  // rounding of the exact result.
  HostMode host(Mode::toward_zero);
  volatile double truncated = op();
  const bool lost = host.inexact();
  double odd = truncated;
  if (lost) {
    odd = std::bit_cast<double>(std::bit_cast<uint64_t>(odd) | 1);
  } else if (odd == 0.0) {
    host.set(mode); // an exact zero's sign depends on the rounding mode (x - x is -0 rounding down)
    volatile double exact = op();
    odd = exact;
  }
  host.set(mode);
  volatile double source = odd;
  volatile float result = static_cast<float>(source);
  r.value = result;
  r.inexact = lost || host.inexact();
  r.overflow = host.overflow();
  r.rounded_up = r.inexact && std::fabs(r.value) > std::fabs(odd);
  r.tiny = odd != 0.0 && std::fabs(odd) < static_cast<double>(FLT_MIN);
  return r;
}

/// The round-to-nearest fast path: the host's own (nearest) result and the sign of its error, from error-free
/// transformations, so that no mode switch is needed. The exact result is `value` + an error whose sign is
/// `error_sign` (0: exact). nullopt where an error-free transformation could be inexact (operands or result
/// near the underflow range, infinities, an overflow) or the sign cannot be proven: the caller then switches.
struct Nearest {
  double value;
  int error_sign;
};

/// TwoSum (Knuth): s + e == a + b exactly, s = a + b rounded to nearest; exact for any finite operands whose
/// sum does not overflow.
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double b_virtual = s - a, a_virtual = s - b_virtual;
  e = (a - a_virtual) + (b - b_virtual);
}
inline int sign_of(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

/// Above this magnitude every product error (fma(a, b, -p)), division remainder (fma(-q, b, a)) and sum error
/// is representable (their grain, ulp(a) * ulp(b) >= |a * b| * 2^-106, stays above the smallest denormal).
constexpr double eft_safe = 0x1p-960;

inline std::optional<Nearest> nearest_with_error(Arith op, double x, double y, double z) {
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) return std::nullopt;
  double r = 0, e = 0;
  int sign = 0;
  switch (op) {
    case Arith::add: case Arith::sub:
      two_sum(x, op == Arith::sub ? -y : y, r, e);
      sign = sign_of(e);
      break;
    case Arith::mul:
      r = x * z;
      if (x == 0 || z == 0) break; // a signed zero, exactly
      if (!(std::fabs(r) >= eft_safe)) return std::nullopt;
      sign = sign_of(std::fma(x, z, -r));
      break;
    case Arith::div: {
      r = x / y;
      if (x == 0) break;
      if (!(std::fabs(x) >= eft_safe && std::fabs(y) >= eft_safe && std::fabs(r) >= eft_safe)) return std::nullopt;
      // The quotient's error is remainder / y: x - r * y exactly (no underflow), its sign times y's.
      sign = sign_of(std::fma(-r, y, x)) * sign_of(y);
      break;
    }
    case Arith::madd: case Arith::msub: {
      const double addend = op == Arith::msub ? -y : y;
      r = std::fma(x, z, addend);
      // exact - r = (p + pe + addend) - r with p + pe = x * z: four exact terms t + te + se + pe.
      double p = x * z, pe = 0;
      if (x != 0 && z != 0) {
        if (!(std::fabs(p) >= eft_safe) || !std::isfinite(p)) return std::nullopt;
        pe = std::fma(x, z, -p);
      }
      double s, se, t, te;
      two_sum(p, addend, s, se);
      two_sum(s, -r, t, te);
      const double sum = t + (te + (se + pe));
      const double bound = std::fabs(t) + std::fabs(te) + std::fabs(se) + std::fabs(pe);
      if (!std::isfinite(sum) || !std::isfinite(bound)) return std::nullopt;
      if (bound == 0) break; // every term zero: exact
      // The sum of four terms rounded three times is off by at most 3u * bound (u = 2^-53): a larger sum
      // has the sign of the exact one. Otherwise (a bound too small to scale exactly, a near tie) switch.
      if (!(bound >= eft_safe) || !(std::fabs(sum) > 0x1p-50 * bound)) return std::nullopt;
      sign = sign_of(sum);
      break;
    }
  }
  if (!std::isfinite(r)) return std::nullopt; // overflow: OX from the mode-switching path
  if (sign != 0 && !(std::fabs(r) >= eft_safe)) return std::nullopt;
  return Nearest{r, sign};
}

/// The Rounded of an operation under round to nearest from its `Nearest`: as round_result computes it, with
/// round-to-odd for single results derived from the error's sign (truncation is the nearest result, or the
/// next double toward zero when that was rounded up).
inline Rounded from_nearest(const Nearest& n, bool single) {
  const bool rounded_up = n.error_sign != 0 && (n.error_sign > 0) != (n.value > 0);
  if (single) {
    if (n.error_sign == 0) return single_from_odd(n.value, false);
    const uint64_t truncated = std::bit_cast<uint64_t>(n.value) - (rounded_up ? 1 : 0);
    return single_from_odd(std::bit_cast<double>(truncated | 1), true);
  }
  Rounded r{};
  r.value = n.value;
  r.inexact = n.error_sign != 0;
  r.rounded_up = rounded_up;
  r.overflow = false;
  // Inexact results are at least eft_safe, so tiny only for an exact denormal.
  r.tiny = !r.inexact && n.value != 0 && std::fabs(n.value) < DBL_MIN;
  return r;
}

/// A double rounded to single under the guest's mode (frsp, ps_rsqrte): under round to nearest the host's
/// conversion is the one rounding, with no mode switch.
inline Rounded round_to_single(uint32_t fpscr, double v, Path path = Path::fast) {
  if (path == Path::fast && rounding_mode(fpscr) == Mode::nearest) return single_from_odd(v, false);
  return round_result(fpscr, true, [=] { volatile double p = v; return p; });
}

/// The outcome of one operation: the result and what it raised, before the FPSCR sees it.
struct Result {
  uint64_t value = 0;
  uint32_t exceptions = 0;
  bool rounded_up = false, inexact = false;
};

/// A NaN result of a single-precision operation is rounded to single by truncating its fraction.
constexpr uint64_t single_nan(uint64_t x) { return x & ~((1ull << 29) - 1); }

/// Result of a rounded computation, with OX/UX/XX as the PEM sets them (UX: tiny and inexact, or tiny alone
/// with UE set) and NI's flush of denormal results to zero.
inline Result from_rounded(uint32_t fpscr, const Rounded& r, bool single) {
  Result out;
  out.value = bits(r.value);
  out.inexact = r.inexact;
  out.rounded_up = r.rounded_up;
  if (r.overflow) out.exceptions |= ox;
  if (r.tiny && (r.inexact || (fpscr & ue))) out.exceptions |= ux;
  if (r.inexact) out.exceptions |= xx;
  if ((fpscr & ni) && r.tiny) out.value &= sign_bit; // non-IEEE mode: denormal results become zero
  (void)single;
  return out;
}

/// One add/sub/mul/div/madd/msub (madd: a * c + b) of double bit patterns, to double or single. NaN operands
/// propagate in the order a, b, c (the first one, quieted); invalid operations give the default QNaN with
/// their VX bit; x / 0 is a zero divide.
inline Result arithmetic(uint32_t fpscr, Arith op, uint64_t a, uint64_t b, uint64_t c, bool single, Path path = Path::fast) {
  Result out;
  const bool uses_b = op != Arith::mul, uses_c = op == Arith::mul || op == Arith::madd || op == Arith::msub;
  const bool nan_a = is_nan(a), nan_b = uses_b && is_nan(b), nan_c = uses_c && is_nan(c);
  if (nan_a || nan_b || nan_c) {
    if (is_snan(a) || (uses_b && is_snan(b)) || (uses_c && is_snan(c))) out.exceptions = vxsnan;
    out.value = (nan_a ? a : nan_b ? b : c) | quiet_bit;
    if (single) out.value = single_nan(out.value);
    return out;
  }
  const bool negate_b = op == Arith::sub || op == Arith::msub;
  const bool b_negative = ((b >> 63) != 0) != negate_b;
  uint32_t invalid = 0;
  switch (op) {
    case Arith::add: case Arith::sub:
      if (is_inf(a) && is_inf(b) && ((a >> 63) != 0) != b_negative) invalid = vxisi;
      break;
    case Arith::mul:
      if ((is_inf(a) && is_zero(c)) || (is_zero(a) && is_inf(c))) invalid = vximz;
      break;
    case Arith::div:
      if (is_zero(a) && is_zero(b)) invalid = vxzdz;
      else if (is_inf(a) && is_inf(b)) invalid = vxidi;
      else if (is_zero(b) && !is_inf(a)) {
        out.exceptions = zx;
        out.value = ((a ^ b) & sign_bit) | exponent_bits;
        return out;
      }
      break;
    case Arith::madd: case Arith::msub:
      if ((is_inf(a) && is_zero(c)) || (is_zero(a) && is_inf(c))) invalid = vximz;
      else if ((is_inf(a) || is_inf(c)) && is_inf(b) && ((a ^ c) >> 63 != 0) != b_negative) invalid = vxisi;
      break;
  }
  if (invalid) {
    out.exceptions = invalid;
    out.value = default_nan;
    return out;
  }
  const double x = value(a), y = value(b), z = value(c);
  if (path == Path::fast && rounding_mode(fpscr) == Mode::nearest)
    if (const std::optional<Nearest> n = nearest_with_error(op, x, y, z)) return from_rounded(fpscr, from_nearest(*n, single), single);
  Rounded r;
  switch (op) {
    case Arith::add: r = round_result(fpscr, single, [=] { volatile double p = x, q = y; return p + q; }); break;
    case Arith::sub: r = round_result(fpscr, single, [=] { volatile double p = x, q = y; return p - q; }); break;
    case Arith::mul: r = round_result(fpscr, single, [=] { volatile double p = x, q = z; return p * q; }); break;
    case Arith::div: r = round_result(fpscr, single, [=] { volatile double p = x, q = y; return p / q; }); break;
    case Arith::madd:
      r = round_result(fpscr, single, [=] { volatile double p = x, q = z, s = y; return std::fma(p, q, s); });
      break;
    case Arith::msub:
      r = round_result(fpscr, single, [=] { volatile double p = x, q = z, s = y; return std::fma(p, q, -s); });
      break;
  }
  return from_rounded(fpscr, r, single);
}

/// fnmadd/fnmsub: the fmadd/fmsub result negated, except that a NaN keeps its sign (PEM fnmadd).
inline Result negated(Result r) {
  if (!is_nan(r.value)) r.value ^= sign_bit;
  return r;
}

/// The Gekko's single-precision multiplier: frC's significand rounded to 25 bits (24 fraction bits), half
/// away from zero, at the position a denormal's leading 1 gives it (Dolphin, Force25Bit). NaNs and
/// infinities are left alone.
inline uint64_t round_multiplier(uint64_t c) {
  if ((c & exponent_bits) == exponent_bits) return c;
  uint64_t keep = 0xFFFFFFFFF8000000ull, half = 0x8000000ull;
  if ((c & exponent_bits) == 0 && (c & fraction_bits) != 0) {
    const int shift = std::countl_zero(c & fraction_bits) - 12;
    keep = static_cast<uint64_t>(static_cast<int64_t>(keep) >> shift);
    half >>= shift;
  }
  return (c & keep) + (c & half);
}

/// Writes an arithmetic result unless an enabled invalid or zero-divide exception suppresses it (PEM: then
/// frD, FR, FI's meaning and FPRF are left; FR and FI are cleared), then finishes the instruction.
template <class Write>
inline void commit(Cpu& c, uint32_t w, uint32_t pc, const Result& r, bool single, Write write) {
  const bool suppressed = ((r.exceptions & vx_any) && (c.fpscr & ve)) || ((r.exceptions & zx) && (c.fpscr & ze));
  raise(c, r.exceptions);
  if (suppressed) {
    set_fr_fi(c, false, false);
  } else {
    write(r.value);
    set_fr_fi(c, r.rounded_up, r.inexact);
    set_fprf(c, single ? class_of_single(r.value) : class_of_double(r.value));
  }
  finish(c, w, pc, r.exceptions != 0);
}

inline void write_double(Cpu& c, unsigned f, uint64_t v) { c.fpr[f].ps0 = v; }
inline void write_single(Cpu& c, unsigned f, uint64_t v) { c.fpr[f].ps0 = c.fpr[f].ps1 = v; }

/// An A-form arithmetic instruction on ps0: frD = op(frA, frB, frC).
inline void scalar(Cpu& c, uint32_t w, uint32_t pc, Arith op, bool single, bool negate = false) {
  using namespace field;
  uint64_t multiplier = c.fpr[field::c(w)].ps0;
  if (single && (op == Arith::mul || op == Arith::madd || op == Arith::msub)) multiplier = round_multiplier(multiplier);
  Result r = arithmetic(c.fpscr, op, c.fpr[a(w)].ps0, c.fpr[b(w)].ps0, multiplier, single);
  if (negate) r = negated(r);
  const unsigned target = d(w);
  commit(c, w, pc, r, single, [&](uint64_t v) { single ? write_single(c, target, v) : write_double(c, target, v); });
}

/// fcmpu/fcmpo (and ps_cmp*): CR field and FPCC; SNaN is invalid (VXSNAN), and the ordered compare's NaN
/// operands are VXVC too (for an SNaN only while VE is clear).
inline void compare(Cpu& c, uint32_t w, uint32_t pc, uint64_t a, uint64_t b, bool ordered) {
  uint32_t cc;
  uint32_t exceptions = 0;
  if (is_nan(a) || is_nan(b)) {
    cc = fpcc_unordered;
    const bool snan = is_snan(a) || is_snan(b);
    if (snan) exceptions |= vxsnan;
    if (ordered && (!snan || !(c.fpscr & ve))) exceptions |= vxvc;
  } else {
    const double x = value(a), y = value(b);
    cc = x < y ? fpcc_less : x > y ? fpcc_greater : fpcc_equal;
  }
  c.fpscr = (c.fpscr & ~fpcc_bits) | cc << fprf_shift;
  c.cr[field::crfd(w)] = static_cast<uint8_t>(cc);
  raise(c, exceptions);
  finish(c, w, pc, exceptions != 0);
}

/// The reciprocal estimates with their exceptions (750CL UM fres/frsqrte): zero is a zero divide, an SNaN
/// invalid, a negative operand of frsqrte invalid (VXSQRT); FR and FI are cleared for those and for infinities
/// and NaNs, and left otherwise.
inline Result reciprocal_estimate(uint64_t x, bool square_root) {
  Result r;
  r.value = square_root ? estimate::reciprocal_sqrt(x) : estimate::reciprocal(x);
  if (is_zero(x)) r.exceptions = zx;
  else if (is_snan(x)) r.exceptions = vxsnan;
  else if (square_root && !is_nan(x) && (x >> 63)) r.exceptions = vxsqrt;
  return r;
}
inline void commit_estimate(Cpu& c, uint32_t w, uint32_t pc, uint64_t x, const Result& r, bool single, bool both_halves) {
  const bool special = is_zero(x) || is_nan(x) || is_inf(x) || r.exceptions;
  const uint32_t kept = c.fpscr & (fr | fi);
  const unsigned target = field::d(w);
  commit(c, w, pc, r, single, [&](uint64_t v) {
    if (both_halves) write_single(c, target, v);
    else write_double(c, target, v);
  });
  if (!special) c.fpscr = (c.fpscr & ~(fr | fi)) | kept;
}

/// fctiw/fctiwz: to a 32-bit integer in the low word, the high word 0xFFF80000 (0xFFF80001 for a negative
/// operand that converts to 0), FPRF untouched (750CL behaviour from Dolphin's hardware tests). NaN and
/// out-of-range operands are VXCVI and give 0x80000000 / 0x7FFFFFFF.
inline void to_integer(Cpu& c, uint32_t w, uint32_t pc, Mode mode) {
  const uint64_t x = c.fpr[field::b(w)].ps0;
  uint32_t exceptions = 0, result = 0;
  bool inexact = false, rounded_up = false;
  if (is_nan(x)) {
    exceptions = vxcvi | (is_snan(x) ? vxsnan : 0);
    result = 0x80000000u;
  } else {
    const double v = value(x);
    double rounded;
    if (mode == Mode::toward_zero) {
      rounded = std::trunc(v);
    } else if (mode == Mode::nearest) {
      rounded = std::nearbyint(v); // the host's own mode
    } else {
      HostMode host(mode);
      volatile double source = v;
      rounded = std::nearbyint(source);
    }
    if (rounded > 2147483647.0) {
      exceptions = vxcvi;
      result = 0x7FFFFFFFu;
    } else if (rounded < -2147483648.0) {
      exceptions = vxcvi;
      result = 0x80000000u;
    } else {
      result = static_cast<uint32_t>(static_cast<int32_t>(rounded));
      inexact = rounded != v;
      rounded_up = std::fabs(rounded) > std::fabs(v);
      if (inexact) exceptions = xx;
    }
  }
  const bool suppressed = (exceptions & vx_any) && (c.fpscr & ve);
  raise(c, exceptions);
  set_fr_fi(c, rounded_up && !(exceptions & vx_any), inexact && !(exceptions & vx_any));
  if (!suppressed) {
    uint64_t v = 0xFFF8000000000000ull | result;
    if (result == 0 && (x >> 63)) v |= 0x100000000ull;
    c.fpr[field::d(w)].ps0 = v;
  }
  finish(c, w, pc, exceptions != 0);
}

/// FP loads and stores: FP available, and a word-aligned address (750CL UM "Alignment Exception").
inline bool access_allowed(Cpu& c, uint32_t w, uint32_t pc, uint32_t ea) {
  return available(c, pc) && detail::word_aligned(c, w, pc, ea);
}
} // namespace fpu

// ---- FP loads: lfs converts the single exactly and fills both halves; lfd loads ps0 only ----
#define KILN_PPC_FP_LOAD(name, ea_expr, update, load_expr, write)                                              \
  KILN_PPC_OP(name) {                                                                                          \
    const uint32_t ea = ea_expr;                                                                               \
    if (!fpu::access_allowed(c, w, pc, ea)) return;                                                            \
    const uint64_t v = load_expr;                                                                              \
    fpu::write(c, field::d(w), v);                                                                             \
    if (update) c.gpr[field::a(w)] = ea;                                                                       \
  }
KILN_PPC_FP_LOAD(lfs, detail::ea_d(c, w), false, fpu::single_to_double(bus.read32(ea)), write_single)
KILN_PPC_FP_LOAD(lfsu, detail::ea_du(c, w), true, fpu::single_to_double(bus.read32(ea)), write_single)
KILN_PPC_FP_LOAD(lfsx, detail::ea_x(c, w), false, fpu::single_to_double(bus.read32(ea)), write_single)
KILN_PPC_FP_LOAD(lfsux, detail::ea_xu(c, w), true, fpu::single_to_double(bus.read32(ea)), write_single)
KILN_PPC_FP_LOAD(lfd, detail::ea_d(c, w), false, bus.read64(ea), write_double)
KILN_PPC_FP_LOAD(lfdu, detail::ea_du(c, w), true, bus.read64(ea), write_double)
KILN_PPC_FP_LOAD(lfdx, detail::ea_x(c, w), false, bus.read64(ea), write_double)
KILN_PPC_FP_LOAD(lfdux, detail::ea_xu(c, w), true, bus.read64(ea), write_double)
#undef KILN_PPC_FP_LOAD

// ---- FP stores: stfs converts ps0 by the PEM's truncating store conversion; stfiwx stores its low word ----
#define KILN_PPC_FP_STORE(name, ea_expr, update, store_stmt)                                                   \
  KILN_PPC_OP(name) {                                                                                          \
    const uint32_t ea = ea_expr;                                                                               \
    if (!fpu::access_allowed(c, w, pc, ea)) return;                                                            \
    const uint64_t v = c.fpr[field::d(w)].ps0;                                                                 \
    store_stmt;                                                                                                \
    if (update) c.gpr[field::a(w)] = ea;                                                                       \
  }
KILN_PPC_FP_STORE(stfs, detail::ea_d(c, w), false, bus.write32(ea, fpu::double_to_single_bits(v)))
KILN_PPC_FP_STORE(stfsu, detail::ea_du(c, w), true, bus.write32(ea, fpu::double_to_single_bits(v)))
KILN_PPC_FP_STORE(stfsx, detail::ea_x(c, w), false, bus.write32(ea, fpu::double_to_single_bits(v)))
KILN_PPC_FP_STORE(stfsux, detail::ea_xu(c, w), true, bus.write32(ea, fpu::double_to_single_bits(v)))
KILN_PPC_FP_STORE(stfd, detail::ea_d(c, w), false, bus.write64(ea, v))
KILN_PPC_FP_STORE(stfdu, detail::ea_du(c, w), true, bus.write64(ea, v))
KILN_PPC_FP_STORE(stfdx, detail::ea_x(c, w), false, bus.write64(ea, v))
KILN_PPC_FP_STORE(stfdux, detail::ea_xu(c, w), true, bus.write64(ea, v))
KILN_PPC_FP_STORE(stfiwx, detail::ea_x(c, w), false, bus.write32(ea, static_cast<uint32_t>(v)))
#undef KILN_PPC_FP_STORE

// ---- FP arithmetic ----
#define KILN_PPC_FP_ARITH(name, op, single, negate)                                                            \
  KILN_PPC_OP(name) {                                                                                          \
    if (fpu::available(c, pc)) fpu::scalar(c, w, pc, fpu::Arith::op, single, negate);                          \
  }
KILN_PPC_FP_ARITH(fadd, add, false, false)
KILN_PPC_FP_ARITH(fadds, add, true, false)
KILN_PPC_FP_ARITH(fsub, sub, false, false)
KILN_PPC_FP_ARITH(fsubs, sub, true, false)
KILN_PPC_FP_ARITH(fmul, mul, false, false)
KILN_PPC_FP_ARITH(fmuls, mul, true, false)
KILN_PPC_FP_ARITH(fdiv, div, false, false)
KILN_PPC_FP_ARITH(fdivs, div, true, false)
KILN_PPC_FP_ARITH(fmadd, madd, false, false)
KILN_PPC_FP_ARITH(fmadds, madd, true, false)
KILN_PPC_FP_ARITH(fmsub, msub, false, false)
KILN_PPC_FP_ARITH(fmsubs, msub, true, false)
KILN_PPC_FP_ARITH(fnmadd, madd, false, true)
KILN_PPC_FP_ARITH(fnmadds, madd, true, true)
KILN_PPC_FP_ARITH(fnmsub, msub, false, true)
KILN_PPC_FP_ARITH(fnmsubs, msub, true, true)
#undef KILN_PPC_FP_ARITH

/// fres: the 750CL's single-precision reciprocal estimate (estimates.h), into both halves.
KILN_PPC_OP(fres) {
  if (!fpu::available(c, pc)) return;
  const uint64_t x = c.fpr[field::b(w)].ps0;
  fpu::commit_estimate(c, w, pc, x, fpu::reciprocal_estimate(x, false), true, true);
}
/// frsqrte: the 750CL's double-precision reciprocal square root estimate, into ps0.
KILN_PPC_OP(frsqrte) {
  if (!fpu::available(c, pc)) return;
  const uint64_t x = c.fpr[field::b(w)].ps0;
  fpu::commit_estimate(c, w, pc, x, fpu::reciprocal_estimate(x, true), false, false);
}
/// frsp: ps0 rounded to single (an SNaN is invalid; a NaN is quieted and truncated), into both halves.
KILN_PPC_OP(frsp) {
  if (!fpu::available(c, pc)) return;
  const uint64_t x = c.fpr[field::b(w)].ps0;
  fpu::Result r;
  if (fpu::is_nan(x)) {
    r.value = fpu::single_nan(x | fpu::quiet_bit);
    r.exceptions = fpu::is_snan(x) ? fpu::vxsnan : 0;
  } else {
    r = fpu::from_rounded(c.fpscr, fpu::round_to_single(c.fpscr, fpu::value(x)), true);
  }
  const unsigned target = field::d(w);
  fpu::commit(c, w, pc, r, true, [&](uint64_t v) { fpu::write_single(c, target, v); });
}
KILN_PPC_OP(fctiw) {
  if (fpu::available(c, pc)) fpu::to_integer(c, w, pc, fpu::rounding_mode(c.fpscr));
}
KILN_PPC_OP(fctiwz) {
  if (fpu::available(c, pc)) fpu::to_integer(c, w, pc, fpu::Mode::toward_zero);
}
/// fsel: frD = frA >= 0 ? frC : frB (a NaN selects frB, -0 counts as >= 0); no FPSCR change.
KILN_PPC_OP(fsel) {
  if (!fpu::available(c, pc)) return;
  const uint64_t a = c.fpr[field::a(w)].ps0;
  const bool select_c = !fpu::is_nan(a) && (fpu::is_zero(a) || !(a >> 63));
  c.fpr[field::d(w)].ps0 = select_c ? c.fpr[field::c(w)].ps0 : c.fpr[field::b(w)].ps0;
  fpu::finish(c, w, pc, false);
}
// Sign moves: bit operations on ps0, no FPSCR change (with Rc, CR1 still copies FPSCR's summary bits).
KILN_PPC_OP(fabs) {
  if (!fpu::available(c, pc)) return;
  c.fpr[field::d(w)].ps0 = c.fpr[field::b(w)].ps0 & ~fpu::sign_bit;
  fpu::finish(c, w, pc, false);
}
KILN_PPC_OP(fnabs) {
  if (!fpu::available(c, pc)) return;
  c.fpr[field::d(w)].ps0 = c.fpr[field::b(w)].ps0 | fpu::sign_bit;
  fpu::finish(c, w, pc, false);
}
KILN_PPC_OP(fneg) {
  if (!fpu::available(c, pc)) return;
  c.fpr[field::d(w)].ps0 = c.fpr[field::b(w)].ps0 ^ fpu::sign_bit;
  fpu::finish(c, w, pc, false);
}
KILN_PPC_OP(fmr) {
  if (!fpu::available(c, pc)) return;
  c.fpr[field::d(w)].ps0 = c.fpr[field::b(w)].ps0;
  fpu::finish(c, w, pc, false);
}
KILN_PPC_OP(fcmpu) {
  if (fpu::available(c, pc)) fpu::compare(c, w, pc, c.fpr[field::a(w)].ps0, c.fpr[field::b(w)].ps0, false);
}
KILN_PPC_OP(fcmpo) {
  if (fpu::available(c, pc)) fpu::compare(c, w, pc, c.fpr[field::a(w)].ps0, c.fpr[field::b(w)].ps0, true);
}

// ---- FPSCR ----
/// mffs: the FPSCR in the low word; the high word reads 0xFFF80000 on the 750CL (Dolphin's mffsx).
KILN_PPC_OP(mffs) {
  if (!fpu::available(c, pc)) return;
  c.fpr[field::d(w)].ps0 = 0xFFF8000000000000ull | c.fpscr;
  fpu::finish(c, w, pc, false);
}
namespace fpu {
/// After an explicit FPSCR write: FEX and VX are recomputed, never set by the write itself (PEM mtfsf).
inline void written(Cpu& c, uint32_t w, uint32_t pc) {
  c.fpscr &= ~reserved;
  update_summaries(c);
  finish(c, w, pc, true);
}
} // namespace fpu
/// mtfsf: the fields FM selects from frB's low word (FX copied, not implied).
KILN_PPC_OP(mtfsf) {
  if (!fpu::available(c, pc)) return;
  uint32_t mask = 0;
  for (unsigned i = 0; i < 8; ++i)
    if (field::fm(w) & (0x80u >> i)) mask |= 0xF0000000u >> (4 * i);
  c.fpscr = (c.fpscr & ~mask) | (static_cast<uint32_t>(c.fpr[field::b(w)].ps0) & mask);
  fpu::written(c, w, pc);
}
KILN_PPC_OP(mtfsfi) {
  if (!fpu::available(c, pc)) return;
  const unsigned shift = 28 - 4 * field::crfd(w);
  c.fpscr = (c.fpscr & ~(0xFu << shift)) | field::fpscr_imm(w) << shift;
  fpu::written(c, w, pc);
}
/// mtfsb0/mtfsb1: one FPSCR bit (MSB-0 numbering in the word); FEX and VX cannot be set or cleared this way.
KILN_PPC_OP(mtfsb0) {
  if (!fpu::available(c, pc)) return;
  c.fpscr &= ~(0x80000000u >> field::d(w));
  fpu::written(c, w, pc);
}
KILN_PPC_OP(mtfsb1) {
  if (!fpu::available(c, pc)) return;
  const uint32_t bit = 0x80000000u >> field::d(w);
  if (bit & fpu::exception_bits & ~c.fpscr) c.fpscr |= fpu::fx; // an exception bit set: FX too
  c.fpscr |= bit;
  fpu::written(c, w, pc);
}
/// mcrfs: an FPSCR field to a CR field; the exception bits copied are cleared (PEM mcrfs).
KILN_PPC_OP(mcrfs) {
  if (!fpu::available(c, pc)) return;
  const unsigned shift = 28 - 4 * field::crfs(w);
  c.cr[field::crfd(w)] = static_cast<uint8_t>((c.fpscr >> shift) & 15);
  c.fpscr &= ~((0xFu << shift) & (fpu::fx | fpu::exception_bits));
  fpu::update_summaries(c);
}

} // namespace kiln::ppc
