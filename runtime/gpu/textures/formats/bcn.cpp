#include "runtime/gpu/textures/formats/bcn.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"
#include "runtime/base/half_float.h"
#include "runtime/gpu/textures/formats/bc6h.h"
#include "runtime/gpu/textures/formats/bc7.h"
#include "runtime/gpu/textures/formats/bc_blocks.h"

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

/// The BC4/BC5 SNORM channel block: signed endpoints (-128 reads as -127), e0 > e1 gives six interpolated
/// values, else four and then -127 and 127. Interpolants are rounded to nearest, halves away from zero.
void decode_signed_channel(const uint8_t* data, int8_t* channel) {
  const int32_t raw0 = static_cast<int8_t>(data[0]), raw1 = static_cast<int8_t>(data[1]);
  const int32_t e0 = std::max(raw0, -127), e1 = std::max(raw1, -127);
  const auto divide = [](int32_t sum, int32_t by) { return sum >= 0 ? (sum + by / 2) / by : -((-sum + by / 2) / by); };
  int32_t values[8] = {e0, e1};
  if (raw0 > raw1) { // the specification compares the stored values (-127 against -128 is left open)
    for (int32_t i = 1; i < 7; ++i) values[i + 1] = divide((7 - i) * e0 + i * e1, 7);
  } else {
    for (int32_t i = 1; i < 5; ++i) values[i + 1] = divide((5 - i) * e0 + i * e1, 5);
    values[6] = -127;
    values[7] = 127;
  }
  uint64_t indices = 0;
  for (int i = 0; i < 6; ++i) indices |= uint64_t{data[2 + i]} << (8 * i);
  for (int i = 0; i < 16; ++i) channel[i * 4] = static_cast<int8_t>(values[(indices >> (3 * i)) & 7]);
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
  default: break;
  }
}

bool is_snorm(BcFormat format) { return format == BcFormat::bc4_snorm || format == BcFormat::bc5_snorm; }
bool is_bc6h(BcFormat format) { return format == BcFormat::bc6h_ufloat || format == BcFormat::bc6h_sfloat; }

uint8_t unit_to_byte(float value) {
  if (!(value > 0)) return 0; // negatives and NaN
  return value >= 1 ? 255 : static_cast<uint8_t>(value * 255 + 0.5f);
}

} // namespace

uint32_t bc_block_bytes(BcFormat format) {
  return format == BcFormat::bc1 || format == BcFormat::bc4 || format == BcFormat::bc4_snorm ? 8 : 16;
}

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
  if (lower == "bc4_snorm") return BcFormat::bc4_snorm;
  if (lower == "bc5_snorm") return BcFormat::bc5_snorm;
  if (lower == "bc6h" || lower == "bc6h_ufloat") return BcFormat::bc6h_ufloat;
  if (lower == "bc6h_sfloat") return BcFormat::bc6h_sfloat;
  if (lower == "bc7") return BcFormat::bc7;
  throw Error("unknown BC format '" + name + "' (bc1 .. bc5, bc4_snorm, bc5_snorm, bc6h, bc6h_sfloat, bc7)");
}

std::vector<int8_t> decode_bc_snorm(BcFormat format, uint32_t width, uint32_t height,
                                    std::span<const uint8_t> blocks, const std::string& name) {
  if (!is_snorm(format)) throw Error(in_file(name), "decode_bc_snorm needs bc4_snorm or bc5_snorm");
  using Snorm = std::array<int8_t, 4>;
  const std::vector<Snorm> texels = decode_block_grid<Snorm>(
      width, height, bc_block_bytes(format), blocks, name, [format](const uint8_t* data, std::array<Snorm, 16>& out) {
        out.fill(Snorm{0, 0, 0, 127});
        decode_signed_channel(data, &out[0][0]);
        if (format == BcFormat::bc5_snorm) decode_signed_channel(data + 8, &out[0][1]);
      });
  std::vector<int8_t> result(texels.size() * 4);
  std::memcpy(result.data(), texels.data(), result.size());
  return result;
}

std::vector<uint16_t> decode_bc6h(BcFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> blocks,
                                  const std::string& name) {
  if (!is_bc6h(format)) throw Error(in_file(name), "decode_bc6h needs bc6h_ufloat or bc6h_sfloat");
  const bool is_signed = format == BcFormat::bc6h_sfloat;
  const std::vector<Rgba16f> texels = decode_block_grid<Rgba16f>(
      width, height, 16, blocks, name,
      [is_signed](const uint8_t* data, std::array<Rgba16f, 16>& out) { decode_bc6h_block(data, is_signed, out); });
  std::vector<uint16_t> result(texels.size() * 4);
  std::memcpy(result.data(), texels.data(), result.size() * 2);
  return result;
}

RgbaImage decode_bc(BcFormat format, uint32_t width, uint32_t height, std::span<const uint8_t> blocks,
                    const std::string& name) {
  RgbaImage image{width, height, {}};
  image.pixels.reserve(size_t{width} * height * 4);
  if (is_snorm(format)) {
    for (const int8_t value : decode_bc_snorm(format, width, height, blocks, name)) {
      image.pixels.push_back(static_cast<uint8_t>(((value + 127) * 255 + 127) / 254)); // -1..1 -> 0..255
    }
  } else if (is_bc6h(format)) {
    for (const uint16_t value : decode_bc6h(format, width, height, blocks, name)) {
      image.pixels.push_back(unit_to_byte(half_to_float(value)));
    }
  } else if (format == BcFormat::bc7) {
    for (const Rgba8& texel : decode_block_grid<Rgba8>(width, height, 16, blocks, name, decode_bc7_block)) {
      image.pixels.insert(image.pixels.end(), texel.begin(), texel.end());
    }
  } else {
    const auto decode = [format](const uint8_t* data, std::array<Texel, 16>& out) {
      Block block{};
      decode_block(format, data, block);
      std::copy(std::begin(block), std::end(block), out.begin());
    };
    for (const Texel& t : decode_block_grid<Texel>(width, height, bc_block_bytes(format), blocks, name, decode)) {
      image.pixels.insert(image.pixels.end(), {t.r, t.g, t.b, t.a});
    }
  }
  return image;
}

} // namespace kiln::textures
