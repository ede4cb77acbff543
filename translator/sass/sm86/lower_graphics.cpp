// Graphics programs on the Turing/Ampere encoding: stage inputs and outputs (ALD/AST/IPA, fragment outputs at
// EXIT), textures (TEX/TXQ with handles from a constant bank or a uniform register pair), fragment quad
// operations (SHFL inside a quad, FSWZADD) and SR_Y_DIRECTION. The meaning of each matches the SM5x lowering's
// (translator/sass/sm5x/lower_graphics_io.cpp, lower_quad.cpp); only the encodings differ.
#include <bit>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/ir/texture.h"
#include "translator/sass/sm86/lower_context.h"

namespace kiln::sass::sm86 {
namespace {

using ir::Op;
using ir::Type;

constexpr uint32_t kPositionW = 0x7c;
constexpr uint16_t kSrLaneId = 0x00;
constexpr uint16_t kSrYDirection = 0x12;

uint32_t vector_count(const Instruction& instruction) {
  if (instruction.has(Modifier::n128)) return 4;
  if (instruction.has(Modifier::n96)) return 3;
  if (instruction.has(Modifier::n64)) return 2;
  return 1;
}

} // namespace

void Lowerer::store_fragment_outputs() {
  if (!fragment()) return;
  for (const sm5x::FragmentOutput& output : header_->fragment_outputs()) {
    if (output.kind == sm5x::FragmentOutput::Kind::sample_mask) throw Error(in_file(file_), "sample mask outputs are not supported");
    const uint64_t target = output.kind == sm5x::FragmentOutput::Kind::depth ? 32 : output.target * 4u + output.component;
    b_.emit(Op::StoreAttribute, Type::Void, {read_gpr(output.reg)}, target);
  }
}

bool Lowerer::lower_graphics(const Instruction& instruction) {
  switch (instruction.opcode) {
  case Opcode::ALD:
  case Opcode::AST: lower_attribute(instruction); return true;
  case Opcode::IPA: lower_ipa(instruction); return true;
  case Opcode::TEX:
  case Opcode::TXQ: lower_texture(instruction); return true;
  case Opcode::FSWZADD: lower_fswzadd(instruction); return true;
  case Opcode::SHFL: lower_quad_shuffle(instruction); return true;
  case Opcode::S2R:
  case Opcode::S2UR: {
    const Operand& special = operand(instruction, 1);
    if (special.index == kSrYDirection) {
      write_register(operand(instruction, 0), u32(std::bit_cast<uint32_t>(graphics_options_.y_direction)));
      return true;
    }
    if (special.index == kSrLaneId && fragment()) {
      write_register(operand(instruction, 0), b_.emit(Op::QuadLane, Type::U32, {}));
      return true;
    }
    if (special.index == 0xff) return false; // SRZ: lower_special
    throw Error(fmt::format("special register {} is not translated in graphics programs", special.text));
  }
  default: return false;
  }
}

void Lowerer::lower_attribute(const Instruction& instruction) {
  // ALD Rd, a[offset], Rvertex, Rindex / AST a[offset], Rdata, Rindex, Rvertex: .64/.96/.128 move 2-4 words.
  const bool load = instruction.opcode == Opcode::ALD;
  if (fragment()) throw Error("ALD/AST in a fragment program");
  if (instruction.has(Modifier::PATCH) || instruction.has(Modifier::PHYS) || instruction.has(Modifier::O)) {
    throw Error("patch, physical and output-reading attribute accesses are not translated yet");
  }
  const Operand& attribute = operand(instruction, load ? 1 : 0);
  const Operand& data = operand(instruction, load ? 0 : 1);
  for (size_t i = 2; i < instruction.operands.size(); ++i) {
    if (instruction.operands[i].kind == OperandKind::gpr && instruction.operands[i].index != kRZ) {
      throw Error("indexed or per-vertex attribute access is not translated yet");
    }
  }
  for (uint32_t i = 0; i < vector_count(instruction); ++i) {
    const auto address = static_cast<uint32_t>(attribute.value) + 4 * i;
    const auto reg = static_cast<uint8_t>(data.index == kRZ ? kRZ : data.index + i);
    if (load) write_gpr(reg, b_.emit(Op::LoadAttribute, Type::U32, {}, address));
    else b_.emit(Op::StoreAttribute, Type::Void, {read_gpr(reg)}, address);
  }
}

void Lowerer::lower_ipa(const Instruction& instruction) {
  if (!fragment()) throw Error("IPA outside a fragment program");
  if (!instruction.has(Modifier::PASS)) throw Error("only IPA.PASS is translated");
  if (instruction.has(Modifier::CENTROID) || instruction.has(Modifier::OFFSET)) throw Error("centroid and offset interpolation are not translated yet");
  if (instruction.operands.size() > 2 && operand(instruction, 2).index != kRZ) throw Error("IPA with a register operand is not translated yet");
  const auto address = static_cast<uint32_t>(operand(instruction, 1).value);
  ValueId value = b_.convert(Op::Bitcast, Type::F32, b_.emit(Op::LoadAttribute, Type::U32, {}, address));
  // As on Maxwell: a perspective attribute comes out of the interpolator divided by w, i.e. multiplied by
  // FragCoord.w; the program multiplies by 1/FragCoord.w itself.
  const bool is_position = address >= 0x70 && address <= kPositionW;
  if (!is_position && header_->input_interpolation(address) == sm5x::PixelImap::perspective) {
    value = b_.op(Op::FMul, value, b_.convert(Op::Bitcast, Type::F32, b_.emit(Op::LoadAttribute, Type::U32, {}, kPositionW)));
  }
  write_register(operand(instruction, 0), to_bits(value));
}

void Lowerer::lower_texture(const Instruction& instruction) {
  // TEX Rd2, Rd, Ra, Rb, {bank, index | URh}, dim, mask / TXQ Rd2, Rd, Ra, query, bank, index, mask.
  // Enabled components go to Rd, Rd+1, then Rd2, Rd2+1 (the first pair holds the first two).
  const bool query = instruction.opcode == Opcode::TXQ;
  for (Modifier unsupported_modifier : {Modifier::LZ, Modifier::LB, Modifier::LL, Modifier::AOFFI, Modifier::DC}) {
    if (instruction.has(unsupported_modifier)) throw Error("texture LOD modes, offsets and depth compare are not translated yet");
  }
  if (!query && !instruction.has(Modifier::SCR)) throw Error("only TEX.SCR forms are translated");
  const Operand& second_destination = operand(instruction, 0);
  const Operand& destination = operand(instruction, 1);
  const Operand& coordinate_a = operand(instruction, 2);
  size_t next = query ? 3 : 4;
  ir::TextureDescriptor descriptor;
  ValueId handle;
  ValueId level = u32(0), x = u32(0), y = u32(0);
  if (query) {
    if (operand(instruction, next).index != 0) throw Error("TXQ queries other than TEX_HEADER_DIMENSION are not translated");
    ++next;
  }
  const Operand& resource = operand(instruction, next);
  if (resource.kind == OperandKind::uniform_gpr) {
    // A handle pair in uniform registers: texture header index in URn, sampler index in URn+1.
    const auto pair = static_cast<uint8_t>(resource.index);
    if (pair == kURZ) throw Error("texture handle in URZ");
    const ValueId header_index = b_.op(Op::And, read_uniform(pair), u32(0xfffff));
    handle = b_.op(Op::Or, header_index, b_.op(Op::Shl, read_uniform(static_cast<uint8_t>(pair + 1)), u32(20)));
    next += 2; // the register and the (unused) bank field
  } else {
    // A bound texture: its handle is word `index` of constant bank `bank`.
    const auto bank = static_cast<uint32_t>(operand(instruction, next).value);
    const auto index = static_cast<uint32_t>(operand(instruction, next + 1).value);
    handle = bank_word(bank, u32(index * 4));
    next += 2;
  }
  if (query) {
    descriptor.kind = ir::TextureKind::query_size;
    descriptor.dim = ir::TextureDim::d2;
    level = source_bits(coordinate_a);
  } else {
    const Operand& dim = operand(instruction, next++);
    if (dim.kind != OperandKind::enumerant || (dim.index != 0 && dim.index != 1)) throw Error("only 1D and 2D textures are translated yet");
    descriptor.kind = ir::TextureKind::sample;
    descriptor.dim = dim.index == 0 ? ir::TextureDim::d1 : ir::TextureDim::d2;
    // Implicit LOD, no array, no offsets: the coordinates are split over the two source registers.
    x = source_bits(coordinate_a);
    if (descriptor.dim == ir::TextureDim::d2) y = source_bits(operand(instruction, 3));
  }
  const auto mask = static_cast<uint32_t>(operand(instruction, next).value);
  const ValueId args0 = b_.op(Op::Pack64, handle, level);
  const ValueId args1 = b_.op(Op::Pack64, x, y);
  const ValueId args2 = b_.op(Op::Pack64, u32(0), u32(0));
  // All components are read before any register is written (destinations may overlap the sources).
  std::vector<ValueId> results;
  for (uint8_t component = 0; component < 4; ++component) {
    if (((mask >> component) & 1) == 0) continue;
    descriptor.component = component;
    results.push_back(b_.emit(Op::Texture, Type::U32, {args0, args1, args2}, descriptor.encode()));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    const Operand& pair = i < 2 ? destination : second_destination;
    if (pair.index != kRZ) write_gpr(static_cast<uint8_t>(pair.index + (i & 1)), results[i]);
  }
}

void Lowerer::lower_quad_shuffle(const Instruction& instruction) {
  // SHFL Pout, Rd, Rvalue, lane, c (c = clamp | segment mask << 8): in a fragment program only shuffles whose
  // segment is the 2x2 quad (lanes 4k..4k+3, bit 0 = x, bit 1 = y) are expressible; they become quad swaps.
  if (!fragment()) throw Error("SHFL outside a fragment program");
  const Operand& lane_operand = operand(instruction, 3);
  const Operand& c_operand = operand(instruction, 4);
  if (lane_operand.kind != OperandKind::immediate || c_operand.kind != OperandKind::immediate) {
    throw Error("SHFL with a register lane or mask is not translated in fragment programs");
  }
  const auto lane_value = static_cast<uint32_t>(lane_operand.value);
  const auto c = static_cast<uint32_t>(c_operand.value);
  if (((c >> 8) & 0x1f) != 0x1c || (c & 0x1f) != 3) throw Error("SHFL across more than a quad is not translated in fragment programs");
  if (lane_value > 3) throw Error("SHFL lane outside the quad");
  const ValueId lane = b_.emit(Op::QuadLane, Type::U32, {});
  ValueId source;
  if (instruction.has(Modifier::IDX)) source = u32(lane_value);
  else if (instruction.has(Modifier::BFLY)) source = b_.op(Op::Xor, lane, u32(lane_value));
  else throw Error("SHFL.UP/DOWN in a fragment program is not translated");
  write_predicate(operand(instruction, 0), b_.boolean(true)); // every source lane lies inside the segment
  write_gpr(static_cast<uint8_t>(operand(instruction, 1).index),
            b_.emit(Op::Shuffle, Type::U32, {source_u32(operand(instruction, 2)), source}));
}

void Lowerer::lower_fswzadd(const Instruction& instruction) {
  // FSWZADD Rd, Ra, Rb, ops: quad lane n takes two bits at 2n, printed as (sign of a, sign of b) letter pairs
  // from lane 3 down: 0 PP a + b, 1 PN a - b, 2 NP b - a, 3 ZP b. (Maxwell numbers 1 and 2 the other way.)
  if (!fragment()) throw Error("FSWZADD outside a fragment program");
  if (instruction.has(Modifier::RZ) || instruction.has(Modifier::RM) || instruction.has(Modifier::RP)) {
    throw Error("FSWZADD rounding modes other than RN are not translated");
  }
  const bool ftz = instruction.has(Modifier::FTZ);
  const ValueId a = flush(source_f32(operand(instruction, 1)), ftz);
  const ValueId bv = flush(source_f32(operand(instruction, 2)), ftz);
  const auto operations = static_cast<uint32_t>(operand(instruction, 3).index);
  const ValueId lane = b_.emit(Op::QuadLane, Type::U32, {});
  const ValueId selector = b_.op(Op::And, b_.op(Op::LShr, u32(operations), b_.op(Op::Shl, lane, u32(1))), u32(3));
  ValueId value = bv;
  value = b_.select(b_.op(Op::IEq, selector, u32(2)), b_.op(Op::FSub, bv, a), value);
  value = b_.select(b_.op(Op::IEq, selector, u32(1)), b_.op(Op::FSub, a, bv), value);
  value = b_.select(b_.op(Op::IEq, selector, u32(0)), b_.op(Op::FAdd, a, bv), value);
  write_gpr(static_cast<uint8_t>(operand(instruction, 0).index), to_bits(flush(value, ftz)));
}

} // namespace kiln::sass::sm86
