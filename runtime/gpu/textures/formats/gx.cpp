#include "runtime/gpu/textures/formats/gx.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::textures {
namespace {

// Bit replication, so 0 maps to 0 and the maximum to 255.
constexpr uint8_t expand3(uint32_t v) { return static_cast<uint8_t>(v << 5 | v << 2 | v >> 1); }
constexpr uint8_t expand4(uint32_t v) { return static_cast<uint8_t>(v << 4 | v); }
constexpr uint8_t expand5(uint32_t v) { return static_cast<uint8_t>(v << 3 | v >> 2); }
constexpr uint8_t expand6(uint32_t v) { return static_cast<uint8_t>(v << 2 | v >> 4); }

uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }

void put(RgbaImage& image, uint32_t x, uint32_t y, Rgba8 c) {
  if (x >= image.width || y >= image.height) return; // texels of a partial tile past the image's edge
  uint8_t* p = &image.pixels[(size_t{y} * image.width + x) * 4];
  p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = c.a;
}

struct Palette {
  std::span<const uint8_t> tlut;
  GxTlutFormat format;
  const std::string& name;

  Rgba8 colour(uint32_t index, uint64_t tile_offset) const {
    if (size_t{index} * 2 + 2 > tlut.size()) {
      throw Error(at_offset(name, tile_offset), fmt::format("palette index {} is past the TLUT's {} entries", index,
                                                            tlut.size() / 2));
    }
    const uint16_t entry = be16(&tlut[index * 2]);
    switch (format) {
    case GxTlutFormat::ia8: return gx_ia8(entry);
    case GxTlutFormat::rgb565: return gx_rgb565(entry);
    case GxTlutFormat::rgb5a3: return gx_rgb5a3(entry);
    }
    throw Error(in_file(name), "unknown TLUT format");
  }
};

/// One 4x4 CMPR sub-block (8 bytes): two big-endian RGB565 endpoints and 2-bit indices, first texel in the top
/// bits. GX interpolates at 3/8 and 5/8 (not DXT1's thirds); with colour0 <= colour1 the third colour is the
/// average and the fourth is that average, transparent.
void decode_cmpr_subblock(RgbaImage& image, uint32_t x0, uint32_t y0, const uint8_t* block) {
  const uint16_t c0 = be16(block), c1 = be16(block + 2);
  Rgba8 colours[4] = {gx_rgb565(c0), gx_rgb565(c1), {}, {}};
  const Rgba8 a = colours[0], b = colours[1];
  const auto blend = [](uint8_t near, uint8_t far) { return static_cast<uint8_t>((near * 5 + far * 3) >> 3); };
  if (c0 > c1) {
    colours[2] = {blend(a.r, b.r), blend(a.g, b.g), blend(a.b, b.b), 255};
    colours[3] = {blend(b.r, a.r), blend(b.g, a.g), blend(b.b, a.b), 255};
  } else {
    colours[2] = {static_cast<uint8_t>((a.r + b.r) / 2), static_cast<uint8_t>((a.g + b.g) / 2),
                  static_cast<uint8_t>((a.b + b.b) / 2), 255};
    colours[3] = colours[2];
    colours[3].a = 0;
  }
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) put(image, x0 + x, y0 + y, colours[(block[4 + y] >> (6 - 2 * x)) & 3]);
  }
}

void decode_tile(GxFormat format, RgbaImage& image, uint32_t tx, uint32_t ty, const uint8_t* tile,
                 uint64_t tile_offset, const Palette& palette) {
  switch (format) {
  case GxFormat::i4:
  case GxFormat::ci4:
    for (uint32_t i = 0; i < 64; ++i) {
      const uint32_t nibble = (tile[i / 2] >> (i % 2 == 0 ? 4 : 0)) & 15;
      const Rgba8 c = format == GxFormat::i4 ? Rgba8{expand4(nibble), expand4(nibble), expand4(nibble), expand4(nibble)}
                                             : palette.colour(nibble, tile_offset);
      put(image, tx + i % 8, ty + i / 8, c);
    }
    break;
  case GxFormat::i8:
  case GxFormat::ci8:
    for (uint32_t i = 0; i < 32; ++i) {
      const uint8_t v = tile[i];
      put(image, tx + i % 8, ty + i / 8, format == GxFormat::i8 ? Rgba8{v, v, v, v} : palette.colour(v, tile_offset));
    }
    break;
  case GxFormat::ia4:
    for (uint32_t i = 0; i < 32; ++i) {
      const uint8_t intensity = expand4(tile[i] & 15), alpha = expand4(tile[i] >> 4);
      put(image, tx + i % 8, ty + i / 8, {intensity, intensity, intensity, alpha});
    }
    break;
  case GxFormat::ia8:
  case GxFormat::rgb565:
  case GxFormat::rgb5a3:
  case GxFormat::ci14x2:
    for (uint32_t i = 0; i < 16; ++i) {
      const uint16_t v = be16(tile + i * 2);
      const Rgba8 c = format == GxFormat::ia8      ? gx_ia8(v)
                      : format == GxFormat::rgb565 ? gx_rgb565(v)
                      : format == GxFormat::rgb5a3 ? gx_rgb5a3(v)
                                                   : palette.colour(v & 0x3fff, tile_offset);
      put(image, tx + i % 4, ty + i / 4, c);
    }
    break;
  case GxFormat::rgba8:
    // 32 bytes of A,R pairs for the 16 texels, then 32 bytes of G,B pairs.
    for (uint32_t i = 0; i < 16; ++i) {
      put(image, tx + i % 4, ty + i / 4, {tile[i * 2 + 1], tile[32 + i * 2], tile[32 + i * 2 + 1], tile[i * 2]});
    }
    break;
  case GxFormat::cmpr:
    // Four DXT1-like sub-blocks: top-left, top-right, bottom-left, bottom-right.
    for (uint32_t s = 0; s < 4; ++s) decode_cmpr_subblock(image, tx + (s % 2) * 4, ty + (s / 2) * 4, tile + s * 8);
    break;
  }
}

} // namespace

