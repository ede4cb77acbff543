#pragma once
// Small inline helpers the generated C++ calls; what each AArch64 instruction does is decided by
// recompiler/isa/aarch64/semantics, which emits calls to these.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/core/aarch64/neon.h"
#include "runtime/core/aarch64/cpu.h"
#include "runtime/core/guest_memory.h"

namespace kiln::rt {

/// a + b + carry_in with NZCV, for ADDS/SUBS/ADCS/SBCS/CMP/CMN (SUB is a + ~b + 1).
template <typename T>
inline T add_flags(T a, T b, uint32_t carry_in, uint32_t& n, uint32_t& z, uint32_t& c, uint32_t& v) {
  using S = std::make_signed_t<T>;
  T partial;
  const bool carry1 = __builtin_add_overflow(a, b, &partial);
  T result;
  const bool carry2 = __builtin_add_overflow(partial, static_cast<T>(carry_in), &result);
  n = static_cast<S>(result) < 0;
  z = result == 0;
  c = carry1 || carry2;
  v = ((~(a ^ b)) & (a ^ result)) >> (sizeof(T) * 8 - 1) & 1;
  return result;
}

template <typename T>
inline T logic_flags(T result, uint32_t& n, uint32_t& z, uint32_t& c, uint32_t& v) {
  n = static_cast<std::make_signed_t<T>>(result) < 0;
  z = result == 0;
  c = 0;
  v = 0;
  return result;
}

template <typename T> inline T lsl(T a, unsigned s) { return static_cast<T>(a << (s & (sizeof(T) * 8 - 1))); }
template <typename T> inline T lsr(T a, unsigned s) { return static_cast<T>(a >> (s & (sizeof(T) * 8 - 1))); }
template <typename T> inline T asr(T a, unsigned s) {
  return static_cast<T>(static_cast<std::make_signed_t<T>>(a) >> (s & (sizeof(T) * 8 - 1)));
}
template <typename T> inline T ror(T a, unsigned s) {
  constexpr unsigned bits = sizeof(T) * 8;
  s &= bits - 1;
  return s == 0 ? a : static_cast<T>((a >> s) | (a << (bits - s)));
}
template <typename T> inline T clz(T a) { return a == 0 ? sizeof(T) * 8 : (sizeof(T) == 8 ? __builtin_clzll(a) : __builtin_clz(static_cast<uint32_t>(a))); }
template <typename T> inline T cls(T a) {
  using S = std::make_signed_t<T>;
  const T x = static_cast<T>(a ^ static_cast<T>(static_cast<S>(a) >> 1));
  return static_cast<T>(clz<T>(x) - 1);
}
inline uint64_t rbit64(uint64_t a) {
  uint64_t r = 0;
  for (int i = 0; i < 64; ++i) r |= ((a >> i) & 1) << (63 - i);
  return r;
}
inline uint32_t rbit32(uint32_t a) { return static_cast<uint32_t>(rbit64(a) >> 32); }
inline uint32_t rev16_32(uint32_t a) { return ((a & 0x00ff00ffu) << 8) | ((a >> 8) & 0x00ff00ffu); }
inline uint64_t rev16_64(uint64_t a) { return ((a & 0x00ff00ff00ff00ffull) << 8) | ((a >> 8) & 0x00ff00ff00ff00ffull); }
inline uint64_t rev32_64(uint64_t a) {
  return (uint64_t{__builtin_bswap32(static_cast<uint32_t>(a >> 32))} << 32) | __builtin_bswap32(static_cast<uint32_t>(a));
}
template <typename T> inline T udiv(T a, T b) { return b == 0 ? 0 : a / b; }
template <typename T> inline T sdiv(T a, T b) {
  using S = std::make_signed_t<T>;
  if (b == 0) return 0;
  if (static_cast<S>(b) == -1) return static_cast<T>(T{0} - a); // also INT_MIN / -1 = INT_MIN
  return static_cast<T>(static_cast<S>(a) / static_cast<S>(b));
}
__extension__ using uint128 = unsigned __int128;
__extension__ using int128 = __int128;
inline uint64_t umulh(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<uint128>(a) * b) >> 64); }
inline uint64_t smulh(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<int128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b)) >> 64);
}

