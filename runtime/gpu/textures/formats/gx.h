#pragma once
// GameCube GX texture formats: their tiled layout (row-major tiles of 4x4, 8x4 or 8x8 texels, 32 bytes each,
// 64 for RGBA8) and their decoding to RGBA8. Data is big-endian, as in guest memory.
#include <cstdint>
#include <span>
#include <string>

#include "runtime/base/png_image.h"

namespace kiln::textures {

/// The TEX_IMAGE0 format field values.
enum class GxFormat : uint8_t {
  i4 = 0, i8 = 1, ia4 = 2, ia8 = 3, rgb565 = 4, rgb5a3 = 5, rgba8 = 6, ci4 = 8, ci8 = 9, ci14x2 = 10, cmpr = 14
};
/// The TLUT (palette) entry formats of the colour-indexed formats.
enum class GxTlutFormat : uint8_t { ia8 = 0, rgb565 = 1, rgb5a3 = 2 };

struct GxTileShape {
  uint32_t width;  ///< texels
  uint32_t height; ///< texels
  uint32_t bytes;  ///< bytes per tile
};

GxTileShape gx_tile_shape(GxFormat format);
/// Bytes a width x height texture occupies (whole tiles).
uint64_t gx_texture_size(GxFormat format, uint32_t width, uint32_t height);
bool gx_is_indexed(GxFormat format);
/// Parses "I4", "rgb5a3", "CI14X2", ...; throws kiln::Error for an unknown name.
GxFormat parse_gx_format(const std::string& name);
GxTlutFormat parse_gx_tlut_format(const std::string& name);

/// Decodes a GX texture. `name` names the data in errors. Indexed formats read their colours from `tlut`
/// (big-endian 16-bit entries); an index past the TLUT's end is an error naming the tile's offset.
RgbaImage decode_gx(GxFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> data,
                    const std::string& name, std::span<const uint8_t> tlut = {},
                    GxTlutFormat tlut_format = GxTlutFormat::rgb5a3);

/// Single-colour conversions (also the reference for a GPU decoder): results are R, G, B, A.
struct Rgba8 {
  uint8_t r, g, b, a;
  bool operator==(const Rgba8&) const = default;
};
Rgba8 gx_rgb565(uint16_t value);
Rgba8 gx_rgb5a3(uint16_t value);
/// IA8: the high (first) byte is alpha, the low byte intensity.
Rgba8 gx_ia8(uint16_t value);

} // namespace kiln::textures
