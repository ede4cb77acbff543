#include "translator/ir/reference.h"

#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>

#include "translator/ir/integer_fma.h"

namespace kiln::ir {
namespace {

__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;

uint64_t width_mask(Type type) { return bit_width(type) >= 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width(type)) - 1; }

int64_t as_signed(Type type, uint64_t bits) {
  return type == Type::U32 ? static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(bits)))
                           : static_cast<int64_t>(bits);
}

// Floats travel as their bits; these convert at the edges so the arithmetic itself is plain IEEE C++.
double to_double(Type type, uint64_t bits) {
  return type == Type::F32 ? static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)))
                           : std::bit_cast<double>(bits);
}
uint64_t float_bits(float value) { return std::bit_cast<uint32_t>(value); }
uint64_t double_bits(double value) { return std::bit_cast<uint64_t>(value); }

template <typename F>
uint64_t float_unary(Type type, uint64_t a, F&& f) {
  if (type == Type::F32) return float_bits(f(std::bit_cast<float>(static_cast<uint32_t>(a))));
  return double_bits(f(std::bit_cast<double>(a)));
}
template <typename F>
uint64_t float_binary(Type type, uint64_t a, uint64_t b, F&& f) {
  if (type == Type::F32) {
    return float_bits(f(std::bit_cast<float>(static_cast<uint32_t>(a)), std::bit_cast<float>(static_cast<uint32_t>(b))));
  }
  return double_bits(f(std::bit_cast<double>(a), std::bit_cast<double>(b)));
}

