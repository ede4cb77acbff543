// Double and half precision, type conversions and FCHK of the SM5x lowering. Doubles need the host's FP64 only
// where the guest computes in double precision; half pairs compute in f32 and round once more to half, which is
// exact (see translator/sass/sm86/lower_half.cpp for the argument).
#include "translator/ir/half_bits.h"
#include "translator/ir/integer_fma.h"
#include "translator/ir/rounding.h"
#include "translator/sass/lowering/shared_semantics.h"
#include "translator/sass/sm5x/lower_context.h"

namespace kiln::sass::sm5x {
namespace {

using ir::Op;
using ir::Type;
using ir::ValueId;

// %ITYPE: U8,U16,U32,U64,S8,S16,S32,S64; %FTYPE: ?,F16,F32,F64.
constexpr uint32_t kU64 = 3, kS64 = 7;
constexpr uint32_t kF16 = 1, kF32 = 2, kF64 = 3;
bool is_signed_type(uint32_t type) { return type >= 4; }
unsigned type_bits(uint32_t type) { return 8u << (type & 3); }

} // namespace

bool LowerContext::lower_wide(const Instruction& in) {
  const auto& ops = in.operands;
  const auto dst = [&] { return static_cast<uint8_t>(ops.at(0).index); };
  const auto rounding = [&](uint32_t field) { return static_cast<ir::Rounding>(field & 3); };
  // A 32-bit register source of I2F/I2I as an integer of `type`: its byte (.B1-.B3), extended from the type's
  // width, then |x| (signed types) and -x in that range; the hardware wraps -(-2^31).
  // The low `width` bits of a 32-bit value, sign- or zero-extended to 32.
  const auto extend = [&](ValueId value, unsigned width, bool is_signed) {
    if (width >= 32) return value;
    return is_signed ? b.op(Op::AShr, b.op(Op::Shl, value, b.u32(32 - width)), b.u32(32 - width))
                     : b.op(Op::And, value, b.u32((1u << width) - 1));
  };
  const auto integer_source = [&](const Operand& source, uint32_t type) {
    ValueId value = bits(source);
    if (source.selector != 0) value = b.op(Op::LShr, value, b.u32(8 * source.selector));
    const bool is_signed = is_signed_type(type);
    value = extend(value, type_bits(type), is_signed);
    if (source.absolute && is_signed) value = b.select(b.op(Op::SLt, value, b.u32(0)), b.op(Op::INeg, value), value);
    if (source.negate) value = b.op(Op::INeg, value);
    return value;
  };
  switch (in.opcode) {
  case Opcode::dadd:
  case Opcode::dmul:
  case Opcode::dfma: {
    const ValueId x = double_source(ops.at(1)), y = double_source(ops.at(2));
    ValueId result;
    if (in.opcode == Opcode::dadd) result = ir::rounded_add(b, x, y, rounding(in.modifier("rnd")));
    else if (in.opcode == Opcode::dmul) result = ir::rounded_mul(b, x, y, rounding(in.modifier("rnd")));
    else result = ir::rounded_fma(b, x, y, double_source(ops.at(3)), rounding(in.modifier("rnd")));
    set_reg64(dst(), double_bits(result));
    return true;
  }
  case Opcode::i2f: {
    if (in.modifier("CC") != 0) fail("I2F.CC is not supported");
    const uint32_t to = in.modifier("dst"), from = in.modifier("src");
    if (to != kF32 && to != kF64) fail("I2F to half precision is not supported");
    const bool wide = from == kU64 || from == kS64;
    const bool is_signed = is_signed_type(from);
    const Operand& source = ops.at(1);
    ValueId value;
    if (wide) {
      if (source.selector != 0 || source.negate || source.absolute) fail("I2F of a 64-bit source with a modifier is not supported");
      value = bits64(source);
    } else {
      value = integer_source(source, from);
    }
    const ValueId result = integer_to_float(b, value, !is_signed, wide, to == kF64, rounding(in.modifier("rnd")));
    if (to == kF64) set_reg64(dst(), double_bits(result));
    else set_reg(dst(), to_bits(result));
    return true;
  }
  case Opcode::f2i: {
    if (in.modifier("CC") != 0) fail("F2I.CC is not supported");
    const uint32_t to = in.modifier("dst"), from = in.modifier("src");
    const Operand& source = ops.at(1);
    ValueId x;
    if (from == kF64) x = double_source(source);
    else if (from == kF32) x = float_source(source, in.modifier("FTZ") != 0);
    else fail("F2I from half precision is not supported");
    static constexpr Op roundings[] = {Op::FRoundEven, Op::FFloor, Op::FCeil, Op::FTrunc};
    const ValueId rounded = b.op(roundings[in.modifier("rnd") & 3], x);
    const bool is_signed = is_signed_type(to);
    if (to == kU64 || to == kS64) {
      set_reg64(dst(), b.convert(is_signed ? Op::FToS : Op::FToU, Type::U64, rounded));
      return true;
    }
    ValueId result = b.convert(is_signed ? Op::FToS : Op::FToU, Type::U32, rounded);
    if (type_bits(to) < 32) result = saturate_narrow(b, result, type_bits(to), is_signed);
    set_reg(dst(), result);
    return true;
  }
  case Opcode::f2f: {
    if (in.modifier("CC") != 0) fail("F2F.CC is not supported");
    const uint32_t to = in.modifier("dst"), from = in.modifier("src");
    const uint32_t mode = in.modifier("rnd"); // ,RM,RP,RZ (conversions) / ROUND,FLOOR,CEIL,TRUNC (to an integer)
    const bool ftz = in.modifier("FTZ") != 0;
    const Operand& source = ops.at(1);
    const auto finish = [&](ValueId value) {
      if (in.modifier("SAT") != 0) value = b.op(Op::FSaturate, value);
      return ftz ? b.op(Op::FFlushDenormal, value) : value;
    };
    if (from == kF16) {
      if (to != kF32 || mode != 0) fail("F2F from half precision to this type is not supported");
      ValueId half = bits(source);
      half = source.selector != 0 ? b.op(Op::LShr, half, b.u32(16)) : b.op(Op::And, half, b.u32(0xffff));
      ValueId value = half_to_float(b, half);
      if (source.absolute) value = b.op(Op::FAbs, value);
      if (source.negate) value = b.op(Op::FNeg, value);
      set_reg(dst(), to_bits(finish(value)));
      return true;
    }
    ValueId value = from == kF64 ? double_source(source) : float_source(source, ftz);
    if (to == kF16) {
      if (from != kF32 || mode != 0) fail("F2F to half precision from this type or with this rounding is not supported");
      set_reg(dst(), ir::half_bits(b, to_bits(finish(value))));
      return true;
    }
    if (mode >= 4) {
      static constexpr Op integral[] = {Op::FRoundEven, Op::FFloor, Op::FCeil, Op::FTrunc};
      value = b.op(integral[mode - 4], value);
    }
    if (to == kF32 && from == kF64) {
      if (mode != 0 && mode < 4) fail("F2F.F32.F64 with directed rounding is not supported");
      value = b.convert(Op::FConvert, Type::F32, value);
    } else if (to == kF64 && from == kF32) {
      value = b.convert(Op::FConvert, Type::F64, value); // exact
    } else if (to != from || (mode != 0 && mode < 4)) {
      fail("F2F between these types is not supported");
    }
    if (to == kF64) set_reg64(dst(), double_bits(value));
    else set_reg(dst(), to_bits(finish(value)));
    return true;
  }
  case Opcode::i2i: {
    const uint32_t to = in.modifier("dst"), from = in.modifier("src");
    if (to == kU64 || to == kS64 || from == kU64 || from == kS64) fail("64-bit I2I is not supported");
    const Operand& source = ops.at(1);
    ValueId value = integer_source(source, from);
    const unsigned to_bits_count = type_bits(to);
    const bool to_signed = is_signed_type(to);
    if (in.modifier("SAT") != 0) {
      // Clamp the (source-typed) value to the destination's range.
      const bool value_signed = is_signed_type(from) || source.negate;
      if (to_signed) {
        const auto high = static_cast<uint32_t>((uint64_t{1} << (to_bits_count - 1)) - 1);
        value = value_signed ? b.op(Op::SMax, b.op(Op::SMin, value, b.u32(high)), b.u32(~high)) : b.op(Op::UMin, value, b.u32(high));
      } else {
        const auto high = static_cast<uint32_t>((uint64_t{1} << to_bits_count) - 1);
        if (value_signed) value = b.op(Op::SMax, value, b.u32(0));
        value = b.op(Op::UMin, value, b.u32(high));
      }
    }
    value = extend(value, to_bits_count, to_signed);
    if (in.modifier("CC") != 0) set_flags(b.op(Op::IEq, value, b.u32(0)), b.op(Op::SLt, value, b.u32(0)), b.u32(0), b.boolean(false));
    set_reg(dst(), value);
    return true;
  }
  case Opcode::hadd2:
  case Opcode::hmul2:
  case Opcode::hfma2: {
    // The two lanes (low, high) of each source as f32 after its swizzle (.F32 reads the register as one float,
    // .H0_H0 / .H1_H1 repeat a half) and negation.
    const auto pair = [&](const Operand& operand) -> std::array<ValueId, 2> {
      if (operand.kind == OperandKind::integer) fail("half literal operands are not supported");
      const ValueId value = bits(operand);
      if (operand.selector == 1) return {to_float(value), to_float(value)}; // F32
      ValueId low = b.op(Op::And, value, b.u32(0xffff)), high = b.op(Op::LShr, value, b.u32(16));
      if (operand.selector == 2) high = low;
      if (operand.selector == 3) low = high;
      std::array<ValueId, 2> lanes{half_to_float(b, low), half_to_float(b, high)};
      if (operand.negate) {
        for (ValueId& lane : lanes) lane = b.op(Op::FNeg, lane);
      }
      return lanes;
    };
    const auto x = pair(ops.at(1));
    // HADD2's literal form: two half literals (as float bits), the high half printed first.
    const bool literal = ops.at(2).kind == OperandKind::float32;
    const std::array<ValueId, 2> y = literal ? std::array<ValueId, 2>{to_float(bits(ops.at(3))), to_float(bits(ops.at(2)))} : pair(ops.at(2));
    std::array<ValueId, 2> lanes;
    for (size_t lane = 0; lane < 2; ++lane) {
      if (in.opcode == Opcode::hadd2) lanes[lane] = b.op(Op::FAdd, x[lane], y[lane]);
      else if (in.opcode == Opcode::hmul2) lanes[lane] = b.op(Op::FMul, x[lane], y[lane]);
      else lanes[lane] = ir::add_round_to_odd_f32(b, b.op(Op::FMul, x[lane], y[lane]), pair(ops.at(3))[lane]);
    }
    if (in.modifier("F32") != 0) {
      set_reg(dst(), to_bits(half_to_float(b, ir::half_bits(b, to_bits(lanes[0])))));
      return true;
    }
    set_reg(dst(), b.op(Op::Or, ir::half_bits(b, to_bits(lanes[0])), b.op(Op::Shl, ir::half_bits(b, to_bits(lanes[1])), b.u32(16))));
    return true;
  }
  case Opcode::fchk:
    set_pred(static_cast<uint8_t>(ops.at(0).index), divide_needs_slow_path(b, bits(ops.at(1)), bits(ops.at(2))));
    return true;
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
