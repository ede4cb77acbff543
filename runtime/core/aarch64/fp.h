#pragma once
// AArch64 floating-point control and status on the host's floating-point environment. FPCR.RMode is the host's
// rounding mode and FPSR's cumulative IEEE flags (IOC DZC OFC UFC IXC) are the host's exception flags, so host
// arithmetic rounds and raises them as the guest's would; the generated project is compiled with -frounding-math
// so the host compiler neither folds nor moves rounding-dependent operations. Conversions to integer and
// compares, where x86 and AArch64 differ, raise their flags here explicitly.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "runtime/core/aarch64/ops.h" // fp_is_signaling
#include "runtime/core/aarch64/cpu.h"

namespace kiln::rt {

// The bits qemu-aarch64 keeps (measured: MSR of all ones reads back 0x07ff0000 and 0xf800009f). The trap enables
// (IOE..IDE) read as zero: no trapping, as on most cores, so glibc's feenableexcept reports failure.
constexpr uint64_t fpcr_writable = 0x07ff0000;
constexpr uint64_t fpsr_writable = 0xf800009f;
constexpr uint64_t fpcr_rmode_shift = 22, fpcr_fz = 1u << 24;
constexpr uint64_t fpsr_ioc = 1, fpsr_dzc = 2, fpsr_ofc = 4, fpsr_ufc = 8, fpsr_ixc = 16, fpsr_ieee_flags = 31;

inline int fp_host_exceptions(uint64_t fpsr) {
  // (int) casts: glibc's FE_* are enumerators, which -Wextra will not mix with 0 in a conditional.
  return ((fpsr & fpsr_ioc) ? int{FE_INVALID} : 0) | ((fpsr & fpsr_dzc) ? int{FE_DIVBYZERO} : 0) | ((fpsr & fpsr_ofc) ? int{FE_OVERFLOW} : 0) |
         ((fpsr & fpsr_ufc) ? int{FE_UNDERFLOW} : 0) | ((fpsr & fpsr_ixc) ? int{FE_INEXACT} : 0);
}
inline uint64_t fp_guest_flags(int host) {
  return ((host & FE_INVALID) ? fpsr_ioc : 0u) | ((host & FE_DIVBYZERO) ? fpsr_dzc : 0u) | ((host & FE_OVERFLOW) ? fpsr_ofc : 0u) |
         ((host & FE_UNDERFLOW) ? fpsr_ufc : 0u) | ((host & FE_INEXACT) ? fpsr_ixc : 0u);
}

/// The host state a guest starts with: FPCR = 0 (round to nearest, no flush to zero), no flags raised.
inline void fp_reset_host() {
  std::fesetround(FE_TONEAREST);
  std::feclearexcept(FE_ALL_EXCEPT);
}

/// MSR FPCR: RMode becomes the host rounding mode; FZ the host's flush-to-zero and denormals-are-zero (the
/// values agree; x86 flags a flushed result Underflow and Inexact where AArch64 raises Underflow alone).
inline void fp_write_fpcr(Cpu* c, uint64_t value) {
  c->fpcr = value & fpcr_writable;
  static constexpr int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  std::fesetround(modes[(c->fpcr >> fpcr_rmode_shift) & 3]);
#if defined(__SSE2__)
  constexpr unsigned flush_and_denormals_zero = 0x8040;
  const unsigned csr = _mm_getcsr();
  _mm_setcsr((c->fpcr & fpcr_fz) ? csr | flush_and_denormals_zero : csr & ~flush_and_denormals_zero);
#endif
}

/// MRS FPSR: the host's cumulative flags plus the bits kept in the CPU (QC, IDC, NZCV).
inline uint64_t fp_read_fpsr(const Cpu* c) { return c->fpsr | fp_guest_flags(std::fetestexcept(FE_ALL_EXCEPT)); }

/// MSR FPSR: sets exactly the written flags on the host.
inline void fp_write_fpsr(Cpu* c, uint64_t value) {
  value &= fpsr_writable;
  c->fpsr = value & ~fpsr_ieee_flags;
  std::feclearexcept(FE_ALL_EXCEPT);
  if (value & fpsr_ieee_flags) std::feraiseexcept(fp_host_exceptions(value));
}

/// Raising is the rare path: kept out of line so the checks around it stay small enough to inline.
[[gnu::cold, gnu::noinline]] inline void fp_raise(int host_exceptions) { std::feraiseexcept(host_exceptions); }

/// FCMP: NZCV as Arm's FPCompare; Invalid for a signalling NaN (FCMP) or any NaN (FCMPE, signalling compare).
template <typename F>
[[gnu::always_inline]] inline void fp_compare_flags(F a, F b, bool signaling, uint32_t& n, uint32_t& z, uint32_t& c, uint32_t& v) {
  if (std::isnan(a) || std::isnan(b)) [[unlikely]] {
    if (signaling || fp_is_signaling(a) || fp_is_signaling(b)) fp_raise(FE_INVALID);
    n = 0; z = 0; c = 1; v = 1;
  } else if (a == b) { n = 0; z = 1; c = 1; v = 0; }
  else if (a < b) { n = 1; z = 0; c = 0; v = 0; }
  else { n = 0; z = 0; c = 1; v = 0; }
}

/// Ties to even whatever the rounding mode (FRINTN, FCVTN*).
template <typename F>
inline F fp_round_even(F value) {
  if constexpr (std::is_same_v<F, float>) return __builtin_roundevenf(value);
  else return __builtin_roundeven(value);
}

/// FCVT[NAMPZ][SU] and FCVTZ with fixed point: `rounded` is `value` already rounded to an integer. Arm's FPToFixed:
/// NaN gives 0 and out-of-range values saturate, both raising Invalid alone; otherwise Inexact when rounding
/// changed the value. (The host's own conversion saturates differently and flags differently, so it is not used.)
template <typename I, typename F>
[[gnu::always_inline]] inline I fp_convert_to_int(F rounded, F value) {
  constexpr int bits = sizeof(I) * 8;
  const F lo = std::is_signed_v<I> ? -std::ldexp(F(1), bits - 1) : F(0);
  const F hi = std::ldexp(F(1), std::is_signed_v<I> ? bits - 1 : bits);
  if (std::isnan(value)) [[unlikely]] { fp_raise(FE_INVALID); return 0; }
  if (rounded < lo) [[unlikely]] { fp_raise(FE_INVALID); return std::numeric_limits<I>::min(); }
  if (rounded >= hi) [[unlikely]] { fp_raise(FE_INVALID); return std::numeric_limits<I>::max(); }
  if (rounded != value) fp_raise(FE_INEXACT);
  return static_cast<I>(rounded);
}

} // namespace kiln::rt