// NVIDIA's FMNMX: a NaN operand yields the other operand; -0 is below +0.
template <typename T>
T float_min(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename T>
T float_max(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

template <typename T>
T flush_denormal(T x) {
  const T smallest_normal = std::numeric_limits<T>::min();
  return (x != 0 && std::fabs(x) < smallest_normal) ? std::copysign(T(0), x) : x;
}

// cvt.rzi with saturation: NaN gives 0, out-of-range values clamp to the result's range.
uint64_t float_to_signed(double value, Type result) {
  if (std::isnan(value)) return 0;
  const double t = std::trunc(value);
  if (result == Type::U32) {
    if (t <= -2147483648.0) return static_cast<uint32_t>(INT32_MIN);
    if (t >= 2147483647.0) return INT32_MAX;
    return static_cast<uint32_t>(static_cast<int32_t>(t));
  }
  if (t <= -9223372036854775808.0) return static_cast<uint64_t>(INT64_MIN);
  if (t >= 9223372036854775808.0) return static_cast<uint64_t>(INT64_MAX);
  return static_cast<uint64_t>(static_cast<int64_t>(t));
}
uint64_t float_to_unsigned(double value, Type result) {
  if (std::isnan(value) || value <= 0) return 0;
  const double t = std::trunc(value);
  if (result == Type::U32) return t >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(t);
  return t >= 18446744073709551616.0 ? UINT64_MAX : static_cast<uint64_t>(t);
}

uint64_t find_msb_unsigned(uint32_t value) { return value == 0 ? UINT32_MAX : 31u - std::countl_zero(value); }

bool compare_float(Op op, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (op) {
  case Op::FOrdEq: return !unordered && a == b;
  case Op::FOrdNe: return !unordered && a != b;
  case Op::FOrdLt: return !unordered && a < b;
  case Op::FOrdLe: return !unordered && a <= b;
  case Op::FOrdGt: return !unordered && a > b;
  case Op::FOrdGe: return !unordered && a >= b;
  case Op::FUnordEq: return unordered || a == b;
  case Op::FUnordNe: return unordered || a != b;
  case Op::FUnordLt: return unordered || a < b;
  case Op::FUnordLe: return unordered || a <= b;
  case Op::FUnordGt: return unordered || a > b;
  case Op::FUnordGe: return unordered || a >= b;
  default: return false;
  }
}

std::optional<uint64_t> evaluate_integer(Op op, Type type, uint64_t a, uint64_t b) {
  const unsigned width = bit_width(type);
  const uint64_t mask = width_mask(type);
  switch (op) {
  case Op::IAdd: return (a + b) & mask;
  case Op::ISub: return (a - b) & mask;
  case Op::IMul: return (a * b) & mask;
  case Op::UMulHi:
    if (width == 32) return (a * b) >> 32;
    return static_cast<uint64_t>((static_cast<uint128>(a) * b) >> 64);
  case Op::SMulHi:
    if (width == 32) return static_cast<uint64_t>(as_signed(type, a) * as_signed(type, b) >> 32) & mask;
    return static_cast<uint64_t>((static_cast<int128>(as_signed(type, a)) * as_signed(type, b)) >> 64);
  case Op::And: return a & b;
  case Op::Or: return a | b;
  case Op::Xor: return a ^ b;
  case Op::SMin: return as_signed(type, a) < as_signed(type, b) ? a : b;
  case Op::SMax: return as_signed(type, a) > as_signed(type, b) ? a : b;
  case Op::UMin: return a < b ? a : b;
  case Op::UMax: return a > b ? a : b;
  // Shifts by the width or more are defined (SASS clamps the amount): everything shifts out.
  case Op::Shl: return b >= width ? 0 : (a << b) & mask;
  case Op::LShr: return b >= width ? 0 : a >> b;
  case Op::AShr: return static_cast<uint64_t>(as_signed(type, a) >> (b >= width ? width - 1 : b)) & mask;
  case Op::IEq: return a == b;
  case Op::INe: return a != b;
  case Op::SLt: return as_signed(type, a) < as_signed(type, b);
  case Op::SLe: return as_signed(type, a) <= as_signed(type, b);
  case Op::SGt: return as_signed(type, a) > as_signed(type, b);
  case Op::SGe: return as_signed(type, a) >= as_signed(type, b);
  case Op::ULt: return a < b;
  case Op::ULe: return a <= b;
  case Op::UGt: return a > b;
  case Op::UGe: return a >= b;
  default: return std::nullopt;
  }
}

std::optional<uint64_t> evaluate_float(Op op, Type type, std::span<const TypedBits> args) {
  const uint64_t a = args[0].bits;
  const uint64_t b = args.size() > 1 ? args[1].bits : 0;
  switch (op) {
  case Op::FAdd: return float_binary(type, a, b, [](auto x, auto y) { return x + y; });
  case Op::FSub: return float_binary(type, a, b, [](auto x, auto y) { return x - y; });
  case Op::FMul: return float_binary(type, a, b, [](auto x, auto y) { return x * y; });
  case Op::FMin: return float_binary(type, a, b, [](auto x, auto y) { return float_min(x, y); });
  case Op::FMax: return float_binary(type, a, b, [](auto x, auto y) { return float_max(x, y); });
  case Op::FFma:
    if (type == Type::F32) {
      // NaN results follow integer_fma_f32's rule (the default lowering) rather than the host CPU's.
      const auto a32 = static_cast<uint32_t>(a), b32 = static_cast<uint32_t>(b), c32 = static_cast<uint32_t>(args[2].bits);
      const auto fused = static_cast<uint32_t>(float_bits(std::fma(std::bit_cast<float>(a32), std::bit_cast<float>(b32), std::bit_cast<float>(c32))));
      return fma_f32_nan_rule(a32, b32, c32, fused);
    }
    return double_bits(std::fma(std::bit_cast<double>(a), std::bit_cast<double>(b), std::bit_cast<double>(args[2].bits)));
  case Op::FNeg: return a ^ (type == Type::F32 ? 0x80000000u : 0x8000000000000000u);
  case Op::FAbs: return a & (type == Type::F32 ? 0x7fffffffu : 0x7fffffffffffffffu);
  case Op::FFloor: return float_unary(type, a, [](auto x) { return std::floor(x); });
  case Op::FCeil: return float_unary(type, a, [](auto x) { return std::ceil(x); });
  case Op::FTrunc: return float_unary(type, a, [](auto x) { return std::trunc(x); });
  case Op::FRoundEven: return float_unary(type, a, [](auto x) { return std::nearbyint(x); });
  case Op::FSaturate:
    return float_unary(type, a, [](auto x) { return x > 0 ? (x < 1 ? x : decltype(x)(1)) : decltype(x)(0); });
  case Op::FFlushDenormal: return float_unary(type, a, [](auto x) { return flush_denormal(x); });
  // Approximate ops: the correctly rounded value, computed in long double.
  case Op::FRcp: return float_unary(type, a, [](auto x) { return decltype(x)(1.0L / x); });
  case Op::FRsq: return float_unary(type, a, [](auto x) { return decltype(x)(1.0L / std::sqrt(static_cast<long double>(x))); });
  case Op::FSqrt: return float_unary(type, a, [](auto x) { return std::sqrt(x); });
  case Op::FExp2: return float_unary(type, a, [](auto x) { return decltype(x)(std::exp2(static_cast<long double>(x))); });
  case Op::FLog2: return float_unary(type, a, [](auto x) { return decltype(x)(std::log2(static_cast<long double>(x))); });
  case Op::FSin: return float_unary(type, a, [](auto x) { return decltype(x)(std::sin(static_cast<long double>(x))); });
  case Op::FCos: return float_unary(type, a, [](auto x) { return decltype(x)(std::cos(static_cast<long double>(x))); });
  case Op::FIsNan: return std::isnan(to_double(type, a));
  default: return compare_float(op, to_double(type, a), to_double(type, b));
  }
}

std::optional<uint64_t> evaluate_convert(Op op, Type result, TypedBits from) {
  switch (op) {
  case Op::ZExt: return from.bits;
  case Op::SExt:
    if (from.type == Type::Bool) return from.bits ? width_mask(result) : 0;
    return static_cast<uint64_t>(as_signed(from.type, from.bits)) & width_mask(result);
  case Op::Trunc: return from.bits & width_mask(result);
  case Op::Bitcast: return from.bits;
  case Op::SToF:
    if (result == Type::F32) return float_bits(static_cast<float>(as_signed(from.type, from.bits)));
    return double_bits(static_cast<double>(as_signed(from.type, from.bits)));
  case Op::UToF:
    if (result == Type::F32) return float_bits(static_cast<float>(from.bits));
    return double_bits(static_cast<double>(from.bits));
  case Op::FToS: return float_to_signed(to_double(from.type, from.bits), result);
  case Op::FToU: return float_to_unsigned(to_double(from.type, from.bits), result);
  case Op::FConvert:
    if (result == Type::F32) return float_bits(static_cast<float>(to_double(from.type, from.bits)));
    return double_bits(to_double(from.type, from.bits));
  default: return std::nullopt;
  }
}

} // namespace

std::optional<uint64_t> evaluate(Op op, Type result, std::span<const TypedBits> args) {
  const OpInfo& info = op_info(op);
  switch (info.signature) {
  case Signature::IntBinary:
  case Signature::IntShift:
  case Signature::IntCompare: return evaluate_integer(op, args[0].type, args[0].bits, args[1].bits);
  case Signature::IntUnary: {
    const Type type = args[0].type;
    const uint64_t a = args[0].bits;
    if (op == Op::Not) return ~a & width_mask(type);
    if (op == Op::INeg) return (~a + 1) & width_mask(type);
    if (op == Op::BitReverse) {
      uint64_t reversed = 0;
      for (unsigned i = 0; i < bit_width(type); ++i) reversed |= ((a >> i) & 1) << (bit_width(type) - 1 - i);
      return reversed;
    }
    return std::nullopt;
  }
  case Signature::IntCount: {
    const uint64_t a = args[0].bits;
    if (op == Op::PopCount) return static_cast<uint64_t>(std::popcount(a));
    if (op == Op::FindMsbU) return find_msb_unsigned(static_cast<uint32_t>(a));
    // FindMsbS: for negative values the highest bit that differs from the sign.
    const auto value = static_cast<uint32_t>(a);
    return find_msb_unsigned(static_cast<int32_t>(value) < 0 ? ~value : value);
  }
  case Signature::FloatBinary:
  case Signature::FloatTernary:
  case Signature::FloatUnary:
  case Signature::FloatCompare:
  case Signature::FloatTest: return evaluate_float(op, args[0].type, args);
  case Signature::BoolBinary:
    if (op == Op::LAnd) return args[0].bits & args[1].bits;
    if (op == Op::LOr) return args[0].bits | args[1].bits;
    return args[0].bits ^ args[1].bits;
  case Signature::BoolUnary: return args[0].bits ^ 1;
  case Signature::Select: return args[0].bits ? args[1].bits : args[2].bits;
  case Signature::Convert: return evaluate_convert(op, result, args[0]);
  case Signature::Pack64: return (args[0].bits & 0xffffffffu) | (args[1].bits << 32);
  default: return std::nullopt;
  }
}

ApproximationBound approximation_bound(Op op) {
  // Bounds of the SPIR-V lowering on Vulkan implementations (Vulkan spec, "Precision and Operation of SPIR-V
  // Instructions") and of NVIDIA's MUFU (CUDA Programming Guide, intrinsic functions), whichever is larger.
  switch (op) {
  case Op::FRcp: return {.ulps = 2};
  case Op::FRsq: return {.ulps = 2};
  case Op::FSqrt: return {.ulps = 3};
  case Op::FExp2: return {.ulps = 3};
  case Op::FLog2: return {.ulps = 3, .absolute = 0x1p-21};
  case Op::FSin:
  case Op::FCos: return {.absolute = 0x1p-11};
  default: return {};
  }
}

} // namespace kiln::ir
