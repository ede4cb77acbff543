#pragma once
// AdvSIMD (NEON) lane semantics for generated code, on SIMDe's NEON intrinsics: recompiler/isa/aarch64/
// semantics/simd.cpp emits calls like `kiln::rt::neon::add<uint8_t, 16>(v1, v2)`, where E is the lane type
// (signed for the signed instructions) and N the lane count (N * sizeof(E) == 8 zeroes the upper half).
// A helper is written in plain C++ only where SIMDe 0.7.4 has no intrinsic with the exact AArch64 result on
// x86; each such place says why. docs/recompiler.md ("NEON via SIMDe") lists them with the measurements.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include <simde/arm/neon.h>

#include "runtime/core/aarch64/cpu.h"

namespace kiln::rt::neon {

template <typename E, int N> struct Lanes;
#define KILN_NEON_LANES(E, N, T)                                                                                   \
  template <> struct Lanes<E, N> {                                                                                 \
    using type = simde_##T##_t;                                                                                    \
    static_assert(sizeof(type) == N * sizeof(E));                                                                  \
  };
KILN_NEON_LANES(uint8_t, 8, uint8x8) KILN_NEON_LANES(uint8_t, 16, uint8x16)
KILN_NEON_LANES(int8_t, 8, int8x8) KILN_NEON_LANES(int8_t, 16, int8x16)
KILN_NEON_LANES(uint16_t, 4, uint16x4) KILN_NEON_LANES(uint16_t, 8, uint16x8)
KILN_NEON_LANES(int16_t, 4, int16x4) KILN_NEON_LANES(int16_t, 8, int16x8)
KILN_NEON_LANES(uint32_t, 2, uint32x2) KILN_NEON_LANES(uint32_t, 4, uint32x4)
KILN_NEON_LANES(int32_t, 2, int32x2) KILN_NEON_LANES(int32_t, 4, int32x4)
KILN_NEON_LANES(uint64_t, 1, uint64x1) KILN_NEON_LANES(uint64_t, 2, uint64x2)
KILN_NEON_LANES(int64_t, 1, int64x1) KILN_NEON_LANES(int64_t, 2, int64x2)
KILN_NEON_LANES(float, 2, float32x2) KILN_NEON_LANES(float, 4, float32x4)
KILN_NEON_LANES(double, 1, float64x1) KILN_NEON_LANES(double, 2, float64x2)
#undef KILN_NEON_LANES

template <typename E, int N> using vec = typename Lanes<E, N>::type;
/// The low N lanes of a register (or of its upper half: `high`) as SIMDe's vector type.
template <typename E, int N> inline vec<E, N> get(const V128& v, bool high = false) {
  vec<E, N> t;
  std::memcpy(&t, reinterpret_cast<const uint8_t*>(&v) + (high ? 8 : 0), sizeof t);
  return t;
}
/// A SIMDe vector or scalar back into a register; anything narrower than 16 bytes zeroes the rest.
template <typename T> inline V128 put(const T& t) {
  static_assert(sizeof(T) <= 16);
  V128 r{};
  std::memcpy(&r, &t, sizeof t);
  return r;
}
/// A 64-bit result into the upper half of `d` (the "2" forms of the narrowing instructions).
template <typename T> inline V128 put_high(V128 d, const T& t) {
  static_assert(sizeof(T) == 8);
  std::memcpy(reinterpret_cast<uint8_t*>(&d) + 8, &t, 8);
  return d;
}

// ---- overloads of one name over SIMDe's per-type intrinsics ----
// List macros: X(q, suffix, type, name, intrinsic) for every lane shape the AArch64 instruction has.
#define KILN_NEON_BHS(X, ...)                                                                                        \
  X(, u8, uint8x8, __VA_ARGS__) X(q, u8, uint8x16, __VA_ARGS__) X(, s8, int8x8, __VA_ARGS__) X(q, s8, int8x16, __VA_ARGS__) \
  X(, u16, uint16x4, __VA_ARGS__) X(q, u16, uint16x8, __VA_ARGS__) X(, s16, int16x4, __VA_ARGS__)                  \
  X(q, s16, int16x8, __VA_ARGS__) X(, u32, uint32x2, __VA_ARGS__) X(q, u32, uint32x4, __VA_ARGS__)                 \
  X(, s32, int32x2, __VA_ARGS__) X(q, s32, int32x4, __VA_ARGS__)
#define KILN_NEON_D(X, ...)                                                                                          \
  X(, u64, uint64x1, __VA_ARGS__) X(q, u64, uint64x2, __VA_ARGS__) X(, s64, int64x1, __VA_ARGS__) X(q, s64, int64x2, __VA_ARGS__)
#define KILN_NEON_BHSD(X, ...) KILN_NEON_BHS(X, __VA_ARGS__) KILN_NEON_D(X, __VA_ARGS__)
#define KILN_NEON_SIGNED(X, ...)                                                                                    \
  X(, s8, int8x8, __VA_ARGS__) X(q, s8, int8x16, __VA_ARGS__) X(, s16, int16x4, __VA_ARGS__) X(q, s16, int16x8, __VA_ARGS__) \
  X(, s32, int32x2, __VA_ARGS__) X(q, s32, int32x4, __VA_ARGS__) X(, s64, int64x1, __VA_ARGS__) X(q, s64, int64x2, __VA_ARGS__)
#define KILN_NEON_Q64(X, ...) X(q, u64, uint64x2, __VA_ARGS__) X(q, s64, int64x2, __VA_ARGS__)
#define KILN_NEON_B(X, ...) X(, u8, uint8x8, __VA_ARGS__) X(q, u8, uint8x16, __VA_ARGS__)
#define KILN_NEON_F(X, ...) X(, f32, float32x2, __VA_ARGS__) X(q, f32, float32x4, __VA_ARGS__) X(q, f64, float64x2, __VA_ARGS__)

#define KILN_NEON_FN1(q, sfx, T, name, op) inline auto name(simde_##T##_t a) { return simde_v##op##q##_##sfx(a); }
#define KILN_NEON_FN2(q, sfx, T, name, op) inline auto name(simde_##T##_t a, simde_##T##_t b) { return simde_v##op##q##_##sfx(a, b); }
#define KILN_NEON_FN3(q, sfx, T, name, op)                                                                           \
  inline auto name(simde_##T##_t a, simde_##T##_t b, simde_##T##_t c) { return simde_v##op##q##_##sfx(a, b, c); }
/// Immediate forms: the amount is a template argument, so SIMDe sees the constant its x86 paths need.
#define KILN_NEON_FN1N(q, sfx, T, name, op)                                                                          \
  template <int S> inline auto name(simde_##T##_t a) { return simde_v##op##q##_n_##sfx(a, S); }
#define KILN_NEON_FN2N(q, sfx, T, name, op)                                                                          \
  template <int S> inline auto name(simde_##T##_t a, simde_##T##_t b) { return simde_v##op##q##_n_##sfx(a, b, S); }
#define KILN_NEON_REDUCE(q, sfx, T, name, op) inline auto name(simde_##T##_t a) { return simde_v##op##v##q##_##sfx(a); }

namespace op {
KILN_NEON_BHSD(KILN_NEON_FN2, add, add) KILN_NEON_BHSD(KILN_NEON_FN2, sub, sub)
KILN_NEON_BHS(KILN_NEON_FN2, mul, mul)
KILN_NEON_BHSD(KILN_NEON_FN2, bit_and, and) KILN_NEON_BHSD(KILN_NEON_FN2, bit_or, orr)
KILN_NEON_BHSD(KILN_NEON_FN2, bit_xor, eor) KILN_NEON_BHSD(KILN_NEON_FN2, bit_clear, bic)
KILN_NEON_BHSD(KILN_NEON_FN2, or_not, orn)
KILN_NEON_BHSD(KILN_NEON_FN2, equal, ceq) KILN_NEON_BHSD(KILN_NEON_FN2, test, tst)
KILN_NEON_BHSD(KILN_NEON_FN2, greater, cgt) KILN_NEON_BHSD(KILN_NEON_FN2, greater_equal, cge)
KILN_NEON_BHS(KILN_NEON_FN2, max, max) KILN_NEON_BHS(KILN_NEON_FN2, min, min)
KILN_NEON_BHS(KILN_NEON_FN2, abd, abd)
KILN_NEON_BHSD(KILN_NEON_FN2, sat_add, qadd) KILN_NEON_BHSD(KILN_NEON_FN2, sat_sub, qsub)
KILN_NEON_BHS(KILN_NEON_FN2, halving_add, hadd) KILN_NEON_BHS(KILN_NEON_FN2, rounding_halving_add, rhadd)
KILN_NEON_BHSD(KILN_NEON_FN1, equal_zero, ceqz) KILN_NEON_SIGNED(KILN_NEON_FN1, greater_equal_zero, cgez)
KILN_NEON_SIGNED(KILN_NEON_FN1, greater_zero, cgtz) KILN_NEON_SIGNED(KILN_NEON_FN1, less_equal_zero, clez)
KILN_NEON_SIGNED(KILN_NEON_FN1, less_zero, cltz)
KILN_NEON_BHS(KILN_NEON_FN1, bit_not, mvn) KILN_NEON_SIGNED(KILN_NEON_FN1, neg, neg) KILN_NEON_SIGNED(KILN_NEON_FN1, abs, abs)
KILN_NEON_SIGNED(KILN_NEON_FN1, sat_abs, qabs) KILN_NEON_SIGNED(KILN_NEON_FN1, sat_neg, qneg)
KILN_NEON_BHS(KILN_NEON_FN1, clz, clz)
KILN_NEON_B(KILN_NEON_FN1, cnt, cnt) KILN_NEON_B(KILN_NEON_FN1, rbit, rbit)
KILN_NEON_F(KILN_NEON_FN1, neg, neg) KILN_NEON_F(KILN_NEON_FN1, abs, abs)
KILN_NEON_BHS(KILN_NEON_FN2, pairwise_add, padd) KILN_NEON_Q64(KILN_NEON_FN2, pairwise_add, padd)
KILN_NEON_BHS(KILN_NEON_FN2, pairwise_max, pmax) KILN_NEON_BHS(KILN_NEON_FN2, pairwise_min, pmin)
KILN_NEON_BHS(KILN_NEON_REDUCE, add_across, add) KILN_NEON_BHS(KILN_NEON_REDUCE, max_across, max)
KILN_NEON_BHS(KILN_NEON_REDUCE, min_across, min)
KILN_NEON_BHS(KILN_NEON_FN3, mla, mla) KILN_NEON_BHS(KILN_NEON_FN3, mls, mls)
KILN_NEON_B(KILN_NEON_FN3, select, bsl)
KILN_NEON_BHS(KILN_NEON_FN2, zip1, zip1) KILN_NEON_Q64(KILN_NEON_FN2, zip1, zip1) KILN_NEON_BHS(KILN_NEON_FN2, zip2, zip2) KILN_NEON_Q64(KILN_NEON_FN2, zip2, zip2)
KILN_NEON_BHS(KILN_NEON_FN2, uzp1, uzp1) KILN_NEON_Q64(KILN_NEON_FN2, uzp1, uzp1) KILN_NEON_BHS(KILN_NEON_FN2, uzp2, uzp2) KILN_NEON_Q64(KILN_NEON_FN2, uzp2, uzp2)
KILN_NEON_BHS(KILN_NEON_FN2, trn1, trn1) KILN_NEON_Q64(KILN_NEON_FN2, trn1, trn1) KILN_NEON_BHS(KILN_NEON_FN2, trn2, trn2) KILN_NEON_Q64(KILN_NEON_FN2, trn2, trn2)
KILN_NEON_BHS(KILN_NEON_FN1, rev64, rev64)
KILN_NEON_BHSD(KILN_NEON_FN1N, shl_n, shl) KILN_NEON_BHSD(KILN_NEON_FN1N, shr_n, shr)
KILN_NEON_BHSD(KILN_NEON_FN1N, rounding_shr_n, rshr)
KILN_NEON_BHSD(KILN_NEON_FN2N, sra_n, sra)
template <int S> inline auto ext_n(simde_uint8x8_t a, simde_uint8x8_t b) { return simde_vext_u8(a, b, S); }
template <int S> inline auto ext_n(simde_uint8x16_t a, simde_uint8x16_t b) { return simde_vextq_u8(a, b, S); }
// The sign-agnostic forms whose one lane shape SIMDe spells only for these types.
inline auto rev32(simde_uint8x8_t a) { return simde_vrev32_u8(a); }
inline auto rev32(simde_uint8x16_t a) { return simde_vrev32q_u8(a); }
inline auto rev32(simde_uint16x4_t a) { return simde_vrev32_u16(a); }
inline auto rev32(simde_uint16x8_t a) { return simde_vrev32q_u16(a); }
inline auto rev16(simde_uint8x8_t a) { return simde_vrev16_u8(a); }
inline auto rev16(simde_uint8x16_t a) { return simde_vrev16q_u8(a); }
// Register shifts: the shift of each lane is the signed low byte of the same lane of b.
#define KILN_NEON_SHIFT(q, sfx, T, ST, name, intrinsic)                                                              \
  inline auto name(simde_##T##_t a, simde_##ST##_t b) { return simde_v##intrinsic##q##_##sfx(a, b); }
#define KILN_NEON_SHIFTS(name, intrinsic)                                                                            \
  KILN_NEON_SHIFT(, u8, uint8x8, int8x8, name, intrinsic) KILN_NEON_SHIFT(q, u8, uint8x16, int8x16, name, intrinsic) \
  KILN_NEON_SHIFT(, s8, int8x8, int8x8, name, intrinsic) KILN_NEON_SHIFT(q, s8, int8x16, int8x16, name, intrinsic)   \
  KILN_NEON_SHIFT(, u16, uint16x4, int16x4, name, intrinsic) KILN_NEON_SHIFT(q, u16, uint16x8, int16x8, name, intrinsic) \
  KILN_NEON_SHIFT(, s16, int16x4, int16x4, name, intrinsic) KILN_NEON_SHIFT(q, s16, int16x8, int16x8, name, intrinsic) \
  KILN_NEON_SHIFT(, u32, uint32x2, int32x2, name, intrinsic) KILN_NEON_SHIFT(q, u32, uint32x4, int32x4, name, intrinsic) \
  KILN_NEON_SHIFT(, s32, int32x2, int32x2, name, intrinsic) KILN_NEON_SHIFT(q, s32, int32x4, int32x4, name, intrinsic) \
  KILN_NEON_SHIFT(, u64, uint64x1, int64x1, name, intrinsic) KILN_NEON_SHIFT(q, u64, uint64x2, int64x2, name, intrinsic) \
  KILN_NEON_SHIFT(, s64, int64x1, int64x1, name, intrinsic) KILN_NEON_SHIFT(q, s64, int64x2, int64x2, name, intrinsic)
KILN_NEON_SHIFTS(shl, shl) KILN_NEON_SHIFTS(rounding_shl, rshl)
// Narrowing (wide q vector -> 64-bit result) and widening (64-bit -> wide q vector), by wide/narrow type.
#define KILN_NEON_WIDE(X, ...)                                                                                       \
  X(u16, uint16x8, u8, uint8x8, __VA_ARGS__) X(s16, int16x8, s8, int8x8, __VA_ARGS__) X(u32, uint32x4, u16, uint16x4, __VA_ARGS__) \
  X(s32, int32x4, s16, int16x4, __VA_ARGS__) X(u64, uint64x2, u32, uint32x2, __VA_ARGS__) X(s64, int64x2, s32, int32x2, __VA_ARGS__)
#define KILN_NEON_NARROW(ws, W, ns, NT, name, intrinsic) inline auto name(simde_##W##_t a) { return simde_v##intrinsic##_##ws(a); }
#define KILN_NEON_NARROW_N(ws, W, ns, NT, name, intrinsic)                                                          \
  template <int S> inline auto name(simde_##W##_t a) { return simde_v##intrinsic##_n_##ws(a, S); }
#define KILN_NEON_WIDEN_N(ws, W, ns, NT, name, intrinsic)                                                           \
  template <int S> inline auto name(simde_##NT##_t a) { return simde_v##intrinsic##_n_##ns(a, S); }
#define KILN_NEON_LONG2(ws, W, ns, NT, name, intrinsic)                                                             \
  inline auto name(simde_##NT##_t a, simde_##NT##_t b) { return simde_v##intrinsic##_##ns(a, b); }
#define KILN_NEON_WIDE2(ws, W, ns, NT, name, intrinsic)                                                             \
  inline auto name(simde_##W##_t a, simde_##NT##_t b) { return simde_v##intrinsic##_##ns(a, b); }
#define KILN_NEON_LONG3(ws, W, ns, NT, name, intrinsic)                                                             \
  inline auto name(simde_##W##_t a, simde_##NT##_t b, simde_##NT##_t c) { return simde_v##intrinsic##_##ns(a, b, c); }
KILN_NEON_WIDE(KILN_NEON_NARROW, extract_narrow, movn) KILN_NEON_WIDE(KILN_NEON_NARROW, sat_narrow, qmovn)
KILN_NEON_WIDE(KILN_NEON_NARROW_N, shr_narrow_n, shrn)
KILN_NEON_WIDE(KILN_NEON_WIDEN_N, shl_long_n, shll)
KILN_NEON_WIDE(KILN_NEON_LONG2, mul_long, mull) KILN_NEON_WIDE(KILN_NEON_LONG2, add_long, addl)
KILN_NEON_WIDE(KILN_NEON_LONG2, sub_long, subl) KILN_NEON_WIDE(KILN_NEON_WIDE2, add_wide, addw)
KILN_NEON_WIDE(KILN_NEON_WIDE2, sub_wide, subw) KILN_NEON_WIDE(KILN_NEON_LONG3, mla_long, mlal)
KILN_NEON_WIDE(KILN_NEON_LONG3, mls_long, mlsl)
inline auto sat_narrow_unsigned(simde_int16x8_t a) { return simde_vqmovun_s16(a); }
inline auto sat_narrow_unsigned(simde_int32x4_t a) { return simde_vqmovun_s32(a); }
inline auto sat_narrow_unsigned(simde_int64x2_t a) { return simde_vqmovun_s64(a); }
// Floating point: what SIMDe computes exactly as AArch64 does apart from NaN results (fixed up below).
KILN_NEON_F(KILN_NEON_FN2, add, add) KILN_NEON_F(KILN_NEON_FN2, sub, sub) KILN_NEON_F(KILN_NEON_FN2, mul, mul)
KILN_NEON_F(KILN_NEON_FN2, pairwise_add, padd) KILN_NEON_F(KILN_NEON_FN2, equal, ceq)
#if defined(__FMA__)
KILN_NEON_F(KILN_NEON_FN3, fused_mla, fma)
#endif
inline auto to_signed(simde_float32x4_t a) { return simde_vcvtq_s32_f32(a); }
inline auto to_signed(simde_float64x2_t a) { return simde_vcvtq_s64_f64(a); }
inline auto to_float(simde_int32x4_t a) { return simde_vcvtq_f32_s32(a); }
inline auto to_float(simde_int64x2_t a) { return simde_vcvtq_f64_s64(a); }
inline auto to_float(simde_uint32x4_t a) { return simde_vcvtq_f32_u32(a); }
inline auto to_float(simde_uint64x2_t a) { return simde_vcvtq_f64_u64(a); }
} // namespace op

#undef KILN_NEON_FN1
#undef KILN_NEON_FN2
#undef KILN_NEON_FN3
#undef KILN_NEON_FN1N
#undef KILN_NEON_FN2N
#undef KILN_NEON_REDUCE
#undef KILN_NEON_SHIFT
#undef KILN_NEON_SHIFTS
#undef KILN_NEON_NARROW
#undef KILN_NEON_NARROW_N
#undef KILN_NEON_WIDEN_N
#undef KILN_NEON_LONG2
#undef KILN_NEON_WIDE2
#undef KILN_NEON_LONG3
#undef KILN_NEON_BHS
#undef KILN_NEON_D
#undef KILN_NEON_BHSD
#undef KILN_NEON_B
#undef KILN_NEON_SIGNED
#undef KILN_NEON_Q64
#undef KILN_NEON_F
#undef KILN_NEON_WIDE

// ---- the helpers generated code calls ----
#define KILN_NEON_UNARY(name) \
  template <typename E, int N> inline V128 name(const V128& a) { return put(op::name(get<E, N>(a))); }
#define KILN_NEON_BINARY(name) \
  template <typename E, int N> inline V128 name(const V128& a, const V128& b) { return put(op::name(get<E, N>(a), get<E, N>(b))); }
#define KILN_NEON_TERNARY(name)                                                                                     \
  template <typename E, int N> inline V128 name(const V128& a, const V128& b, const V128& c) {                       \
    return put(op::name(get<E, N>(a), get<E, N>(b), get<E, N>(c)));                                                 \
  }
KILN_NEON_BINARY(add) KILN_NEON_BINARY(sub) KILN_NEON_BINARY(mul)
KILN_NEON_BINARY(bit_and) KILN_NEON_BINARY(bit_or) KILN_NEON_BINARY(bit_xor) KILN_NEON_BINARY(bit_clear) KILN_NEON_BINARY(or_not)
KILN_NEON_BINARY(equal) KILN_NEON_BINARY(test) KILN_NEON_BINARY(greater) KILN_NEON_BINARY(greater_equal)
KILN_NEON_BINARY(max) KILN_NEON_BINARY(min) KILN_NEON_BINARY(abd)
KILN_NEON_BINARY(sat_add) KILN_NEON_BINARY(sat_sub) KILN_NEON_BINARY(halving_add) KILN_NEON_BINARY(rounding_halving_add)
KILN_NEON_BINARY(pairwise_max) KILN_NEON_BINARY(pairwise_min)
KILN_NEON_BINARY(zip1) KILN_NEON_BINARY(zip2) KILN_NEON_BINARY(uzp1) KILN_NEON_BINARY(uzp2) KILN_NEON_BINARY(trn1) KILN_NEON_BINARY(trn2)
KILN_NEON_UNARY(equal_zero) KILN_NEON_UNARY(greater_equal_zero) KILN_NEON_UNARY(greater_zero) KILN_NEON_UNARY(less_equal_zero)
KILN_NEON_UNARY(less_zero) KILN_NEON_UNARY(bit_not) KILN_NEON_UNARY(abs) KILN_NEON_UNARY(sat_abs)
KILN_NEON_UNARY(sat_neg) KILN_NEON_UNARY(clz) KILN_NEON_UNARY(cnt) KILN_NEON_UNARY(rbit) KILN_NEON_UNARY(rev64) KILN_NEON_UNARY(rev32)
KILN_NEON_UNARY(rev16)
KILN_NEON_TERNARY(mla) KILN_NEON_TERNARY(mls)
#undef KILN_NEON_UNARY
#undef KILN_NEON_BINARY
#undef KILN_NEON_TERNARY

/// NEG for integer lanes and FNEG for float lanes (both flip what AArch64 flips, NaN signs included).
template <typename E, int N> inline V128 neg(const V128& a) { return put(op::neg(get<E, N>(a))); }
template <typename E, int N> inline V128 fabs(const V128& a) { return put(op::abs(get<E, N>(a))); }
/// ADDP: SIMDe 0.7.4 has no 64-bit-lane pairwise add on a 64-bit vector, which AArch64 has not either.
template <typename E, int N> inline V128 pairwise_add(const V128& a, const V128& b) { return put(op::pairwise_add(get<E, N>(a), get<E, N>(b))); }
/// SSHL/USHL/SRSHL/URSHL: E is the data lane type; the shift counts are the signed low bytes of b's lanes.
template <typename E, int N> inline V128 shl(const V128& a, const V128& b) {
  return put(op::shl(get<E, N>(a), get<std::make_signed_t<E>, N>(b)));
}
template <typename E, int N> inline V128 rounding_shl(const V128& a, const V128& b) {
  return put(op::rounding_shl(get<E, N>(a), get<std::make_signed_t<E>, N>(b)));
}
/// BSL/BIT/BIF are one bitwise select with the operands in different roles: (mask & a) | (~mask & b).
template <int N> inline V128 select(const V128& mask, const V128& a, const V128& b) {
  return put(op::select(get<uint8_t, N>(mask), get<uint8_t, N>(a), get<uint8_t, N>(b)));
}
/// ADDV/UMAXV/SMINV...: the result in lane 0, the rest zero.
template <typename E, int N> inline V128 add_across(const V128& a) { return put(op::add_across(get<E, N>(a))); }
template <typename E, int N> inline V128 max_across(const V128& a) { return put(op::max_across(get<E, N>(a))); }
template <typename E, int N> inline V128 min_across(const V128& a) { return put(op::min_across(get<E, N>(a))); }

// Immediate shifts (S is the encoded amount; the emitter keeps it inside what the intrinsic accepts).
template <typename E, int N, int S> inline V128 shl_n(const V128& a) { return put(op::shl_n<S>(get<E, N>(a))); }
template <typename E, int N, int S> inline V128 shr_n(const V128& a) { return put(op::shr_n<S>(get<E, N>(a))); }
template <typename E, int N, int S> inline V128 rounding_shr_n(const V128& a) { return put(op::rounding_shr_n<S>(get<E, N>(a))); }
template <typename E, int N, int S> inline V128 sra_n(const V128& acc, const V128& a) { return put(op::sra_n<S>(get<E, N>(acc), get<E, N>(a))); }
/// EXT: bytes S.. of the concatenation a:b (E is uint8_t; N 8 or 16).
template <typename E, int N, int S> inline V128 ext_n(const V128& a, const V128& b) { return put(op::ext_n<S>(get<E, N>(a), get<E, N>(b))); }

// Narrowing: W is the wide lane type; the result goes to the low half (upper zeroed) or, for the "2" forms, to
// the upper half of d.
template <typename W> inline V128 narrow_result(const V128& d, const V128& result, bool high) {
  return high ? put_high(d, get<uint64_t, 1>(result)) : result;
}
template <typename W> inline V128 extract_narrow(const V128& d, const V128& a, bool high) {
  return narrow_result<W>(d, put(op::extract_narrow(get<W, 16 / sizeof(W)>(a))), high);
}
template <typename W> inline V128 sat_narrow(const V128& d, const V128& a, bool high) {
  return narrow_result<W>(d, put(op::sat_narrow(get<W, 16 / sizeof(W)>(a))), high);
}
template <typename W> inline V128 sat_narrow_unsigned(const V128& d, const V128& a, bool high) {
  return narrow_result<W>(d, put(op::sat_narrow_unsigned(get<W, 16 / sizeof(W)>(a))), high);
}
template <typename W, int S> inline V128 shr_narrow_n(const V128& d, const V128& a, bool high) {
  return narrow_result<W>(d, put(op::shr_narrow_n<S>(get<W, 16 / sizeof(W)>(a))), high);
}
// Widening and long forms: Narrow is the source lane type; `high` picks the upper half of the narrow sources.
template <typename Narrow, int S> inline V128 shl_long_n(const V128& a, bool high) {
  return put(op::shl_long_n<S>(get<Narrow, 8 / sizeof(Narrow)>(a, high)));
}
#define KILN_NEON_LONG(name)                                                                                        \
  template <typename Narrow> inline V128 name(const V128& a, const V128& b, bool high) {                             \
    return put(op::name(get<Narrow, 8 / sizeof(Narrow)>(a, high), get<Narrow, 8 / sizeof(Narrow)>(b, high)));        \
  }
template <typename T> struct Wider;
template <> struct Wider<uint8_t> { using type = uint16_t; };
template <> struct Wider<int8_t> { using type = int16_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<int16_t> { using type = int32_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <> struct Wider<int32_t> { using type = int64_t; };
template <typename T> using wide_t = typename Wider<T>::type;
#define KILN_NEON_WIDE_FORM(name)                                                                                   \
  template <typename Narrow> inline V128 name(const V128& a, const V128& b, bool high) {                             \
    return put(op::name(get<wide_t<Narrow>, 8 / sizeof(Narrow)>(a), get<Narrow, 8 / sizeof(Narrow)>(b, high)));      \
  }
KILN_NEON_LONG(mul_long) KILN_NEON_LONG(add_long) KILN_NEON_LONG(sub_long)
KILN_NEON_WIDE_FORM(add_wide) KILN_NEON_WIDE_FORM(sub_wide)
#undef KILN_NEON_LONG
#undef KILN_NEON_WIDE_FORM
template <typename Narrow> inline V128 mla_long(const V128& acc, const V128& a, const V128& b, bool high) {
  constexpr int n = 8 / sizeof(Narrow);
  return put(op::mla_long(get<wide_t<Narrow>, n>(acc), get<Narrow, n>(a, high), get<Narrow, n>(b, high)));
}
template <typename Narrow> inline V128 mls_long(const V128& acc, const V128& a, const V128& b, bool high) {
  constexpr int n = 8 / sizeof(Narrow);
  return put(op::mls_long(get<wide_t<Narrow>, n>(acc), get<Narrow, n>(a, high), get<Narrow, n>(b, high)));
}

/// DUP (general register, element), LD1R and the MOVI/MVNI/FMOV immediates.
template <typename E, int N> inline V128 dup(E value) {
  if constexpr (std::is_floating_point_v<E>) {
    if constexpr (sizeof(E) == 4) return N == 2 ? put(simde_vdup_n_f32(value)) : put(simde_vdupq_n_f32(value));
    else return N == 1 ? put(simde_vdup_n_f64(value)) : put(simde_vdupq_n_f64(value));
  } else {
    using U = std::make_unsigned_t<E>;
    const U u = static_cast<U>(value);
    constexpr bool q = N * sizeof(E) == 16;
    if constexpr (sizeof(E) == 1) return q ? put(simde_vdupq_n_u8(u)) : put(simde_vdup_n_u8(u));
    else if constexpr (sizeof(E) == 2) return q ? put(simde_vdupq_n_u16(u)) : put(simde_vdup_n_u16(u));
    else if constexpr (sizeof(E) == 4) return q ? put(simde_vdupq_n_u32(u)) : put(simde_vdup_n_u32(u));
    else return q ? put(simde_vdupq_n_u64(u)) : put(simde_vdup_n_u64(u));
  }
}

/// TBL/TBX with `Count` table registers (v<first>.. consecutive, passed in order); `Lanes` is 8 or 16.
template <int Count> inline auto table_of(const V128* t) {
  if constexpr (Count == 1) return get<uint8_t, 16>(t[0]);
  else if constexpr (Count == 2) return simde_uint8x16x2_t{{get<uint8_t, 16>(t[0]), get<uint8_t, 16>(t[1])}};
  else if constexpr (Count == 3) return simde_uint8x16x3_t{{get<uint8_t, 16>(t[0]), get<uint8_t, 16>(t[1]), get<uint8_t, 16>(t[2])}};
  else return simde_uint8x16x4_t{{get<uint8_t, 16>(t[0]), get<uint8_t, 16>(t[1]), get<uint8_t, 16>(t[2]), get<uint8_t, 16>(t[3])}};
}
template <int Count, int Lanes> inline V128 table(const V128* t, const V128& indices) {
  const auto tab = table_of<Count>(t);
  if constexpr (Lanes == 16) {
    if constexpr (Count == 1) return put(simde_vqtbl1q_u8(tab, get<uint8_t, 16>(indices)));
    else if constexpr (Count == 2) return put(simde_vqtbl2q_u8(tab, get<uint8_t, 16>(indices)));
    else if constexpr (Count == 3) return put(simde_vqtbl3q_u8(tab, get<uint8_t, 16>(indices)));
    else return put(simde_vqtbl4q_u8(tab, get<uint8_t, 16>(indices)));
  } else {
    if constexpr (Count == 1) return put(simde_vqtbl1_u8(tab, get<uint8_t, 8>(indices)));
    else if constexpr (Count == 2) return put(simde_vqtbl2_u8(tab, get<uint8_t, 8>(indices)));
    else if constexpr (Count == 3) return put(simde_vqtbl3_u8(tab, get<uint8_t, 8>(indices)));
    else return put(simde_vqtbl4_u8(tab, get<uint8_t, 8>(indices)));
  }
}
template <int Count, int Lanes> inline V128 table_extend(const V128& d, const V128* t, const V128& indices) {
  const auto tab = table_of<Count>(t);
  if constexpr (Lanes == 16) {
    const auto dv = get<uint8_t, 16>(d), iv = get<uint8_t, 16>(indices);
    if constexpr (Count == 1) return put(simde_vqtbx1q_u8(dv, tab, iv));
    else if constexpr (Count == 2) return put(simde_vqtbx2q_u8(dv, tab, iv));
    else if constexpr (Count == 3) return put(simde_vqtbx3q_u8(dv, tab, iv));
    else return put(simde_vqtbx4q_u8(dv, tab, iv));
  } else {
    const auto dv = get<uint8_t, 8>(d), iv = get<uint8_t, 8>(indices);
    if constexpr (Count == 1) return put(simde_vqtbx1_u8(dv, tab, iv));
    else if constexpr (Count == 2) return put(simde_vqtbx2_u8(dv, tab, iv));
    else if constexpr (Count == 3) return put(simde_vqtbx3_u8(dv, tab, iv));
    else return put(simde_vqtbx4_u8(dv, tab, iv));
  }
}

// ---- floating point ----
/// AArch64 NaN results: a NaN operand propagates quieted (first operand first), an invalid operation gives the
/// positive default NaN. x86 gives its negative default NaN and orders operands its own way, so a lane that came
/// out NaN from SIMDe is recomputed by `reference` (the rare path: one compare per vector otherwise).
template <typename E, int N, typename Reference>
inline V128 fix_nan_lanes(V128 r, Reference reference) {
  // r == r lane by lane (SIMDe's vceq: one compare); all ones in every lane means no NaN.
  const V128 ordered = put(op::equal(get<E, N>(r), get<E, N>(r)));
  if ((ordered.u64[0] & (N * sizeof(E) == 16 ? ordered.u64[1] : ~uint64_t{0})) == ~uint64_t{0}) [[likely]] return r;
  E lanes[16 / sizeof(E)];
  std::memcpy(lanes, &r, 16);
  for (int i = 0; i < N; ++i)
    if (lanes[i] != lanes[i]) lanes[i] = reference(i);
  std::memcpy(&r, lanes, 16);
  return r;
}
template <typename E> inline E lane_of(const V128& v, int i) {
  E e;
  std::memcpy(&e, reinterpret_cast<const uint8_t*>(&v) + i * sizeof(E), sizeof e);
  return e;
}
/// The propagated NaN of an operation on `a` (then `b`, then `c`), or the default NaN when none is a NaN.
template <typename E> inline E propagate_nan(E a, E b = 0, E c = 0) {
  for (E x : {a, b, c})
    if (x != x) return x + x; // quiets a signalling NaN, keeps sign and payload
  return std::numeric_limits<E>::quiet_NaN();
}
#define KILN_NEON_FP_BINARY(name, operation, unused)                                                                \
  template <typename E, int N> inline V128 name(const V128& a, const V128& b) {                                      \
    return fix_nan_lanes<E, N>(put(op::operation(get<E, N>(a), get<E, N>(b))),                                           \
                               [&](int i) { return propagate_nan(lane_of<E>(a, i), lane_of<E>(b, i)); });           \
  }
KILN_NEON_FP_BINARY(fadd, add, +) KILN_NEON_FP_BINARY(fsub, sub, -) KILN_NEON_FP_BINARY(fmul, mul, *)
/// FDIV: SIMDe 0.7.4 has no vdivq, so lanes divide in plain C++ (IEEE division on both).
template <typename E, int N> inline V128 fdiv(const V128& a, const V128& b) {
  E x[16 / sizeof(E)] = {};
  for (int i = 0; i < N; ++i) x[i] = lane_of<E>(a, i) / lane_of<E>(b, i);
  V128 r;
  std::memcpy(&r, x, 16);
  return fix_nan_lanes<E, N>(r, [&](int i) { return propagate_nan(lane_of<E>(a, i), lane_of<E>(b, i)); });
}
#undef KILN_NEON_FP_BINARY
/// FADDP: pairs of the concatenation a:b, so a NaN lane's operands are lanes 2i, 2i+1 of a:b.
template <typename E, int N> inline V128 fpairwise_add(const V128& a, const V128& b) {
  return fix_nan_lanes<E, N>(put(op::pairwise_add(get<E, N>(a), get<E, N>(b))), [&](int i) {
    const V128& src = 2 * i < N ? a : b;
    const int k = (2 * i) % N;
    return propagate_nan(lane_of<E>(src, k), lane_of<E>(src, k + 1));
  });
}
/// FMLA/FMLS (acc + a * b, fused; FMLS negates a first). SIMDe's vfmaq is fused only when the host has FMA
/// (without it, SIMDe multiplies and adds with two roundings): plain std::fma lanes there.
template <typename E, int N> inline V128 fused_mla(const V128& acc, const V128& a, const V128& b, bool subtract) {
  V128 r;
#if defined(__FMA__)
  // SIMDe 0.7.4 has no vfms: FMLS is vfma with the multiplicand negated, as the Arm pseudocode does it.
  const auto a_lanes = subtract ? op::neg(get<E, N>(a)) : get<E, N>(a);
  r = put(op::fused_mla(get<E, N>(acc), a_lanes, get<E, N>(b)));
#else
  E x[16 / sizeof(E)] = {};
  for (int i = 0; i < N; ++i) x[i] = std::fma(subtract ? -lane_of<E>(a, i) : lane_of<E>(a, i), lane_of<E>(b, i), lane_of<E>(acc, i));
  std::memcpy(&r, x, 16);
#endif
  return fix_nan_lanes<E, N>(r, [&](int i) {
    return propagate_nan(lane_of<E>(acc, i), subtract ? -lane_of<E>(a, i) : lane_of<E>(a, i), lane_of<E>(b, i));
  });
}

/// SCVTF/UCVTF: SIMDe's conversions round like AArch64 (nearest-even). A 2S vector goes through the 4S form so
/// the 64-bit vectors use SIMDe's vector path too.
template <typename I, int N> inline V128 to_float(const V128& a) {
  constexpr int q = 16 / sizeof(I);
  const V128 r = put(op::to_float(get<I, q>(a)));
  return N == q ? r : put(get<uint64_t, 1>(r));
}
/// FCVTZS: SIMDe's SSE2 path saturates and gives 0 for NaN as AArch64 does; its scalar path (which SIMDe
/// takes for the 2S form) converts 2^31 with an undefined cast, so 2S also goes through the 4S form.
template <typename F, int N> inline V128 to_signed(const V128& a) {
  constexpr int q = 16 / sizeof(F);
  const V128 r = put(op::to_signed(get<F, q>(a)));
  return N == q ? r : put(get<uint64_t, 1>(r));
}
/// FCVTN: doubles to floats (NaNs keep sign and payload, quieted, on both).
inline V128 narrow_double(const V128& d, const V128& a, bool high) {
  const V128 r = put(simde_vcvt_f32_f64(get<double, 2>(a)));
  return high ? put_high(d, get<uint64_t, 1>(r)) : r;
}

} // namespace kiln::rt::neon
