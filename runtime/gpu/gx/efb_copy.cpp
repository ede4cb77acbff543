#include "runtime/gpu/gx/efb_copy.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::gx {
namespace {

uint32_t field(uint32_t value, unsigned lsb, unsigned width) { return extract_bits(value, lsb, width); }

uint8_t to_byte(double value) { return static_cast<uint8_t>(std::clamp(std::lround(value), 0L, 255L)); }

struct Texel {
  uint8_t r = 0, g = 0, b = 0, a = 0;
};

/// Reads the EFB for one copy: colour through the vertical filter, depth as 24 bits.
class CopySource {
public:
  CopySource(const EfbCopy& copy, EfbFormat format, const EfbPixels& efb) : copy_(copy), format_(format), efb_(efb) {}

  bool depth() const { return format_ == EfbFormat::z24; }

  Texel color(int32_t x, int32_t y) const {
    x = std::clamp(x, 0, static_cast<int32_t>(efb_width) - 1);
    const int32_t above = copy_.clamp_top && y <= copy_.source.top ? y : y - 1;
    const int32_t below = copy_.clamp_bottom && y >= copy_.source.bottom - 1 ? y : y + 1;
    const uint32_t weights[3] = {uint32_t{copy_.filter[0]} + copy_.filter[1],
                                 uint32_t{copy_.filter[2]} + copy_.filter[3] + copy_.filter[4],
                                 uint32_t{copy_.filter[5]} + copy_.filter[6]};
    const int32_t rows[3] = {above, y, below};
    uint32_t sum[3] = {};
    for (int k = 0; k < 3; ++k) {
      const uint8_t* pixel = at(x, rows[k]);
      for (int c = 0; c < 3; ++c) sum[c] += weights[k] * pixel[c];
    }
    // Weights are 64ths; the rounding of the filter is not publicly documented: the sum is truncated.
    Texel t;
    t.r = static_cast<uint8_t>(std::min<uint32_t>(sum[0] >> 6, 255));
    t.g = static_cast<uint8_t>(std::min<uint32_t>(sum[1] >> 6, 255));
    t.b = static_cast<uint8_t>(std::min<uint32_t>(sum[2] >> 6, 255));
    t.a = at(x, y)[3];
    return t;
  }

  uint32_t depth_value(int32_t x, int32_t y) const {
    x = std::clamp(x, 0, static_cast<int32_t>(efb_width) - 1);
    y = std::clamp(y, 0, static_cast<int32_t>(efb_height) - 1);
    return efb_.depth[static_cast<size_t>(y) * efb_width + static_cast<size_t>(x)] & 0xFFFFFF;
  }

private:
  const uint8_t* at(int32_t x, int32_t y) const {
    y = std::clamp(y, 0, static_cast<int32_t>(efb_height) - 1);
    return &efb_.color[(static_cast<size_t>(y) * efb_width + static_cast<size_t>(x)) * 4];
  }

