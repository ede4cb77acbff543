#include "translator/gx/pixel_program.h"

#include <bit>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "translator/ir/builder.h"

namespace kiln::gx {
namespace {

uint32_t field(uint32_t value, unsigned lsb, unsigned width) { return extract_bits(value, lsb, width); }

// Colour combiner inputs (4 bits) and alpha combiner inputs (3 bits).
constexpr uint32_t color_texture = 8, color_texture_alpha = 9, color_ras = 10, color_ras_alpha = 11, color_konst = 14;
constexpr uint32_t alpha_texture = 4, alpha_ras = 5, alpha_konst = 6;
constexpr uint32_t bias_compare = 3, scale_divide2 = 3;
constexpr uint32_t fragment_position = 0x70; // FragCoord x, y, z, w

bool color_reads(uint32_t env, uint32_t input) {
  for (unsigned lsb : {12u, 8u, 4u, 0u}) if (field(env, lsb, 4) == input) return true;
  return false;
}
bool alpha_reads(uint32_t env, uint32_t input) {
  for (unsigned lsb : {13u, 10u, 7u, 4u}) if (field(env, lsb, 3) == input) return true;
  return false;
}

/// Swap table n: r and g from BP 0xF6 + 2n bits 0-3, b and a from BP 0xF7 + 2n bits 0-3.
std::array<uint8_t, 4> swap_table(const BpState& bp, uint32_t n) {
  const uint32_t first = bp.reg(bp::tev_konst_select + 2 * n), second = bp.reg(bp::tev_konst_select + 2 * n + 1);
  return {static_cast<uint8_t>(field(first, 0, 2)), static_cast<uint8_t>(field(first, 2, 2)),
          static_cast<uint8_t>(field(second, 0, 2)), static_cast<uint8_t>(field(second, 2, 2))};
}

int32_t signed11(uint32_t value) { return static_cast<int32_t>(sign_extend(value & 0x7FF, 11)); }

class PixelBuilder {
public:
  explicit PixelBuilder(const PixelUid& uid) : uid_(uid), b_(function_) {}

  ir::Function build() {
    std::array<std::array<ir::ValueId, 4>, 4> regs{};
    for (uint32_t r = 0; r < 4; ++r) {
      for (uint32_t c = 0; c < 4; ++c) regs[r][c] = constant_word(pixel_constant_registers + 4 * r + c);
    }
    uint32_t last_color_dest = 0, last_alpha_dest = 0;
    for (uint32_t i = 0; i < uid_.stages; ++i) {
      const TevStageUid& stage = uid_.stage[i];
      if (stage.texture) throw Error(fmt::format("TEV stage {}: texture sampling is not translated yet", i));
      const std::array<ir::ValueId, 4> ras = ras_color(i, stage);
      const std::array<ir::ValueId, 4> konst = konst_values(i, stage);
      Inputs color_inputs{};
      std::array<ir::ValueId, 4> alpha_inputs{};
      for (uint32_t k = 0; k < 4; ++k) { // a, b, c, d
        const uint32_t color_sel = field(stage.color_env, 12 - 4 * k, 4);
        const uint32_t alpha_sel = field(stage.alpha_env, 13 - 3 * k, 3);
        for (uint32_t c = 0; c < 3; ++c) color_inputs[k][c] = color_input(i, color_sel, c, regs, ras, konst);
        alpha_inputs[k] = alpha_input(i, alpha_sel, regs, ras, konst);
      }
      std::array<ir::ValueId, 4> result{};
      for (uint32_t c = 0; c < 3; ++c) result[c] = combine(stage.color_env, false, c, color_inputs, alpha_inputs);
      result[3] = combine(stage.alpha_env, true, 3, color_inputs, alpha_inputs);
      last_color_dest = field(stage.color_env, 22, 2);
      last_alpha_dest = field(stage.alpha_env, 22, 2);
      for (uint32_t c = 0; c < 3; ++c) regs[last_color_dest][c] = result[c];
      regs[last_alpha_dest][3] = result[3];
    }
    // The last stage's results reach the pixel whichever register they were written to, as 8 bits.
    std::array<ir::ValueId, 4> out{};
    for (uint32_t c = 0; c < 3; ++c) out[c] = b_.op(ir::Op::And, regs[last_color_dest][c], b_.u32(255));
    out[3] = b_.op(ir::Op::And, regs[last_alpha_dest][3], b_.u32(255));
    alpha_test(out[3]);
    fog(out);
    for (uint32_t c = 0; c < 4; ++c) {
      const ir::ValueId as_float = b_.convert(ir::Op::SToF, ir::Type::F32, out[c]);
      const ir::ValueId unit = b_.op(ir::Op::FMul, as_float, b_.f32(1.0f / 255.0f));
      b_.emit(ir::Op::StoreAttribute, ir::Type::Void, {b_.convert(ir::Op::Bitcast, ir::Type::U32, unit)}, c);
    }
    return std::move(function_);
  }

private:
  using Inputs = std::array<std::array<ir::ValueId, 4>, 4>; // [a b c d][component]

