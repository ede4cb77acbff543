// Shared SASS semantics (shared_semantics.h).
#include "translator/sass/lowering/shared_semantics.h"

namespace kiln::sass {

using ir::Op;
using ir::Type;
using ir::ValueId;

ValueId byte_permute(ir::Builder& b, ValueId low, ValueId high, ValueId selector) {
  const ValueId bytes = b.op(Op::Pack64, low, high);
  ValueId result = b.u32(0);
  for (uint32_t i = 0; i < 4; ++i) {
    const ValueId nibble = b.op(Op::And, b.op(Op::LShr, selector, b.u32(4 * i)), b.u32(0xf));
    const ValueId index = b.op(Op::And, nibble, b.u32(7));
    const ValueId byte = b.op(Op::And, b.convert(Op::Trunc, Type::U32, b.op(Op::LShr, bytes, b.op(Op::Shl, index, b.u32(3)))), b.u32(0xff));
    const ValueId sign = b.select(b.op(Op::INe, b.op(Op::And, byte, b.u32(0x80)), b.u32(0)), b.u32(0xff), b.u32(0));
    const ValueId chosen = b.select(b.op(Op::INe, b.op(Op::And, nibble, b.u32(8)), b.u32(0)), sign, byte);
    result = b.op(Op::Or, result, b.op(Op::Shl, chosen, b.u32(8 * i)));
  }
  return result;
}

ShuffleLane shuffle_lane(ir::Builder& b, ShuffleMode mode, ValueId lane_operand, ValueId clamp_segment) {
  const ValueId bv = b.op(Op::And, lane_operand, b.u32(31));
  const ValueId lane = b.emit(Op::LaneId, Type::U32, {});
  const ValueId clamp = b.op(Op::And, clamp_segment, b.u32(31));
  const ValueId segment = b.op(Op::And, b.op(Op::LShr, clamp_segment, b.u32(8)), b.u32(31));
  const ValueId min_lane = b.op(Op::And, lane, segment);
  const ValueId max_lane = b.op(Op::Or, min_lane, b.op(Op::And, clamp, b.op(Op::Not, segment)));
  ValueId source = lane, valid = b.boolean(true);
  switch (mode) {
  case ShuffleMode::up:
    source = b.op(Op::ISub, lane, bv);
    valid = b.op(Op::SGe, source, max_lane);
    break;
  case ShuffleMode::down:
    source = b.op(Op::IAdd, lane, bv);
    valid = b.op(Op::SLe, source, max_lane);
    break;
  case ShuffleMode::butterfly:
    source = b.op(Op::Xor, lane, bv);
    valid = b.op(Op::SLe, source, max_lane);
    break;
  case ShuffleMode::index:
    source = b.op(Op::Or, min_lane, b.op(Op::And, bv, b.op(Op::Not, segment)));
    valid = b.op(Op::SLe, source, max_lane);
    break;
  }
  return {b.select(valid, source, lane), valid};
}

ValueId lane_mask(ir::Builder& b, LaneMask which) {
  const ValueId lane = b.emit(Op::LaneId, Type::U32, {});
  const ValueId below = b.op(Op::ISub, b.op(Op::Shl, b.u32(1), lane), b.u32(1));       // lanes < this one
  const ValueId up_to = b.op(Op::ISub, b.op(Op::Shl, b.u32(2), lane), b.u32(1));       // lanes <= this one
  switch (which) {
  case LaneMask::eq: return b.op(Op::Shl, b.u32(1), lane);
  case LaneMask::lt: return below;
  case LaneMask::le: return up_to;
  case LaneMask::gt: return b.op(Op::Not, up_to);
  case LaneMask::ge: return b.op(Op::Not, below);
  }
  return below;
}

ValueId clock_read(ir::Builder& b, uint32_t counter_local) {
  const ValueId value = b.op(Op::IAdd, b.load_local(counter_local), b.u32(1));
  b.store_local(counter_local, value);
  return value;
}

ValueId divide_needs_slow_path(ir::Builder& b, ValueId a, ValueId bv) {
  const auto exponent = [&](ValueId bits) { return b.op(Op::And, b.op(Op::LShr, bits, b.u32(23)), b.u32(0xff)); };
  const ValueId ea = exponent(a), eb = exponent(bv);
  const ValueId a_zero = b.op(Op::IEq, b.op(Op::And, a, b.u32(0x7fffffff)), b.u32(0));
  const ValueId b_safe = b.op(Op::LAnd, b.op(Op::UGe, eb, b.u32(3)), b.op(Op::ULe, eb, b.u32(251)));
  const ValueId a_normal = b.op(Op::LAnd, b.op(Op::UGe, ea, b.u32(1)), b.op(Op::ULe, ea, b.u32(254)));
  const ValueId difference = b.op(Op::ISub, b.op(Op::IAdd, ea, b.u32(124)), eb); // in [0, 248] when |ea - eb| <= 124
  const ValueId quotient_safe = b.op(Op::LAnd, a_normal, b.op(Op::ULe, difference, b.u32(248)));
  // A zero dividend takes the slow path too: the fast path's FFMAs lose the sign of -0 / b.
  const ValueId safe = b.op(Op::LAnd, b_safe, b.op(Op::LAnd, b.op(Op::LNot, a_zero), quotient_safe));
  return b.op(Op::LNot, safe);
}

ValueId half_to_float(ir::Builder& b, ValueId bits16) {
  // Exact: normals rebias the exponent, subnormals are mantissa * 2^-24, infinities and NaNs keep their payload.
  const ValueId sign = b.op(Op::Shl, b.op(Op::And, bits16, b.u32(0x8000)), b.u32(16));
  const ValueId exponent = b.op(Op::And, b.op(Op::LShr, bits16, b.u32(10)), b.u32(0x1f));
  const ValueId mantissa = b.op(Op::And, bits16, b.u32(0x3ff));
  const ValueId normal_bits = b.op(Op::Or, b.op(Op::Shl, b.op(Op::IAdd, exponent, b.u32(127 - 15)), b.u32(23)), b.op(Op::Shl, mantissa, b.u32(13)));
  const ValueId special_bits = b.op(Op::Or, b.u32(0x7f800000), b.op(Op::Shl, mantissa, b.u32(13)));
  const ValueId subnormal = b.op(Op::FMul, b.convert(Op::UToF, Type::F32, mantissa), b.f32(0x1p-24f));
  ValueId magnitude = b.convert(Op::Bitcast, Type::F32, b.select(b.op(Op::IEq, exponent, b.u32(0x1f)), special_bits, normal_bits));
  magnitude = b.select(b.op(Op::IEq, exponent, b.u32(0)), subnormal, magnitude);
  return b.convert(Op::Bitcast, Type::F32, b.op(Op::Or, b.convert(Op::Bitcast, Type::U32, magnitude), sign));
}

ValueId atomic_update_loop(ir::Builder& b, bool shared, ValueId address, const std::function<ValueId(ValueId)>& update) {
  const uint32_t result = b.add_local(Type::U32);
  b.loop([&](uint32_t label) {
    const ValueId current = b.load(shared ? Op::LoadShared : Op::LoadGlobal, ir::MemoryWidth::B32, address);
    const ValueId seen = b.emit(shared ? Op::AtomicCasShared : Op::AtomicCasGlobal, Type::U32, {address, current, update(current)});
    b.store_local(result, seen);
    b.if_then(b.op(Op::IEq, seen, current), [&] { b.break_to(label); });
    b.continue_to(label);
  });
  return b.load_local(result);
}

ValueId atomic_wrapping_step(ir::Builder& b, bool shared, ValueId address, ValueId limit, bool increment) {
  return atomic_update_loop(b, shared, address, [&](ValueId old) {
    if (increment) return b.select(b.op(Op::UGe, old, limit), b.u32(0), b.op(Op::IAdd, old, b.u32(1)));
    const ValueId wraps = b.op(Op::LOr, b.op(Op::IEq, old, b.u32(0)), b.op(Op::UGt, old, limit));
    return b.select(wraps, limit, b.op(Op::ISub, old, b.u32(1)));
  });
}

ValueId float_atomic_add(ir::Builder& b, bool shared, ValueId address, ValueId value_bits) {
  return atomic_update_loop(b, shared, address, [&](ValueId current) {
    const auto as_float = [&](ValueId bits) { return b.convert(Op::Bitcast, Type::F32, bits); };
    return b.convert(Op::Bitcast, Type::U32, b.op(Op::FAdd, as_float(current), as_float(value_bits)));
  });
}

std::array<ValueId, 2> vote(ir::Builder& b, VoteMode mode, ValueId predicate) {
  // Lanes past the workgroup do not exist: "all" compares with the lanes present.
  const ValueId ballot = b.emit(Op::Ballot, Type::U32, {predicate});
  const ValueId present = b.emit(Op::Ballot, Type::U32, {b.boolean(true)});
  ValueId result = b.boolean(false);
  switch (mode) {
  case VoteMode::all: result = b.op(Op::IEq, ballot, present); break;
  case VoteMode::any: result = b.op(Op::INe, ballot, b.u32(0)); break;
  case VoteMode::eq: result = b.op(Op::LOr, b.op(Op::IEq, ballot, present), b.op(Op::IEq, ballot, b.u32(0))); break;
  }
  return {ballot, result};
}

ValueId integer_to_float(ir::Builder& b, ValueId value, bool is_unsigned, bool wide, bool to_double, ir::Rounding mode) {
  const bool exact = to_double && !wide; // every 32-bit integer is a double
  ValueId result = b.convert(is_unsigned ? Op::UToF : Op::SToF, to_double ? Type::F64 : Type::F32, value);
  if (mode == ir::Rounding::nearest || exact) return result;
  // The rounded value is an integer: converting it back (in 64 bits) and comparing gives the error's sign.
  // (Sources of 64 bits whose rounding reaches 2^63/2^64 saturate the comparison: the sign stays right.)
  const ValueId exact_value = wide ? value : b.convert(is_unsigned ? Op::ZExt : Op::SExt, Type::U64, value);
  const ValueId back = b.convert(is_unsigned ? Op::FToU : Op::FToS, Type::U64, result);
  const ValueId above = b.op(is_unsigned ? Op::UGt : Op::SGt, exact_value, back);
  const ValueId below = b.op(is_unsigned ? Op::ULt : Op::SLt, exact_value, back);
  const ValueId error = b.select(above, b.f32(1.0f), b.select(below, b.f32(-1.0f), b.f32(0.0f)));
  return ir::round_towards(b, result, error, mode);
}

ValueId saturate_narrow(ir::Builder& b, ValueId value, unsigned bits, bool is_signed) {
  if (!is_signed) return b.op(Op::UMin, value, b.u32((1u << bits) - 1));
  const auto high = static_cast<uint32_t>((1 << (bits - 1)) - 1);
  return b.op(Op::SMax, b.op(Op::SMin, value, b.u32(high)), b.u32(~high));
}

} // namespace kiln::sass
