// Computing ops. Each sequence matches the op's CPU reference (translator/ir/reference.cpp) exactly, including
// the cases SPIR-V leaves undefined (shift amounts, float-to-int overflow, NaN in min/max).
#include <fmt/format.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "runtime/base/error.h"
#include "translator/spirv/compute_emitter.h"

namespace kiln::spirv {
namespace {

using ir::Op;

std::optional<spv::Op> direct_opcode(Op op) {
  switch (op) {
  case Op::IAdd: return spv::Op::OpIAdd;
  case Op::ISub: return spv::Op::OpISub;
  case Op::IMul: return spv::Op::OpIMul;
  case Op::And: return spv::Op::OpBitwiseAnd;
  case Op::Or: return spv::Op::OpBitwiseOr;
  case Op::Xor: return spv::Op::OpBitwiseXor;
  case Op::Not: return spv::Op::OpNot;
  case Op::INeg: return spv::Op::OpSNegate;
  case Op::BitReverse: return spv::Op::OpBitReverse;
  case Op::PopCount: return spv::Op::OpBitCount;
  case Op::IEq: return spv::Op::OpIEqual;
  case Op::INe: return spv::Op::OpINotEqual;
  case Op::SLt: return spv::Op::OpSLessThan;
  case Op::SLe: return spv::Op::OpSLessThanEqual;
  case Op::SGt: return spv::Op::OpSGreaterThan;
  case Op::SGe: return spv::Op::OpSGreaterThanEqual;
  case Op::ULt: return spv::Op::OpULessThan;
  case Op::ULe: return spv::Op::OpULessThanEqual;
  case Op::UGt: return spv::Op::OpUGreaterThan;
  case Op::UGe: return spv::Op::OpUGreaterThanEqual;
  case Op::FAdd: return spv::Op::OpFAdd;
  case Op::FSub: return spv::Op::OpFSub;
  case Op::FMul: return spv::Op::OpFMul;
  case Op::FOrdEq: return spv::Op::OpFOrdEqual;
  case Op::FOrdNe: return spv::Op::OpFOrdNotEqual;
  case Op::FOrdLt: return spv::Op::OpFOrdLessThan;
  case Op::FOrdLe: return spv::Op::OpFOrdLessThanEqual;
  case Op::FOrdGt: return spv::Op::OpFOrdGreaterThan;
  case Op::FOrdGe: return spv::Op::OpFOrdGreaterThanEqual;
  case Op::FUnordEq: return spv::Op::OpFUnordEqual;
  case Op::FUnordNe: return spv::Op::OpFUnordNotEqual;
  case Op::FUnordLt: return spv::Op::OpFUnordLessThan;
  case Op::FUnordLe: return spv::Op::OpFUnordLessThanEqual;
  case Op::FUnordGt: return spv::Op::OpFUnordGreaterThan;
  case Op::FUnordGe: return spv::Op::OpFUnordGreaterThanEqual;
  case Op::FIsNan: return spv::Op::OpIsNan;
  case Op::LAnd: return spv::Op::OpLogicalAnd;
  case Op::LOr: return spv::Op::OpLogicalOr;
  case Op::LXor: return spv::Op::OpLogicalNotEqual;
  case Op::LNot: return spv::Op::OpLogicalNot;
  case Op::Select: return spv::Op::OpSelect;
  case Op::SToF: return spv::Op::OpConvertSToF;
  case Op::UToF: return spv::Op::OpConvertUToF;
  case Op::FConvert: return spv::Op::OpFConvert;
  case Op::Bitcast: return spv::Op::OpBitcast;
  default: return std::nullopt;
  }
}

std::optional<uint32_t> glsl_instruction(Op op) {
  switch (op) {
  case Op::SMin: return GLSLstd450SMin;
  case Op::SMax: return GLSLstd450SMax;
  case Op::UMin: return GLSLstd450UMin;
  case Op::UMax: return GLSLstd450UMax;
  case Op::FindMsbU: return GLSLstd450FindUMsb;
  case Op::FindMsbS: return GLSLstd450FindSMsb;
  case Op::FFloor: return GLSLstd450Floor;
  case Op::FCeil: return GLSLstd450Ceil;
  case Op::FTrunc: return GLSLstd450Trunc;
  case Op::FRoundEven: return GLSLstd450RoundEven;
  case Op::FRsq: return GLSLstd450InverseSqrt;
  case Op::FSqrt: return GLSLstd450Sqrt;
  case Op::FExp2: return GLSLstd450Exp2;
  case Op::FLog2: return GLSLstd450Log2;
  case Op::FSin: return GLSLstd450Sin;
  case Op::FCos: return GLSLstd450Cos;
  default: return std::nullopt;
  }
}

} // namespace

void ComputeEmitter::emit_inst(ir::ValueId id) {
  const ir::Inst& inst = function_.insts[id];
  if (stage_ops) {
    if (const std::optional<uint32_t> result = stage_ops(inst)) {
      values_[id] = *result;
      return;
    }
  }
  switch (ir::op_info(inst.op).signature) {
  case ir::Signature::Constant: values_[id] = const_of(inst.type, inst.immediate); return;
  case ir::Signature::Special: values_[id] = emit_special(inst); return;
  case ir::Signature::Shuffle:
  case ir::Signature::Ballot: values_[id] = emit_warp(inst); return;
  case ir::Signature::LocalLoad:
    values_[id] = builder_.op(spv::Op::OpLoad, type_of(inst.type), {local_variables_.at(inst.immediate)});
    return;
  case ir::Signature::LocalStore:
    builder_.op_void(spv::Op::OpStore, {local_variables_.at(inst.immediate), value(inst.args[0])});
    return;
  case ir::Signature::LoadGlobal:
  case ir::Signature::StoreGlobal:
  case ir::Signature::LoadShared:
  case ir::Signature::StoreShared:
  case ir::Signature::LoadConst:
  case ir::Signature::AtomicGlobal:
  case ir::Signature::AtomicShared:
  case ir::Signature::AtomicCasGlobal:
  case ir::Signature::AtomicCasShared:
  case ir::Signature::NoOperands: values_[id] = emit_memory(inst); return;
  default: values_[id] = emit_arith(inst); return;
  }
}

uint32_t ComputeEmitter::emit_arith(const ir::Inst& inst) {
  const uint32_t type = type_of(inst.type);
  const uint32_t a = inst.arg_count > 0 ? value(inst.args[0]) : 0;
  const uint32_t b = inst.arg_count > 1 ? value(inst.args[1]) : 0;
  const uint32_t c = inst.arg_count > 2 ? value(inst.args[2]) : 0;
  const unsigned width = inst.arg_count > 0 ? ir::bit_width(function_.insts[inst.args[0]].type) : 0;
  switch (inst.op) {
  case Op::Shl:
  case Op::LShr:
  case Op::AShr: return emit_shift(inst);
  case Op::UMulHi:
  case Op::SMulHi: {
    uint32_t& pair = pair_structs_[type];
    if (pair == 0) pair = builder_.type_struct({type, type});
    const uint32_t product = builder_.op(inst.op == Op::UMulHi ? spv::Op::OpUMulExtended : spv::Op::OpSMulExtended, pair, {a, b});
    return builder_.op(spv::Op::OpCompositeExtract, type, {product, 1});
  }
  case Op::FMin:
  case Op::FMax: return emit_float_min_max(inst);
  case Op::FFma: return emit_fma(inst);
  case Op::FNeg:
  case Op::FAbs: {
    // On the bits, so NaNs keep their payload as in the reference.
    const uint32_t int_type = type_of(ir::integer_of_width(width));
    const uint64_t sign = uint64_t{1} << (width - 1);
    const uint32_t bits = builder_.op(spv::Op::OpBitcast, int_type, {a});
    const uint32_t changed = inst.op == Op::FNeg ? binary(spv::Op::OpBitwiseXor, int_type, bits, const_of(ir::integer_of_width(width), sign))
                                                 : binary(spv::Op::OpBitwiseAnd, int_type, bits, const_of(ir::integer_of_width(width), sign - 1));
    return builder_.op(spv::Op::OpBitcast, type, {changed});
  }
  case Op::FSaturate: {
    const uint32_t zero = const_of(inst.type, 0);
    const uint32_t one = const_of(inst.type, width == 32 ? 0x3f800000u : 0x3ff0000000000000u);
    const uint32_t below_one = select(type, binary(spv::Op::OpFOrdLessThan, bool_type(), a, one), a, one);
    return select(type, binary(spv::Op::OpFOrdGreaterThan, bool_type(), a, zero), below_one, zero);
  }
  case Op::FFlushDenormal: {
    const ir::Type int_ir = ir::integer_of_width(width);
    const uint32_t int_type = type_of(int_ir);
    const uint64_t sign = uint64_t{1} << (width - 1);
    const uint64_t smallest_normal = width == 32 ? 0x00800000u : 0x0010000000000000u;
    const uint32_t bits = builder_.op(spv::Op::OpBitcast, int_type, {a});
    const uint32_t magnitude = binary(spv::Op::OpBitwiseAnd, int_type, bits, const_of(int_ir, sign - 1));
    const uint32_t tiny = binary(spv::Op::OpULessThan, bool_type(), magnitude, const_of(int_ir, smallest_normal));
    const uint32_t signed_zero = binary(spv::Op::OpBitwiseAnd, int_type, bits, const_of(int_ir, sign));
    return builder_.op(spv::Op::OpBitcast, type, {select(int_type, tiny, signed_zero, bits)});
  }
  case Op::FRcp: {
    const uint32_t one = const_of(inst.type, width == 32 ? 0x3f800000u : 0x3ff0000000000000u);
    const uint32_t quotient = binary(spv::Op::OpFDiv, type, one, a);
    return quotient;
  }
  case Op::FFloor:
  case Op::FCeil:
  case Op::FTrunc:
  case Op::FRoundEven:
    if (width == 64) return emit_f64_rounding(inst.op, a);
    return builder_.ext(type, *glsl_instruction(inst.op), {a});
  case Op::ZExt:
  case Op::SExt:
  case Op::Trunc:
  case Op::FToS:
  case Op::FToU:
  case Op::Pack64: return emit_convert(inst);
  default: break;
  }
  if (auto glsl = glsl_instruction(inst.op)) {
    if (inst.arg_count == 1) return builder_.ext(type, *glsl, {a});
    if (inst.arg_count == 2) return builder_.ext(type, *glsl, {a, b});
    return builder_.ext(type, *glsl, {a, b, c});
  }
  if (auto opcode = direct_opcode(inst.op)) {
    uint32_t result = 0;
    if (inst.arg_count == 1) result = builder_.op(*opcode, type, {a});
    else if (inst.arg_count == 2) result = builder_.op(*opcode, type, {a, b});
    else result = builder_.op(*opcode, type, {a, b, c});
    // Exact IEEE results: the driver must not fuse a multiply into a later add.
    if (inst.op == Op::FAdd || inst.op == Op::FSub || inst.op == Op::FMul) {
      builder_.decorate(result, spv::Decoration::NoContraction);
    }
    return result;
  }
  throw Error(fmt::format("SPIR-V backend: no lowering for IR op {}", ir::op_name(inst.op)));
}

uint32_t ComputeEmitter::emit_f64_rounding(ir::Op op, uint32_t x) {
  // llvmpipe's f64 Trunc/RoundEven are wrong on some x86 hosts (seen on an AVX2 AMD EPYC: +0 for inputs in
  // (-1, 0), the input itself for large ones), and it folds an f64 -> i64 -> f64 round trip back into its Trunc,
  // so truncation is done on the bits: clear the fraction bits below the exponent's integer position.
  const uint32_t f64 = type_of(ir::Type::F64);
  const uint32_t u64 = type_of(ir::Type::U64);
  const auto u64_const = [&](uint64_t v) { return const_of(ir::Type::U64, v); };
  const uint64_t sign = uint64_t{1} << 63;
  const uint32_t x_bits = builder_.op(spv::Op::OpBitcast, u64, {x});
  const uint32_t x_sign = binary(spv::Op::OpBitwiseAnd, u64, x_bits, u64_const(sign));
  const uint32_t exponent = binary(spv::Op::OpBitwiseAnd, u64, binary(spv::Op::OpShiftRightLogical, u64, x_bits, u64_const(52)), u64_const(0x7ff));
  const uint32_t integral = binary(spv::Op::OpUGreaterThanEqual, bool_type(), exponent, u64_const(1075)); // also NaN, infinities
  const uint32_t below_one = binary(spv::Op::OpULessThan, bool_type(), exponent, u64_const(1023));
  const uint32_t in_range = builder_.op(spv::Op::OpLogicalNot, bool_type(), {builder_.op(spv::Op::OpLogicalOr, bool_type(), {integral, below_one})});
  const uint32_t fraction_width = select(u64, in_range, binary(spv::Op::OpISub, u64, u64_const(1075), exponent), u64_const(1));
  const uint32_t fraction_mask = binary(spv::Op::OpISub, u64, binary(spv::Op::OpShiftLeftLogical, u64, u64_const(1), fraction_width), u64_const(1));
  uint32_t t_bits = binary(spv::Op::OpBitwiseAnd, u64, x_bits, builder_.op(spv::Op::OpNot, u64, {fraction_mask}));
  t_bits = select(u64, integral, x_bits, select(u64, below_one, x_sign, t_bits));
  const uint32_t t = builder_.op(spv::Op::OpBitcast, f64, {t_bits});
  const uint32_t significand = binary(spv::Op::OpBitwiseOr, u64, x_bits, u64_const(uint64_t{1} << 52));
  const uint32_t units_bit = binary(spv::Op::OpBitwiseAnd, u64, binary(spv::Op::OpShiftRightLogical, u64, significand, fraction_width), u64_const(1));
  const uint32_t odd = builder_.op(spv::Op::OpLogicalAnd, bool_type(), {in_range, binary(spv::Op::OpINotEqual, bool_type(), units_bit, u64_const(0))});
  const uint32_t small = builder_.op(spv::Op::OpLogicalNot, bool_type(), {integral});
  const uint32_t one = const_of(ir::Type::F64, 0x3ff0000000000000u);
  switch (op) {
  case ir::Op::FTrunc: return t;
  case ir::Op::FFloor: return select(f64, binary(spv::Op::OpFOrdLessThan, bool_type(), x, t), binary(spv::Op::OpFSub, f64, t, one), t);
  case ir::Op::FCeil: return select(f64, binary(spv::Op::OpFOrdGreaterThan, bool_type(), x, t), binary(spv::Op::OpFAdd, f64, t, one), t);
  default: break;
  }
  // Round to nearest even: the fraction x - t is exact; a tie moves away from zero only from an odd t.
  const uint32_t negative = binary(spv::Op::OpINotEqual, bool_type(), x_sign, u64_const(0));
  const uint32_t away = select(f64, negative, const_of(ir::Type::F64, 0xbff0000000000000u), one);
  const uint32_t fraction_bits = builder_.op(spv::Op::OpBitcast, u64, {binary(spv::Op::OpFSub, f64, x, t)});
  const uint32_t fraction = builder_.op(spv::Op::OpBitcast, f64, {binary(spv::Op::OpBitwiseAnd, u64, fraction_bits, u64_const(sign - 1))});
  const uint32_t half = const_of(ir::Type::F64, 0x3fe0000000000000u);
  const uint32_t tie_up = builder_.op(spv::Op::OpLogicalAnd, bool_type(), {binary(spv::Op::OpFOrdEqual, bool_type(), fraction, half), odd});
  const uint32_t up = builder_.op(spv::Op::OpLogicalOr, bool_type(), {binary(spv::Op::OpFOrdGreaterThan, bool_type(), fraction, half), tie_up});
  return select(f64, builder_.op(spv::Op::OpLogicalAnd, bool_type(), {small, up}), binary(spv::Op::OpFAdd, f64, t, away), t);
}

uint32_t ComputeEmitter::emit_shift(const ir::Inst& inst) {
  // The reference shifts everything out for amounts >= width; SPIR-V leaves those undefined, so the amount is
  // masked (defined) and the out-of-range case selected separately.
  const uint32_t type = type_of(inst.type);
  const unsigned width = ir::bit_width(inst.type);
  const uint32_t x = value(inst.args[0]);
  const uint32_t amount = value(inst.args[1]);
  const uint32_t masked = binary(spv::Op::OpBitwiseAnd, u32_type(), amount, const_u32(width - 1));
  const uint32_t in_range = binary(spv::Op::OpULessThan, bool_type(), amount, const_u32(width));
  if (inst.op == Op::AShr) {
    const uint32_t clamped = select(u32_type(), in_range, masked, const_u32(width - 1));
    return binary(spv::Op::OpShiftRightArithmetic, type, x, clamped);
  }
  const uint32_t shifted = binary(inst.op == Op::Shl ? spv::Op::OpShiftLeftLogical : spv::Op::OpShiftRightLogical, type, x, masked);
  return select(type, in_range, shifted, const_of(inst.type, 0));
}

uint32_t ComputeEmitter::emit_float_min_max(const ir::Inst& inst) {
  // NVIDIA FMNMX: a NaN operand yields the other one; -0 orders below +0.
  const uint32_t type = type_of(inst.type);
  const unsigned width = ir::bit_width(inst.type);
  const ir::Type int_ir = ir::integer_of_width(width);
  const uint32_t a = value(inst.args[0]);
  const uint32_t b = value(inst.args[1]);
  const bool is_min = inst.op == Op::FMin;
  const uint32_t a_first = binary(is_min ? spv::Op::OpFOrdLessThan : spv::Op::OpFOrdGreaterThan, bool_type(), a, b);
  const uint32_t equal = binary(spv::Op::OpFOrdEqual, bool_type(), a, b);
  const uint32_t a_bits = builder_.op(spv::Op::OpBitcast, type_of(int_ir), {a});
  const uint32_t a_negative = binary(spv::Op::OpUGreaterThanEqual, bool_type(), a_bits, const_of(int_ir, uint64_t{1} << (width - 1)));
  const uint32_t tie = is_min ? select(type, a_negative, a, b) : select(type, a_negative, b, a);
  uint32_t result = select(type, a_first, a, b);
  result = select(type, equal, tie, result);
  result = select(type, builder_.op(spv::Op::OpIsNan, bool_type(), {b}), a, result);
  return select(type, builder_.op(spv::Op::OpIsNan, bool_type(), {a}), b, result);
}

uint32_t ComputeEmitter::emit_float_to_int(const ir::Inst& inst) {
  // cvt.rzi with saturation: NaN -> 0, out of range -> the nearest representable bound.
  const ir::Type from = function_.insts[inst.args[0]].type;
  const uint32_t type = type_of(inst.type);
  const uint32_t x = value(inst.args[0]);
  const unsigned width = ir::bit_width(inst.type);
  const auto float_const = [&](double v) {
    return from == ir::Type::F32 ? const_of(from, std::bit_cast<uint32_t>(static_cast<float>(v))) : const_of(from, std::bit_cast<uint64_t>(v));
  };
  const double limit = std::ldexp(1.0, static_cast<int>(width) - (inst.op == Op::FToS ? 1 : 0)); // 2^31, 2^32, ...
  const double low = inst.op == Op::FToS ? -limit : 0.0;
  const uint32_t float_type = type_of(from);
  const uint32_t at_least_low = binary(inst.op == Op::FToS ? spv::Op::OpFOrdGreaterThanEqual : spv::Op::OpFOrdGreaterThan,
                                       bool_type(), x, float_const(low));
  const uint32_t below_limit = binary(spv::Op::OpFOrdLessThan, bool_type(), x, float_const(limit));
  const uint32_t in_range = binary(spv::Op::OpLogicalAnd, bool_type(), at_least_low, below_limit);
  const uint32_t safe = select(float_type, in_range, x, float_const(0.0));
  uint32_t result = builder_.op(inst.op == Op::FToS ? spv::Op::OpConvertFToS : spv::Op::OpConvertFToU, type, {safe});
  const uint64_t max_value = inst.op == Op::FToS ? (uint64_t{1} << (width - 1)) - 1 : (width == 64 ? ~uint64_t{0} : 0xffffffffu);
  result = select(type, binary(spv::Op::OpFOrdGreaterThanEqual, bool_type(), x, float_const(limit)), const_of(inst.type, max_value), result);
  if (inst.op == Op::FToS) {
    const uint32_t too_low = binary(spv::Op::OpFOrdLessThan, bool_type(), x, float_const(low));
    result = select(type, too_low, const_of(inst.type, uint64_t{1} << (width - 1)), result);
  }
  return result;
}

uint32_t ComputeEmitter::emit_convert(const ir::Inst& inst) {
  const uint32_t type = type_of(inst.type);
  const uint32_t a = value(inst.args[0]);
  const ir::Type from = function_.insts[inst.args[0]].type;
  switch (inst.op) {
  case Op::ZExt:
    if (from == ir::Type::Bool) return select(type, a, const_of(inst.type, 1), const_of(inst.type, 0));
    return builder_.op(spv::Op::OpUConvert, type, {a});
  case Op::SExt:
    if (from == ir::Type::Bool) return select(type, a, const_of(inst.type, ~uint64_t{0} >> (64 - ir::bit_width(inst.type))), const_of(inst.type, 0));
    return builder_.op(spv::Op::OpSConvert, type, {a});
  case Op::Trunc: return builder_.op(spv::Op::OpUConvert, type, {a});
  case Op::FToS:
  case Op::FToU: return emit_float_to_int(inst);
  case Op::Pack64: {
    const uint32_t low = builder_.op(spv::Op::OpUConvert, type, {a});
    const uint32_t high = builder_.op(spv::Op::OpUConvert, type, {value(inst.args[1])});
    const uint32_t shifted = binary(spv::Op::OpShiftLeftLogical, type, high, const_u32(32));
    return binary(spv::Op::OpBitwiseOr, type, low, shifted);
  }
  default: throw Error(fmt::format("SPIR-V backend: {} is not a conversion", ir::op_name(inst.op)));
  }
}

} // namespace kiln::spirv
