// Fragment quad operations and special registers of the SM5x lowering: SHFL inside a 2x2 quad (how compiled
// GLSL takes fine derivatives by hand), FSWZADD, S2R.
//
// In a fragment program the four fragments of a quad are lanes 4k..4k+3 of the warp, lane bit 0 = x and
// bit 1 = y inside the quad. Only shuffles that stay inside the quad are expressible on a host whose
// fragment "warp" is not 32 wide; they become the IR Shuffle with a quad-local source lane, which the graphics
// backend turns into quad swaps.
#include <bit>

#include <fmt/format.h>

#include "translator/sass/sm5x/lower_context.h"
#include "translator/spirv/emit_graphics.h"

namespace kiln::sass::sm5x {
namespace {

using ir::Op;
using ir::ValueId;

constexpr uint16_t kSrLaneId = 0x00;
constexpr uint16_t kSrYDirection = 0x12;
constexpr uint16_t kSrInvocationId = 0x11;

} // namespace

bool LowerContext::lower_quad(const Instruction& in) {
  const auto& ops = in.operands;
  const bool fragment = program.header && program.header->stage == ShaderStage::pixel;
  switch (in.opcode) {
  case Opcode::s2r: {
    const auto destination = static_cast<uint8_t>(ops.at(0).index);
    switch (ops.at(1).index) {
    case kSrYDirection: set_reg(destination, b.u32(std::bit_cast<uint32_t>(options.y_direction))); return true;
    case kSrInvocationId:
      // The invocation's index: the output vertex of a control program, the instance of a geometry program.
      if (!program.header || (program.header->stage != ShaderStage::tessellation_init && program.header->stage != ShaderStage::geometry)) {
        fail("SR_INVOCATION_ID outside a tessellation control or geometry program");
      }
      set_reg(destination, b.emit(Op::LoadAttribute, ir::Type::U32, {}, spirv::kInvocationIdAttribute));
      return true;
    case kSrLaneId:
      if (!fragment) fail("SR_LANEID outside a fragment program");
      set_reg(destination, b.emit(Op::QuadLane, ir::Type::U32, {}));
      return true;
    default: fail("special register not supported in graphics programs");
    }
  }
  case Opcode::shfl: {
    if (!fragment) fail("SHFL outside a fragment program");
    // Operands: predicate out, destination, value, lane (b), clamp/segment mask (c = clamp | segmask << 8).
    if (ops.at(3).kind != OperandKind::integer || ops.at(4).kind != OperandKind::integer) fail("SHFL with a register lane or mask is not supported");
    const auto lane_operand = static_cast<uint32_t>(ops.at(3).value);
    const auto c = static_cast<uint32_t>(ops.at(4).value);
    const uint32_t clamp = c & 0x1f, segment_mask = (c >> 8) & 0x1f;
    // The segment (lanes sharing lane & segment_mask) must be the quad: segmask 0x1c, clamp 3.
    if (segment_mask != 0x1c || clamp != 3) fail("SHFL across more than a quad is not supported in fragment programs");
    const ValueId lane = b.emit(Op::QuadLane, ir::Type::U32, {});
    ValueId source;
    switch (in.modifier("mode")) { // IDX, UP, DOWN, BFLY
    case 0: source = b.u32(lane_operand & 3); break;
    case 3: source = b.op(Op::Xor, lane, b.u32(lane_operand & 3)); break;
    default: fail("SHFL.UP/DOWN in a fragment program is not supported");
    }
    if (lane_operand > 3) fail("SHFL lane outside the quad");
    // Every source lane is inside the segment, so the predicate output is true.
    set_pred(static_cast<uint8_t>(ops.at(0).index), b.boolean(true));
    set_reg(static_cast<uint8_t>(ops.at(1).index), b.emit(Op::Shuffle, ir::Type::U32, {reg(static_cast<uint8_t>(ops.at(2).index)), source}));
    return true;
  }
  case Opcode::fswzadd: {
    if (!fragment) fail("FSWZADD outside a fragment program");
    if (in.modifier("CC") != 0) fail("condition codes (.CC) are not supported");
    if (in.modifier("rnd") != 0) fail("FSWZADD rounding modes other than RN are not supported");
    // Each quad lane picks its operation from two bits of the mask: 0 a + b, 1 b - a, 2 a - b, 3 b.
    const bool ftz = in.modifier("FTZ") != 0;
    const ValueId a = float_source(ops.at(1), ftz);
    const ValueId bv = float_source(ops.at(2), ftz);
    const auto mask = static_cast<uint32_t>(ops.at(3).value);
    const ValueId lane = b.emit(Op::QuadLane, ir::Type::U32, {});
    const ValueId selector = b.op(Op::And, b.op(Op::LShr, b.u32(mask), b.op(Op::Shl, lane, b.u32(1))), b.u32(3));
    ValueId value = bv;
    value = b.select(b.op(Op::IEq, selector, b.u32(2)), b.op(Op::FSub, a, bv), value);
    value = b.select(b.op(Op::IEq, selector, b.u32(1)), b.op(Op::FSub, bv, a), value);
    value = b.select(b.op(Op::IEq, selector, b.u32(0)), b.op(Op::FAdd, a, bv), value);
    if (ftz) value = b.op(Op::FFlushDenormal, value);
    set_reg(static_cast<uint8_t>(ops.at(0).index), to_bits(value));
    return true;
  }
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
