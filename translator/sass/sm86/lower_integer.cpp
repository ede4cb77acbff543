// Integer, logic and predicate instructions (and their uniform-datapath twins) in terms of IR ops.
#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/sass/lowering/shared_semantics.h"
#include "translator/sass/sm86/lower_context.h"

namespace kiln::sass::sm86 {

using ir::Op;
using ir::Type;

namespace {
bool is_signed_compare_type(const Instruction& instruction) { return !instruction.has(Modifier::U32); }
} // namespace

ir::ValueId Lowerer::lut3(uint32_t lut, ValueId a, ValueId b, ValueId c) {
  // Bit i of the table is the result for (a, b, c) = (bit 2, bit 1, bit 0) of i: an OR of minterms.
  const Type type = function_.insts[a].type;
  const bool boolean = type == Type::Bool;
  const ValueId zero = boolean ? b_.boolean(false) : u32(0);
  const auto both = [&](ValueId x, ValueId y) { return b_.op(boolean ? Op::LAnd : Op::And, x, y); };
  const auto either = [&](ValueId x, ValueId y) { return b_.op(boolean ? Op::LOr : Op::Or, x, y); };
  const auto inverse = [&](ValueId x) { return b_.op(boolean ? Op::LNot : Op::Not, x); };
  ValueId result = zero;
  for (uint32_t i = 0; i < 8; ++i) {
    if (!((lut >> i) & 1)) continue;
    const ValueId term = both(both((i & 4) ? a : inverse(a), (i & 2) ? b : inverse(b)), (i & 1) ? c : inverse(c));
    result = either(result, term);
  }
  return result;
}

void Lowerer::lower_iadd3(const Instruction& instruction, bool) {
  // Three 32-bit sums in 64 bits: the carries land in bits 32 and 33. "-x" is ~x + 1 (as the hardware
  // subtracts), so a - b carries out exactly when there is no borrow.
  const bool extended = instruction.has(Modifier::X);
  ValueId sum = b_.u64(0);
  for (size_t i = 3; i < 6; ++i) {
    const Operand& source = operand(instruction, i);
    ValueId value = source_bits(source);
    if (source.invert || source.negate) value = b_.op(Op::Not, value);
    sum = b_.op(Op::IAdd, sum, b_.convert(Op::ZExt, Type::U64, value));
    if (source.negate) sum = b_.op(Op::IAdd, sum, b_.u64(1));
  }
  if (extended) {
    for (size_t i = 6; i < 8; ++i) sum = b_.op(Op::IAdd, sum, b_.convert(Op::ZExt, Type::U64, read_predicate(operand(instruction, i))));
  }
  write_register(operand(instruction, 0), b_.convert(Op::Trunc, Type::U32, sum));
  const auto carry_bit = [&](uint32_t bit) { return b_.op(Op::INe, b_.op(Op::And, sum, b_.u64(uint64_t{1} << bit)), b_.u64(0)); };
  write_predicate(operand(instruction, 1), carry_bit(32));
  write_predicate(operand(instruction, 2), carry_bit(33));
}

void Lowerer::lower_imad(const Instruction& instruction) {
  const bool is_unsigned = instruction.has(Modifier::U32);
  const auto negated = [&](const Operand& source, ValueId value) { return source.negate ? b_.op(Op::INeg, value) : value; };
  if (instruction.has(Modifier::WIDE) || instruction.has(Modifier::HI)) {
    // IMAD.WIDE: Rd.64 = a * b + c.64 (+ carry-in with .X), carry out of bit 64 in the predicate.
    // IMAD.HI: the high word of the same sum: its addend is also a register pair, so hi(a*b) + c.hi + the
    // carry of lo(a*b) + c.lo (what division by a constant relies on).
    const Op extend = is_unsigned ? Op::ZExt : Op::SExt;
    const ValueId a = b_.convert(extend, Type::U64, source_u32(operand(instruction, 2)));
    const ValueId bv = b_.convert(extend, Type::U64, negated(operand(instruction, 3), source_u32(operand(instruction, 3))));
    ValueId c = source_u64(operand(instruction, 4));
    if (operand(instruction, 4).negate) c = b_.op(Op::INeg, c);
    const ValueId product = b_.op(Op::IMul, a, bv);
    ValueId sum = b_.op(Op::IAdd, product, c);
    ValueId carry = b_.op(Op::ULt, sum, product);
    if (instruction.has(Modifier::X)) {
      const ValueId with_carry = b_.op(Op::IAdd, sum, b_.convert(Op::ZExt, Type::U64, read_predicate(operand(instruction, 5))));
      carry = b_.op(Op::LOr, carry, b_.op(Op::ULt, with_carry, sum));
      sum = with_carry;
    }
    if (instruction.has(Modifier::WIDE)) {
      write_pair(operand(instruction, 0), sum);
    } else {
      write_register(operand(instruction, 0), b_.convert(Op::Trunc, Type::U32, b_.op(Op::LShr, sum, u32(32))));
    }
    write_predicate(operand(instruction, 1), carry);
    return;
  }
  // Plain IMAD (also printed as IMAD.MOV, IMAD.SHL, IMAD.IADD) and IMAD.X (adds a carry-in predicate).
  const ValueId product = b_.op(Op::IMul, source_u32(operand(instruction, 1)), negated(operand(instruction, 2), source_u32(operand(instruction, 2))));
  ValueId result = b_.op(Op::IAdd, product, negated(operand(instruction, 3), source_u32(operand(instruction, 3))));
  if (instruction.has(Modifier::X)) result = b_.op(Op::IAdd, result, b_.convert(Op::ZExt, Type::U32, read_predicate(operand(instruction, 4))));
  write_register(operand(instruction, 0), result);
}

void Lowerer::lower_lea(const Instruction& instruction) {
  // LEA: (a << s) + b. LEA.HI: high word of (c:a) << s, plus b; .SX32 takes c as the sign of a.
  const bool high = instruction.has(Modifier::HI);
  const bool sign_extended = instruction.has(Modifier::SX32);
  const bool extended = instruction.has(Modifier::X);
  const Operand& a_operand = operand(instruction, 2);
  ValueId a = source_u32(a_operand);
  if (a_operand.negate) a = b_.op(Op::INeg, a);
  const ValueId bv = source_u32(operand(instruction, 3));
  const bool has_c = high && !sign_extended;
  const size_t shift_index = has_c ? 5 : 4;
  const auto shift = static_cast<uint32_t>(operand(instruction, shift_index).value) & 31;
  ValueId shifted;
  if (high) {
    const ValueId c = has_c ? source_u32(operand(instruction, 4)) : b_.op(Op::AShr, a, u32(31));
    const ValueId wide = b_.op(Op::Pack64, a, c);
    shifted = b_.convert(Op::Trunc, Type::U32, b_.op(Op::LShr, b_.op(Op::Shl, wide, u32(shift)), u32(32)));
  } else {
    shifted = b_.op(Op::Shl, a, u32(shift));
  }
  ValueId sum = b_.op(Op::IAdd, b_.convert(Op::ZExt, Type::U64, shifted), b_.convert(Op::ZExt, Type::U64, bv));
  if (extended) sum = b_.op(Op::IAdd, sum, b_.convert(Op::ZExt, Type::U64, read_predicate(operand(instruction, shift_index + 1))));
  write_register(operand(instruction, 0), b_.convert(Op::Trunc, Type::U32, sum));
  write_predicate(operand(instruction, 1), b_.op(Op::UGe, sum, b_.u64(uint64_t{1} << 32)));
}

void Lowerer::lower_lop3(const Instruction& instruction, bool) {
  const Operand& predicate_in = operand(instruction, 6);
  if (!(predicate_in.index == kPT && predicate_in.invert)) throw Error("LOP3 with a predicate input other than !PT");
  const ValueId result = lut3(static_cast<uint32_t>(operand(instruction, 5).value) & 0xff, source_u32(operand(instruction, 2)),
                              source_u32(operand(instruction, 3)), source_u32(operand(instruction, 4)));
  write_register(operand(instruction, 1), result);
  write_predicate(operand(instruction, 0), b_.op(Op::INe, result, u32(0)));
}

void Lowerer::lower_plop3(const Instruction& instruction) {
  const ValueId a = read_predicate(operand(instruction, 2));
  const ValueId bv = read_predicate(operand(instruction, 3));
  const ValueId c = read_predicate(operand(instruction, 4));
  write_predicate(operand(instruction, 0), lut3(static_cast<uint32_t>(operand(instruction, 5).value) & 0xff, a, bv, c));
  write_predicate(operand(instruction, 1), lut3(static_cast<uint32_t>(operand(instruction, 6).value) & 0xff, a, bv, c));
}

void Lowerer::lower_shf(const Instruction& instruction, bool) {
  // A funnel shift of (c:a); 32-bit types clamp (or with .W wrap) the amount at 32, 64-bit ones at 64.
  const bool wide = instruction.has(Modifier::S64) || instruction.has(Modifier::U64);
  const bool arithmetic = instruction.has(Modifier::S64) || instruction.has(Modifier::S32);
  const uint32_t bits = wide ? 64 : 32;
  const ValueId value = b_.op(Op::Pack64, source_u32(operand(instruction, 1)), source_u32(operand(instruction, 3)));
  const ValueId amount_in = source_u32(operand(instruction, 2));
  const ValueId amount = instruction.has(Modifier::W) ? b_.op(Op::And, amount_in, u32(bits - 1)) : b_.op(Op::UMin, amount_in, u32(bits));
  ValueId shifted;
  if (instruction.has(Modifier::L)) shifted = b_.op(Op::Shl, value, amount);
  else shifted = b_.op(arithmetic ? Op::AShr : Op::LShr, value, amount);
  if (instruction.has(Modifier::HI)) shifted = b_.op(Op::LShr, shifted, u32(32));
  write_register(operand(instruction, 0), b_.convert(Op::Trunc, Type::U32, shifted));
}

void Lowerer::lower_prmt(const Instruction& instruction) {
  if (instruction.has(Modifier::F4E) || instruction.has(Modifier::B4E) || instruction.has(Modifier::RC8) ||
      instruction.has(Modifier::ECL) || instruction.has(Modifier::ECR) || instruction.has(Modifier::RC16)) {
    throw Error("PRMT modes other than the default are not translated yet");
  }
  const ValueId result = byte_permute(b_, source_u32(operand(instruction, 1)), source_u32(operand(instruction, 3)), source_u32(operand(instruction, 2)));
  write_register(operand(instruction, 0), result);
}

void Lowerer::lower_isetp(const Instruction& instruction) {
  const bool is_signed = is_signed_compare_type(instruction);
  const ValueId a = source_u32(operand(instruction, 2));
  const ValueId bv = source_u32(operand(instruction, 3));
  const auto compare = [&](Op signed_op, Op unsigned_op) { return b_.op(is_signed ? signed_op : unsigned_op, a, bv); };
  const bool extended = instruction.has(Modifier::EX);
  ValueId result;
  if (instruction.has(Modifier::F)) result = b_.boolean(false);
  else if (instruction.has(Modifier::T)) result = b_.boolean(true);
  else if (instruction.has(Modifier::EQ)) result = b_.op(Op::IEq, a, bv);
  else if (instruction.has(Modifier::NE)) result = b_.op(Op::INe, a, bv);
  else if (instruction.has(Modifier::LT)) result = compare(Op::SLt, Op::ULt);
  else if (instruction.has(Modifier::LE)) result = compare(Op::SLe, Op::ULe);
  else if (instruction.has(Modifier::GT)) result = compare(Op::SGt, Op::UGt);
  else if (instruction.has(Modifier::GE)) result = compare(Op::SGe, Op::UGe);
  else throw Error("ISETP without a comparison");
  if (extended) {
    // The high words of a 64-bit compare: the low words' result (same comparison) decides ties.
    const ValueId low = read_predicate(operand(instruction, 5));
    const ValueId equal = b_.op(Op::IEq, a, bv);
    if (instruction.has(Modifier::EQ)) result = b_.op(Op::LAnd, equal, low);
    else if (instruction.has(Modifier::NE)) result = b_.op(Op::LOr, result, low);
    else if (!instruction.has(Modifier::F) && !instruction.has(Modifier::T)) {
      const ValueId strict = instruction.has(Modifier::LT) || instruction.has(Modifier::LE) ? compare(Op::SLt, Op::ULt) : compare(Op::SGt, Op::UGt);
      result = b_.op(Op::LOr, strict, b_.op(Op::LAnd, equal, low));
    }
  }
  const ValueId other = read_predicate(operand(instruction, 4));
  write_predicate(operand(instruction, 0), combine_predicate(instruction, result, other));
  write_predicate(operand(instruction, 1), combine_predicate(instruction, b_.op(Op::LNot, result), other));
}

ir::ValueId Lowerer::combine_predicate(const Instruction& instruction, ValueId result, ValueId other) {
  if (instruction.has(Modifier::OR)) return b_.op(Op::LOr, result, other);
  if (instruction.has(Modifier::XOR)) return b_.op(Op::LXor, result, other);
  return b_.op(Op::LAnd, result, other);
}

bool Lowerer::lower_integer(const Instruction& instruction) {
  switch (instruction.opcode) {
  case Opcode::IADD3: lower_iadd3(instruction, false); return true;
  case Opcode::UIADD3: lower_iadd3(instruction, true); return true;
  case Opcode::IMAD:
  case Opcode::UIMAD: lower_imad(instruction); return true;
  case Opcode::LEA:
  case Opcode::ULEA: lower_lea(instruction); return true;
  case Opcode::LOP3: lower_lop3(instruction, false); return true;
  case Opcode::ULOP3: lower_lop3(instruction, true); return true;
  case Opcode::PLOP3: lower_plop3(instruction); return true;
  case Opcode::SHF: lower_shf(instruction, false); return true;
  case Opcode::USHF: lower_shf(instruction, true); return true;
  case Opcode::PRMT: lower_prmt(instruction); return true;
  case Opcode::ISETP:
  case Opcode::UISETP: lower_isetp(instruction); return true;
  case Opcode::MOV:
  case Opcode::UMOV: write_register(operand(instruction, 0), source_u32(operand(instruction, 1))); return true;
  case Opcode::SEL:
  case Opcode::USEL:
  case Opcode::FSEL: // the sources' negate/absolute modifiers apply (sinf's polynomial selects -c with FSEL)
    write_register(operand(instruction, 0), b_.select(read_predicate(operand(instruction, 3)), to_bits(source_f32(operand(instruction, 1))),
                                                      to_bits(source_f32(operand(instruction, 2)))));
    return true;
  case Opcode::IMNMX: {
    const bool is_signed = is_signed_compare_type(instruction);
    const ValueId a = source_u32(operand(instruction, 1)), bv = source_u32(operand(instruction, 2));
    const ValueId minimum = b_.op(is_signed ? Op::SMin : Op::UMin, a, bv);
    const ValueId maximum = b_.op(is_signed ? Op::SMax : Op::UMax, a, bv);
    write_register(operand(instruction, 0), b_.select(read_predicate(operand(instruction, 3)), minimum, maximum));
    return true;
  }
  case Opcode::IABS: {
    const ValueId value = source_u32(operand(instruction, 1));
    write_register(operand(instruction, 0), b_.select(b_.op(Op::SLt, value, u32(0)), b_.op(Op::INeg, value), value));
    return true;
  }
  case Opcode::POPC:
  case Opcode::UPOPC: write_register(operand(instruction, 0), b_.op(Op::PopCount, source_u32(operand(instruction, 1)))); return true;
  case Opcode::BREV: write_register(operand(instruction, 0), b_.op(Op::BitReverse, source_u32(operand(instruction, 1)))); return true;
  case Opcode::FLO:
  case Opcode::UFLO: {
    const ValueId value = source_u32(instruction.operands.back()); // FLO Rd, [P,] Rb; UFLO URd, URb
    ValueId msb = b_.op(instruction.has(Modifier::U32) ? Op::FindMsbU : Op::FindMsbS, value);
    if (instruction.has(Modifier::SH)) {
      const ValueId none = b_.op(Op::IEq, msb, u32(0xffffffff));
      msb = b_.select(none, msb, b_.op(Op::ISub, u32(31), msb));
    }
    write_register(operand(instruction, 0), msb);
    return true;
  }
  default: return false;
  }
}

} // namespace kiln::sass::sm86