  const EfbCopy& copy_;
  EfbFormat format_;
  const EfbPixels& efb_;
};

class RamWriter {
public:
  RamWriter(std::span<uint8_t> ram, uint64_t offset) : ram_(ram), offset_(offset) {}
  void check(uint64_t address, uint64_t bytes) const {
    if (address + bytes > ram_.size()) {
      throw Error(fmt::format("GX stream offset {:#x}: EFB copy writes {:#x}..{:#x}, outside guest RAM ({:#x} bytes)",
                              offset_, address, address + bytes, ram_.size()));
    }
  }
  uint8_t* at(uint64_t address) { return &ram_[address]; }

private:
  std::span<uint8_t> ram_;
  uint64_t offset_;
};

void copy_to_xfb(const EfbCopy& copy, const CopySource& source, RamWriter& ram) {
  const Rect& r = copy.source;
  const auto width = static_cast<uint32_t>(r.right - r.left);
  ram.check(copy.destination, uint64_t{copy.stride} * static_cast<uint32_t>(r.bottom - r.top - 1) + width * 2);
  for (int32_t y = r.top; y < r.bottom; ++y) {
    uint8_t* line = ram.at(copy.destination + uint64_t{copy.stride} * static_cast<uint32_t>(y - r.top));
    for (int32_t x = r.left; x < r.right; x += 2) {
      const Texel first = source.color(x, y), second = source.color(x + 1, y);
      const auto mean = [](uint8_t a, uint8_t b) { return static_cast<uint8_t>((a + b + 1) / 2); };
      const uint8_t mr = mean(first.r, second.r), mg = mean(first.g, second.g), mb = mean(first.b, second.b);
      uint8_t* pair = line + static_cast<size_t>(x - r.left) * 2;
      pair[0] = rgb_to_y(first.r, first.g, first.b);
      pair[1] = rgb_to_u(mr, mg, mb);
      pair[2] = rgb_to_y(second.r, second.g, second.b);
      pair[3] = rgb_to_v(mr, mg, mb);
    }
  }
}

struct TileLayout {
  uint32_t width, height, bytes;
};

TileLayout tile_layout(CopyFormat format) {
  switch (format) {
  case CopyFormat::r8_alias: case CopyFormat::a8: case CopyFormat::r8: case CopyFormat::g8: case CopyFormat::b8:
    return {8, 4, 32};
  case CopyFormat::ra8: case CopyFormat::rgb565: return {4, 4, 32};
  case CopyFormat::rgba8: return {4, 4, 64};
  default: return {0, 0, 0};
  }
}

const char* copy_format_name(CopyFormat format, bool intensity, bool depth) {
  static constexpr const char* color[13] = {"R4", "R8", "RA4", "RA8", "RGB565", "RGB5A3", "RGBA8", "A8", "R8", "G8", "B8", "RG8", "GB8"};
  static constexpr const char* intensities[4] = {"I4", "I8", "IA4", "IA8"};
  static constexpr const char* depths[13] = {"Z4", "Z8", "Z8 (code 2)", "Z16", "Z16 (code 4)", "Z16 (code 5)", "Z24X8", "Z8 (code 7)", "Z8 (code 8)", "Z8M", "Z8L", "Z16L (code 11)", "Z16L"};
  const auto code = static_cast<uint32_t>(format);
  if (code > 12) return "reserved";
  if (depth) return depths[code];
  return intensity && code < 4 ? intensities[code] : color[code];
}

/// The mean of the 2x2 block at (x, y), each of its pixels through the vertical filter; rounded to nearest (the
/// hardware's rounding is not publicly documented).
Texel box(const CopySource& source, int32_t x, int32_t y) {
  uint32_t sum[4] = {};
  for (int32_t dy = 0; dy < 2; ++dy) {
    for (int32_t dx = 0; dx < 2; ++dx) {
      const Texel t = source.color(x + dx, y + dy);
      sum[0] += t.r, sum[1] += t.g, sum[2] += t.b, sum[3] += t.a;
    }
  }
  const auto mean = [](uint32_t total) { return static_cast<uint8_t>((total + 2) / 4); };
  return {mean(sum[0]), mean(sum[1]), mean(sum[2]), mean(sum[3])};
}

void copy_to_texture(const EfbCopy& copy, const CopySource& source, RamWriter& ram, uint64_t offset) {
  const bool depth = source.depth();
  const bool supported = depth ? copy.format == CopyFormat::r8_alias || copy.format == CopyFormat::rgba8
                               : tile_layout(copy.format).bytes != 0;
  if (!supported) {
    throw Error(fmt::format("GX stream offset {:#x}: EFB copy to a {} texture is not done yet", offset,
                            copy_format_name(copy.format, copy.intensity, depth)));
  }
  const TileLayout tile = tile_layout(copy.format);
  const Rect& r = copy.source;
  // Half scale: each texel is the mean of a 2x2 block of the rectangle (a width or height of one keeps one texel).
  const uint32_t scale = copy.half_scale ? 2 : 1;
  const auto width = std::max(1u, static_cast<uint32_t>(r.right - r.left) / scale);
  const auto height = std::max(1u, static_cast<uint32_t>(r.bottom - r.top) / scale);
  const uint32_t tiles_x = (width + tile.width - 1) / tile.width, tiles_y = (height + tile.height - 1) / tile.height;
  ram.check(copy.destination, uint64_t{copy.stride} * (tiles_y - 1) + uint64_t{tiles_x} * tile.bytes);
  for (uint32_t ty = 0; ty < tiles_y; ++ty) {
    for (uint32_t tx = 0; tx < tiles_x; ++tx) {
      uint8_t* out = ram.at(copy.destination + uint64_t{copy.stride} * ty + uint64_t{tx} * tile.bytes);
      for (uint32_t i = 0; i < tile.width * tile.height; ++i) {
        // Texels of a partial tile past the rectangle read the EFB beyond it (clamped to the EFB).
        const int32_t x = r.left + static_cast<int32_t>(scale * (tx * tile.width + i % tile.width));
        const int32_t y = r.top + static_cast<int32_t>(scale * (ty * tile.height + i / tile.width));
        if (depth) {
          const uint32_t z = source.depth_value(x, y); // a half-scale depth copy is refused
          if (copy.format == CopyFormat::r8_alias) {
            out[i] = static_cast<uint8_t>(z >> 16);
          } else { // Z24X8 in the RGBA8 layout: A = 0xFF, R/G/B = the depth's high, middle and low bytes
            out[i * 2] = 0xFF;
            out[i * 2 + 1] = static_cast<uint8_t>(z >> 16);
            out[32 + i * 2] = static_cast<uint8_t>(z >> 8);
            out[32 + i * 2 + 1] = static_cast<uint8_t>(z);
          }
          continue;
        }
        const Texel t = copy.half_scale ? box(source, x, y) : source.color(x, y);
        const uint8_t intensity = rgb_to_y(t.r, t.g, t.b);
        switch (copy.format) {
        case CopyFormat::r8_alias: out[i] = copy.intensity ? intensity : t.r; break;
        case CopyFormat::r8: out[i] = t.r; break;
        case CopyFormat::g8: out[i] = t.g; break;
        case CopyFormat::b8: out[i] = t.b; break;
        case CopyFormat::a8: out[i] = t.a; break;
        case CopyFormat::ra8: out[i * 2] = t.a; out[i * 2 + 1] = copy.intensity ? intensity : t.r; break; // alpha first
        case CopyFormat::rgb565: {
          const uint32_t v = ((t.r >> 3) << 11) | ((t.g >> 2) << 5) | (t.b >> 3);
          out[i * 2] = static_cast<uint8_t>(v >> 8);
          out[i * 2 + 1] = static_cast<uint8_t>(v);
          break;
        }
        case CopyFormat::rgba8: // 32 bytes of A,R pairs, then 32 bytes of G,B pairs
          out[i * 2] = t.a;
          out[i * 2 + 1] = t.r;
          out[32 + i * 2] = t.g;
          out[32 + i * 2 + 1] = t.b;
          break;
        default: break;
        }
      }
    }
  }
}

} // namespace

