// Integer arithmetic, logic, shifts, compares and the condition code of the SM5x lowering. Carries follow the
// hardware's subtraction: "-x" adds ~x and a carry of 1, so a - b carries out exactly when there is no borrow;
// .X forms add ~x and the carry the last .CC form left.
#include <fmt/format.h>

#include "translator/sass/lowering/shared_semantics.h"
#include "translator/sass/sm5x/lower_context.h"

namespace kiln::sass::sm5x {
namespace {

using ir::Op;
using ir::ValueId;

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

ValueId LowerContext::cc_test(uint32_t test) {
  // %CCTEST order: F,LT,EQ,LE,GT,NE,GE,NUM,NAN,LTU,EQU,LEU,GTU,NEU,GEU,T,OFF,LO,SFF,LS,HI,SFT,HS,OFT. The ordered
  // tests read S/O as a signed compare does; the unordered ones also hold when O (a NaN result) is set.
  if (test == 15) return b.boolean(true);
  if (test == 0) return b.boolean(false);
  const ValueId zero = flag(Flag::zero), sign = flag(Flag::sign), overflow = flag(Flag::overflow);
  const ValueId carry = b.op(Op::INe, flag(Flag::carry), b.u32(0));
  const ValueId less = b.op(Op::LXor, sign, overflow);
  const auto ordered = [&](uint32_t t) -> ValueId {
    switch (t) {
    case 1: return less;
    case 2: return zero;
    case 3: return b.op(Op::LOr, zero, less);
    case 4: return b.op(Op::LAnd, b.op(Op::LNot, zero), b.op(Op::LNot, less));
    case 5: return b.op(Op::LNot, zero);
    default: return b.op(Op::LNot, less);
    }
  };
  if (test <= 6) return ordered(test);
  if (test == 7) return b.op(Op::LNot, overflow);
  if (test == 8) return overflow;
  if (test <= 14) return b.op(Op::LOr, ordered(test - 8), overflow);
  switch (test) {
  case 16: return b.op(Op::LNot, overflow);
  case 17: return b.op(Op::LNot, carry);
  case 18: return b.op(Op::LNot, sign);
  case 19: return b.op(Op::LOr, b.op(Op::LNot, carry), zero);
  case 20: return b.op(Op::LAnd, carry, b.op(Op::LNot, zero));
  case 21: return sign;
  case 22: return carry;
  case 23: return overflow;
  default: fail(fmt::format("condition-code test {} is not supported", test));
  }
}

bool LowerContext::lower_integer(const Instruction& in) {
  const auto& ops = in.operands;
  const auto dst = [&] { return static_cast<uint8_t>(ops.at(0).index); };
  const bool write_cc = in.modifier("CC") != 0;
  const bool extended = in.modifier("X") != 0;
  const ValueId no_flag = b.boolean(false);
  // Z and S of a logic or move result; C and O clear.
  const auto logic_flags = [&](ValueId result) {
    if (write_cc) set_flags(b.op(Op::IEq, result, b.u32(0)), b.op(Op::SLt, result, b.u32(0)), b.u32(0), no_flag);
  };
  // An addend: "-x" is ~x (plus a carry of 1 outside .X forms); .H0/.H1 select a half (IADD3).
  const auto addend = [&](const Operand& operand, uint32_t& carries) {
    ValueId value = bits(operand);
    if (operand.selector == 1) value = b.op(Op::And, value, b.u32(0xffff));
    if (operand.selector == 2) value = b.op(Op::LShr, value, b.u32(16));
    if (operand.negate) {
      value = b.op(Op::Not, value);
      if (!extended) ++carries;
    }
    return value;
  };
  // x + y (+ the carry-in of .X) with its flags when .CC.
  const auto add = [&](ValueId x, ValueId y, uint32_t carries) {
    ValueId carry_in = b.u32(carries);
    if (extended) carry_in = b.op(Op::IAdd, carry_in, flag(Flag::carry));
    const Sum sum = add_with_carry(x, y, carry_in);
    if (write_cc) set_result_flags(sum.value, sum.carry, sum.overflow, extended);
    return sum.value;
  };
  switch (in.opcode) {
  case Opcode::iadd:
  case Opcode::iadd32i: {
    if (in.modifier("SAT") != 0) {
      if (extended || write_cc) fail("IADD.SAT with carries is not supported");
      // Signed saturation of the exact sum.
      const auto wide = [&](const Operand& operand) {
        ValueId value = b.convert(Op::SExt, ir::Type::U64, bits(operand));
        return operand.negate ? b.op(Op::INeg, value) : value;
      };
      const ValueId sum = b.op(Op::IAdd, wide(ops.at(1)), wide(ops.at(2)));
      const ValueId clamped = b.op(Op::SMax, b.op(Op::SMin, sum, b.u64(0x7fffffff)), b.u64(0xffffffff80000000ull));
      set_reg(dst(), b.convert(Op::Trunc, ir::Type::U32, clamped));
      return true;
    }
    uint32_t carries = 0;
    const ValueId x = addend(ops.at(1), carries);
    const ValueId y = addend(ops.at(2), carries);
    set_reg(dst(), add(x, y, carries));
    return true;
  }
  case Opcode::iadd3: {
    // Two-step form: .RS/.LS shift the sum of the first two by 16 (as 33-bit unsigned values) before the third.
    uint32_t carries = 0;
    const ValueId x = addend(ops.at(1), carries), y = addend(ops.at(2), carries), z = addend(ops.at(3), carries);
    const auto wide = [&](ValueId v) { return b.convert(Op::ZExt, ir::Type::U64, v); };
    ValueId sum = b.op(Op::IAdd, wide(x), wide(y));
    const uint32_t shift = in.modifier("shift");
    if (shift == 1) sum = b.op(Op::LShr, sum, b.u32(16));
    if (shift == 2) sum = b.op(Op::And, b.op(Op::Shl, sum, b.u32(16)), b.u64(0xffffffff));
    if (shift != 0 && carries != 0) fail("IADD3 shift with negated operands is not supported");
    sum = b.op(Op::IAdd, b.op(Op::IAdd, sum, wide(z)), b.u64(carries));
    if (extended) sum = b.op(Op::IAdd, sum, wide(flag(Flag::carry)));
    const ValueId value = b.convert(Op::Trunc, ir::Type::U32, sum);
    if (write_cc) {
      const ValueId carry = b.convert(Op::Trunc, ir::Type::U32, b.op(Op::LShr, sum, b.u32(32)));
      set_result_flags(value, carry, no_flag, extended);
    }
    set_reg(dst(), value);
    return true;
  }
  case Opcode::iscadd:
  case Opcode::iscadd32i: {
    uint32_t carries = 0;
    const ValueId x = addend(ops.at(1), carries), y = addend(ops.at(2), carries);
    // The negate's +1 applies before the shift: (~x + 1) << s.
    ValueId shifted_x = x;
    if (ops.at(1).negate) {
      shifted_x = b.op(Op::IAdd, x, b.u32(1));
      --carries;
    }
    shifted_x = b.op(Op::Shl, shifted_x, b.u32(static_cast<uint32_t>(ops.at(3).value)));
    set_reg(dst(), add(shifted_x, y, carries));
    return true;
  }
  case Opcode::lea: {
    const bool high = !in.modifier_text("HI").empty();
    const ValueId a = bits(ops.at(2));
    if (ops.at(2).negate) fail("LEA with a negated operand is not supported");
    const auto shift = static_cast<uint32_t>(ops.back().kind == OperandKind::integer ? ops.back().value : 0);
    ValueId part;
    if (!high) {
      part = b.op(Op::Shl, a, b.u32(shift));
    } else {
      // LEA.HI: the high word of (c:a) << s.
      const ValueId wide = b.op(Op::Pack64, a, bits(ops.at(4)));
      part = b.convert(Op::Trunc, ir::Type::U32, b.op(Op::LShr, b.op(Op::Shl, wide, b.u32(shift)), b.u32(32)));
    }
    ValueId carry_in = b.u32(0);
    if (extended) carry_in = flag(Flag::carry);
    const Sum sum = add_with_carry(part, bits(ops.at(3)), carry_in);
    if (write_cc) set_result_flags(sum.value, sum.carry, sum.overflow, extended);
    // The predicate result: the carry out of the add (kiln's reading; ptxas's generic-pointer conversions
    // `LEA.HI.X P0, ...` feed it to the LD/ST that follow, where a valid address never sets it).
    set_pred(static_cast<uint8_t>(ops.at(0).index), b.op(Op::INe, sum.carry, b.u32(0)));
    set_reg(static_cast<uint8_t>(ops.at(1).index), sum.value);
    return true;
  }
  case Opcode::xmad: {
    // a.half * b.half (16-bit parts, each signed or not) [<< 16 with .PSL] + c after its mode; .MRG keeps the low
    // half and puts b's low half above it. The register-c constant form (0x51) reads b from R39 and c from C.
    const Operand& a_operand = ops.at(1);
    const Operand& b_operand = ops.at(2);
    const Operand& c_operand = ops.at(3);
    const uint32_t signs = in.modifier("signs");
    const auto half = [&](const Operand& operand, bool is_signed) {
      const ValueId value = bits(operand);
      const bool upper = operand.selector == 1;
      if (is_signed) return upper ? b.op(Op::AShr, value, b.u32(16)) : b.op(Op::AShr, b.op(Op::Shl, value, b.u32(16)), b.u32(16));
      return upper ? b.op(Op::LShr, value, b.u32(16)) : b.op(Op::And, value, b.u32(0xffff));
    };
    const ValueId a = half(a_operand, (signs & 1) != 0);
    const ValueId bh = half(b_operand, (signs & 2) != 0);
    const ValueId b_raw = bits(b_operand);
    ValueId product = b.op(Op::IMul, a, bh);
    if (in.modifier("PSL") != 0) product = b.op(Op::Shl, product, b.u32(16));
    ValueId c = bits(c_operand);
    switch (in.modifier("mode")) {
    case 0: break;
    case 1: c = b.op(Op::And, c, b.u32(0xffff)); break;  // CLO
    case 2: c = b.op(Op::LShr, c, b.u32(16)); break;     // CHI
    case 3: {
      // CSFU (sign fix-up) ends ptxas's 32x32 signed high multiply: a.H1 * b.H1 + c, less 2^16 for each
      // cross product (a.H1 * b.H0, a.H0 * b.H1) that is negative, since IADD3.RS sums those as unsigned words.
      // A cross product is negative when its high half is and the other operand's low half is not zero. (The
      // zero test is kiln's reading: without it, mul.hi of 0 by a negative constant comes out as -1.)
      const auto other_half = [&](const Operand& operand) {
        const ValueId value = bits(operand);
        return operand.selector == 1 ? b.op(Op::And, value, b.u32(0xffff)) : b.op(Op::LShr, value, b.u32(16));
      };
      const auto negative_cross = [&](ValueId high_part, const Operand& other) {
        const ValueId negative = b.op(Op::LAnd, b.op(Op::SLt, high_part, b.u32(0)), b.op(Op::INe, other_half(other), b.u32(0)));
        return b.select(negative, b.u32(0x10000), b.u32(0));
      };
      c = b.op(Op::ISub, c, b.op(Op::IAdd, negative_cross(a, b_operand), negative_cross(bh, a_operand)));
      break;
    }
    case 4: c = b.op(Op::IAdd, c, b.op(Op::Shl, b_raw, b.u32(16))); break; // CBCC
    default: fail("XMAD mode not supported");
    }
    ValueId result = add(product, c, 0);
    if (in.modifier("MRG") != 0) result = b.op(Op::Or, b.op(Op::And, result, b.u32(0xffff)), b.op(Op::Shl, b_raw, b.u32(16)));
    set_reg(dst(), result);
    return true;
  }
  case Opcode::imul:
  case Opcode::imul32i: {
    if (write_cc) fail("IMUL.CC is not supported");
    const uint32_t types = in.modifier("types"); // U32.U32, S32.U32, U32.S32, S32.S32
    const auto wide = [&](const Operand& operand, bool is_signed) { return b.convert(is_signed ? Op::SExt : Op::ZExt, ir::Type::U64, bits(operand)); };
    const ValueId product = b.op(Op::IMul, wide(ops.at(1), types == 1 || types == 3), wide(ops.at(2), types == 2 || types == 3));
    const ValueId part = in.modifier("HI") != 0 ? b.op(Op::LShr, product, b.u32(32)) : product;
    set_reg(dst(), b.convert(Op::Trunc, ir::Type::U32, part));
    return true;
  }
  case Opcode::imnmx: {
    const bool is_signed = in.modifier("type") == 1;
    const ValueId x = bits(ops.at(1)), y = bits(ops.at(2));
    const ValueId take_min = pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert);
    const Op minimum = is_signed ? Op::SMin : Op::UMin, maximum = is_signed ? Op::SMax : Op::UMax;
    switch (in.modifier("mode")) {
    case 0: {
      const ValueId result = b.select(take_min, b.op(minimum, x, y), b.op(maximum, x, y));
      logic_flags(result);
      set_reg(dst(), result);
      return true;
    }
    case 3: { // XHI: the high words of a 64-bit min/max; the condition code tells XLO how they compared
      const ValueId x_wins = b.select(take_min, b.op(is_signed ? Op::SLt : Op::ULt, x, y), b.op(is_signed ? Op::SGt : Op::UGt, x, y));
      const ValueId result = b.select(take_min, b.op(minimum, x, y), b.op(maximum, x, y));
      if (write_cc) set_flags(b.op(Op::IEq, x, y), b.op(Op::SLt, result, b.u32(0)), b.select(x_wins, b.u32(1), b.u32(0)), no_flag);
      set_reg(dst(), result);
      return true;
    }
    case 1: { // XLO: equal high words compare the low ones (unsigned), else the high words' winner's low word
      const ValueId low = b.select(take_min, b.op(Op::UMin, x, y), b.op(Op::UMax, x, y));
      const ValueId x_won = b.op(Op::INe, flag(Flag::carry), b.u32(0));
      set_reg(dst(), b.select(flag(Flag::zero), low, b.select(x_won, x, y)));
      return true;
    }
    default: fail("IMNMX.XMED is not supported");
    }
  }
  case Opcode::vmnmx: {
    // The one encoding (all bits fixed): min(max(a, b), c), signed.
    set_reg(dst(), b.op(Op::SMin, b.op(Op::SMax, bits(ops.at(1)), bits(ops.at(2))), bits(ops.at(3))));
    return true;
  }
  case Opcode::sel:
    set_reg(dst(), b.select(pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert), bits(ops.at(1)), bits(ops.at(2))));
    return true;
  case Opcode::icmp: {
    // R0 = (c cmp 0) ? a : b.
    const ValueId condition = int_compare(b, in.modifier("cmp"), in.modifier("type") == 1, bits(ops.at(3)), b.u32(0));
    set_reg(dst(), b.select(condition, bits(ops.at(1)), bits(ops.at(2))));
    return true;
  }
  case Opcode::isetp:
  case Opcode::iset: {
    const bool setp = in.opcode == Opcode::isetp;
    const size_t first = setp ? 2 : 1;
    const bool is_signed = in.modifier("type") == 1;
    const uint32_t cmp = in.modifier("cmp");
    const ValueId x = bits(ops.at(first)), y = bits(ops.at(first + 1));
    ValueId result;
    if (!extended) {
      result = int_compare(b, cmp, is_signed, x, y);
    } else {
      // The high words of a 64-bit compare: x + ~y + C as the subtraction's last step, its flags chained with the
      // low words' (Z and-ed) decide.
      const Sum difference = add_with_carry(x, b.op(Op::Not, y), flag(Flag::carry));
      const ValueId zero = b.op(Op::LAnd, b.op(Op::IEq, difference.value, b.u32(0)), flag(Flag::zero));
      const ValueId carry = b.op(Op::INe, difference.carry, b.u32(0));
      const ValueId less = is_signed ? b.op(Op::LXor, b.op(Op::SLt, difference.value, b.u32(0)), difference.overflow) : b.op(Op::LNot, carry);
      switch (cmp) {
      case 0: result = b.boolean(false); break;
      case 1: result = less; break;
      case 2: result = zero; break;
      case 3: result = b.op(Op::LOr, less, zero); break;
      case 4: result = b.op(Op::LAnd, b.op(Op::LNot, less), b.op(Op::LNot, zero)); break;
      case 5: result = b.op(Op::LNot, zero); break;
      case 6: result = b.op(Op::LNot, less); break;
      default: result = b.boolean(true); break;
      }
    }
    const Operand& chain_operand = ops.at(first + 2);
    const ValueId chain = pred(static_cast<uint8_t>(chain_operand.index), chain_operand.invert);
    const uint32_t bop = in.modifier("bop");
    if (setp) {
      set_pred(static_cast<uint8_t>(ops.at(0).index), combine(b, bop, result, chain));
      set_pred(static_cast<uint8_t>(ops.at(1).index), combine(b, bop, b.op(Op::LNot, result), chain));
      return true;
    }
    const ValueId value = b.select(combine(b, bop, result, chain), b.u32(in.modifier("BF") != 0 ? 0x3f800000u : 0xffffffffu), b.u32(0));
    logic_flags(value);
    set_reg(dst(), value);
    return true;
  }
  case Opcode::psetp:
  case Opcode::pset: {
    const bool setp = in.opcode == Opcode::psetp;
    const size_t first = setp ? 2 : 1;
    const auto p = [&](size_t i) { return pred(static_cast<uint8_t>(ops.at(i).index), ops.at(i).invert); };
    const ValueId inner = combine(b, in.modifier("bop1"), p(first), p(first + 1));
    const uint32_t bop = in.modifier("bop");
    if (setp) {
      set_pred(static_cast<uint8_t>(ops.at(0).index), combine(b, bop, inner, p(first + 2)));
      set_pred(static_cast<uint8_t>(ops.at(1).index), combine(b, bop, b.op(Op::LNot, inner), p(first + 2)));
      return true;
    }
    const ValueId value = b.select(combine(b, bop, inner, p(first + 2)), b.u32(in.modifier("BF") != 0 ? 0x3f800000u : 0xffffffffu), b.u32(0));
    logic_flags(value);
    set_reg(dst(), value);
    return true;
  }
  case Opcode::csetp: {
    const ValueId result = cc_test(in.modifier("cc"));
    const ValueId chain = pred(static_cast<uint8_t>(ops.at(3).index), ops.at(3).invert);
    const uint32_t bop = in.modifier("bop");
    set_pred(static_cast<uint8_t>(ops.at(0).index), combine(b, bop, result, chain));
    set_pred(static_cast<uint8_t>(ops.at(1).index), combine(b, bop, b.op(Op::LNot, result), chain));
    return true;
  }
  case Opcode::lop:
  case Opcode::lop32i: {
    if (extended) fail("LOP.X is not supported");
    const size_t first = in.opcode == Opcode::lop ? 2 : 1;
    ValueId x = bits(ops.at(first)), y = bits(ops.at(first + 1));
    if (ops.at(first).invert) x = b.op(Op::Not, x);
    if (ops.at(first + 1).invert) y = b.op(Op::Not, y);
    static constexpr Op logic[] = {Op::And, Op::Or, Op::Xor};
    const uint32_t op = in.modifier("op");
    const ValueId result = op == 3 ? y : b.op(logic[op], x, y);
    logic_flags(result);
    if (in.opcode == Opcode::lop) {
      // The predicate result (.T/.Z/.NZ): true, result == 0, result != 0.
      const uint32_t pop = in.modifier("pop");
      const ValueId test = pop == 2 ? b.op(Op::IEq, result, b.u32(0)) : pop == 3 ? b.op(Op::INe, result, b.u32(0)) : b.boolean(pop == 1);
      set_pred(static_cast<uint8_t>(ops.at(0).index), test);
    }
    set_reg(static_cast<uint8_t>(ops.at(first - 1).index), result);
    return true;
  }
  case Opcode::lop3: {
    if (extended) fail("LOP3.X is not supported");
    const bool has_pred = ops.at(0).kind == OperandKind::predicate;
    const size_t first = has_pred ? 2 : 1;
    const ValueId a = bits(ops.at(first)), bb = bits(ops.at(first + 1)), c = bits(ops.at(first + 2));
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
    logic_flags(result);
    if (has_pred) {
      const uint32_t pop = in.modifier("pop");
      const ValueId test = pop == 2 ? b.op(Op::IEq, result, b.u32(0)) : pop == 3 ? b.op(Op::INe, result, b.u32(0)) : b.boolean(pop == 1);
      set_pred(static_cast<uint8_t>(ops.at(0).index), test);
    }
    set_reg(static_cast<uint8_t>(ops.at(first - 1).index), result);
    return true;
  }
  case Opcode::shl: {
    if (extended || write_cc) fail("SHL.X/.CC is not supported");
    ValueId amount = bits(ops.at(2));
    if (in.modifier("W") != 0) amount = b.op(Op::And, amount, b.u32(31));
    set_reg(dst(), b.op(Op::Shl, bits(ops.at(1)), amount)); // amounts past 31 give 0 (IR Shl)
    return true;
  }
  case Opcode::shr: {
    if (extended || write_cc) fail("SHR.X/.CC is not supported");
    ValueId value = bits(ops.at(1));
    if (in.modifier("BREV") != 0) value = b.op(Op::BitReverse, value);
    ValueId amount = bits(ops.at(2));
    if (in.modifier("W") != 0) amount = b.op(Op::And, amount, b.u32(31));
    set_reg(dst(), b.op(in.modifier("type") == 1 ? Op::AShr : Op::LShr, value, amount));
    return true;
  }
  case Opcode::shf: {
    if (write_cc || in.modifier("x") != 0) fail("SHF.HI/.X/.CC forms are not supported");
    // A funnel shift of (high:low); 32-bit forms clamp (or with .W wrap) the amount at 32, 64-bit ones at 64.
    const bool left = !in.modifier_text("L").empty(); // the row names its direction (fixed text L or R)
    const uint32_t type = in.modifier("type");         // none, ?, U64, S64
    const bool wide = type >= 2;
    const uint32_t limit = wide ? 64 : 32;
    const ValueId value = b.op(Op::Pack64, bits(ops.at(1)), bits(ops.at(3)));
    ValueId amount = bits(ops.at(2));
    amount = in.modifier("W") != 0 ? b.op(Op::And, amount, b.u32(limit - 1)) : b.op(Op::UMin, amount, b.u32(limit));
    ValueId shifted;
    if (left) {
      shifted = b.select(b.op(Op::UGe, amount, b.u32(64)), b.u64(0), b.op(Op::Shl, value, b.op(Op::UMin, amount, b.u32(63))));
      shifted = b.op(Op::LShr, shifted, b.u32(32));
    } else {
      const bool arithmetic = type == 3;
      const ValueId fill = arithmetic ? b.op(Op::AShr, value, b.u32(63)) : b.u64(0);
      shifted = b.select(b.op(Op::UGe, amount, b.u32(64)), fill, b.op(arithmetic ? Op::AShr : Op::LShr, value, b.op(Op::UMin, amount, b.u32(63))));
    }
    set_reg(dst(), b.convert(Op::Trunc, ir::Type::U32, shifted));
    return true;
  }
  case Opcode::bfe: {
    if (write_cc) fail("BFE.CC is not supported");
    const bool is_signed = in.modifier("type") == 1;
    ValueId value = bits(ops.at(1));
    if (in.modifier("BREV") != 0) value = b.op(Op::BitReverse, value);
    const ValueId field = bits(ops.at(2));
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
    if (write_cc) fail("BFI.CC is not supported");
    const ValueId insert = bits(ops.at(1)), field = bits(ops.at(2)), base = bits(ops.at(3));
    const ValueId position = b.op(Op::And, field, b.u32(0xff));
    const ValueId length = b.op(Op::And, b.op(Op::LShr, field, b.u32(8)), b.u32(0xff));
    // PTX bfi: bits that would land past 31 are dropped; a field starting past 31 inserts nothing.
    const ValueId mask = b.op(Op::Shl, b.op(Op::ISub, b.op(Op::Shl, b.u32(1), length), b.u32(1)), position);
    set_reg(dst(), b.op(Op::Or, b.op(Op::And, base, b.op(Op::Not, mask)), b.op(Op::And, b.op(Op::Shl, insert, position), mask)));
    return true;
  }
  case Opcode::flo: {
    if (write_cc) fail("FLO.CC is not supported");
    ValueId value = bits(ops.at(1));
    if (ops.at(1).invert) value = b.op(Op::Not, value);
    // The index of the highest bit set (signed: the highest bit differing from the sign), 0xffffffff if none;
    // .SH gives the shift that brings it to bit 31 instead.
    const ValueId index = b.op(in.modifier("type") == 1 ? Op::FindMsbS : Op::FindMsbU, value);
    const ValueId none = b.op(Op::IEq, index, b.u32(0xffffffff));
    set_reg(dst(), in.modifier("SH") != 0 ? b.select(none, index, b.op(Op::ISub, b.u32(31), index)) : index);
    return true;
  }
  case Opcode::popc: {
    ValueId value = bits(ops.at(1));
    if (ops.at(1).invert) value = b.op(Op::Not, value);
    set_reg(dst(), b.op(Op::PopCount, value));
    return true;
  }
  case Opcode::prmt:
    if (in.modifier("mode") != 0) fail("PRMT modes other than the default are not supported");
    set_reg(dst(), byte_permute(b, bits(ops.at(1)), bits(ops.at(3)), bits(ops.at(2))));
    return true;
  case Opcode::p2r: {
    // Rd = Ra with the predicate bits (P0-P6 = bits 0-6) under the mask, at byte `byte`.
    if (ops.at(1).value != 0) fail("P2R of the condition code is not supported");
    const uint32_t shift = 8 * in.modifier("byte");
    const auto mask = static_cast<uint32_t>(ops.at(3).value) & 0x7f;
    ValueId predicates = b.u32(0);
    for (uint8_t p = 0; p < 7; ++p) {
      if ((mask >> p) & 1) predicates = b.op(Op::Or, predicates, b.select(pred(p), b.u32(1u << p), b.u32(0)));
    }
    const ValueId kept = b.op(Op::And, bits(ops.at(2)), b.u32(~(mask << shift)));
    set_reg(dst(), b.op(Op::Or, kept, b.op(Op::Shl, predicates, b.u32(shift))));
    return true;
  }
  case Opcode::r2p: {
    if (ops.at(0).value != 0) fail("R2P to the condition code is not supported");
    const uint32_t shift = 8 * in.modifier("byte");
    const auto mask = static_cast<uint32_t>(ops.at(2).value) & 0x7f;
    const ValueId value = bits(ops.at(1));
    for (uint8_t p = 0; p < 7; ++p) {
      if ((mask >> p) & 1) set_pred(p, b.op(Op::INe, b.op(Op::And, value, b.u32(1u << (p + shift))), b.u32(0)));
    }
    return true;
  }
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
