// Floating-point instructions. Directed rounding (.RZ/.RM/.RP), which Vulkan cannot select, is computed from
// the round-to-nearest result and its exact error term; .FTZ flushes inputs and results in shader code.
#include <bit>
#include <numbers>

#include "runtime/base/error.h"
#include "translator/ir/rounding.h"
#include "translator/sass/lowering/shared_semantics.h"
#include "translator/sass/sm86/lower_context.h"

namespace kiln::sass::sm86 {

using ir::Op;
using ir::Type;

ir::ValueId Lowerer::flush(ValueId value, bool ftz) { return ftz ? b_.op(Op::FFlushDenormal, value) : value; }

void Lowerer::lower_float_arith(const Instruction& instruction, bool is_double) {
  const bool ftz = instruction.has(Modifier::FTZ);
  const auto source = [&](size_t index) { return is_double ? source_f64(operand(instruction, index)) : flush(source_f32(operand(instruction, index)), ftz); };
  // FMUL's result scale (.D2 = x 0.5 ... .M8 = x 8): a power of two, exact outside the denormal and overflow
  // ranges, applied to the rounded product as the SM5x lowering does.
  float scale = 1.0f;
  static constexpr std::pair<Modifier, float> scales[] = {{Modifier::D2, 0.5f}, {Modifier::D4, 0.25f}, {Modifier::D8, 0.125f},
                                                          {Modifier::M2, 2.0f}, {Modifier::M4, 4.0f}, {Modifier::M8, 8.0f}};
  for (const auto& [modifier, factor] : scales) {
    if (instruction.has(modifier)) scale = factor;
  }
  const ValueId a = source(1), bv = source(2);
  const ir::Rounding mode = instruction.has(Modifier::RZ)   ? ir::Rounding::zero
                            : instruction.has(Modifier::RM) ? ir::Rounding::minus_infinity
                            : instruction.has(Modifier::RP) ? ir::Rounding::plus_infinity
                                                            : ir::Rounding::nearest;
  ValueId result;
  switch (instruction.opcode) {
  case Opcode::FADD:
  case Opcode::DADD: result = ir::rounded_add(b_, a, bv, mode); break;
  case Opcode::FMUL:
  case Opcode::DMUL: result = ir::rounded_mul(b_, a, bv, mode); break;
  default: result = ir::rounded_fma(b_, a, bv, source(3), mode); break;
  }
  if (scale != 1.0f) result = b_.op(Op::FMul, result, b_.f32(scale));
  if (instruction.has(Modifier::SAT)) result = b_.op(Op::FSaturate, result);
  result = flush(result, ftz);
  if (is_double) write_pair(operand(instruction, 0), to_bits(result));
  else write_register(operand(instruction, 0), to_bits(result));
}

ir::ValueId Lowerer::float_compare(const Instruction& instruction, ValueId a, ValueId bv) {
  static constexpr std::pair<Modifier, Op> comparisons[] = {
      {Modifier::LT, Op::FOrdLt},    {Modifier::EQ, Op::FOrdEq},    {Modifier::LE, Op::FOrdLe},    {Modifier::GT, Op::FOrdGt},
      {Modifier::NE, Op::FOrdNe},    {Modifier::GE, Op::FOrdGe},    {Modifier::LTU, Op::FUnordLt}, {Modifier::EQU, Op::FUnordEq},
      {Modifier::LEU, Op::FUnordLe}, {Modifier::GTU, Op::FUnordGt}, {Modifier::NEU, Op::FUnordNe}, {Modifier::GEU, Op::FUnordGe}};
  for (const auto& [modifier, op] : comparisons) {
    if (instruction.has(modifier)) return b_.op(op, a, bv);
  }
  const ValueId either_nan = b_.op(Op::LOr, b_.op(Op::FIsNan, a), b_.op(Op::FIsNan, bv));
  if (instruction.has(Modifier::NAN_)) return either_nan;
  if (instruction.has(Modifier::NUM)) return b_.op(Op::LNot, either_nan);
  if (instruction.has(Modifier::T)) return b_.boolean(true);
  if (instruction.has(Modifier::F)) return b_.boolean(false);
  throw Error("float compare without a comparison");
}

void Lowerer::lower_setp(const Instruction& instruction, bool is_double) {
  const bool ftz = instruction.has(Modifier::FTZ);
  const auto source = [&](size_t index) { return is_double ? source_f64(operand(instruction, index)) : flush(source_f32(operand(instruction, index)), ftz); };
  const ValueId result = float_compare(instruction, source(2), source(3));
  const ValueId other = read_predicate(operand(instruction, 4));
  write_predicate(operand(instruction, 0), combine_predicate(instruction, result, other));
  write_predicate(operand(instruction, 1), combine_predicate(instruction, b_.op(Op::LNot, result), other));
}

void Lowerer::lower_mufu(const Instruction& instruction) {
  const Operand& source = operand(instruction, 1);
  if (instruction.has(Modifier::RCP64H) || instruction.has(Modifier::RSQ64H)) {
    // The high word of the reciprocal (square root) of the double whose high word is the source: a seed for
    // Newton iterations, which here starts out more accurate than the hardware's.
    ValueId value = b_.convert(Op::Bitcast, Type::F64, b_.op(Op::Pack64, u32(0), source_u32(source)));
    if (source.absolute) value = b_.op(Op::FAbs, value);
    if (source.negate) value = b_.op(Op::FNeg, value);
    const ValueId result = b_.op(instruction.has(Modifier::RCP64H) ? Op::FRcp : Op::FRsq, value);
    write_register(operand(instruction, 0), b_.convert(Op::Trunc, Type::U32, b_.op(Op::LShr, to_bits(result), u32(32))));
    return;
  }
  const ValueId x = source_f32(source);
  ValueId result;
  if (instruction.has(Modifier::RCP)) result = b_.op(Op::FRcp, x);
  else if (instruction.has(Modifier::RSQ)) result = b_.op(Op::FRsq, x);
  else if (instruction.has(Modifier::SQRT)) result = b_.op(Op::FSqrt, x);
  else if (instruction.has(Modifier::EX2)) result = b_.op(Op::FExp2, x);
  else if (instruction.has(Modifier::LG2)) result = b_.op(Op::FLog2, x);
  else if (instruction.has(Modifier::SIN) || instruction.has(Modifier::COS)) {
    // Since Volta the argument comes pre-divided by 2*pi (ptxas multiplies by 1/(2*pi) first).
    const ValueId radians = b_.op(Op::FMul, x, b_.f32(static_cast<float>(2.0 * std::numbers::pi)));
    result = b_.op(instruction.has(Modifier::SIN) ? Op::FSin : Op::FCos, radians);
  } else {
    throw Error("MUFU function not translated yet");
  }
  write_register(operand(instruction, 0), to_bits(result));
}

void Lowerer::lower_frnd(const Instruction& instruction) {
  const bool is_double = instruction.has(Modifier::F64);
  const Operand& source = operand(instruction, 1);
  const ValueId x = is_double ? source_f64(source) : flush(source_f32(source), instruction.has(Modifier::FTZ));
  Op op = Op::FRoundEven;
  if (instruction.has(Modifier::FLOOR)) op = Op::FFloor;
  else if (instruction.has(Modifier::CEIL)) op = Op::FCeil;
  else if (instruction.has(Modifier::TRUNC)) op = Op::FTrunc;
  const ValueId result = b_.op(op, x);
  if (is_double) write_pair(operand(instruction, 0), to_bits(result));
  else write_register(operand(instruction, 0), to_bits(result));
}

void Lowerer::lower_f2i(const Instruction& instruction) {
  const bool from_double = instruction.has(Modifier::F64) || operand(instruction, 1).suffix == "64";
  if (instruction.has(Modifier::F16)) throw Error("F2I from half precision is not translated yet");
  const Operand& source = operand(instruction, 1);
  const ValueId x = from_double ? source_f64(source) : flush(source_f32(source), instruction.has(Modifier::FTZ));
  Op rounding = Op::FRoundEven;
  if (instruction.has(Modifier::FLOOR)) rounding = Op::FFloor;
  else if (instruction.has(Modifier::CEIL)) rounding = Op::FCeil;
  else if (instruction.has(Modifier::TRUNC)) rounding = Op::FTrunc;
  const ValueId rounded = b_.op(rounding, x);
  const bool is_unsigned = instruction.has(Modifier::U8) || instruction.has(Modifier::U16) || instruction.has(Modifier::U32) ||
                           instruction.has(Modifier::U64);
  if (instruction.has(Modifier::S64) || instruction.has(Modifier::U64)) {
    write_pair(operand(instruction, 0), b_.convert(is_unsigned ? Op::FToU : Op::FToS, Type::U64, rounded));
    return;
  }
  ValueId result = b_.convert(is_unsigned ? Op::FToU : Op::FToS, Type::U32, rounded);
  // Narrow destinations saturate to their own range.
  if (instruction.has(Modifier::U8)) result = saturate_narrow(b_, result, 8, false);
  if (instruction.has(Modifier::U16)) result = saturate_narrow(b_, result, 16, false);
  if (instruction.has(Modifier::S8)) result = saturate_narrow(b_, result, 8, true);
  if (instruction.has(Modifier::S16)) result = saturate_narrow(b_, result, 16, true);
  write_register(operand(instruction, 0), result);
}

void Lowerer::lower_i2f(const Instruction& instruction) {
  if (instruction.has(Modifier::F16)) throw Error("I2F to half precision is not translated yet");
  const bool to_double = instruction.has(Modifier::F64);
  const bool wide = instruction.has(Modifier::S64) || instruction.has(Modifier::U64);
  const bool is_unsigned = instruction.has(Modifier::U8) || instruction.has(Modifier::U16) || instruction.has(Modifier::U32) || instruction.has(Modifier::U64);
  const Operand& source = operand(instruction, 1);
  ValueId value = wide ? source_u64(source) : source_u32(source);
  if (instruction.has(Modifier::U8)) value = b_.op(Op::And, value, u32(0xff));
  if (instruction.has(Modifier::U16)) value = b_.op(Op::And, value, u32(0xffff));
  if (instruction.has(Modifier::S8)) value = b_.op(Op::AShr, b_.op(Op::Shl, value, u32(24)), u32(24));
  if (instruction.has(Modifier::S16)) value = b_.op(Op::AShr, b_.op(Op::Shl, value, u32(16)), u32(16));
  const ir::Rounding mode = instruction.has(Modifier::RZ)   ? ir::Rounding::zero
                            : instruction.has(Modifier::RM) ? ir::Rounding::minus_infinity
                            : instruction.has(Modifier::RP) ? ir::Rounding::plus_infinity
                                                            : ir::Rounding::nearest;
  const ValueId result = integer_to_float(b_, value, is_unsigned, wide, to_double, mode);
  if (to_double) write_pair(operand(instruction, 0), to_bits(result));
  else write_register(operand(instruction, 0), to_bits(result));
}

void Lowerer::lower_f2f(const Instruction& instruction) {
  // Modifiers: destination type first, then source type (F2F.F32.F64, F2F.F64.F32).
  std::vector<Modifier> types;
  for (Modifier m : instruction.modifiers) {
    if (m == Modifier::F16 || m == Modifier::F32 || m == Modifier::F64) types.push_back(m);
  }
  if (types.size() != 2) throw Error("F2F without two types");
  const Operand& source = operand(instruction, 1);
  const bool directed = instruction.has(Modifier::RZ) || instruction.has(Modifier::RM) || instruction.has(Modifier::RP);
  if (types[0] == Modifier::F16 && types[1] == Modifier::F32 && !directed) {
    // One rounding to nearest even, into the low half (Turing's half conversions; Ampere uses F2FP).
    write_register(operand(instruction, 0), float_to_half(flush(source_f32(source), instruction.has(Modifier::FTZ))));
    return;
  }
  if (types[0] == Modifier::F32 && types[1] == Modifier::F16) {
    if (!source.suffix.empty() || source.kind != OperandKind::gpr) throw Error("F2F.F32.F16 from this operand form is not translated yet");
    ValueId value = half_to_float(b_.op(Op::And, source_bits(source), u32(0xffff)));
    if (source.absolute) value = b_.op(Op::FAbs, value);
    if (source.negate) value = b_.op(Op::FNeg, value);
    write_register(operand(instruction, 0), to_bits(value));
    return;
  }
  if (types[0] == Modifier::F16 || types[1] == Modifier::F16) throw Error("F2F between these types is not translated yet");
  if (types[0] == Modifier::F32 && types[1] == Modifier::F64) {
    if (instruction.has(Modifier::RZ) || instruction.has(Modifier::RM) || instruction.has(Modifier::RP)) {
      throw Error("F2F.F32.F64 with directed rounding is not translated yet");
    }
    const ValueId result = flush(b_.convert(Op::FConvert, Type::F32, source_f64(source)), instruction.has(Modifier::FTZ));
    write_register(operand(instruction, 0), to_bits(result));
  } else if (types[0] == Modifier::F64 && types[1] == Modifier::F32) {
    write_pair(operand(instruction, 0), to_bits(b_.convert(Op::FConvert, Type::F64, flush(source_f32(source), instruction.has(Modifier::FTZ)))));
  } else {
    throw Error("F2F between equal types is not translated yet");
  }
}

void Lowerer::lower_fchk(const Instruction& instruction) {
  write_predicate(operand(instruction, 0), divide_needs_slow_path(b_, source_u32(operand(instruction, 1)), source_u32(operand(instruction, 2))));
}

bool Lowerer::lower_float(const Instruction& instruction) {
  switch (instruction.opcode) {
  case Opcode::FADD:
  case Opcode::FMUL:
  case Opcode::FFMA: lower_float_arith(instruction, false); return true;
  case Opcode::DADD:
  case Opcode::DMUL:
  case Opcode::DFMA: lower_float_arith(instruction, true); return true;
  case Opcode::FSETP: lower_setp(instruction, false); return true;
  case Opcode::DSETP: lower_setp(instruction, true); return true;
  case Opcode::FMNMX: {
    const bool ftz = instruction.has(Modifier::FTZ);
    const ValueId a = flush(source_f32(operand(instruction, 1)), ftz), bv = flush(source_f32(operand(instruction, 2)), ftz);
    const ValueId result = b_.select(read_predicate(operand(instruction, 3)), b_.op(Op::FMin, a, bv), b_.op(Op::FMax, a, bv));
    write_register(operand(instruction, 0), to_bits(result));
    return true;
  }
  case Opcode::MUFU: lower_mufu(instruction); return true;
  case Opcode::FRND: lower_frnd(instruction); return true;
  case Opcode::F2I: lower_f2i(instruction); return true;
  case Opcode::I2F:
  case Opcode::I2FP: lower_i2f(instruction); return true;
  case Opcode::F2F: lower_f2f(instruction); return true;
  case Opcode::FCHK: lower_fchk(instruction); return true;
  case Opcode::HADD2:
  case Opcode::HMUL2:
  case Opcode::HFMA2: lower_half_arith(instruction); return true;
  case Opcode::F2FP: lower_f2fp(instruction); return true;
  default: return false;
  }
}

} // namespace kiln::sass::sm86
