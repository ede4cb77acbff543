#pragma once
// The TEV and the alpha test as a kiln IR fragment program. The UID holds exactly the BP state that shapes the
// program (stage count, combiner formulas, input and konst selections, swap tables, alpha-test functions); the
// values that only feed it (TEV registers, konst colours, alpha references) arrive in constant bank 0, laid out
// by pixel_constants().
//
// Fragment interface: generic input n (a[0x80 + 16n]) is rasterised colour channel n (RGBA, 0..1); output target 0
// is the colour, each channel the 8-bit TEV result / 255.
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
  friend bool operator==(const PixelUid&, const PixelUid&) = default;
  uint64_t hash() const;
};

PixelUid pixel_uid(const BpState& bp);

/// Constant bank 0 of the fragment program, as 32-bit words: TEV registers PREV, C0, C1, C2 (RGBA each, signed
/// 11-bit values), konst colours K0-K3 (RGBA), then the two alpha references.
inline constexpr uint32_t pixel_constant_registers = 0, pixel_constant_konst = 16, pixel_constant_alpha_refs = 32;
inline constexpr uint32_t pixel_constant_words = 34;
std::vector<uint32_t> pixel_constants(const BpState& bp);

/// The fragment program of `uid`; throws kiln::Error for what it does not translate yet (texture and indirect
/// stages, reserved selections), naming the stage.
ir::Function build_pixel_program(const PixelUid& uid);

} // namespace kiln::gx
