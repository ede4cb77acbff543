// Stage inputs and outputs (ALD/AST/IPA, fragment outputs at EXIT), constant loads, textures and KIL of the SM5x
// lowering.
#include <fmt/format.h>

#include "translator/ir/rounding.h"
#include "translator/ir/texture.h"
#include "translator/sass/sm5x/lower_context.h"

namespace kiln::sass::sm5x {
namespace {

using ir::Op;
using ir::ValueId;

constexpr uint32_t kPositionW = 0x7c;

/// TEXDIM enumerant: 1D/2D/3D/CUBE/ARRAY_1D/ARRAY_2D/ARRAY_3D/ARRAY_CUBE.
std::pair<ir::TextureDim, bool> texture_dim(int64_t value) {
  return {static_cast<ir::TextureDim>(value & 3), value >= 4};
}

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
    if (in.modifier("P") != 0 || (load && in.modifier("O") != 0)) fail("patch and output reads are not supported");
    if (stage == ShaderStage::pixel) fail("ALD/AST in a fragment program");
    const uint32_t count = in.modifier("size") + 1;
    for (uint32_t i = 0; i < count; ++i) {
      const auto address = static_cast<uint32_t>(attribute.value) + 4 * i;
      const auto reg_index = static_cast<uint8_t>(data.index == kRZ ? kRZ : data.index + i);
      if (load) set_reg(reg_index, b.emit(Op::LoadAttribute, ir::Type::U32, {}, address));
      else b.emit(Op::StoreAttribute, ir::Type::Void, {reg(reg_index)}, address);
    }
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
  case Opcode::tex:
  case Opcode::tld:
  case Opcode::tld4:
  case Opcode::txq: {
    const bool bindless = !in.modifier_text("B").empty();
    const uint8_t destination = static_cast<uint8_t>(ops.at(0).index);
    uint8_t coords = static_cast<uint8_t>(ops.at(1).index);
    uint8_t meta = in.opcode == Opcode::txq ? kRZ : static_cast<uint8_t>(ops.at(2).index);
    const auto next_coord = [&]() { const ValueId v = reg(coords); if (coords != kRZ) ++coords; return v; };
    const auto next_meta = [&]() { const ValueId v = reg(meta); if (meta != kRZ) ++meta; return v; };
    ValueId handle;
    ir::TextureDescriptor descriptor;
    uint32_t mask = static_cast<uint32_t>(ops.back().value);
    ValueId level = b.u32(0), x = b.u32(0), y = b.u32(0), z = b.u32(0);
    if (in.opcode == Opcode::txq) {
      if (ops.at(2).value != 1) fail("TXQ queries other than the dimensions are not supported");
      handle = bindless ? next_coord() : const_bank(options.bound_texture_bank, b.u32(static_cast<uint32_t>(ops.at(3).value) * 4));
      level = next_coord();
      descriptor.kind = ir::TextureKind::query_size;
      descriptor.dim = ir::TextureDim::d2;
    } else {
      const Operand& dim_operand = ops.at(bindless ? 3 : 4);
      const auto [dim, array] = texture_dim(dim_operand.value);
      descriptor.dim = dim;
      descriptor.array = array;
      handle = bindless ? next_meta() : const_bank(options.bound_texture_bank, b.u32(static_cast<uint32_t>(ops.at(3).value) * 4));
      if (in.modifier("AOFFI") != 0 || in.modifier("DC") != 0 || in.modifier("MS") != 0 || in.modifier("CL") != 0 || in.modifier("offset") != 0) {
        fail("texture offsets, depth compare, multisample and LOD clamp are not supported yet");
      }
      if (array) z = next_coord(); // the layer comes first
      x = next_coord();
      if (dim != ir::TextureDim::d1) y = next_coord();
      if (dim == ir::TextureDim::d3 || dim == ir::TextureDim::cube) {
        if (array) fail("3D/cube arrays are not supported");
        z = next_coord();
      }
      if (in.opcode == Opcode::tld4) {
        // The four texels of the bilinear footprint, one component each (comp), in Vulkan's gather order.
        descriptor.kind = ir::TextureKind::gather;
        descriptor.gather_component = static_cast<uint8_t>(in.modifier("comp"));
      } else if (in.opcode == Opcode::tld) {
        descriptor.kind = ir::TextureKind::fetch;
        if (in.modifier("lod") == 1) level = next_meta(); // LL; LZ reads level 0
      } else {
        switch (in.modifier("lod")) { // ,LZ,LB,LL,?,?,LBA,LLA
        case 0: descriptor.kind = ir::TextureKind::sample; break;
        case 1: descriptor.kind = ir::TextureKind::sample_lod; level = b.u32(0); break;
        case 2: descriptor.kind = ir::TextureKind::sample_bias; level = next_meta(); break;
        case 3: descriptor.kind = ir::TextureKind::sample_lod; level = next_meta(); break;
        default: fail("texture LOD mode not supported");
        }
      }
    }
    const ValueId args0 = b.emit(Op::Pack64, ir::Type::U64, {handle, level});
    const ValueId args1 = b.emit(Op::Pack64, ir::Type::U64, {x, y});
    const ValueId args2 = b.emit(Op::Pack64, ir::Type::U64, {z, b.u32(0)});
    // Enabled components land in consecutive registers; all are read before any is written (the destination
    // may overlap the sources).
    std::vector<ValueId> results;
    for (uint8_t component = 0; component < 4; ++component) {
      if (((mask >> component) & 1) == 0) continue;
      descriptor.component = component;
      results.push_back(b.emit(Op::Texture, ir::Type::U32, {args0, args1, args2}, descriptor.encode()));
    }
    for (size_t i = 0; i < results.size(); ++i) {
      if (destination != kRZ) set_reg(static_cast<uint8_t>(destination + i), results[i]);
    }
    return true;
  }
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