uint8_t rgb_to_y(uint8_t r, uint8_t g, uint8_t b) { return to_byte(16 + 0.257 * r + 0.504 * g + 0.098 * b); }
uint8_t rgb_to_u(uint8_t r, uint8_t g, uint8_t b) { return to_byte(128 - 0.148 * r - 0.291 * g + 0.439 * b); }
uint8_t rgb_to_v(uint8_t r, uint8_t g, uint8_t b) { return to_byte(128 + 0.439 * r - 0.368 * g - 0.071 * b); }

EfbCopy decode_efb_copy(const BpState& bp) {
  EfbCopy copy;
  const uint32_t top_left = bp.reg(bp::copy_source_top_left), size = bp.reg(bp::copy_source_size);
  copy.source.left = static_cast<int32_t>(field(top_left, 0, 10));
  copy.source.top = static_cast<int32_t>(field(top_left, 10, 10));
  copy.source.right = copy.source.left + static_cast<int32_t>(field(size, 0, 10)) + 1;
  copy.source.bottom = copy.source.top + static_cast<int32_t>(field(size, 10, 10)) + 1;
  copy.destination = field(bp.reg(bp::copy_destination), 0, 21) << 5;
  copy.stride = field(bp.reg(bp::copy_stride), 0, 10) << 5;
  const uint32_t control = bp.reg(bp::copy_trigger);
  copy.clamp_top = field(control, 0, 1) != 0;
  copy.clamp_bottom = field(control, 1, 1) != 0;
  const uint32_t code = field(control, 3, 4);
  copy.format = static_cast<CopyFormat>(code / 2 + (code & 1) * 8);
  copy.gamma = static_cast<uint8_t>(field(control, 7, 2));
  copy.half_scale = field(control, 9, 1) != 0;
  copy.y_scale = field(control, 10, 1) != 0;
  copy.clear = field(control, 11, 1) != 0;
  copy.frame_to_field = static_cast<uint8_t>(field(control, 12, 2));
  copy.to_xfb = field(control, 14, 1) != 0;
  copy.intensity = field(control, 15, 1) != 0;
  const uint32_t filter0 = bp.reg(bp::copy_filter0), filter1 = bp.reg(bp::copy_filter1);
  for (uint32_t k = 0; k < 4; ++k) copy.filter[k] = static_cast<uint8_t>(field(filter0, 6 * k, 6));
  for (uint32_t k = 0; k < 3; ++k) copy.filter[4 + k] = static_cast<uint8_t>(field(filter1, 6 * k, 6));
  const uint32_t alpha_red = bp.reg(bp::clear_alpha_red), green_blue = bp.reg(bp::clear_green_blue);
  copy.clear_color = {static_cast<uint8_t>(field(alpha_red, 0, 8)), static_cast<uint8_t>(field(green_blue, 8, 8)),
                      static_cast<uint8_t>(field(green_blue, 0, 8)), static_cast<uint8_t>(field(alpha_red, 8, 8))};
  copy.clear_depth = field(bp.reg(bp::clear_z), 0, 24);
  copy.efb_format = static_cast<EfbFormat>(field(bp.reg(bp::pixel_format), 0, 3));
  const uint32_t blend = bp.reg(bp::blend_mode);
  copy.clear_updates_color = field(blend, 3, 1) != 0;
  copy.clear_updates_alpha = field(blend, 4, 1) != 0 && efb_color_bits(copy.efb_format).a != 0;
  copy.clear_updates_depth = field(bp.reg(bp::z_mode), 4, 1) != 0;
  return copy;
}

