#pragma once
// The TEV and the alpha test as a kiln IR fragment program. The UID holds exactly the BP state that shapes the
// program (stage count, combiner formulas, input and konst selections, swap tables, alpha-test functions); the
// values that only feed it (TEV registers, konst colours, alpha references) arrive in constant bank 0, laid out
// by pixel_constants().
//
// Fragment interface: generic input n (a[0x80 + 16n]) is rasterised colour channel n (RGBA, 0..1); the fragment
// position (a[0x70..0x7c], FragCoord) gives fog its depth, z = EFB depth / (2^24 - 1); output target 0 is the
// colour, each channel the 8-bit result / 255.
#include <array>
#include <cstdint>
#include <vector>

#include "runtime/gpu/gx/state.h"
#include "translator/ir/ir.h"

namespace kiln::gx {

inline constexpr uint32_t max_tev_stages = 16;

struct TevStageUid {
  uint32_t color_env = 0;   ///< BP 0xC0 + 2i as written
  uint32_t alpha_env = 0;   ///< BP 0xC1 + 2i without its swap-table selectors (the tables themselves are below)
  uint8_t ras_channel = 7;  ///< TEV order colour channel: 0 colour 0, 1 colour 1, 5/6 bump alpha, 7 zero
  bool texture = false;     ///< the order enables a texture for this stage
  uint8_t texture_map = 0, texture_coord = 0;
  uint8_t konst_color = 0, konst_alpha = 0;    ///< konst selections, 0 where no input reads konst
  std::array<uint8_t, 4> ras_swap{0, 1, 2, 3}; ///< source channel of r, g, b, a
  std::array<uint8_t, 4> texture_swap{0, 1, 2, 3};
  friend bool operator==(const TevStageUid&, const TevStageUid&) = default;
};

struct PixelUid {
  uint32_t stages = 1;
  std::array<TevStageUid, max_tev_stages> stage{};
  uint8_t alpha_compare0 = 7, alpha_compare1 = 7, alpha_logic = 0; ///< BP 0xF3 functions and logic
  uint8_t fog_type = 0;            ///< BP 0xF1 bits 21-23: 0 off, 2 linear, 4 exp, 5 exp2, 6/7 backward exp/exp2
  bool fog_orthographic = false;   ///< BP 0xF1 bit 20, only where fog is on
  bool fog_range = false;          ///< BP 0xE8 bit 10 (range adjustment), only where fog is on
  friend bool operator==(const PixelUid&, const PixelUid&) = default;
  uint64_t hash() const;
};

PixelUid pixel_uid(const BpState& bp);

/// Constant bank 0 of the fragment program, as 32-bit words: TEV registers PREV, C0, C1, C2 (RGBA each, signed
/// 11-bit values), konst colours K0-K3 (RGBA), the two alpha references, then fog: A and C (floats with the
/// registers' 11-bit mantissa), B magnitude (24 bits), B shift (5 bits), and the fog colour R, G, B.
inline constexpr uint32_t pixel_constant_registers = 0, pixel_constant_konst = 16, pixel_constant_alpha_refs = 32;
inline constexpr uint32_t pixel_constant_fog_a = 34, pixel_constant_fog_c = 35, pixel_constant_fog_b_magnitude = 36,
                          pixel_constant_fog_b_shift = 37, pixel_constant_fog_color = 38;
inline constexpr uint32_t pixel_constant_words = 41;

/// A fog register's 20-bit float (BP 0xEE, 0xF1 bits 0-19: mantissa 0-10, exponent 11-18, sign 19) as the
/// single-precision float whose top 20 bits it is.
float fog_register_float(uint32_t value);
std::vector<uint32_t> pixel_constants(const BpState& bp);

/// The fragment program of `uid`; throws kiln::Error for what it does not translate yet (texture and indirect
/// stages, fog range adjustment) and for reserved selections (konst, fog types 1 and 3), naming the stage.
ir::Function build_pixel_program(const PixelUid& uid);

} // namespace kiln::gx
