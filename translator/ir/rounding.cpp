#include "translator/ir/rounding.h"

#include "translator/ir/integer_fma.h"

namespace kiln::ir {

ValueId round_towards(Builder& b, ValueId rounded, ValueId error, Rounding mode) {
  if (mode == Rounding::nearest) return rounded;
  // One unit in the last place towards the exact value when rounding to nearest went the other way.
  Function& function = b.function();
  const Type type = function.insts[rounded].type;
  const Type int_type = type == Type::F64 ? Type::U64 : Type::U32;
  const ValueId zero = function.insts[error].type == Type::F64 ? b.f64(0.0) : b.f32(0.0f);
  const ValueId bits = b.convert(Op::Bitcast, int_type, rounded);
  const ValueId one = b.constant(int_type, 1);
  const ValueId sign_bit = b.constant(int_type, type == Type::F64 ? 0x8000000000000000ull : 0x80000000u);
  const ValueId negative = b.op(Op::INe, b.op(Op::And, bits, sign_bit), b.constant(int_type, 0));
  const ValueId magnitude_zero = b.op(Op::IEq, b.op(Op::And, bits, b.op(Op::Not, sign_bit)), b.constant(int_type, 0));
  // Stepping the magnitude away from zero is +1 on the bits; towards zero -1 (never from a zero).
  const ValueId away = b.op(Op::IAdd, bits, one);
  const ValueId towards_zero = b.op(Op::ISub, bits, one);
  const ValueId up_from_zero = b.constant(int_type, 1);       // smallest positive denormal
  const ValueId down_from_zero = b.op(Op::Or, sign_bit, one); // smallest negative denormal
  const ValueId exact_is_above = b.op(Op::FOrdGt, error, zero);
  const ValueId exact_is_below = b.op(Op::FOrdLt, error, zero);
  ValueId result = bits;
  if (mode == Rounding::plus_infinity) {
    ValueId step_up = b.select(negative, towards_zero, away);
    step_up = b.select(magnitude_zero, up_from_zero, step_up);
    result = b.select(exact_is_above, step_up, bits);
  } else if (mode == Rounding::minus_infinity) {
    ValueId step_down = b.select(negative, away, towards_zero);
    step_down = b.select(magnitude_zero, down_from_zero, step_down);
    result = b.select(exact_is_below, step_down, bits);
  } else {
    const ValueId towards = b.select(negative, exact_is_above, exact_is_below);
    result = b.select(b.op(Op::LAnd, towards, b.op(Op::LNot, magnitude_zero)), towards_zero, bits);
  }
  return b.convert(Op::Bitcast, type, result);
}

ValueId rounded_add(Builder& b, ValueId a, ValueId bv, Rounding mode) {
  // a × 1 + b is exactly a + b, overflow and signed zeros included.
  if (mode != Rounding::nearest && b.function().insts[a].type == Type::F32) return integer_fma_f32(b, a, b.f32(1.0f), bv, mode);
  const ValueId result = b.op(Op::FAdd, a, bv);
  if (mode == Rounding::nearest) return result;
  // TwoSum: the exact error of the rounded sum.
  const ValueId b_virtual = b.op(Op::FSub, result, a);
  const ValueId a_virtual = b.op(Op::FSub, result, b_virtual);
  const ValueId error = b.op(Op::FAdd, b.op(Op::FSub, a, a_virtual), b.op(Op::FSub, bv, b_virtual));
  return round_towards(b, result, error, mode);
}

ValueId rounded_mul(Builder& b, ValueId a, ValueId bv, Rounding mode) {
  if (mode != Rounding::nearest && b.function().insts[a].type == Type::F32) return integer_fma_f32(b, a, bv, std::nullopt, mode);
  const ValueId result = b.op(Op::FMul, a, bv);
  if (mode == Rounding::nearest) return result;
  return round_towards(b, result, b.op(Op::FFma, a, bv, b.op(Op::FNeg, result)), mode); // exact product error
}

ValueId rounded_fma(Builder& b, ValueId a, ValueId bv, ValueId c, Rounding mode) {
  if (mode != Rounding::nearest && b.function().insts[a].type == Type::F32) return integer_fma_f32(b, a, bv, c, mode);
  const ValueId result = b.op(Op::FFma, a, bv, c);
  if (mode == Rounding::nearest) return result;
  // a*b = p + e exactly (the product's error from an exact FFma), p + c = s + t exactly (TwoSum); the sign of
  // ((s - r) + t) + e is that of the exact value minus the rounded result r, unless that difference is below
  // about 2^-50 of an ulp of r (then the rounding may step the wrong way).
  const ValueId p = b.op(Op::FMul, a, bv);
  const ValueId e = b.op(Op::FFma, a, bv, b.op(Op::FNeg, p));
  const ValueId s = b.op(Op::FAdd, p, c);
  const ValueId b_virtual = b.op(Op::FSub, s, p);
  const ValueId t = b.op(Op::FAdd, b.op(Op::FSub, p, b.op(Op::FSub, s, b_virtual)), b.op(Op::FSub, c, b_virtual));
  const ValueId error = b.op(Op::FAdd, b.op(Op::FAdd, b.op(Op::FSub, s, result), t), e);
  return round_towards(b, result, error, mode);
}

} // namespace kiln::ir
