#include "runtime/gpu/textures/formats/bcn.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::textures {
namespace {

struct Texel {
  uint8_t r = 0, g = 0, b = 0, a = 255;
};
using Block = Texel[16];

uint8_t expand5(uint32_t v) { return static_cast<uint8_t>(v << 3 | v >> 2); }
uint8_t expand6(uint32_t v) { return static_cast<uint8_t>(v << 2 | v >> 4); }

Texel rgb565(uint16_t v) { return {expand5(v >> 11), expand6((v >> 5) & 63), expand5(v & 31), 255}; }

uint8_t third(uint8_t near, uint8_t far) { return static_cast<uint8_t>((2 * near + far + 1) / 3); }

/// The BC1 colour block (also the colour half of BC2/BC3, which always use four colours).
void decode_colour(const uint8_t* data, bool allow_transparent, Block& out) {
  const uint16_t c0 = load<uint16_t>(data, Endian::little), c1 = load<uint16_t>(data + 2, Endian::little);
  const uint32_t indices = load<uint32_t>(data + 4, Endian::little);
  Texel colours[4] = {rgb565(c0), rgb565(c1), {}, {}};
  const Texel a = colours[0], b = colours[1];
  if (c0 > c1 || !allow_transparent) {
    colours[2] = {third(a.r, b.r), third(a.g, b.g), third(a.b, b.b), 255};
    colours[3] = {third(b.r, a.r), third(b.g, a.g), third(b.b, a.b), 255};
  } else {
    colours[2] = {static_cast<uint8_t>((a.r + b.r + 1) / 2), static_cast<uint8_t>((a.g + b.g + 1) / 2),
                  static_cast<uint8_t>((a.b + b.b + 1) / 2), 255};
    colours[3] = {0, 0, 0, 0};
  }
  for (int i = 0; i < 16; ++i) {
    const Texel c = colours[(indices >> (2 * i)) & 3];
    out[i].r = c.r, out[i].g = c.g, out[i].b = c.b;
    if (allow_transparent) out[i].a = c.a;
  }
}

/// The BC3 alpha / BC4 channel block: two endpoints and 16 3-bit indices; with e0 > e1 six interpolated
/// values, else four and then 0 and 255.
void decode_channel(const uint8_t* data, uint8_t Texel::*channel, Block& out) {
  const uint32_t e0 = data[0], e1 = data[1];
  uint8_t values[8] = {static_cast<uint8_t>(e0), static_cast<uint8_t>(e1)};
  if (e0 > e1) {
    for (uint32_t i = 1; i < 7; ++i) values[i + 1] = static_cast<uint8_t>(((7 - i) * e0 + i * e1 + 3) / 7);
  } else {
    for (uint32_t i = 1; i < 5; ++i) values[i + 1] = static_cast<uint8_t>(((5 - i) * e0 + i * e1 + 2) / 5);
    values[6] = 0;
    values[7] = 255;
  }
  uint64_t indices = 0;
  for (int i = 0; i < 6; ++i) indices |= uint64_t{data[2 + i]} << (8 * i);
  for (int i = 0; i < 16; ++i) out[i].*channel = values[(indices >> (3 * i)) & 7];
}

void decode_block(BcFormat format, const uint8_t* data, Block& out) {
  switch (format) {
  case BcFormat::bc1: decode_colour(data, true, out); break;
  case BcFormat::bc2:
    decode_colour(data + 8, false, out);
    for (int i = 0; i < 16; ++i) out[i].a = static_cast<uint8_t>(((data[i / 2] >> (4 * (i % 2))) & 15) * 17);
    break;
  case BcFormat::bc3:
    decode_colour(data + 8, false, out);
    decode_channel(data, &Texel::a, out);
    break;
  case BcFormat::bc4: decode_channel(data, &Texel::r, out); break;
  case BcFormat::bc5:
    decode_channel(data, &Texel::r, out);
    decode_channel(data + 8, &Texel::g, out);
    break;
  }
}

} // namespace

uint32_t bc_block_bytes(BcFormat format) { return format == BcFormat::bc1 || format == BcFormat::bc4 ? 8 : 16; }

uint64_t bc_data_size(BcFormat format, uint32_t width, uint32_t height) {
  return div_ceil(width, 4) * div_ceil(height, 4) * bc_block_bytes(format);
}

BcFormat parse_bc_format(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "bc1") return BcFormat::bc1;
  if (lower == "bc2") return BcFormat::bc2;
  if (lower == "bc3") return BcFormat::bc3;
  if (lower == "bc4") return BcFormat::bc4;
  if (lower == "bc5") return BcFormat::bc5;
  throw Error("unknown BC format '" + name + "' (bc1 .. bc5)");
}

RgbaImage decode_bc(BcFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> blocks,
                    const std::string& name) {
  if (width == 0 || height == 0 || width > 65536 || height > 65536) {
    throw Error(in_file(name), fmt::format("BC image of {}x{} texels (each side must be 1..65536)", width, height));
  }
  const std::span<const uint8_t> data = ByteReader(blocks, name).span_at(0, bc_data_size(format, width, height));
  RgbaImage image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  const uint32_t block_bytes = bc_block_bytes(format);
  size_t offset = 0;
  for (uint32_t by = 0; by < height; by += 4) {
    for (uint32_t bx = 0; bx < width; bx += 4, offset += block_bytes) {
      Block block{};
      decode_block(format, data.data() + offset, block);
      for (uint32_t y = 0; y < 4 && by + y < height; ++y)
        for (uint32_t x = 0; x < 4 && bx + x < width; ++x) {
          const Texel& t = block[y * 4 + x];
          uint8_t* p = &image.pixels[(size_t{by + y} * width + bx + x) * 4];
          p[0] = t.r, p[1] = t.g, p[2] = t.b, p[3] = t.a;
        }
    }
  }
  return image;
}

} // namespace kiln::textures
