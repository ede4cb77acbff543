// Stage inputs and outputs (ALD/AST/IPA, fragment outputs at EXIT), constant loads and KIL of the SM5x lowering
// (textures: lower_texture.cpp).
#include <fmt/format.h>

#include "translator/ir/rounding.h"
#include "translator/sass/sm5x/lower_context.h"
#include "translator/spirv/emit_graphics.h"

namespace kiln::sass::sm5x {
namespace {

using ir::Op;
using ir::ValueId;

constexpr uint32_t kPositionW = 0x7c;

} // namespace

void LowerContext::store_fragment_outputs() {
  if (!program.header || program.header->stage != ShaderStage::pixel) return;
  for (const FragmentOutput& output : program.header->fragment_outputs()) {
    if (output.kind == FragmentOutput::Kind::sample_mask) fail("sample mask outputs are not supported");
    const uint64_t target = output.kind == FragmentOutput::Kind::depth ? 32 : output.target * 4u + output.component;
    b.emit(Op::StoreAttribute, ir::Type::Void, {reg(output.reg)}, target);
  }
}

bool LowerContext::lower_io(const Instruction& in) {
  const auto& ops = in.operands;
  const ShaderStage stage = program.header->stage;
  switch (in.opcode) {
  case Opcode::ald:
  case Opcode::ast: {
    const bool load = in.opcode == Opcode::ald;
    const Operand& attribute = ops.at(load ? 1 : 0);
    const Operand& data = ops.at(load ? 0 : 1);
    if (attribute.base != kRZ) fail("indexed attribute access is not supported");
    if (load && in.modifier("O") != 0) fail("output reads are not supported");
    if (stage == ShaderStage::pixel) fail("ALD/AST in a fragment program");
    const bool patch = in.modifier("P") != 0;
    if (patch && stage != ShaderStage::tessellation_init && stage != ShaderStage::tessellation) fail("ALD.P/AST.P outside a tessellation program");
    if (patch && stage == ShaderStage::tessellation_init && load) fail("reading patch outputs back (ALD.P in a control program) is not supported");
    if (patch && stage == ShaderStage::tessellation && !load) fail("AST.P in an evaluation program");
    // A geometry or tessellation program's ALD names the input vertex in R39 (its handle; kiln takes it as the
    // vertex index, as the vertex's position in the input primitive or patch). A geometry program's AST R39 names
    // the output vertex being built, which EMIT hands over in order, so stores need no index; a control program's AST
    // writes its own output vertex (the backend indexes the output arrays by the invocation id). System values of
    // the evaluation stage (tess_coord.u/v, primitive id) are not per vertex.
    const auto first_address = static_cast<uint32_t>(attribute.value);
    const bool system_value = stage == ShaderStage::tessellation && (first_address < 0x70 || (first_address >= 0x2e0 && first_address < 0x300));
    const bool per_vertex = load && !patch && !system_value &&
                            (stage == ShaderStage::geometry || stage == ShaderStage::tessellation_init || stage == ShaderStage::tessellation);
    const ValueId vertex = per_vertex ? reg(static_cast<uint8_t>(ops.at(2).index)) : ValueId{};
    const uint32_t count = in.modifier("size") + 1;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t address = (first_address + 4 * i) | (patch ? spirv::kPatchAttributeFlag : 0);
      const auto reg_index = static_cast<uint8_t>(data.index == kRZ ? kRZ : data.index + i);
      if (per_vertex) set_reg(reg_index, b.emit(Op::LoadVertexAttribute, ir::Type::U32, {vertex}, address));
      else if (load) set_reg(reg_index, b.emit(Op::LoadAttribute, ir::Type::U32, {}, address));
      else b.emit(Op::StoreAttribute, ir::Type::Void, {reg(reg_index)}, address);
    }
    return true;
  }
  case Opcode::out: {
    // OUT[.EMIT|.CUT|.EMIT_THEN_CUT] Rd, Ra, stream: finishes the output vertex Ra names and returns the handle of
    // the next one in Rd; kiln's handles are opaque (Rd = Ra). Only stream 0 is supported.
    if (stage != ShaderStage::geometry) fail("OUT outside a geometry program");
    const Operand& stream = ops.at(2);
    if (!(stream.kind == OperandKind::integer && stream.value == 0) && !(stream.kind == OperandKind::gpr && stream.index == kRZ)) {
      fail("OUT to a vertex stream other than a literal 0 is not supported");
    }
    const uint32_t primitive = in.modifier("prim"); // ?, EMIT, CUT, EMIT_THEN_CUT
    const ValueId handle = reg(static_cast<uint8_t>(ops.at(1).index));
    if (primitive & 1) b.emit(Op::EmitVertex, ir::Type::Void, {});
    if (primitive & 2) b.emit(Op::EndPrimitive, ir::Type::Void, {});
    set_reg(static_cast<uint8_t>(ops.at(0).index), handle);
    return true;
  }
  case Opcode::ipa: {
    if (stage != ShaderStage::pixel) fail("IPA outside a fragment program");
    const Operand& attribute = ops.at(1);
    if (attribute.base != kRZ || in.modifier("IDX") != 0) fail("indexed IPA is not supported");
    if (ops.at(3).kind == OperandKind::gpr && ops.at(3).index != kRZ) fail("IPA with a sample-offset register is not supported");
    if (ops.size() > 4 && ops.at(4).index != kPT) fail("IPA with a predicate output is not supported");
    const auto address = static_cast<uint32_t>(attribute.value);
    ValueId value = to_float(b.emit(Op::LoadAttribute, ir::Type::U32, {}, address));
    const uint32_t mode = in.modifier("mode"); // PASS, MULTIPLY, CONSTANT, SC
    const bool is_position = address >= 0x70 && address <= kPositionW;
    // The hardware interpolates a perspective attribute divided by w: PASS returns attribute x (1/w) as the
    // fragment sees it, and MULTIPLY then scales it by the register (normally w).
    if (!is_position && (mode == 0 || mode == 1) && program.header->input_interpolation(address) == PixelImap::perspective) {
      value = b.op(Op::FMul, value, to_float(b.emit(Op::LoadAttribute, ir::Type::U32, {}, kPositionW)));
    }
    if (mode == 1) {
      // The multiply rounds towards zero with denormals flushed: NVIDIA's Turing compiles of the same programs,
      // which have no IPA.MULTIPLY, spell it IPA.PASS then FMUL.FTZ.RZ (corpus turing/ vs maxwell/).
      const ValueId factor = b.op(Op::FFlushDenormal, to_float(reg(static_cast<uint8_t>(ops.at(2).index))));
      value = b.op(Op::FFlushDenormal, ir::rounded_mul(b, b.op(Op::FFlushDenormal, value), factor, ir::Rounding::zero));
    }
    if (in.modifier("SAT") != 0) value = b.op(Op::FSaturate, value);
    set_reg(static_cast<uint8_t>(ops.at(0).index), to_bits(value));
    return true;
  }
  case Opcode::ldc: {
    if (in.modifier("size") != 4 || in.modifier("mode") != 0) fail("LDC sizes other than 32 bits are not supported");
    const Operand& source = ops.at(1);
    ValueId offset = b.u32(static_cast<uint32_t>(source.value));
    if (source.base != kRZ) offset = b.op(Op::IAdd, reg(source.base), offset);
    set_reg(static_cast<uint8_t>(ops.at(0).index), const_bank(source.index, offset));
    return true;
  }
  case Opcode::kil:
    if (stage != ShaderStage::pixel) fail("KIL outside a fragment program");
    if (in.modifier("cc") != 15) fail("KIL on a condition code is not supported");
    b.emit(Op::Demote, ir::Type::Void, {});
    return true;
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
