// Fused multiply-add on integers. The significands (normalised to 24 bits, subnormals shifted up) multiply into
// a 48-bit product in two words (UMulHi/IMul); product and addend are placed in 64-bit windows with their leading
// bit at bit 61, the one with the lower exponent is shifted right with its lost bits jammed into bit 0 (the
// windows' low bits are zero, so the jammed bit only says "something below", for sums and differences alike), the
// two are added or subtracted, and the 64-bit result is rounded once to the f32 grid (normal or subnormal).
// Special operands (zeros, infinities, NaNs) are selected at the end.
#include "translator/ir/integer_fma.h"

#include <bit>

namespace kiln::ir {
namespace {

constexpr uint32_t canonical_nan = 0x7fffffffu; // NVIDIA's result of an invalid operation
constexpr uint32_t quiet_bit = 0x00400000u;

struct Wide {
  ValueId high, low; ///< a 64-bit unsigned value as two U32 words
};

class IntegerFma {
public:
  IntegerFma(Builder& b, Rounding mode) : b_(b), mode_(mode) {}

  ValueId compute(ValueId a_bits, ValueId b_bits, std::optional<ValueId> c_bits);

private:
  struct Unpacked {
    ValueId bits, sign, significand, exponent; ///< value = significand × 2^exponent, significand in [2^23, 2^24)
    ValueId is_zero, is_infinite, is_nan;
  };

  ValueId u32(uint32_t value) { return b_.u32(value); }
  ValueId s32(int32_t value) { return b_.u32(static_cast<uint32_t>(value)); }
  ValueId op(Op o, ValueId x, ValueId y) { return b_.op(o, x, y); }
  ValueId select(ValueId c, ValueId x, ValueId y) { return b_.select(c, x, y); }
  ValueId flag(ValueId condition) { return select(condition, u32(1), u32(0)); }
  Wide select(ValueId c, Wide x, Wide y) { return {select(c, x.high, y.high), select(c, x.low, y.low)}; }

  Unpacked unpack(ValueId bits);
  Wide add(Wide x, Wide y);
  Wide subtract(Wide x, Wide y);
  /// x >> n for n in [0, 64], and whether any 1 bit was shifted out.
  std::pair<Wide, ValueId> shift_right(Wide x, ValueId n);
  ValueId leading_bit(Wide x); ///< index of the highest 1 bit of a non-zero value
  ValueId round_up(ValueId negative, ValueId odd, ValueId round_bit, ValueId sticky);
  ValueId overflow_magnitude(ValueId negative);

