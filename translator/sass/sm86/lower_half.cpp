// Half precision: HADD2/HMUL2/HFMA2 on pairs of halves and F2FP.PACK_AB, in f32 without FP64 or Float16 on the
// host. Each lane's f32 result is rounded to half once more by integer code (translator/ir/half_bits.h), and that
// second rounding is exact: a sum or product of halves rounded to f32 (24 >= 2 x 11 + 2 bits) rounds to the same
// half as the exact value (Figueroa, "When is double rounding innocuous?", SIGNUM 1995); HFMA2's product is exact
// in f32 and its sum is rounded to odd in f32 (24 >= 11 + 2 bits: Boldo & Melquiond, IEEE TC 2008).
#include "runtime/base/error.h"
#include "translator/ir/half_bits.h"
#include "translator/ir/integer_fma.h"
#include "translator/sass/lowering/shared_semantics.h"
#include "translator/sass/sm86/lower_context.h"

namespace kiln::sass::sm86 {

using ir::Op;
using ir::Type;

ir::ValueId Lowerer::half_to_float(ValueId bits16) { return sass::half_to_float(b_, bits16); }

ir::ValueId Lowerer::float_to_half(ValueId value) { return ir::half_bits(b_, b_.convert(Op::Bitcast, Type::U32, value)); }

std::array<ir::ValueId, 2> Lowerer::half_pair(const Operand& source) {
  // The two lanes (low, high) of a packed source as f32, after its swizzle and |x| / -x.
  ValueId bits = source_bits(source);
  if (source.kind == OperandKind::immediate && source.immediate_type != ImmediateType::float16x2) {
    throw Error("half operand with a non-half immediate");
  }
  ValueId low = b_.op(Op::And, bits, u32(0xffff));
  ValueId high = b_.op(Op::LShr, bits, u32(16));
  if (source.suffix == "H0_H0") high = low;
  else if (source.suffix == "H1_H1") low = high;
  else if (!source.suffix.empty()) throw Error("half operand swizzle not translated yet");
  std::array<ValueId, 2> lanes{half_to_float(low), half_to_float(high)};
  for (ValueId& lane : lanes) {
    if (source.absolute) lane = b_.op(Op::FAbs, lane);
    if (source.negate) lane = b_.op(Op::FNeg, lane);
  }
  return lanes;
}

void Lowerer::lower_half_arith(const Instruction& instruction) {
  if (instruction.has(Modifier::FTZ)) throw Error("half precision with .FTZ is not translated yet");
  const auto a = half_pair(operand(instruction, 1));
  const auto bv = half_pair(operand(instruction, 2));
  std::array<ValueId, 2> lanes;
  for (int lane = 0; lane < 2; ++lane) {
    switch (instruction.opcode) {
    case Opcode::HADD2: lanes[lane] = b_.op(Op::FAdd, a[lane], bv[lane]); break;
    case Opcode::HMUL2: lanes[lane] = b_.op(Op::FMul, a[lane], bv[lane]); break;
    default: lanes[lane] = ir::add_round_to_odd_f32(b_, b_.op(Op::FMul, a[lane], bv[lane]), half_pair(operand(instruction, 3))[lane]); break;
    }
    if (instruction.has(Modifier::SAT)) lanes[lane] = b_.op(Op::FSaturate, lanes[lane]);
  }
  if (instruction.has(Modifier::F32)) {
    // .F32: the low lane's half result, widened to a float (Turing fuses __half2float(__hmul(a, b)) into this).
    write_register(operand(instruction, 0), to_bits(half_to_float(float_to_half(lanes[0]))));
    return;
  }
  write_register(operand(instruction, 0), b_.op(Op::Or, float_to_half(lanes[0]), b_.op(Op::Shl, float_to_half(lanes[1]), u32(16))));
}

void Lowerer::lower_f2fp(const Instruction& instruction) {
  if (!instruction.has(Modifier::PACK_AB)) throw Error("F2FP forms other than PACK_AB are not translated yet");
  // PACK_AB: the second source in the low half, the first in the high half, each rounded to nearest even.
  const auto half_of = [&](const Operand& source) { return float_to_half(source_f32(source)); };
  const ValueId low = half_of(operand(instruction, 2));
  const ValueId high = half_of(operand(instruction, 1));
  write_register(operand(instruction, 0), b_.op(Op::Or, low, b_.op(Op::Shl, high, u32(16))));
}

} // namespace kiln::sass::sm86