/// UBFM/SBFM/BFM in their general form (the semantics emit simpler shifts for the common aliases).
template <typename T>
inline T bitfield_move(T dst, T src, unsigned immr, unsigned imms, bool is_signed, bool keep_dst) {
  constexpr unsigned bits = sizeof(T) * 8;
  using S = std::make_signed_t<T>;
  if (imms >= immr) { // extract bits [immr, imms] to the bottom
    const unsigned width = imms - immr + 1;
    const T field = width == bits ? src : static_cast<T>((src >> immr) & ((T{1} << width) - 1));
    if (keep_dst) {
      const T mask = width == bits ? static_cast<T>(~T{0}) : static_cast<T>((T{1} << width) - 1);
      return static_cast<T>((dst & ~mask) | field);
    }
    if (is_signed && width < bits) return static_cast<T>(static_cast<S>(static_cast<T>(field << (bits - width))) >> (bits - width));
    return field;
  }
  // insert bits [0, imms] at position bits - immr
  const unsigned width = imms + 1, lsb = bits - immr;
  const T low = static_cast<T>(src & ((T{1} << width) - 1));
  const T mask = static_cast<T>(((T{1} << width) - 1) << lsb);
  if (keep_dst) return static_cast<T>((dst & ~mask) | static_cast<T>(low << lsb));
  if (is_signed) {
    const T shifted = static_cast<T>(src << (bits - width));
    return static_cast<T>(static_cast<S>(shifted) >> (bits - width - lsb));
  }
  return static_cast<T>(low << lsb);
}

