// Arithmetic, logic, conversions and moves of the SM5x lowering. Each follows the hardware's documented edge
// cases (seed 002 §3); the IR ops they use carry the same meaning on every backend (translator/ir/reference.cpp).
#include <bit>
#include <optional>

#include "translator/ir/rounding.h"
#include "translator/sass/sm5x/lower_context.h"

namespace kiln::sass::sm5x {
namespace {

using ir::Op;
using ir::ValueId;

/// FCMP list order: F,LT,EQ,LE,GT,NE,GE,NUM,NAN,LTU,EQU,LEU,GTU,NEU,GEU,T.
ValueId float_compare(ir::Builder& b, uint32_t cmp, ValueId x, ValueId y) {
  static constexpr Op ops[] = {Op::FOrdEq, Op::FOrdLt, Op::FOrdEq, Op::FOrdLe, Op::FOrdGt, Op::FOrdNe, Op::FOrdGe, Op::FOrdEq,
                               Op::FOrdEq, Op::FUnordLt, Op::FUnordEq, Op::FUnordLe, Op::FUnordGt, Op::FUnordNe, Op::FUnordGe, Op::FOrdEq};
  if (cmp == 0) return b.boolean(false);
  if (cmp == 15) return b.boolean(true);
  if (cmp == 7) return b.op(Op::LNot, b.op(Op::LOr, b.op(Op::FIsNan, x), b.op(Op::FIsNan, y)));
  if (cmp == 8) return b.op(Op::LOr, b.op(Op::FIsNan, x), b.op(Op::FIsNan, y));
  return b.op(ops[cmp], x, y);
}

/// CMPI order: F,LT,EQ,LE,GT,NE,GE,T.
ValueId int_compare(ir::Builder& b, uint32_t cmp, bool is_signed, ValueId x, ValueId y) {
  switch (cmp) {
  case 0: return b.boolean(false);
  case 1: return b.op(is_signed ? Op::SLt : Op::ULt, x, y);
  case 2: return b.op(Op::IEq, x, y);
  case 3: return b.op(is_signed ? Op::SLe : Op::ULe, x, y);
  case 4: return b.op(is_signed ? Op::SGt : Op::UGt, x, y);
  case 5: return b.op(Op::INe, x, y);
  case 6: return b.op(is_signed ? Op::SGe : Op::UGe, x, y);
  default: return b.boolean(true);
  }
}

/// BOP: AND, OR, XOR.
ValueId combine(ir::Builder& b, uint32_t bop, ValueId x, ValueId y) {
  static constexpr Op ops[] = {Op::LAnd, Op::LOr, Op::LXor, Op::LAnd};
  return b.op(ops[bop & 3], x, y);
}

} // namespace

bool LowerContext::lower_alu(const Instruction& in) {
  const auto& ops = in.operands;
  const auto dst = [&] { return static_cast<uint8_t>(ops.at(0).index); };
  const auto no_cc = [&] {
    if (in.modifier("CC") != 0) fail("condition codes (.CC) are not supported");
  };
  // Float results: .SAT clamps (NaN -> 0), .FTZ flushes.
  const auto finish_float = [&](ValueId value, bool flush) {
    if (in.modifier("SAT") != 0) value = b.op(Op::FSaturate, value);
    if (flush) value = b.op(Op::FFlushDenormal, value);
    set_reg(dst(), to_bits(value));
  };
  // FMZ (seed 002 §3.2): 0 x anything = +0, Inf and NaN included; inputs are flushed too.
  // .RM/.RP/.RZ (rnd 1-3) through the shared directed-rounding helpers (translator/ir/rounding.h).
  const auto rounding = [&] { return static_cast<ir::Rounding>(in.modifier("rnd") & 3); };
  const auto multiply = [&](ValueId x, ValueId y, uint32_t fmz, std::optional<ValueId> addend) {
    const auto product = [&] { return addend ? ir::rounded_fma(b, x, y, *addend, rounding()) : ir::rounded_mul(b, x, y, rounding()); };
    if (fmz != 2) return product();
    const ValueId zero = b.f32(0.0f);
    const ValueId has_zero = b.op(Op::LOr, b.op(Op::FOrdEq, x, zero), b.op(Op::FOrdEq, y, zero));
    if (!addend) return b.select(has_zero, zero, product());
    return b.select(has_zero, ir::rounded_add(b, zero, *addend, rounding()), product());
  };
  switch (in.opcode) {
  case Opcode::mov: set_reg(dst(), bits(ops.at(1))); return true;
  case Opcode::mov32i: set_reg(dst(), bits(ops.at(1))); return true;
  case Opcode::fadd:
  case Opcode::fadd32i: {
    no_cc();
    const bool ftz = in.modifier("FTZ") != 0;
    finish_float(ir::rounded_add(b, float_source(ops.at(1), ftz), float_source(ops.at(2), ftz), rounding()), ftz);
    return true;
  }
  case Opcode::fmul:
  case Opcode::fmul32i: {
    no_cc();
    const uint32_t fmz = in.modifier("fmz");
    const bool flush = fmz != 0;
    ValueId value = multiply(float_source(ops.at(1), flush), float_source(ops.at(2), flush), fmz, std::nullopt);
    static constexpr float scales[] = {1.0f, 0.5f, 0.25f, 0.125f, 8.0f, 4.0f, 2.0f, 1.0f};
    if (const uint32_t scale = in.modifier("scale"); scale != 0) value = b.op(Op::FMul, value, b.f32(scales[scale & 7]));
    finish_float(value, flush);
    return true;
  }
  case Opcode::ffma:
  case Opcode::ffma32i: {
    no_cc();
    const uint32_t fmz = in.modifier("fmz");
    const bool flush = fmz != 0;
    finish_float(multiply(float_source(ops.at(1), flush), float_source(ops.at(2), flush), fmz, float_source(ops.at(3), flush)), flush);
    return true;
  }
  case Opcode::fmnmx: {
    no_cc();
    const bool ftz = in.modifier("FTZ") != 0;
    const ValueId x = float_source(ops.at(1), ftz), y = float_source(ops.at(2), ftz);
    // The IR's FMin/FMax return the other operand when one is NaN (seed 002 §3.1).
    const ValueId value = b.select(pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert), b.op(Op::FMin, x, y), b.op(Op::FMax, x, y));
    finish_float(value, ftz);
    return true;
  }
  case Opcode::mufu: {
    static constexpr Op functions[] = {Op::FCos, Op::FSin, Op::FExp2, Op::FLog2, Op::FRcp, Op::FRsq};
    const uint32_t fn = in.modifier("fn");
    ValueId x = float_source(ops.at(1), true);
    ValueId value;
    if (fn < 6) value = b.op(functions[fn], x);
    else if (fn == 8) value = b.op(Op::FSqrt, x);
    else fail("MUFU function not supported");
    finish_float(value, true);
    return true;
  }
  case Opcode::rro: set_reg(dst(), to_bits(float_source(ops.at(1), true))); return true; // MUFU takes the plain angle
  case Opcode::fsetp: {
    const bool ftz = in.modifier("FTZ") != 0;
    const ValueId result = float_compare(b, in.modifier("cmp"), float_source(ops.at(2), ftz), float_source(ops.at(3), ftz));
    const ValueId chain = pred(static_cast<uint8_t>(ops.at(4).index), ops.at(4).invert);
    const uint32_t bop = in.modifier("bop");
    set_pred(static_cast<uint8_t>(ops.at(0).index), combine(b, bop, result, chain));
    set_pred(static_cast<uint8_t>(ops.at(1).index), combine(b, bop, b.op(Op::LNot, result), chain));
    return true;
  }
  case Opcode::fset: {
    no_cc();
    const bool ftz = in.modifier("FTZ") != 0;
    const ValueId result = combine(b, in.modifier("bop"), float_compare(b, in.modifier("cmp"), float_source(ops.at(1), ftz), float_source(ops.at(2), ftz)),
                                   pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert));
    const bool as_float = in.modifier("BF") != 0;
    set_reg(dst(), b.select(result, b.u32(as_float ? 0x3f800000u : 0xffffffffu), b.u32(0)));
    return true;
  }
  case Opcode::isetp: {
    if (in.modifier("X") != 0) fail(".X comparisons are not supported");
    const bool is_signed = in.modifier("type") == 1;
    const ValueId result = int_compare(b, in.modifier("cmp"), is_signed, bits(ops.at(2)), bits(ops.at(3)));
    const ValueId chain = pred(static_cast<uint8_t>(ops.at(4).index), ops.at(4).invert);
    const uint32_t bop = in.modifier("bop");
    set_pred(static_cast<uint8_t>(ops.at(0).index), combine(b, bop, result, chain));
    set_pred(static_cast<uint8_t>(ops.at(1).index), combine(b, bop, b.op(Op::LNot, result), chain));
    return true;
  }
  case Opcode::iadd:
  case Opcode::iadd32i: {
    no_cc();
    if (in.modifier("X") != 0 || in.modifier("SAT") != 0) fail(".X/.SAT additions are not supported");
    ValueId x = bits(ops.at(1)), y = bits(ops.at(2));
    if (ops.at(1).negate) x = b.op(Op::INeg, x);
    if (ops.at(2).negate) y = b.op(Op::INeg, y);
    set_reg(dst(), b.op(Op::IAdd, x, y));
    return true;
  }
  case Opcode::iscadd: {
    no_cc();
    ValueId x = bits(ops.at(1)), y = bits(ops.at(2));
    if (ops.at(1).negate) x = b.op(Op::INeg, x);
    if (ops.at(2).negate) y = b.op(Op::INeg, y);
    set_reg(dst(), b.op(Op::IAdd, b.op(Op::Shl, x, b.u32(static_cast<uint32_t>(ops.at(3).value))), y));
    return true;
  }
  case Opcode::imnmx: {
    no_cc();
    if (in.modifier("mode") != 0) fail("IMNMX extended modes are not supported");
    const bool is_signed = in.modifier("type") == 1;
    const ValueId x = bits(ops.at(1)), y = bits(ops.at(2));
    set_reg(dst(), b.select(pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert), b.op(is_signed ? Op::SMin : Op::UMin, x, y),
                            b.op(is_signed ? Op::SMax : Op::UMax, x, y)));
    return true;
  }
  case Opcode::sel:
    set_reg(dst(), b.select(pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert), bits(ops.at(1)), bits(ops.at(2))));
    return true;
  case Opcode::lop:
  case Opcode::lop32i: {
    no_cc();
    if (in.opcode == Opcode::lop && ops.at(0).kind == OperandKind::predicate && ops.at(0).index != kPT) fail("LOP predicate output is not supported");
    const size_t first = in.opcode == Opcode::lop ? 2 : 1;
    ValueId x = bits(ops.at(first)), y = bits(ops.at(first + 1));
    if (ops.at(first).invert) x = b.op(Op::Not, x);
    if (ops.at(first + 1).invert) y = b.op(Op::Not, y);
    static constexpr Op logic[] = {Op::And, Op::Or, Op::Xor};
    const uint32_t op = in.modifier("op");
    set_reg(static_cast<uint8_t>(ops.at(first - 1).index), op == 3 ? y : b.op(logic[op], x, y));
    return true;
  }
  case Opcode::lop3: {
    no_cc();
    const bool has_pred = ops.at(0).kind == OperandKind::predicate;
    if (has_pred && ops.at(0).index != kPT) fail("LOP3 predicate output is not supported");
    const size_t first = has_pred ? 2 : 1;
    const ValueId a = bits(ops.at(first)), bb = bits(ops.at(first + 1));
    const ValueId c = ops.size() > first + 3 ? bits(ops.at(first + 2)) : b.u32(0);
    const auto lut = static_cast<uint32_t>(ops.back().value);
    // Sum of minterms: LUT bit (a << 2 | b << 1 | c) says whether that combination of input bits gives 1.
    ValueId result = b.u32(0);
    for (uint32_t i = 0; i < 8; ++i) {
      if (((lut >> i) & 1) == 0) continue;
      const ValueId ta = (i & 4) ? a : b.op(Op::Not, a);
      const ValueId tb = (i & 2) ? bb : b.op(Op::Not, bb);
      const ValueId tc = (i & 1) ? c : b.op(Op::Not, c);
      result = b.op(Op::Or, result, b.op(Op::And, ta, b.op(Op::And, tb, tc)));
    }
    set_reg(static_cast<uint8_t>(ops.at(first - 1).index), result);
    return true;
  }
  case Opcode::shl: {
    no_cc();
    ValueId amount = bits(ops.at(2));
    if (in.modifier("W") != 0) amount = b.op(Op::And, amount, b.u32(31));
    set_reg(dst(), b.op(Op::Shl, bits(ops.at(1)), amount)); // amounts past 31 give 0 (IR Shl)
    return true;
  }
  case Opcode::shr: {
    no_cc();
    if (in.modifier("BREV") != 0 || in.modifier("X") != 0) fail("SHR.BREV/.X are not supported");
    ValueId amount = bits(ops.at(2));
    if (in.modifier("W") != 0) amount = b.op(Op::And, amount, b.u32(31));
    set_reg(dst(), b.op(in.modifier("type") == 1 ? Op::AShr : Op::LShr, bits(ops.at(1)), amount));
    return true;
  }
  case Opcode::shf: {
    no_cc();
    if (in.modifier("type") != 0 || in.modifier("x") != 0) fail("64-bit SHF forms are not supported");
    const bool left = !in.modifier_text("L").empty(); // the row names its direction (fixed text L or R)
    const ValueId low = bits(ops.at(1)), high = bits(ops.at(3));
    ValueId amount = bits(ops.at(2));
    amount = in.modifier("W") != 0 ? b.op(Op::And, amount, b.u32(31)) : b.op(Op::UMin, amount, b.u32(32));
    const ValueId other = b.op(Op::ISub, b.u32(32), amount);
    // IR shifts by 32 give 0, so an amount of 0 returns the unshifted word (seed 002 §3.11).
    const ValueId result = left ? b.op(Op::Or, b.op(Op::Shl, high, amount), b.op(Op::LShr, low, other))
                                : b.op(Op::Or, b.op(Op::LShr, low, amount), b.op(Op::Shl, high, other));
    set_reg(dst(), result);
    return true;
  }
  case Opcode::bfe: {
    no_cc();
    if (in.modifier("BREV") != 0) fail("BFE.BREV is not supported");
    const bool is_signed = in.modifier("type") == 1;
    const ValueId value = bits(ops.at(1)), field = bits(ops.at(2));
    const ValueId position = b.op(Op::And, field, b.u32(0xff));
    const ValueId length = b.op(Op::And, b.op(Op::LShr, field, b.u32(8)), b.u32(0xff));
    ValueId result;
    if (!is_signed) {
      // PTX bfe.u32: bits past 31 read as 0; a field starting past 31 extracts 0.
      const ValueId mask = b.op(Op::ISub, b.op(Op::Shl, b.u32(1), length), b.u32(1)); // length >= 32: all ones
      result = b.op(Op::And, b.op(Op::LShr, value, position), mask);
    } else {
      // PTX bfe.s32: the field is cut at bit 31 and sign-extended from its top bit; one starting past bit 31
      // repeats bit 31.
      const ValueId clamped = b.op(Op::UMin, position, b.u32(32));
      const ValueId width = b.op(Op::UMin, length, b.op(Op::ISub, b.u32(32), clamped));
      const ValueId up = b.op(Op::ISub, b.u32(32), width);
      const ValueId inside = b.op(Op::AShr, b.op(Op::Shl, b.op(Op::LShr, value, clamped), up), up);
      result = b.select(b.op(Op::UGe, position, b.u32(32)), b.op(Op::AShr, value, b.u32(31)), inside);
    }
    set_reg(dst(), b.select(b.op(Op::IEq, length, b.u32(0)), b.u32(0), result));
    return true;
  }
  case Opcode::bfi: {
    no_cc();
    const ValueId insert = bits(ops.at(1)), field = bits(ops.at(2)), base = bits(ops.at(3));
    const ValueId position = b.op(Op::And, field, b.u32(0xff));
    const ValueId length = b.op(Op::And, b.op(Op::LShr, field, b.u32(8)), b.u32(0xff));
    // PTX bfi: bits that would land past 31 are dropped; a field starting past 31 inserts nothing.
    const ValueId mask = b.op(Op::Shl, b.op(Op::ISub, b.op(Op::Shl, b.u32(1), length), b.u32(1)), position);
    set_reg(dst(), b.op(Op::Or, b.op(Op::And, base, b.op(Op::Not, mask)), b.op(Op::And, b.op(Op::Shl, insert, position), mask)));
    return true;
  }
  case Opcode::i2f: {
    no_cc();
    const uint32_t src = in.modifier("src"); // ITYPE: U8,U16,U32,U64,S8,S16,S32,S64
    if (in.modifier("dst") != 2 || (src != 2 && src != 6) || ops.at(1).selector != 0) fail("I2F form not supported");
    ValueId value = bits(ops.at(1));
    const bool is_signed = src == 6;
    if (ops.at(1).absolute && is_signed) value = b.select(b.op(Op::SLt, value, b.u32(0)), b.op(Op::INeg, value), value);
    if (ops.at(1).negate) value = b.op(Op::INeg, value);
    set_reg(dst(), to_bits(b.convert(is_signed ? Op::SToF : Op::UToF, ir::Type::F32, value)));
    return true;
  }
  case Opcode::f2f: {
    no_cc();
    if (in.modifier("dst") != 2 || in.modifier("src") != 2) fail("F2F between other types than F32 is not supported");
    const bool ftz = in.modifier("FTZ") != 0;
    ValueId value = float_source(ops.at(1), ftz);
    switch (in.modifier("rnd")) {
    case 4: value = b.op(Op::FRoundEven, value); break;
    case 5: value = b.op(Op::FFloor, value); break;
    case 6: value = b.op(Op::FCeil, value); break;
    case 7: value = b.op(Op::FTrunc, value); break;
    default: break;
    }
    finish_float(value, ftz);
    return true;
  }
  case Opcode::f2i: {
    no_cc();
    const uint32_t type = in.modifier("dst");
    if (in.modifier("src") != 2 || (type != 2 && type != 6)) fail("F2I form not supported");
    ValueId value = float_source(ops.at(1), in.modifier("FTZ") != 0);
    switch (in.modifier("rnd")) {
    case 0: value = b.op(Op::FRoundEven, value); break;
    case 1: value = b.op(Op::FFloor, value); break;
    case 2: value = b.op(Op::FCeil, value); break;
    default: break;
    }
    set_reg(dst(), b.convert(type == 6 ? Op::FToS : Op::FToU, ir::Type::U32, value));
    return true;
  }
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