void perform_efb_copy(const EfbCopy& copy, const EfbPixels& efb, std::span<uint8_t> ram, uint64_t offset) {
  const EfbFormat format = copy.efb_format;
  const auto refuse = [&](const char* what) {
    throw Error(fmt::format("GX stream offset {:#x}: EFB copy with {} is not done yet", offset, what));
  };
  if (copy.gamma != 0) refuse("gamma correction");
  if (copy.half_scale && (copy.to_xfb || format == EfbFormat::z24)) refuse("half scale to the XFB or from the depth");
  if (copy.y_scale) refuse("vertical scaling (BP 0x4E)");
  if (copy.frame_to_field != 0) refuse("an interlaced field");
  if (format != EfbFormat::rgb8_z24 && format != EfbFormat::rgba6_z24 && format != EfbFormat::rgb565_z16 &&
      format != EfbFormat::z24)
    refuse(efb_format_name(format));
  if (copy.source.right > static_cast<int32_t>(efb_width) || copy.source.bottom > static_cast<int32_t>(efb_height)) {
    throw Error(fmt::format("GX stream offset {:#x}: EFB copy rectangle {}x{} at ({}, {}) reaches past the {}x{} EFB", offset,
                            copy.source.right - copy.source.left, copy.source.bottom - copy.source.top, copy.source.left,
                            copy.source.top, efb_width, efb_height));
  }
  const CopySource source(copy, format, efb);
  RamWriter writer(ram, offset);
  if (copy.to_xfb) {
    if (source.depth()) refuse("a depth EFB to the XFB");
    copy_to_xfb(copy, source, writer);
  } else {
    copy_to_texture(copy, source, writer, offset);
  }
}

RgbaImage decode_xfb(std::span<const uint8_t> ram, uint32_t address, uint32_t width, uint32_t height, uint32_t stride) {
  if (width % 2 != 0) throw Error(fmt::format("XFB at {:#x}: width {} is odd (YUYV holds pixel pairs)", address, width));
  if (height > 0 && uint64_t{address} + uint64_t{stride} * (height - 1) + uint64_t{width} * 2 > ram.size()) {
    throw Error(fmt::format("XFB at {:#x} ({}x{}, stride {:#x}) reaches past guest RAM ({:#x} bytes)", address, width, height,
                            stride, ram.size()));
  }
  RgbaImage image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t* line = &ram[address + uint64_t{stride} * y];
    for (uint32_t x = 0; x < width; ++x) {
      const double luma = 1.164 * (line[x * 2] - 16);
      const double u = line[(x & ~1u) * 2 + 1] - 128.0, v = line[(x & ~1u) * 2 + 3] - 128.0;
      uint8_t* out = &image.pixels[(size_t{y} * width + x) * 4];
      out[0] = to_byte(luma + 1.596 * v);
      out[1] = to_byte(luma - 0.813 * v - 0.391 * u);
      out[2] = to_byte(luma + 2.018 * u);
      out[3] = 255;
    }
  }
  return image;
}

} // namespace kiln::gx
