#pragma once
// EFB copies (BP 0x52), decoded from the copy registers and carried out on the CPU over the EFB's pixels as the
// renderer reads them back: the copy to the XFB (YUYV 4:2:2, what the VI scans out) and the copy to a texture in
// the GX tile layouts (runtime/gpu/textures decodes them back), written into guest RAM.
#include <array>
#include <cstdint>
#include <span>

#include "runtime/base/png_image.h"
#include "runtime/gpu/gx/raster_state.h"
#include "runtime/gpu/gx/state.h"

namespace kiln::gx {

/// The copy's texture format: BP 0x52 bits 3-6 rotated right by one (bit 3 is the format's bit 3). With the
/// intensity bit, codes 0-3 are I4, I8, IA4, IA8; from a depth EFB, 1 is Z8 (the top byte) and 6 is Z24X8.
enum class CopyFormat : uint8_t {
  r4 = 0, r8_alias = 1, ra4 = 2, ra8 = 3, rgb565 = 4, rgb5a3 = 5, rgba8 = 6, a8 = 7, r8 = 8, g8 = 9, b8 = 10,
  rg8 = 11, gb8 = 12
};

struct EfbCopy {
  Rect source;                  ///< BP 0x49 (x bits 0-9, y 10-19) and 0x4A (width - 1, height - 1)
  uint32_t destination = 0;     ///< BP 0x4B << 5 (physical)
  uint32_t stride = 0;          ///< BP 0x4D << 5: bytes per XFB line, or per row of texture tiles
  bool to_xfb = false;          ///< bit 14
  CopyFormat format = CopyFormat::rgba8;
  bool intensity = false;       ///< bit 15: I formats (RGB to Y)
  bool clamp_top = false, clamp_bottom = false; ///< bits 0-1: the filter does not read past the rectangle
  uint8_t gamma = 0;            ///< bits 7-8 (0: 1.0)
  bool half_scale = false;      ///< bit 9: texture copies at half width and height, each texel a 2x2 mean
  bool y_scale = false;         ///< bit 10 (XFB vertical scaling by BP 0x4E)
  bool clear = false;           ///< bit 11: clear the rectangle after the copy
  uint8_t frame_to_field = 0;   ///< bits 12-13
  /// The vertical filter (BP 0x53 bits 0-23: w0-w3, BP 0x54 bits 0-17: w4-w6, 6 bits each, in 64ths): w0-w1 weigh
  /// the line above, w2-w4 the line itself, w5-w6 the line below.
  std::array<uint8_t, 7> filter{};
  std::array<uint8_t, 4> clear_color{}; ///< R, G, B, A from BP 0x4F (alpha 8-15, red 0-7) and 0x50 (green, blue)
  uint32_t clear_depth = 0;             ///< BP 0x51, 24 bits
  EfbFormat efb_format = EfbFormat::rgb8_z24; ///< BP 0x43: what the copy reads (Z24: the depth)
  /// The clear writes what the update masks let a draw write: colour (BP 0x41 bit 3), alpha (bit 4, where the
  /// format stores it) and depth (BP 0x40 bit 4).
  bool clear_updates_color = false, clear_updates_alpha = false, clear_updates_depth = false;
};

EfbCopy decode_efb_copy(const BpState& bp);

/// The EFB as read back: RGBA8 rows of efb_width pixels (each channel as the format stores it, expanded) and
/// 24-bit depth values.
struct EfbPixels {
  std::span<const uint8_t> color;
  std::span<const uint32_t> depth;
};

/// BT.601 studio-range conversion the copies use (Y 16-235, Cb/Cr 16-240 around 128), rounded to nearest.
uint8_t rgb_to_y(uint8_t r, uint8_t g, uint8_t b);
uint8_t rgb_to_u(uint8_t r, uint8_t g, uint8_t b);
uint8_t rgb_to_v(uint8_t r, uint8_t g, uint8_t b);

/// Writes the copy into `ram` (guest physical memory) from the EFB: XFB copies as YUYV (Y0 U Y1 V per
/// pixel pair, the pair's chroma from the mean of its two colours), texture copies as whole tiles of the copy
/// format (at half scale: half the rectangle's width and height). Throws kiln::Error naming `offset` (the
/// stream offset of the BP 0x52 write) for what is not done (gamma, half scale to the XFB or from the depth, Y
/// scale, interlaced fields, the copy formats without an encoder) and for a destination outside RAM.
void perform_efb_copy(const EfbCopy& copy, const EfbPixels& efb, std::span<uint8_t> ram, uint64_t offset);

/// The VI's side of an XFB: `width` x `height` YUYV pixels at `address` in `ram`, `stride` bytes per line, back to
/// RGBA (alpha 255) by the inverse BT.601 studio-range conversion, rounded and clamped. Throws kiln::Error for an
/// XFB outside RAM or an odd width.
RgbaImage decode_xfb(std::span<const uint8_t> ram, uint32_t address, uint32_t width, uint32_t height, uint32_t stride);

} // namespace kiln::gx