  ir::ValueId constant_word(uint32_t word) {
    return b_.emit(ir::Op::LoadConstBank, ir::Type::U32, {b_.u32(4 * word)}, 0);
  }
  ir::ValueId i32(int32_t value) { return b_.u32(static_cast<uint32_t>(value)); }
  ir::ValueId add(ir::ValueId a, ir::ValueId b) { return b_.op(ir::Op::IAdd, a, b); }
  ir::ValueId sub(ir::ValueId a, ir::ValueId b) { return b_.op(ir::Op::ISub, a, b); }
  ir::ValueId clamp(ir::ValueId v, int32_t low, int32_t high) {
    return b_.op(ir::Op::SMin, b_.op(ir::Op::SMax, v, i32(low)), i32(high));
  }

  std::array<ir::ValueId, 4> ras_color(uint32_t stage_index, const TevStageUid& stage) {
    std::array<ir::ValueId, 4> raw{};
    if (stage.ras_channel == 7) {
      raw.fill(b_.u32(0));
    } else if (stage.ras_channel <= 1) {
      for (uint32_t c = 0; c < 4; ++c) {
        const ir::ValueId bits = b_.emit(ir::Op::LoadAttribute, ir::Type::U32, {}, 0x80 + 16 * stage.ras_channel + 4 * c);
        const ir::ValueId scaled = b_.op(ir::Op::FMul, b_.convert(ir::Op::Bitcast, ir::Type::F32, bits), b_.f32(255.0f));
        raw[c] = clamp(b_.convert(ir::Op::FToS, ir::Type::U32, b_.op(ir::Op::FRoundEven, scaled)), 0, 255);
      }
    } else {
      throw Error(fmt::format("TEV stage {}: rasterised channel {} (bump alpha) is not translated yet", stage_index,
                              stage.ras_channel));
    }
    std::array<ir::ValueId, 4> swapped{};
    for (uint32_t c = 0; c < 4; ++c) swapped[c] = raw[stage.ras_swap[c]];
    return swapped;
  }

  /// Konst colour (rgb) in [0..2] and konst alpha in [3].
  std::array<ir::ValueId, 4> konst_values(uint32_t stage_index, const TevStageUid& stage) {
    static constexpr int32_t fractions[8] = {255, 223, 191, 159, 128, 96, 64, 32};
    std::array<ir::ValueId, 4> out{};
    auto konst_word = [&](uint32_t n, uint32_t component) {
      return constant_word(pixel_constant_konst + 4 * n + component);
    };
    const uint32_t kc = stage.konst_color;
    for (uint32_t c = 0; c < 3; ++c) {
      if (kc < 8) out[c] = i32(fractions[kc]);
      else if (kc >= 12 && kc < 16) out[c] = konst_word(kc - 12, c);
      else if (kc >= 16) out[c] = konst_word(kc % 4, (kc - 16) / 4);
      else throw Error(fmt::format("TEV stage {}: reserved konst colour selection {}", stage_index, kc));
    }
    const uint32_t ka = stage.konst_alpha;
    if (ka < 8) out[3] = i32(fractions[ka]);
    else if (ka >= 16) out[3] = konst_word(ka % 4, (ka - 16) / 4);
    else throw Error(fmt::format("TEV stage {}: reserved konst alpha selection {}", stage_index, ka));
    return out;
  }

