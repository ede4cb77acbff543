// Texture instructions of the SM5x lowering. TEX/TLD/TLD4/TXQ/TMML read their sources from consecutive registers
// and write the components a 4-bit mask enables to consecutive registers. The scalar forms TEXS/TLDS/TLD4S pack
// their sources into two registers (Ra = R8, Rb = R20) whose meaning the texture-target field decides, and split
// their results over two register pairs (R0, R0+1, then R28, R28+1). Register layouts: docs/maxwell.md.
#include <array>
#include <optional>

#include <fmt/format.h>

#include "translator/ir/half_bits.h"
#include "translator/ir/texture.h"
#include "translator/sass/sm5x/lower_context.h"

namespace kiln::sass::sm5x {
namespace {

using ir::Op;
using ir::TextureDim;
using ir::TextureKind;
using ir::ValueId;

/// TEXDIM enumerant: 1D/2D/3D/CUBE/ARRAY_1D/ARRAY_2D/ARRAY_3D/ARRAY_CUBE.
std::pair<TextureDim, bool> texture_dim(int64_t value) { return {static_cast<TextureDim>(value & 3), value >= 4}; }

/// Register `base + offset`; RZ stays RZ (a source pair based at RZ reads zeros, a result pair there is dropped).
uint8_t reg_plus(uint16_t base, unsigned offset) {
  if (base == kRZ) return kRZ;
  return static_cast<uint8_t>(std::min<unsigned>(base + offset, kRZ));
}

struct TextureSources {
  ValueId handle, level, x, y, z, extra; ///< extra: depth reference or packed texel offsets
};

/// One Texture op per component enabled in `mask` (bit i = component i), in component order. The backend shares
/// one sample among them.
std::vector<ValueId> texture_components(LowerContext& c, ir::TextureDescriptor descriptor, const TextureSources& s, uint32_t mask) {
  ir::Builder& b = c.b;
  const ValueId args0 = b.emit(Op::Pack64, ir::Type::U64, {s.handle, s.level});
  const ValueId args1 = b.emit(Op::Pack64, ir::Type::U64, {s.x, s.y});
  const ValueId args2 = b.emit(Op::Pack64, ir::Type::U64, {s.z, s.extra});
  std::vector<ValueId> results;
  for (uint8_t component = 0; component < 4; ++component) {
    if (((mask >> component) & 1) == 0) continue;
    descriptor.component = component;
    results.push_back(b.emit(Op::Texture, ir::Type::U32, {args0, args1, args2}, descriptor.encode()));
  }
  return results;
}

/// The component mask of TEXS/TLDS (bits 50-52): with one result pair (R28 = RZ) R, G, B, A, RG, RA, GA, BA; with
/// two RGB, RGA, RBA, GBA, RGBA (codes 5-7 are invalid there).
std::optional<uint32_t> scalar_mask(bool two_pairs, int64_t code) {
  static constexpr std::array<uint32_t, 8> one_pair{0x1, 0x2, 0x4, 0x8, 0x3, 0x9, 0xa, 0xc};
  static constexpr std::array<uint32_t, 5> two{0x7, 0xb, 0xd, 0xe, 0xf};
  if (code < 0 || code > 7) return std::nullopt;
  if (!two_pairs) return one_pair[static_cast<size_t>(code)];
  if (code >= 5) return std::nullopt;
  return two[static_cast<size_t>(code)];
}

/// Two results in one register as halves, the first in the low 16 bits.
ValueId pack_halves(ir::Builder& b, ValueId low, ValueId high) {
  return b.op(Op::Or, ir::half_bits(b, low), b.op(Op::Shl, ir::half_bits(b, high), b.u32(16)));
}

} // namespace

bool LowerContext::lower_texture(const Instruction& in) {
  switch (in.opcode) {
  case Opcode::tex: case Opcode::tld: case Opcode::tld4: case Opcode::txq: lower_texture_vector(in); return true;
  case Opcode::texs: case Opcode::tlds: case Opcode::tld4s: lower_texture_scalar(in); return true;
  case Opcode::tmml: lower_lod_query(in); return true;
  default: return false;
  }
}

void LowerContext::lower_texture_vector(const Instruction& in) {
  const auto& ops = in.operands;
  const bool bindless = !in.modifier_text("B").empty();
  const uint8_t destination = static_cast<uint8_t>(ops.at(0).index);
  uint8_t coords = static_cast<uint8_t>(ops.at(1).index);
  uint8_t meta = in.opcode == Opcode::txq ? kRZ : static_cast<uint8_t>(ops.at(2).index);
  const auto next_coord = [&]() { const ValueId v = reg(coords); if (coords != kRZ) ++coords; return v; };
  const auto next_meta = [&]() { const ValueId v = reg(meta); if (meta != kRZ) ++meta; return v; };
  ir::TextureDescriptor descriptor;
  const auto mask = static_cast<uint32_t>(ops.back().value);
  TextureSources s{.handle = 0, .level = b.u32(0), .x = b.u32(0), .y = b.u32(0), .z = b.u32(0), .extra = b.u32(0)};
  if (in.opcode == Opcode::txq) {
    if (ops.at(2).value != 1) fail("TXQ queries other than the dimensions are not supported");
    s.handle = bindless ? next_coord() : const_bank(options.bound_texture_bank, b.u32(static_cast<uint32_t>(ops.at(3).value) * 4));
    s.level = next_coord();
    descriptor.kind = TextureKind::query_size;
    descriptor.dim = TextureDim::d2;
  } else {
    const Operand& dim_operand = ops.at(bindless ? 3 : 4);
    const auto [dim, array] = texture_dim(dim_operand.value);
    descriptor.dim = dim;
    descriptor.array = array;
    s.handle = bindless ? next_meta() : const_bank(options.bound_texture_bank, b.u32(static_cast<uint32_t>(ops.at(3).value) * 4));
    if (in.modifier("MS") != 0 || in.modifier("CL") != 0 || in.modifier("offset") > 1) {
      fail("multisample, LOD clamp and per-texel gather offsets (PTP) are not supported yet");
    }
    if (array) s.z = next_coord(); // the layer comes first
    s.x = next_coord();
    if (dim != TextureDim::d1) s.y = next_coord();
    if (dim == TextureDim::d3 || dim == TextureDim::cube) {
      if (array) fail("3D/cube arrays are not supported");
      s.z = next_coord();
    }
    if (in.opcode == Opcode::tld4) {
      // The four texels of the bilinear footprint, one component each (comp), in Vulkan's gather order.
      descriptor.kind = TextureKind::gather;
      descriptor.gather_component = static_cast<uint8_t>(in.modifier("comp"));
    } else if (in.opcode == Opcode::tld) {
      descriptor.kind = TextureKind::fetch;
      if (in.modifier("lod") == 1) s.level = next_meta(); // LL; LZ reads level 0
    } else {
      switch (in.modifier("lod")) { // ,LZ,LB,LL,?,?,LBA,LLA
      case 0: descriptor.kind = TextureKind::sample; break;
      case 1: descriptor.kind = TextureKind::sample_lod; break;
      case 2: descriptor.kind = TextureKind::sample_bias; s.level = next_meta(); break;
      case 3: descriptor.kind = TextureKind::sample_lod; s.level = next_meta(); break;
      default: fail("texture LOD mode not supported");
      }
    }
    // The meta registers hold, in order: the bindless handle, the LOD or bias, then the texel offsets (signed
    // 4-bit fields every 4 bits; TLD4's 6-bit fields every 8 bits).
    if (in.modifier("AOFFI") != 0 || in.modifier("offset") == 1) {
      descriptor.offsets = in.opcode == Opcode::tld4 ? ir::TextureOffsets::bits6 : ir::TextureOffsets::bits4;
      s.extra = next_meta();
    }
    if (in.modifier("DC") != 0) { // the depth reference follows the offsets
      if (descriptor.offsets != ir::TextureOffsets::none) fail("depth compare with texel offsets is not supported yet");
      descriptor.depth_compare = true;
      s.extra = next_meta();
    }
  }
  // Enabled components land in consecutive registers; all are read before any is written (the destination may
  // overlap the sources).
  const std::vector<ValueId> results = texture_components(*this, descriptor, s, mask);
  for (size_t i = 0; i < results.size(); ++i) {
    if (destination != kRZ) set_reg(static_cast<uint8_t>(destination + i), results[i]);
  }
}

void LowerContext::lower_texture_scalar(const Instruction& in) {
  const auto& ops = in.operands; // R28, R0, Ra (R8), Rb (R20), texture, [target, mask]
  const uint16_t pair_b = ops.at(0).index, pair_a = ops.at(1).index;
  const uint16_t ra = ops.at(2).index, rb = ops.at(3).index;
  const auto a = [&](unsigned k) { return reg(reg_plus(ra, k)); };
  const auto rb_at = [&](unsigned k) { return reg(reg_plus(rb, k)); };
  TextureSources s{.handle = const_bank(options.bound_texture_bank, b.u32(static_cast<uint32_t>(ops.at(4).value) * 4)),
                   .level = b.u32(0), .x = b.u32(0), .y = b.u32(0), .z = b.u32(0), .extra = b.u32(0)};
  ir::TextureDescriptor descriptor;
  const auto layer = [&] { return b.op(Op::And, a(0), b.u32(0xffff)); }; // array index: Ra's low 16 bits
  uint32_t mask = 0xf;
  bool half_results = false;
  if (in.opcode == Opcode::tld4s) {
    // 2D only. Plain: (x, y) = (Ra, Rb). AOFFI: (Ra, Ra+1), offsets in Rb, DC: reference in Rb+1 (Rb without
    // AOFFI). All four gathered texels are written.
    const bool offsets = in.modifier("AOFFI") != 0, depth_compare = in.modifier("DC") != 0;
    if (offsets && depth_compare) fail("TLD4S.AOFFI.DC (depth compare with texel offsets) is not supported yet");
    half_results = in.modifier("F16") != 0;
    descriptor.kind = TextureKind::gather;
    descriptor.gather_component = static_cast<uint8_t>(in.modifier("comp"));
    s.x = a(0);
    s.y = offsets || depth_compare ? a(1) : rb_at(0);
    if (offsets) {
      descriptor.offsets = ir::TextureOffsets::bits6;
      s.extra = rb_at(0);
    }
    if (depth_compare) {
      descriptor.depth_compare = true;
      s.extra = rb_at(0);
    }
  } else {
    const int64_t target = ops.at(5).value;
    const auto code_mask = scalar_mask(pair_b != kRZ, ops.at(6).value);
    if (!code_mask) fail(fmt::format("component mask {} is invalid with {} result pair(s)", ops.at(6).value, pair_b != kRZ ? 2 : 1));
    mask = *code_mask;
    half_results = in.modifier("prec") == 0;
    if (in.opcode == Opcode::texs) {
      // 1D.LZ,2D,2D.LZ,2D.LL,2D.DC,2D.LL.DC,2D.LZ.DC,ARRAY_2D,ARRAY_2D.LZ,ARRAY_2D.LZ.DC,3D,3D.LZ,CUBE,CUBE.LL
      descriptor.kind = TextureKind::sample_lod; // LZ unless said otherwise: level stays 0.0
      descriptor.depth_compare = target == 4 || target == 5 || target == 6 || target == 9;
      switch (target) {
      case 0: descriptor.dim = TextureDim::d1; s.x = a(0); break;
      case 1: descriptor.kind = TextureKind::sample; s.x = a(0); s.y = rb_at(0); break;
      case 2: s.x = a(0); s.y = rb_at(0); break;
      case 3: s.x = a(0); s.y = a(1); s.level = rb_at(0); break;
      case 4: descriptor.kind = TextureKind::sample; s.x = a(0); s.y = a(1); s.extra = rb_at(0); break;
      case 5: s.x = a(0); s.y = a(1); s.level = rb_at(0); s.extra = rb_at(1); break;
      case 6: s.x = a(0); s.y = a(1); s.extra = rb_at(0); break;
      case 7: descriptor.kind = TextureKind::sample; [[fallthrough]];
      case 8: descriptor.array = true; s.z = layer(); s.x = a(1); s.y = rb_at(0); break;
      case 9: descriptor.array = true; s.z = layer(); s.x = a(1); s.y = rb_at(0); s.extra = rb_at(1); break;
      case 10: descriptor.kind = TextureKind::sample; [[fallthrough]];
      case 11: descriptor.dim = TextureDim::d3; s.x = a(0); s.y = a(1); s.z = rb_at(0); break;
      case 12: descriptor.kind = TextureKind::sample; [[fallthrough]];
      case 13:
        descriptor.dim = TextureDim::cube;
        s.x = a(0); s.y = a(1); s.z = rb_at(0);
        if (target == 13) s.level = rb_at(1);
        break;
      default: fail(fmt::format("TEXS texture target {} is invalid", target));
      }
    } else {
      // 1D.LZ,1D.LL,2D.LZ,?,2D.LZ.AOFFI,2D.LL,2D.LZ.MS,3D.LZ,ARRAY_2D.LZ,?,?,?,2D.LL.AOFFI: integer texel coordinates.
      descriptor.kind = TextureKind::fetch;
      switch (target) {
      case 0: descriptor.dim = TextureDim::d1; s.x = a(0); break;
      case 1: descriptor.dim = TextureDim::d1; s.x = a(0); s.level = rb_at(0); break;
      case 2: s.x = a(0); s.y = rb_at(0); break;
      case 4: s.x = a(0); s.y = a(1); s.extra = rb_at(0); descriptor.offsets = ir::TextureOffsets::bits4; break;
      case 5: s.x = a(0); s.y = a(1); s.level = rb_at(0); break;
      case 6: fail("TLDS.2D.LZ.MS (multisample fetch) is not supported yet");
      case 7: descriptor.dim = TextureDim::d3; s.x = a(0); s.y = a(1); s.z = rb_at(0); break;
      case 8: descriptor.array = true; s.z = layer(); s.x = rb_at(0); s.y = rb_at(1); break;
      case 12:
        s.x = a(0); s.y = a(1); s.level = rb_at(0); s.extra = rb_at(1);
        descriptor.offsets = ir::TextureOffsets::bits4;
        break;
      default: fail(fmt::format("TLDS texture target {} is invalid", target));
      }
    }
  }
  // Results in order: R0, R0+1, R28, R28+1, all computed before any register is written. F16: two results per
  // register as halves (low half first): R0 = (1st, 2nd), R28 = (3rd, 4th); a missing second half is 0.
  const std::vector<ValueId> results = texture_components(*this, descriptor, s, mask);
  if (half_results) {
    const auto result_or_zero = [&](size_t i) { return i < results.size() ? results[i] : b.u32(0); };
    const ValueId first = pack_halves(b, result_or_zero(0), result_or_zero(1));
    const std::optional<ValueId> second = results.size() > 2 ? std::optional(pack_halves(b, result_or_zero(2), result_or_zero(3))) : std::nullopt;
    set_reg(reg_plus(pair_a, 0), first);
    if (second) set_reg(reg_plus(pair_b, 0), *second);
    return;
  }
  const std::array<uint8_t, 4> destinations{reg_plus(pair_a, 0), reg_plus(pair_a, 1), reg_plus(pair_b, 0), reg_plus(pair_b, 1)};
  for (size_t i = 0; i < results.size(); ++i) set_reg(destinations[i], results[i]);
}

void LowerContext::lower_lod_query(const Instruction& in) {
  // TMML[.B] Rd, Rc, [Rh |] texture, dim, mask: Rc holds the coordinates (the array layer first, which the query
  // does not use). Component 0 is the computed LOD (signed), component 1 the LOD the access uses (clamped to the
  // view and sampler), both 8.8 fixed point; Mesa nouveau's TXLQ lowering reads them that way (S16 and U16,
  // times 1/256, in this order). Components 2 and 3 read 0.
  const auto& ops = in.operands;
  const bool bindless = !in.modifier_text("B").empty();
  const auto [dim, array] = texture_dim(ops.at(3).value);
  if (array && (dim == TextureDim::d3 || dim == TextureDim::cube)) fail("3D/cube arrays are not supported");
  uint8_t coords = static_cast<uint8_t>(ops.at(1).index);
  const auto next_coord = [&]() { const ValueId v = reg(coords); if (coords != kRZ) ++coords; return v; };
  TextureSources s{.handle = bindless ? reg(static_cast<uint8_t>(ops.at(2).index))
                                      : const_bank(options.bound_texture_bank, b.u32(static_cast<uint32_t>(ops.at(2).value) * 4)),
                   .level = b.u32(0), .x = b.u32(0), .y = b.u32(0), .z = b.u32(0), .extra = b.u32(0)};
  if (array) next_coord();
  s.x = next_coord();
  if (dim != TextureDim::d1) s.y = next_coord();
  if (dim == TextureDim::d3 || dim == TextureDim::cube) s.z = next_coord();
  ir::TextureDescriptor descriptor{.kind = TextureKind::query_lod, .dim = dim, .array = array};
  const std::vector<ValueId> lod = texture_components(*this, descriptor, s, 0x3); // (used, computed)
  const auto fixed_8_8 = [&](ValueId value, Op convert) {
    return b.convert(convert, ir::Type::U32, b.op(Op::FMul, to_float(value), b.f32(256.0f)));
  };
  const std::array<ValueId, 4> results{fixed_8_8(lod[1], Op::FToS), fixed_8_8(lod[0], Op::FToU), b.u32(0), b.u32(0)};
  const auto mask = static_cast<uint32_t>(ops.at(4).value);
  uint8_t destination = static_cast<uint8_t>(ops.at(0).index);
  for (unsigned component = 0; component < 4; ++component) {
    if (((mask >> component) & 1) == 0) continue;
    set_reg(destination, results[component]);
    destination = reg_plus(destination, 1);
  }
}

} // namespace kiln::sass::sm5x
