#pragma once
// The raster and pixel-engine state of a draw, decoded once from the XF and BP banks: the EFB pixel format, the
// viewport and scissor in EFB pixels, culling, the depth test, blending or logic op and the update masks. The
// Vulkan renderer draws from this and never reads the raw registers.
#include <cstdint>
#include <string>

#include "runtime/gpu/gx/state.h"

namespace kiln::gx {

/// BP 0x43 (PE control) bits 0-2.
enum class EfbFormat : uint8_t { rgb8_z24 = 0, rgba6_z24 = 1, rgb565_z16 = 2, z24 = 3, y8 = 4, u8 = 5, v8 = 6, yuv420 = 7 };
const char* efb_format_name(EfbFormat format);

/// Bits the EFB keeps per channel in a colour format (alpha 0: the format stores none, it reads as 255).
struct ColorBits {
  uint8_t r = 8, g = 8, b = 8, a = 0;
};
ColorBits efb_color_bits(EfbFormat format);
/// An 8-bit channel as an EFB of `bits` stores it: the top bits kept, read back expanded by bit replication
/// (0 bits: not stored, reads 255).
uint8_t quantize_channel(uint8_t value, unsigned bits);

/// The GX compare functions (BP 0x40 bits 1-3), in the hardware's order.
enum class CompareFunction : uint8_t { never, less, equal, less_equal, greater, not_equal, greater_equal, always };
/// Blend factors of BP 0x41, one enum for both operands (the source factor's codes 2/3 read the destination's
/// colour, the destination factor's read the source's).
enum class BlendFactor : uint8_t {
  zero, one, src_color, inv_src_color, dst_color, inv_dst_color, src_alpha, inv_src_alpha, dst_alpha, inv_dst_alpha
};
/// What the blender does: the subtract bit wins over blending, which wins over the logic op.
enum class BlendMode : uint8_t { replace, blend, subtract, logic };
/// GEN_MODE bits 14-15 as the hardware codes them (libogc's GX_SetCullMode maps GX_CULL_BACK to 1): front faces
/// are clockwise on screen.
enum class CullMode : uint8_t { none = 0, back = 1, front = 2, all = 3 };

struct Rect {
  int32_t left = 0, top = 0, right = 0, bottom = 0; ///< EFB pixels, right and bottom exclusive
  bool empty() const { return right <= left || bottom <= top; }
  friend bool operator==(const Rect&, const Rect&) = default;
};

/// The viewport in EFB pixels (height negative: GX's y axis points up) and its depth range as 0..1 of the 24-bit
/// depth scale, for clip z in Vulkan's 0..w range (translator/gx/vertex_program.h).
struct Viewport {
  float x = 0, y = 0, width = 0, height = 0, min_depth = 0, max_depth = 1;
  friend bool operator==(const Viewport&, const Viewport&) = default;
};

inline constexpr uint32_t efb_width = 640, efb_height = 528;

struct RasterState {
  EfbFormat format = EfbFormat::rgb8_z24;
  bool early_depth = false;        ///< BP 0x43 bit 6: depth compared before the TEV
  bool depth_test = false;         ///< BP 0x40 bit 0
  bool depth_update = false;       ///< bit 4
  CompareFunction depth_function = CompareFunction::never;
  BlendMode blend = BlendMode::replace;
  BlendFactor src_factor = BlendFactor::one, dst_factor = BlendFactor::zero;
  uint8_t logic_op = 3;            ///< BP 0x41 bits 12-15 (the Vulkan VkLogicOp order: 3 = copy)
  bool color_update = false;       ///< BP 0x41 bit 3
  bool alpha_update = false;       ///< bit 4, and only where the format stores alpha
  bool dither = false;             ///< bit 2
  bool constant_alpha = false;     ///< BP 0x42 bit 8: alpha written from bits 0-7 instead
  CullMode cull = CullMode::none;
  Rect scissor;                    ///< BP 0x20/0x21 less the scissor offset (0x59), clamped to the EFB
  Viewport viewport;               ///< XF 0x101A-0x101F less the scissor offset
  friend bool operator==(const RasterState&, const RasterState&) = default;
};

RasterState decode_raster_state(const XfState& xf, const BpState& bp);

/// The scissor offset of BP 0x59 in EFB pixels (the register holds (offset + 342) / 2 per axis), which screen
/// coordinates (viewport origin, scissor) subtract.
struct ScreenOffset {
  int32_t x = 0, y = 0;
};
ScreenOffset screen_offset(const BpState& bp);

} // namespace kiln::gx