  ir::ValueId color_input(uint32_t stage_index, uint32_t sel, uint32_t c,
                          const std::array<std::array<ir::ValueId, 4>, 4>& regs, const std::array<ir::ValueId, 4>& ras,
                          const std::array<ir::ValueId, 4>& konst) {
    if (sel < 8) return regs[sel / 2][sel % 2 == 0 ? c : 3];
    switch (sel) {
    case color_ras: return ras[c];
    case color_ras_alpha: return ras[3];
    case 12: return i32(255);
    case 13: return i32(128);
    case color_konst: return konst[c];
    case 15: return i32(0);
    default: throw Error(fmt::format("TEV stage {}: texture colour inputs are not translated yet", stage_index));
    }
  }

  ir::ValueId alpha_input(uint32_t stage_index, uint32_t sel, const std::array<std::array<ir::ValueId, 4>, 4>& regs,
                          const std::array<ir::ValueId, 4>& ras, const std::array<ir::ValueId, 4>& konst) {
    if (sel < 4) return regs[sel][3];
    switch (sel) {
    case alpha_ras: return ras[3];
    case alpha_konst: return konst[3];
    case 7: return i32(0);
    default: throw Error(fmt::format("TEV stage {}: texture alpha inputs are not translated yet", stage_index));
    }
  }

  /// One component of a combiner: component 0-2 of the colour combiner or 3 (alpha), from the stage's inputs.
  ir::ValueId combine(uint32_t env, bool alpha, uint32_t c, const Inputs& color,
                      const std::array<ir::ValueId, 4>& alpha_in) {
    auto value = [&](uint32_t k) { return alpha ? alpha_in[k] : color[k][c]; };
    auto low8 = [&](ir::ValueId v) { return b_.op(ir::Op::And, v, b_.u32(255)); };
    const uint32_t bias = field(env, 16, 2), subtract = field(env, 18, 1), scale = field(env, 20, 2);
    const bool clamped = field(env, 19, 1) != 0;
    const ir::ValueId a = low8(value(0)), b = low8(value(1)), cc = low8(value(2)), d = value(3);
    ir::ValueId result;
    if (bias != bias_compare) {
      // d + bias and lerp(a, b, c) with c widened to 0..256, scaled before the division by 256 so no precision is
      // lost; the rounding half is added for colour unless halving, for alpha only when halving.
      const uint32_t shift = scale == 1 ? 1 : scale == 2 ? 2 : 0;
      const ir::ValueId c256 = add(cc, b_.op(ir::Op::LShr, cc, b_.u32(7)));
      ir::ValueId lerp = add(b_.op(ir::Op::Shl, a, b_.u32(8)), b_.op(ir::Op::IMul, sub(b, a), c256));
      lerp = b_.op(ir::Op::Shl, lerp, b_.u32(shift));
      if ((scale == scale_divide2) == alpha) lerp = add(lerp, i32(subtract ? 127 : 128));
      lerp = b_.op(ir::Op::AShr, lerp, b_.u32(8));
      ir::ValueId base = d;
      if (bias == 1) base = add(base, i32(128));
      if (bias == 2) base = sub(base, i32(128));
      base = b_.op(ir::Op::Shl, base, b_.u32(shift));
      result = subtract ? sub(base, lerp) : add(base, lerp);
      if (scale == scale_divide2) result = b_.op(ir::Op::AShr, result, b_.u32(1));
    } else {
      const uint32_t mode = (scale << 1) | subtract;
      ir::ValueId pass;
      auto packed = [&](uint32_t k, uint32_t components) {
        ir::ValueId v = low8(color[k][0]);
        for (uint32_t n = 1; n < components; ++n) {
          v = b_.op(ir::Op::Or, v, b_.op(ir::Op::Shl, low8(color[k][n]), b_.u32(8 * n)));
        }
        return v;
      };
      const bool equal = (mode & 1) != 0;
      const ir::Op compare = equal ? ir::Op::IEq : ir::Op::SGt;
      if (mode < 6) {
        const uint32_t components = mode / 2 + 1; // R8, GR16, BGR24
        pass = b_.op(compare, packed(0, components), packed(1, components));
      } else {
        pass = b_.op(compare, a, b); // per component (RGB8), or the alpha itself (A8)
      }
      result = add(d, b_.select(pass, cc, i32(0)));
    }
    return clamped ? clamp(result, 0, 255) : clamp(result, -1024, 1023);
  }