Rgba8 gx_rgb565(uint16_t v) { return {expand5(v >> 11), expand6((v >> 5) & 63), expand5(v & 31), 255}; }

Rgba8 gx_rgb5a3(uint16_t v) {
  if (v & 0x8000) return {expand5((v >> 10) & 31), expand5((v >> 5) & 31), expand5(v & 31), 255};
  return {expand4((v >> 8) & 15), expand4((v >> 4) & 15), expand4(v & 15), expand3((v >> 12) & 7)};
}

Rgba8 gx_ia8(uint16_t v) {
  const uint8_t intensity = static_cast<uint8_t>(v & 0xff);
  return {intensity, intensity, intensity, static_cast<uint8_t>(v >> 8)};
}

GxTileShape gx_tile_shape(GxFormat format) {
  switch (format) {
  case GxFormat::i4:
  case GxFormat::ci4:
  case GxFormat::cmpr: return {8, 8, 32};
  case GxFormat::i8:
  case GxFormat::ia4:
  case GxFormat::ci8: return {8, 4, 32};
  case GxFormat::ia8:
  case GxFormat::rgb565:
  case GxFormat::rgb5a3:
  case GxFormat::ci14x2: return {4, 4, 32};
  case GxFormat::rgba8: return {4, 4, 64};
  }
  throw Error(fmt::format("unknown GX texture format {}", static_cast<int>(format)));
}

uint64_t gx_texture_size(GxFormat format, uint32_t width, uint32_t height) {
  const GxTileShape shape = gx_tile_shape(format);
  return div_ceil(width, shape.width) * div_ceil(height, shape.height) * shape.bytes;
}

bool gx_is_indexed(GxFormat format) {
  return format == GxFormat::ci4 || format == GxFormat::ci8 || format == GxFormat::ci14x2;
}

GxFormat parse_gx_format(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::pair<const char*, GxFormat> names[] = {
      {"i4", GxFormat::i4},         {"i8", GxFormat::i8},         {"ia4", GxFormat::ia4},
      {"ia8", GxFormat::ia8},       {"rgb565", GxFormat::rgb565}, {"rgb5a3", GxFormat::rgb5a3},
      {"rgba8", GxFormat::rgba8},   {"ci4", GxFormat::ci4},       {"ci8", GxFormat::ci8},
      {"ci14x2", GxFormat::ci14x2}, {"cmpr", GxFormat::cmpr}};
  for (const auto& [text, format] : names) {
    if (lower == text) return format;
  }
  throw Error("unknown GX texture format '" + name + "' (I4 I8 IA4 IA8 RGB565 RGB5A3 RGBA8 CI4 CI8 CI14X2 CMPR)");
}

GxTlutFormat parse_gx_tlut_format(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "ia8") return GxTlutFormat::ia8;
  if (lower == "rgb565") return GxTlutFormat::rgb565;
  if (lower == "rgb5a3") return GxTlutFormat::rgb5a3;
  throw Error("unknown TLUT format '" + name + "' (IA8 RGB565 RGB5A3)");
}

RgbaImage decode_gx(GxFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> data,
                    const std::string& name, std::span<const uint8_t> tlut, GxTlutFormat tlut_format) {
  if (width == 0 || height == 0 || width > 1024 || height > 1024) {
    throw Error(in_file(name), fmt::format("GX texture of {}x{} texels (each side must be 1..1024)", width, height));
  }
  const GxTileShape shape = gx_tile_shape(format);
  const uint64_t size = gx_texture_size(format, width, height);
  // Bounds are checked once for the whole texture; tiles are then read from the checked span.
  const std::span<const uint8_t> texels = ByteReader(data, name, Endian::big).span_at(0, size);
  RgbaImage image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  const Palette palette{tlut, tlut_format, name};
  uint64_t offset = 0;
  for (uint32_t ty = 0; ty < height; ty += shape.height) {
    for (uint32_t tx = 0; tx < width; tx += shape.width, offset += shape.bytes) {
      decode_tile(format, image, tx, ty, texels.data() + offset, offset, palette);
    }
  }
  return image;
}

} // namespace kiln::textures
