// Float to half-precision bits as IR integer operations (the IR has no 16-bit float type).
#include "translator/sass/sm5x/half_bits.h"

namespace kiln::sass::sm5x {

using ir::Op;

ir::ValueId half_bits(ir::Builder& b, ir::ValueId value) {
  const auto u = [&](uint32_t constant) { return b.u32(constant); };
  const ir::ValueId sign = b.op(Op::And, b.op(Op::LShr, value, u(16)), u(0x8000));
  const ir::ValueId exponent = b.op(Op::And, b.op(Op::LShr, value, u(23)), u(0xff));
  const ir::ValueId mantissa = b.op(Op::And, value, u(0x7fffff));
  // Normal halves (float exponent 113-142): rebias and keep the top 10 mantissa bits. Smaller values: the
  // significand with its implicit bit, shifted right by 126 - exponent (at most 31: those round to zero).
  const ir::ValueId is_normal = b.op(Op::UGe, exponent, u(113));
  const ir::ValueId significand = b.op(Op::Or, mantissa, u(0x800000));
  const ir::ValueId shift = b.select(is_normal, u(13), b.op(Op::UMin, b.op(Op::ISub, u(126), exponent), u(31)));
  const ir::ValueId source = b.select(is_normal, mantissa, significand);
  const ir::ValueId top = b.op(Op::LShr, source, shift);
  const ir::ValueId base = b.select(is_normal, b.op(Op::Or, b.op(Op::Shl, b.op(Op::ISub, exponent, u(112)), u(10)), top), top);
  const ir::ValueId dropped = b.op(Op::And, source, b.op(Op::ISub, b.op(Op::Shl, u(1), shift), u(1)));
  const ir::ValueId half_way = b.op(Op::Shl, u(1), b.op(Op::ISub, shift, u(1)));
  const ir::ValueId round_up = b.op(Op::LOr, b.op(Op::UGt, dropped, half_way),
                                b.op(Op::LAnd, b.op(Op::IEq, dropped, half_way), b.op(Op::INe, b.op(Op::And, base, u(1)), u(0))));
  const ir::ValueId rounded = b.select(round_up, b.op(Op::IAdd, base, u(1)), base); // a carry moves into the exponent
  const ir::ValueId special = b.select(b.op(Op::INe, mantissa, u(0)), u(0x7e00), u(0x7c00));
  const ir::ValueId magnitude = b.select(b.op(Op::IEq, exponent, u(255)), special, b.select(b.op(Op::UGe, exponent, u(143)), u(0x7c00), rounded));
  return b.op(Op::Or, sign, magnitude);
}


} // namespace kiln::sass::sm5x