  void alpha_test(ir::ValueId alpha) {
    if (uid_.alpha_compare0 == 7 && uid_.alpha_compare1 == 7 && (uid_.alpha_logic == 0 || uid_.alpha_logic == 1))
      return; // always passes
    auto compare = [&](uint32_t function, uint32_t ref_word) -> ir::ValueId {
      const ir::ValueId ref = constant_word(pixel_constant_alpha_refs + ref_word);
      switch (function) {
      case 0: return b_.boolean(false);
      case 1: return b_.op(ir::Op::SLt, alpha, ref);
      case 2: return b_.op(ir::Op::IEq, alpha, ref);
      case 3: return b_.op(ir::Op::SLe, alpha, ref);
      case 4: return b_.op(ir::Op::SGt, alpha, ref);
      case 5: return b_.op(ir::Op::INe, alpha, ref);
      case 6: return b_.op(ir::Op::SGe, alpha, ref);
      default: return b_.boolean(true);
      }
    };
    const ir::ValueId first = compare(uid_.alpha_compare0, 0), second = compare(uid_.alpha_compare1, 1);
    ir::ValueId pass;
    switch (uid_.alpha_logic) {
    case 0: pass = b_.op(ir::Op::LAnd, first, second); break;
    case 1: pass = b_.op(ir::Op::LOr, first, second); break;
    case 2: pass = b_.op(ir::Op::LXor, first, second); break;
    default: pass = b_.op(ir::Op::LNot, b_.op(ir::Op::LXor, first, second)); break;
    }
    b_.if_then(b_.op(ir::Op::LNot, pass), [&] { b_.emit(ir::Op::Demote, ir::Type::Void, {}); });
  }