  Builder& b_;
  Rounding mode_;
};

IntegerFma::Unpacked IntegerFma::unpack(ValueId bits) {
  Unpacked x{.bits = bits};
  const ValueId magnitude = op(Op::And, bits, u32(0x7fffffff));
  x.sign = op(Op::LShr, bits, u32(31));
  x.is_zero = op(Op::IEq, magnitude, u32(0));
  x.is_infinite = op(Op::IEq, magnitude, u32(0x7f800000));
  x.is_nan = op(Op::UGt, magnitude, u32(0x7f800000));
  const ValueId biased = op(Op::LShr, magnitude, u32(23));
  const ValueId fraction = op(Op::And, bits, u32(0x7fffff));
  const ValueId significand = select(op(Op::IEq, biased, u32(0)), fraction, op(Op::Or, fraction, u32(0x800000)));
  // Subnormals count as exponent 1 without the implicit bit; shifting them up to bit 23 normalises them.
  const ValueId shift = op(Op::ISub, u32(23), b_.op(Op::FindMsbU, significand));
  x.significand = op(Op::Shl, significand, shift);
  x.exponent = op(Op::ISub, op(Op::ISub, op(Op::UMax, biased, u32(1)), u32(150)), shift);
  return x;
}

Wide IntegerFma::add(Wide x, Wide y) {
  const ValueId low = op(Op::IAdd, x.low, y.low);
  const ValueId carry = flag(op(Op::ULt, low, x.low));
  return {op(Op::IAdd, op(Op::IAdd, x.high, y.high), carry), low};
}

Wide IntegerFma::subtract(Wide x, Wide y) {
  const ValueId borrow = flag(op(Op::ULt, x.low, y.low));
  return {op(Op::ISub, op(Op::ISub, x.high, y.high), borrow), op(Op::ISub, x.low, y.low)};
}

std::pair<Wide, ValueId> IntegerFma::shift_right(Wide x, ValueId n) {
  // IR shifts by 32 or more give 0, which makes n = 0, 32 and 64 need no cases of their own.
  const ValueId within_word = op(Op::ULt, n, u32(32));
  const ValueId back = op(Op::ISub, u32(32), n);
  const Wide small{op(Op::LShr, x.high, n), op(Op::Or, op(Op::LShr, x.low, n), op(Op::Shl, x.high, back))};
  const ValueId small_lost = op(Op::Shl, x.low, back);
  const ValueId beyond = op(Op::ISub, n, u32(32));
  const Wide large{u32(0), op(Op::LShr, x.high, beyond)};
  const ValueId large_lost = op(Op::Or, x.low, op(Op::Shl, x.high, op(Op::ISub, u32(32), beyond)));
  const ValueId lost = select(within_word, small_lost, large_lost);
  return {select(within_word, small, large), op(Op::INe, lost, u32(0))};
}

ValueId IntegerFma::leading_bit(Wide x) {
  return select(op(Op::INe, x.high, u32(0)), op(Op::IAdd, b_.op(Op::FindMsbU, x.high), u32(32)), b_.op(Op::FindMsbU, x.low));
}

ValueId IntegerFma::round_up(ValueId negative, ValueId odd, ValueId round_bit, ValueId sticky) {
  // Whether the magnitude moves to the next representable value, given the kept LSB and the bits below it.
  const ValueId inexact = b_.op(Op::LOr, round_bit, sticky);
  switch (mode_) {
  case Rounding::nearest: return b_.op(Op::LAnd, round_bit, b_.op(Op::LOr, sticky, odd));
  case Rounding::zero: return b_.boolean(false);
  case Rounding::plus_infinity: return b_.op(Op::LAnd, inexact, b_.op(Op::LNot, negative));
  case Rounding::minus_infinity: return b_.op(Op::LAnd, inexact, negative);
  }
  return b_.boolean(false);
}

ValueId IntegerFma::overflow_magnitude(ValueId negative) {
  // Infinity, or the largest finite value where the rounding direction points back towards zero.
  const ValueId infinity = u32(0x7f800000), largest = u32(0x7f7fffff);
  switch (mode_) {
  case Rounding::nearest: return infinity;
  case Rounding::zero: return largest;
  case Rounding::plus_infinity: return select(negative, largest, infinity);
  case Rounding::minus_infinity: return select(negative, infinity, largest);
  }
  return infinity;
}

ValueId IntegerFma::compute(ValueId a_bits, ValueId b_bits, std::optional<ValueId> c_bits) {
  const Unpacked a = unpack(a_bits), bv = unpack(b_bits);
  const std::optional<Unpacked> c = c_bits ? std::optional(unpack(*c_bits)) : std::nullopt;
  const ValueId product_sign = op(Op::Xor, a.sign, bv.sign);

  // The 48-bit product, its leading bit moved to bit 47, then placed at bit 61 of a 64-bit window.
  Wide product{b_.op(Op::UMulHi, a.significand, bv.significand), op(Op::IMul, a.significand, bv.significand)};
  ValueId product_exponent = op(Op::IAdd, a.exponent, bv.exponent);
  const ValueId below_47 = op(Op::IEq, op(Op::And, product.high, u32(0x8000)), u32(0));
  const Wide doubled{op(Op::Or, op(Op::Shl, product.high, u32(1)), op(Op::LShr, product.low, u32(31))), op(Op::Shl, product.low, u32(1))};
  product = select(below_47, doubled, product);
  product_exponent = op(Op::ISub, product_exponent, op(Op::IAdd, flag(below_47), u32(14)));
  product = {op(Op::Or, op(Op::Shl, product.high, u32(14)), op(Op::LShr, product.low, u32(18))), op(Op::Shl, product.low, u32(14))};

  // The addend at bit 61 (a zero or missing addend adds nothing at the product's exponent).
  Wide addend{u32(0), u32(0)};
  ValueId addend_exponent = product_exponent, addend_sign = product_sign;
  if (c) {
    addend = {select(c->is_zero, u32(0), op(Op::Shl, c->significand, u32(6))), u32(0)};
    addend_exponent = select(c->is_zero, product_exponent, op(Op::ISub, c->exponent, u32(38)));
    addend_sign = c->sign;
  }

  const ValueId product_is_larger = op(Op::SGe, product_exponent, addend_exponent);
  const Wide larger = select(product_is_larger, product, addend);
  const Wide smaller = select(product_is_larger, addend, product);
  const ValueId exponent = select(product_is_larger, product_exponent, addend_exponent); // of the result's bit 0
  const ValueId larger_sign = select(product_is_larger, product_sign, addend_sign);
  ValueId distance = select(product_is_larger, op(Op::ISub, product_exponent, addend_exponent), op(Op::ISub, addend_exponent, product_exponent));
  distance = op(Op::UMin, distance, u32(64));
  auto [aligned, lost] = shift_right(smaller, distance);
  aligned.low = op(Op::Or, aligned.low, flag(lost));

  // Opposite signs subtract; only equal exponents (nothing shifted out) can leave a negative difference.
  const ValueId subtracting = op(Op::INe, product_sign, addend_sign);
  Wide sum = select(subtracting, subtract(larger, aligned), add(larger, aligned));
  const ValueId negative_difference = op(Op::INe, op(Op::LShr, sum.high, u32(31)), u32(0));
  sum = select(negative_difference, subtract({u32(0), u32(0)}, sum), sum);
  const ValueId sign = op(Op::Xor, larger_sign, flag(negative_difference));
  const ValueId cancelled = b_.op(Op::LAnd, op(Op::IEq, sum.high, u32(0)), op(Op::IEq, sum.low, u32(0)));

  // Round to 24 bits (normal results) or to the 2^-149 grid (subnormal results): drop `shift` low bits.
  const ValueId top = leading_bit(sum);
  const ValueId biased_exponent = op(Op::IAdd, op(Op::IAdd, top, exponent), u32(127));
  const ValueId normal = op(Op::SGt, biased_exponent, u32(0));
  const ValueId shift = select(normal, op(Op::ISub, top, u32(23)), op(Op::ISub, s32(-149), exponent));
  const ValueId exact_shift = op(Op::SLe, shift, u32(0)); // few bits left after cancellation: shift them up
  const auto [kept_and_round, sticky] = shift_right(sum, op(Op::UMin, op(Op::ISub, shift, u32(1)), u32(64)));
  const ValueId round_bit = b_.op(Op::LAnd, b_.op(Op::LNot, exact_shift), op(Op::INe, op(Op::And, kept_and_round.low, u32(1)), u32(0)));
  const ValueId kept = select(exact_shift, op(Op::Shl, sum.low, op(Op::ISub, u32(0), shift)), op(Op::LShr, kept_and_round.low, u32(1)));
  const ValueId inexact_below = b_.op(Op::LAnd, b_.op(Op::LNot, exact_shift), sticky);
  const ValueId negative = op(Op::INe, sign, u32(0));
  const ValueId odd = op(Op::INe, op(Op::And, kept, u32(1)), u32(0));
  // The exponent field plus the significand with its implicit bit: a carry out of the significand (or from the
  // largest subnormal) moves into the exponent as it should.
  const ValueId field_base = op(Op::Shl, select(normal, op(Op::ISub, biased_exponent, u32(1)), u32(0)), u32(23));
  ValueId magnitude = op(Op::IAdd, op(Op::IAdd, field_base, kept), flag(round_up(negative, odd, round_bit, inexact_below)));
  magnitude = select(op(Op::UGe, magnitude, u32(0x7f800000)), overflow_magnitude(negative), magnitude);
  const ValueId exact_zero = u32(mode_ == Rounding::minus_infinity ? 0x80000000u : 0u); // x + (-x)
  ValueId result = select(cancelled, exact_zero, op(Op::Or, op(Op::Shl, sign, u32(31)), magnitude));

  // Special operands, later selects taking precedence.
  const ValueId product_zero = b_.op(Op::LOr, a.is_zero, bv.is_zero);
  const ValueId product_infinite = b_.op(Op::LOr, a.is_infinite, bv.is_infinite);
  const ValueId product_sign_bit = op(Op::Shl, product_sign, u32(31));
  ValueId invalid = b_.op(Op::LAnd, product_zero, product_infinite);
  if (c) {
    // A zero product leaves c, or a zero whose sign follows the rules of x + y when c is zero too.
    const ValueId zero_sum = select(op(Op::IEq, product_sign, c->sign), product_sign_bit, exact_zero);
    result = select(product_zero, select(c->is_zero, zero_sum, c->bits), result);
    result = select(c->is_infinite, c->bits, result);
    invalid = b_.op(Op::LOr, invalid, b_.op(Op::LAnd, b_.op(Op::LAnd, product_infinite, c->is_infinite), op(Op::INe, product_sign, c->sign)));
  } else {
    result = select(product_zero, product_sign_bit, result);
  }
  result = select(product_infinite, op(Op::Or, product_sign_bit, u32(0x7f800000)), result);
  result = select(invalid, u32(canonical_nan), result);
  if (c) result = select(c->is_nan, op(Op::Or, c->bits, u32(quiet_bit)), result);
  result = select(bv.is_nan, op(Op::Or, bv.bits, u32(quiet_bit)), result);
  return select(a.is_nan, op(Op::Or, a.bits, u32(quiet_bit)), result);
}

} // namespace

ValueId add_round_to_odd_f32(Builder& b, ValueId x, ValueId y) {
  const ValueId sum = b.op(Op::FAdd, x, y);
  const ValueId y_virtual = b.op(Op::FSub, sum, x);
  const ValueId x_virtual = b.op(Op::FSub, sum, y_virtual);
  const ValueId error = b.op(Op::FAdd, b.op(Op::FSub, x, x_virtual), b.op(Op::FSub, y, y_virtual));
  const ValueId bits = b.convert(Op::Bitcast, Type::U32, sum);
  const ValueId error_bits = b.convert(Op::Bitcast, Type::U32, error);
  const ValueId inexact = b.op(Op::FOrdNe, error, b.f32(0.0f));
  const ValueId even = b.op(Op::IEq, b.op(Op::And, bits, b.u32(1)), b.u32(0));
  // Same sign: the exact magnitude is larger, so the bits go up by one; otherwise down.
  const ValueId same_sign = b.op(Op::IEq, b.op(Op::LShr, b.op(Op::Xor, bits, error_bits), b.u32(31)), b.u32(0));
  const ValueId stepped = b.select(same_sign, b.op(Op::IAdd, bits, b.u32(1)), b.op(Op::ISub, bits, b.u32(1)));
  return b.convert(Op::Bitcast, Type::F32, b.select(b.op(Op::LAnd, inexact, even), stepped, bits));
}

std::pair<ValueId, ValueId> float_fma_f32(Builder& b, ValueId a, ValueId bv, ValueId c) {
  const auto split = [&](ValueId x) { // Veltkamp: 12 high bits and the rest, both exact
    const ValueId scaled = b.op(Op::FMul, x, b.f32(4097.0f)); // 2^12 + 1
    const ValueId high = b.op(Op::FSub, scaled, b.op(Op::FSub, scaled, x));
    return std::pair{high, b.op(Op::FSub, x, high)};
  };
  const auto [a_high, a_low] = split(a);
  const auto [b_high, b_low] = split(bv);
  const ValueId product = b.op(Op::FMul, a, bv);
  // Dekker: a*b = product + product_error exactly.
  ValueId product_error = b.op(Op::FSub, b.op(Op::FMul, a_high, b_high), product);
  product_error = b.op(Op::FAdd, product_error, b.op(Op::FMul, a_high, b_low));
  product_error = b.op(Op::FAdd, product_error, b.op(Op::FMul, a_low, b_high));
  product_error = b.op(Op::FAdd, product_error, b.op(Op::FMul, a_low, b_low));
  // TwoSum: c + product = high + low exactly.
  const ValueId high = b.op(Op::FAdd, c, product);
  const ValueId product_virtual = b.op(Op::FSub, high, c);
  const ValueId c_virtual = b.op(Op::FSub, high, product_virtual);
  const ValueId low = b.op(Op::FAdd, b.op(Op::FSub, c, c_virtual), b.op(Op::FSub, product, product_virtual));
  const ValueId result = b.op(Op::FAdd, high, add_round_to_odd_f32(b, low, product_error));

  const auto magnitude = [&](ValueId x) { return b.op(Op::And, b.convert(Op::Bitcast, Type::U32, x), b.u32(0x7fffffff)); };
  const auto bits = [](float x) { return std::bit_cast<uint32_t>(x); };
  const auto within = [&](ValueId m, float low_bound, float high_bound) { // NaN bits lie above every bound
    return b.op(Op::LAnd, b.op(Op::UGe, m, b.u32(bits(low_bound))), b.op(Op::ULe, m, b.u32(bits(high_bound))));
  };
  ValueId in_range = b.op(Op::LAnd, within(magnitude(a), 0x1p-100f, 0x1p100f), within(magnitude(bv), 0x1p-100f, 0x1p100f));
  in_range = b.op(Op::LAnd, in_range, within(magnitude(product), 0x1p-78f, 0x1.fffffep125f));
  const ValueId c_magnitude = magnitude(c);
  const ValueId c_ok = b.op(Op::LOr, b.op(Op::IEq, c_magnitude, b.u32(0)), within(c_magnitude, 0x1p-100f, 0x1.fffffep125f));
  return {result, b.op(Op::LAnd, in_range, c_ok)};
}

ValueId integer_fma_f32(Builder& b, ValueId a, ValueId bv, std::optional<ValueId> c, Rounding mode) {
  const auto bits = [&](ValueId x) { return b.convert(Op::Bitcast, Type::U32, x); };
  const std::optional<ValueId> c_bits = c ? std::optional(bits(*c)) : std::nullopt;
  return b.convert(Op::Bitcast, Type::F32, IntegerFma(b, mode).compute(bits(a), bits(bv), c_bits));
}

uint32_t fma_f32_nan_rule(uint32_t a, uint32_t b, uint32_t c, uint32_t result) {
  const auto is_nan = [](uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; };
  if (is_nan(a)) return a | quiet_bit;
  if (is_nan(b)) return b | quiet_bit;
  if (is_nan(c)) return c | quiet_bit;
  return is_nan(result) ? canonical_nan : result;
}

} // namespace kiln::ir
