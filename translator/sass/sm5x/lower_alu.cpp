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
    if (fn == 6 || fn == 7) {
      // RCP64H/RSQ64H: the high word of the reciprocal (square root) of the double whose high word is the
      // source: a seed for Newton iterations, here more accurate than the hardware's.
      ValueId wide = to_double(b.op(Op::Pack64, b.u32(0), bits(ops.at(1))));
      if (ops.at(1).absolute) wide = b.op(Op::FAbs, wide);
      if (ops.at(1).negate) wide = b.op(Op::FNeg, wide);
      const ValueId result = double_bits(b.op(fn == 6 ? Op::FRcp : Op::FRsq, wide));
      set_reg(dst(), b.convert(Op::Trunc, ir::Type::U32, b.op(Op::LShr, result, b.u32(32))));
      return true;
    }
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
  case Opcode::dsetp: {
    const ValueId result = float_compare(b, in.modifier("cmp"), double_source(ops.at(2)), double_source(ops.at(3)));
    const ValueId chain = pred(static_cast<uint8_t>(ops.at(4).index), ops.at(4).invert);
    const uint32_t bop = in.modifier("bop");
    set_pred(static_cast<uint8_t>(ops.at(0).index), combine(b, bop, result, chain));
    set_pred(static_cast<uint8_t>(ops.at(1).index), combine(b, bop, b.op(Op::LNot, result), chain));
    return true;
  }
  case Opcode::fcmp: {
    // R0 = (c cmp 0.0) ? a : b.
    const ValueId condition = float_compare(b, in.modifier("cmp"), to_float(bits(ops.at(3))), b.f32(0.0f));
    set_reg(dst(), b.select(condition, bits(ops.at(1)), bits(ops.at(2))));
    return true;
  }
  case Opcode::fset: {
    const bool ftz = in.modifier("FTZ") != 0;
    const ValueId result = combine(b, in.modifier("bop"), float_compare(b, in.modifier("cmp"), float_source(ops.at(1), ftz), float_source(ops.at(2), ftz)),
                                   pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert));
    const bool as_float = in.modifier("BF") != 0;
    const ValueId value = b.select(result, b.u32(as_float ? 0x3f800000u : 0xffffffffu), b.u32(0));
    // .CC: the flags of the result word (zero or not; -1 is negative as an integer, 1.0 is not).
    if (in.modifier("CC") != 0) set_flags(b.op(Op::IEq, value, b.u32(0)), b.op(Op::SLt, value, b.u32(0)), b.u32(0), b.boolean(false));
    set_reg(dst(), value);
    return true;
  }
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