  /// Fog blends the colour towards the fog colour by a factor from the depth:
  ///   perspective  ze = A * 2^24 / (B magnitude - (z24 >> B shift))   (ze = A / (B - z) with z in 0..1)
  ///   orthographic ze = A * z24 / 2^24
  ///   f = clamp(ze - C, 0, 1), shaped by the type: linear f, exp 1 - 2^(-8f), exp2 1 - 2^(-8f^2),
  ///   backward exp 2^(-8(1 - f)), backward exp2 2^(-8(1 - f)^2)
  ///   colour = (colour * (256 - F) + fog colour * F) >> 8 with F = trunc(f * 256) (0..256); alpha unchanged.
  void fog(std::array<ir::ValueId, 4>& out) {
    if (uid_.fog_type == 0) return;
    if (uid_.fog_type == 1 || uid_.fog_type == 3) {
      throw Error(fmt::format("fog (BP 0xF1): reserved fog type {}", uid_.fog_type));
    }
    if (uid_.fog_range) throw Error("fog (BP 0xE8): range adjustment is not translated yet");
    auto constant_float = [&](uint32_t word) { return b_.convert(ir::Op::Bitcast, ir::Type::F32, constant_word(word)); };
    const ir::ValueId depth = b_.convert(ir::Op::Bitcast, ir::Type::F32,
                                         b_.emit(ir::Op::LoadAttribute, ir::Type::U32, {}, fragment_position + 8));
    const ir::ValueId z24 = clamp(b_.convert(ir::Op::FToS, ir::Type::U32,
                                             b_.op(ir::Op::FRoundEven, b_.op(ir::Op::FMul, depth, b_.f32(16777215.0f)))),
                                  0, 16777215);
    const ir::ValueId a = constant_float(pixel_constant_fog_a);
    ir::ValueId ze;
    if (uid_.fog_orthographic) {
      ze = b_.op(ir::Op::FMul, a, b_.op(ir::Op::FMul, b_.convert(ir::Op::SToF, ir::Type::F32, z24), b_.f32(0x1p-24f)));
    } else {
      const ir::ValueId shifted = b_.op(ir::Op::LShr, z24, constant_word(pixel_constant_fog_b_shift));
      const ir::ValueId denominator = sub(constant_word(pixel_constant_fog_b_magnitude), shifted);
      const ir::ValueId reciprocal = b_.op(ir::Op::FRcp, b_.convert(ir::Op::SToF, ir::Type::F32, denominator));
      ze = b_.op(ir::Op::FMul, b_.op(ir::Op::FMul, a, b_.f32(0x1p24f)), reciprocal);
    }
    ir::ValueId f = b_.op(ir::Op::FSaturate, b_.op(ir::Op::FSub, ze, constant_float(pixel_constant_fog_c)));
    auto exp_minus8 = [&](ir::ValueId x) { return b_.op(ir::Op::FExp2, b_.op(ir::Op::FMul, x, b_.f32(-8.0f))); };
    const ir::ValueId one = b_.f32(1.0f);
    switch (uid_.fog_type) {
    case 4: f = b_.op(ir::Op::FSub, one, exp_minus8(f)); break;
    case 5: f = b_.op(ir::Op::FSub, one, exp_minus8(b_.op(ir::Op::FMul, f, f))); break;
    case 6: f = exp_minus8(b_.op(ir::Op::FSub, one, f)); break;
    case 7: {
      const ir::ValueId back = b_.op(ir::Op::FSub, one, f);
      f = exp_minus8(b_.op(ir::Op::FMul, back, back));
      break;
    }
    default: break; // linear
    }
    const ir::ValueId weight = clamp(b_.convert(ir::Op::FToS, ir::Type::U32, b_.op(ir::Op::FMul, f, b_.f32(256.0f))), 0, 256);
    const ir::ValueId keep = sub(i32(256), weight);
    for (uint32_t c = 0; c < 3; ++c) {
      const ir::ValueId mixed = add(b_.op(ir::Op::IMul, out[c], keep),
                                    b_.op(ir::Op::IMul, constant_word(pixel_constant_fog_color + c), weight));
      out[c] = b_.op(ir::Op::LShr, mixed, b_.u32(8));
    }
  }