// ---- floating point ----
inline float bits_to_f32(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }
inline double bits_to_f64(uint64_t b) { double f; std::memcpy(&f, &b, 8); return f; }
inline uint32_t f32_bits(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
inline uint64_t f64_bits(double f) { uint64_t b; std::memcpy(&b, &f, 8); return b; }

/// FCMP: NZCV = 0110 unordered, 0010 greater... (Arm ARM FPCompare)
template <typename F>
inline void fp_compare(F a, F b, uint32_t& n, uint32_t& z, uint32_t& c, uint32_t& v) {
  if (std::isnan(a) || std::isnan(b)) { n = 0; z = 0; c = 1; v = 1; }
  else if (a == b) { n = 0; z = 1; c = 1; v = 0; }
  else if (a < b) { n = 1; z = 0; c = 0; v = 0; }
  else { n = 0; z = 0; c = 1; v = 0; }
}
/// An already-rounded float to integer with AArch64 saturation (NaN gives 0).
template <typename I, typename F>
inline I fp_to_int(F value) {
  if (std::isnan(value)) return 0;
  constexpr int bits = sizeof(I) * 8;
  const F lo = std::is_signed_v<I> ? -std::ldexp(F(1), bits - 1) : F(0);
  const F hi = std::ldexp(F(1), std::is_signed_v<I> ? bits - 1 : bits);
  if (value < lo) return std::numeric_limits<I>::min();
  if (value >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(value);
}
template <typename F> inline bool fp_is_signaling(F x) {
  if (!std::isnan(x)) return false;
  if constexpr (sizeof(F) == 4) return !(f32_bits(x) & 0x400000u);
  else return !(f64_bits(x) & (uint64_t{1} << 51));
}
/// FPProcessNaNs: a signalling NaN first (a, then b), then a quiet one; the result is quieted (x + x does).
template <typename F> inline F fp_process_nans(F a, F b) {
  if (fp_is_signaling(a)) return a + a;
  if (fp_is_signaling(b)) return b + b;
  return std::isnan(a) ? a : b;
}
template <typename F> inline F fp_min(F a, F b) { if (std::isnan(a) || std::isnan(b)) return fp_process_nans(a, b); if (a == 0 && b == 0) return std::signbit(a) ? a : b; return a < b ? a : b; }
template <typename F> inline F fp_max(F a, F b) { if (std::isnan(a) || std::isnan(b)) return fp_process_nans(a, b); if (a == 0 && b == 0) return std::signbit(a) ? b : a; return a > b ? a : b; }
/// FMAXNM/FMINNM: a quiet NaN counts as missing; a signalling one is an invalid operation as in FMAX.
template <typename F> inline F fp_minnm(F a, F b) {
  if (!fp_is_signaling(a) && !fp_is_signaling(b)) { if (std::isnan(a) && !std::isnan(b)) return b; if (std::isnan(b) && !std::isnan(a)) return a; }
  return fp_min(a, b);
}
template <typename F> inline F fp_maxnm(F a, F b) {
  if (!fp_is_signaling(a) && !fp_is_signaling(b)) { if (std::isnan(a) && !std::isnan(b)) return b; if (std::isnan(b) && !std::isnan(a)) return a; }
  return fp_max(a, b);
}

// ---- vectors ----
inline V128 v_from_u64(uint64_t lo, uint64_t hi = 0) { V128 r; r.u64[0] = lo; r.u64[1] = hi; return r; }
inline V128 v_load(uint8_t* base, uint64_t address) { V128 r; std::memcpy(&r, base + (address & guest_address_mask), 16); return r; }
inline void v_store(uint8_t* base, uint64_t address, const V128& value) { std::memcpy(base + (address & guest_address_mask), &value, 16); }
/// Clears the upper 64 bits for 64-bit vector forms.
inline V128 v_half(V128 r, bool full) { if (!full) r.u64[1] = 0; return r; }

// ---- runtime services the generated code calls ----
using HostFunction = void (*)(Cpu*);
/// Calls the recompiled function at guest `address` (sets cpu->pc, and cpu->link to x30: the return address
/// BLR set); reports and exits if there is none.
void call_guest(Cpu* cpu, uint64_t address);
/// The target an indirect call (BLR) site reached last, so a callback called in a loop skips the table search.
struct CallSiteCache {
  uint64_t address = ~uint64_t{0};
  HostFunction function = nullptr;
};
/// call_guest() through the cache of a call site; fills it when the target changed.
void call_guest_miss(Cpu* cpu, uint64_t address, uint64_t return_address, CallSiteCache& cache);
inline void call_guest_cached(Cpu* cpu, uint64_t address, uint64_t return_address, CallSiteCache& cache) {
  if (cache.address != address) [[unlikely]] return call_guest_miss(cpu, address, return_address, cache);
  cpu->pc = address;
  cpu->link = return_address;
  cache.function(cpu);
}
/// A branch (BR) leaving the current function for guest `address`: a tail call when a function starts there,
/// otherwise a jump the fallback interpreter follows (into another function's middle), or, when `address` is
/// a frame's resume point or no code, a non-local jump into a frame further up (sets cpu->unwind_target; the
/// caller returns). `link` is the branching function's own link.
void branch_guest(Cpu* cpu, uint64_t address, uint64_t link);
/// Called by the frame that owns the stack pointer of a non-local jump whose target is not one of its own labels
/// (a landing pad in a function's cold part, a return address inside the function): continues at
/// cpu->unwind_target as a tail call when a function starts or has an entry there, else in the fallback
/// interpreter (returning to `link`); when neither can run it, leaves the jump pending for the frames further up
/// and returns false.
bool resume_at_entry(Cpu* cpu, uint64_t link);
/// After the first guest function of a thread returned: a non-local jump that no frame on the host stack took
/// (cpu->unwind_target) continues there as the bottom frame (returning to 0), as often as it recurs. Returns
/// normally when none is left; an address without code stops the program (stop_outside_code).
void finish_unclaimed_jumps(Cpu* cpu);
/// Runs the guest from `address` on a fresh host stack frame; a non-local jump no frame took continues in the
/// fallback interpreter, and one to an address without code is reported.
[[noreturn]] void enter_guest(Cpu* cpu, uint64_t address);
/// Supervisor call from guest `pc` (Linux syscall number in x8).
void supervisor_call(Cpu* cpu, uint64_t pc);
[[noreturn]] void trap_untranslated(Cpu* cpu, uint64_t address, uint32_t encoding, const char* function, const char* reason);
[[noreturn]] void trap_instruction(Cpu* cpu, uint64_t address, uint32_t encoding, const char* what);
uint64_t read_system_register(Cpu* cpu, uint32_t encoding, uint64_t pc);
void write_system_register(Cpu* cpu, uint32_t encoding, uint64_t value, uint64_t pc);

} // namespace kiln::rt

namespace kiln::rt {

/// AArch64 NaN results: an invalid operation gives the positive default NaN (x86 gives a negative one, which
/// printf shows as "-nan"); a NaN operand propagates quieted, first operand first.
template <typename F>
inline F fp_default_nan(F result) {
  return std::isnan(result) ? std::numeric_limits<F>::quiet_NaN() : result;
}
template <typename F, typename... Operands>
inline F fp_default_nan(F result, Operands... operands) {
  if (!std::isnan(result)) [[likely]] return result;
  F propagated = std::numeric_limits<F>::quiet_NaN();
  bool found = false;
  ((!found && std::isnan(operands) ? (propagated = operands + operands, found = true) : false), ...);
  return propagated;
}

// Plain lane-wise helpers, for the few operations runtime/core/aarch64/neon.h (SIMDe) does not compute as AArch64
// does, and for LD1R/LD1 lane plumbing. E is the lane type, N the lane count (N * sizeof(E) == 8 zeroes the upper half).
template <typename E, int N, typename F>
inline V128 v_map1(const V128& a, F f) {
  E x[16 / sizeof(E)], r[16 / sizeof(E)] = {};
  std::memcpy(x, &a, 16);
  for (int i = 0; i < N; ++i) r[i] = static_cast<E>(f(x[i]));
  V128 out;
  std::memcpy(&out, r, 16);
  return out;
}
template <typename E, int N, typename F>
inline V128 v_map2(const V128& a, const V128& b, F f) {
  E x[16 / sizeof(E)], y[16 / sizeof(E)], r[16 / sizeof(E)] = {};
  std::memcpy(x, &a, 16);
  std::memcpy(y, &b, 16);
  for (int i = 0; i < N; ++i) r[i] = static_cast<E>(f(x[i], y[i]));
  V128 out;
  std::memcpy(&out, r, 16);
  return out;
}
/// Pairwise: lanes of a then b combined in adjacent pairs.
template <typename E, int N, typename F>
inline V128 v_pairwise(const V128& a, const V128& b, F f) {
  E x[2 * (16 / sizeof(E))], r[16 / sizeof(E)] = {};
  std::memcpy(x, &a, N * sizeof(E));
  std::memcpy(x + N, &b, N * sizeof(E));
  for (int i = 0; i < N; ++i) r[i] = static_cast<E>(f(x[2 * i], x[2 * i + 1]));
  V128 out;
  std::memcpy(&out, r, 16);
  return out;
}
template <typename E, int N>
inline V128 v_dup(E value) { return neon::dup<E, N>(value); }
template <typename E>
inline E v_lane(const V128& a, int index) {
  E value;
  std::memcpy(&value, reinterpret_cast<const uint8_t*>(&a) + index * sizeof(E), sizeof(E));
  return value;
}
template <typename E>
inline V128 v_insert(V128 a, int index, E value) {
  std::memcpy(reinterpret_cast<uint8_t*>(&a) + index * sizeof(E), &value, sizeof(E));
  return a;
}
} // namespace kiln::rt
