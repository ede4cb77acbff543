// Float to half-precision bits as IR integer operations (the IR has no 16-bit float type).
#include "translator/ir/half_bits.h"

namespace kiln::ir {

ValueId half_bits(Builder& b, ValueId value) {
  const auto u = [&](uint32_t constant) { return b.u32(constant); };
  const ValueId sign = b.op(Op::And, b.op(Op::LShr, value, u(16)), u(0x8000));
  const ValueId exponent = b.op(Op::And, b.op(Op::LShr, value, u(23)), u(0xff));
  const ValueId mantissa = b.op(Op::And, value, u(0x7fffff));
  // Normal halves (float exponent 113-142): rebias and keep the top 10 mantissa bits. Smaller values: the
  // significand with its implicit bit, shifted right by 126 - exponent (at most 31: those round to zero).
  const ValueId is_normal = b.op(Op::UGe, exponent, u(113));
  const ValueId significand = b.op(Op::Or, mantissa, u(0x800000));
  const ValueId shift = b.select(is_normal, u(13), b.op(Op::UMin, b.op(Op::ISub, u(126), exponent), u(31)));
  const ValueId source = b.select(is_normal, mantissa, significand);
  const ValueId top = b.op(Op::LShr, source, shift);
  const ValueId base = b.select(is_normal, b.op(Op::Or, b.op(Op::Shl, b.op(Op::ISub, exponent, u(112)), u(10)), top), top);
  const ValueId dropped = b.op(Op::And, source, b.op(Op::ISub, b.op(Op::Shl, u(1), shift), u(1)));
  const ValueId half_way = b.op(Op::Shl, u(1), b.op(Op::ISub, shift, u(1)));
  const ValueId round_up = b.op(Op::LOr, b.op(Op::UGt, dropped, half_way),
                                b.op(Op::LAnd, b.op(Op::IEq, dropped, half_way), b.op(Op::INe, b.op(Op::And, base, u(1)), u(0))));
  const ValueId rounded = b.select(round_up, b.op(Op::IAdd, base, u(1)), base); // a carry moves into the exponent
  const ValueId special = b.select(b.op(Op::INe, mantissa, u(0)), u(0x7e00), u(0x7c00));
  const ValueId magnitude = b.select(b.op(Op::IEq, exponent, u(255)), special, b.select(b.op(Op::UGe, exponent, u(143)), u(0x7c00), rounded));
  return b.op(Op::Or, sign, magnitude);
}

} // namespace kiln::ir