  const PixelUid& uid_;
  ir::Function function_;
  ir::Builder b_;
};

} // namespace

uint64_t PixelUid::hash() const {
  std::vector<uint32_t> words{stages, alpha_compare0, alpha_compare1, alpha_logic, fog_type,
                              fog_orthographic ? 1u : 0u, fog_range ? 1u : 0u};
  for (uint32_t i = 0; i < stages; ++i) {
    const TevStageUid& s = stage[i];
    words.insert(words.end(), {s.color_env, s.alpha_env, s.ras_channel, s.texture ? 1u : 0u, s.texture_map,
                               s.texture_coord, s.konst_color, s.konst_alpha,
                               std::bit_cast<uint32_t>(s.ras_swap), std::bit_cast<uint32_t>(s.texture_swap)});
  }
  return hash64(std::span(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4));
}

PixelUid pixel_uid(const BpState& bp) {
  PixelUid uid;
  uid.stages = field(bp.reg(bp::gen_mode), 10, 4) + 1;
  for (uint32_t i = 0; i < uid.stages; ++i) {
    TevStageUid& s = uid.stage[i];
    s.color_env = bp.reg(bp::tev_color_env + 2 * i);
    const uint32_t alpha_env = bp.reg(bp::tev_color_env + 2 * i + 1);
    s.alpha_env = alpha_env & ~0xFu;
    const uint32_t order = field(bp.reg(bp::tev_order + i / 2), 12 * (i % 2), 12);
    const bool reads_ras = color_reads(s.color_env, color_ras) || color_reads(s.color_env, color_ras_alpha) ||
                           alpha_reads(s.alpha_env, alpha_ras);
    const bool reads_texture = color_reads(s.color_env, color_texture) ||
                               color_reads(s.color_env, color_texture_alpha) || alpha_reads(s.alpha_env, alpha_texture);
    s.texture = field(order, 6, 1) != 0 && reads_texture;
    if (s.texture) {
      s.texture_map = static_cast<uint8_t>(field(order, 0, 3));
      s.texture_coord = static_cast<uint8_t>(field(order, 3, 3));
      s.texture_swap = swap_table(bp, field(alpha_env, 2, 2));
    }
    if (reads_ras) {
      s.ras_channel = static_cast<uint8_t>(field(order, 7, 3));
      s.ras_swap = swap_table(bp, field(alpha_env, 0, 2));
    }
    const uint32_t ksel = bp.reg(bp::tev_konst_select + i / 2);
    if (color_reads(s.color_env, color_konst)) s.konst_color = static_cast<uint8_t>(field(ksel, 4 + 10 * (i % 2), 5));
    if (alpha_reads(s.alpha_env, alpha_konst)) s.konst_alpha = static_cast<uint8_t>(field(ksel, 9 + 10 * (i % 2), 5));
  }
  const uint32_t compare = bp.reg(bp::alpha_compare);
  uid.alpha_compare0 = static_cast<uint8_t>(field(compare, 16, 3));
  uid.alpha_compare1 = static_cast<uint8_t>(field(compare, 19, 3));
  uid.alpha_logic = static_cast<uint8_t>(field(compare, 22, 2));
  const uint32_t fog_c = bp.reg(bp::fog_c);
  uid.fog_type = static_cast<uint8_t>(field(fog_c, 21, 3));
  if (uid.fog_type != 0) {
    uid.fog_orthographic = field(fog_c, 20, 1) != 0;
    uid.fog_range = field(bp.reg(bp::fog_range), 10, 1) != 0;
  }
  return uid;
}

std::vector<uint32_t> pixel_constants(const BpState& bp) {
  std::vector<uint32_t> words(pixel_constant_words);
  auto unpack = [&](const std::array<uint32_t, 8>& bank, uint32_t base) {
    for (uint32_t n = 0; n < 4; ++n) {
      const uint32_t low = bank[2 * n], high = bank[2 * n + 1]; // low: red, alpha; high: blue, green
      words[base + 4 * n + 0] = static_cast<uint32_t>(signed11(low));
      words[base + 4 * n + 1] = static_cast<uint32_t>(signed11(high >> 12));
      words[base + 4 * n + 2] = static_cast<uint32_t>(signed11(high));
      words[base + 4 * n + 3] = static_cast<uint32_t>(signed11(low >> 12));
    }
  };
  unpack(bp.tev_registers, pixel_constant_registers);
  unpack(bp.tev_konst, pixel_constant_konst);
  const uint32_t compare = bp.reg(bp::alpha_compare);
  words[pixel_constant_alpha_refs] = field(compare, 0, 8);
  words[pixel_constant_alpha_refs + 1] = field(compare, 8, 8);
  words[pixel_constant_fog_a] = std::bit_cast<uint32_t>(fog_register_float(bp.reg(bp::fog_a)));
  words[pixel_constant_fog_c] = std::bit_cast<uint32_t>(fog_register_float(bp.reg(bp::fog_c)));
  words[pixel_constant_fog_b_magnitude] = bp.reg(bp::fog_b_magnitude) & bp::value_mask;
  words[pixel_constant_fog_b_shift] = field(bp.reg(bp::fog_b_exponent), 0, 5);
  const uint32_t color = bp.reg(bp::fog_color);
  for (uint32_t c = 0; c < 3; ++c) words[pixel_constant_fog_color + c] = field(color, 16 - 8 * c, 8);
  return words;
}

float fog_register_float(uint32_t value) { return std::bit_cast<float>((value & 0xFFFFFu) << 12); }

ir::Function build_pixel_program(const PixelUid& uid) { return PixelBuilder(uid).build(); }

} // namespace kiln::gx
