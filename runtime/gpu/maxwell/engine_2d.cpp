// 2D engine (902D, cl902d.h): solid rectangle fills and PIXELS_FROM_MEMORY blits (nearest sampling,
// same bytes per pixel on both sides).
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_902d.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/surface_copy.h"

namespace kiln::maxwell {

/// Bytes per pixel of a colour surface format (the 3D and 2D classes share the numbering), 0 if unknown.
uint32_t color_format_bytes(uint32_t format) {
  if (format >= 0xc0 && format <= 0xc5) return 16;
  if (format >= 0xc6 && format <= 0xce) return 8;
  if ((format >= 0xcf && format <= 0xd2) || (format >= 0xd5 && format <= 0xe0) || (format >= 0xe3 && format <= 0xe7))
    return 4;
  if (format >= 0xe8 && format <= 0xf2) return 2;
  if (format >= 0xf3 && format <= 0xf7) return 1;
  if (format == 0xf8 || format == 0xfb || format == 0xfc) return 2;
  if (format == 0xf9 || format == 0xfa || format == 0xfd || format == 0xfe || format == 0xff) return 4;
  return 0;
}

namespace {

namespace method = class_902d;

class TwoDEngine final : public Engine {
public:
  using Engine::Engine;
  uint32_t class_id() const override { return static_cast<uint32_t>(ClassId::twod); }

  void write(uint32_t method, uint32_t value) override {
    store(method, value);
    if (method == method::render_solid_prim_mode) {
      vertices_.clear();
    } else if (method == method::render_solid_prim_point_x_y) {
      add_vertex(extract_bits(value, 0, 16), extract_bits(value, 16, 16));
    } else if (method >= method::render_solid_prim_point_y.offset && method < method::render_solid_prim_point_y[64] &&
               (method - method::render_solid_prim_point_y.offset) % method::render_solid_prim_point_y.stride == 0) {
      add_vertex(reg(method - 4), value);
    } else if (method == method::pixels_from_memory_src_y0_int) {
      blit();
    }
  }

private:
  Surface surface(bool source) const {
    Surface s;
    s.address = address_pair(source ? method::set_src_offset_upper : method::set_dst_offset_upper);
    s.block_linear = extract_bits(reg(source ? method::set_src_memory_layout : method::set_dst_memory_layout), 0, 1) == 0;
    s.pitch = reg(source ? method::set_src_pitch : method::set_dst_pitch);
    const uint32_t block = reg(source ? method::set_src_block_size : method::set_dst_block_size);
    s.block_height_log2 = extract_bits(block, 4, 3);
    s.block_depth_log2 = extract_bits(block, 8, 3);
    // SET_*_WIDTH counts pixels; the block-linear layout is laid out in bytes.
    s.width = reg(source ? method::set_src_width : method::set_dst_width) *
              color_format_bytes(reg(source ? method::set_src_format : method::set_dst_format));
    s.height = reg(source ? method::set_src_height : method::set_dst_height);
    s.depth = reg(source ? method::set_src_depth : method::set_dst_depth);
    s.layer = source ? 0 : reg(method::set_dst_layer);
    return s;
  }

  void add_vertex(uint32_t x, uint32_t y) {
    vertices_.push_back({x, y});
    if (reg(method::render_solid_prim_mode) != method::value::render_solid_prim_mode_v_rects) {
      throw Error(fmt::format("2D solid primitive mode {} is not supported (rectangles only)",
                              reg(method::render_solid_prim_mode)));
    }
    if (vertices_.size() == 2) {
      fill_rect(vertices_[0], vertices_[1]);
      vertices_.clear();
    }
  }

  void fill_rect(std::pair<uint32_t, uint32_t> a, std::pair<uint32_t, uint32_t> b) {
    const uint32_t format = reg(method::set_dst_format);
    const uint32_t bytes = color_format_bytes(format);
    if (bytes == 0) throw Error(fmt::format("2D destination format 0x{:x} is not supported", format));
    if (color_format_bytes(reg(method::set_render_solid_prim_color_format)) != bytes) {
      throw Error("2D solid fill colour format differs in size from the destination format");
    }
    const Surface dst = surface(false);
    const uint32_t x0 = std::min(a.first, b.first), x1 = std::min(std::max(a.first, b.first), reg(method::set_dst_width));
    const uint32_t y0 = std::min(a.second, b.second), y1 = std::min(std::max(a.second, b.second), dst.height);
    if (x0 >= x1 || y0 >= y1) return;
    if (uint64_t{x1 - x0} * bytes > max_transfer_bytes) throw Error("2D fill row is implausibly wide");
    const uint32_t colour = reg(method::set_render_solid_prim_color);
    std::vector<uint8_t> row(uint64_t{x1 - x0} * bytes);
    for (uint64_t i = 0; i < row.size(); ++i) row[i] = static_cast<uint8_t>(colour >> (8 * (i % bytes % 4)));
    for (uint32_t y = y0; y < y1; ++y) write_rows(gpu_, dst, x0 * bytes, y, static_cast<uint32_t>(row.size()), 1, row);
  }

  void blit() {
    const uint32_t bytes = color_format_bytes(reg(method::set_dst_format));
    if (bytes == 0 || color_format_bytes(reg(method::set_src_format)) != bytes) {
      throw Error(fmt::format("2D blit from format 0x{:x} to 0x{:x}: only same-size formats are supported",
                              reg(method::set_src_format), reg(method::set_dst_format)));
    }
    const Surface src = surface(true), dst = surface(false);
    const uint32_t width = reg(method::set_pixels_from_memory_dst_width), height = reg(method::set_pixels_from_memory_dst_height);
    const uint32_t dst_x0 = reg(method::set_pixels_from_memory_dst_x0), dst_y0 = reg(method::set_pixels_from_memory_dst_y0);
    auto fixed = [&](uint32_t int_method, uint32_t frac_method) {
      return static_cast<int64_t>((uint64_t{reg(int_method)} << 32) | reg(frac_method));
    };
    const int64_t du_dx = fixed(method::set_pixels_from_memory_du_dx_int, method::set_pixels_from_memory_du_dx_frac);
    const int64_t dv_dy = fixed(method::set_pixels_from_memory_dv_dy_int, method::set_pixels_from_memory_dv_dy_frac);
    const int64_t src_x0 = fixed(method::set_pixels_from_memory_src_x0_int, method::set_pixels_from_memory_src_x0_frac);
    const int64_t src_y0 = fixed(method::pixels_from_memory_src_y0_int, method::set_pixels_from_memory_src_y0_frac);
    const bool center = extract_bits(reg(method::set_pixels_from_memory_sample_mode), 0, 1) == 0;
    if (uint64_t{width} * bytes > max_transfer_bytes || uint64_t{src.width} > max_transfer_bytes ||
        uint64_t{src.pitch} > max_transfer_bytes) {
      throw Error(fmt::format("2D blit of {} pixels per row is implausibly wide", width));
    }
    std::vector<uint8_t> src_row, dst_row(uint64_t{width} * bytes);
    for (uint32_t y = 0; y < height; ++y) {
      // Nearest sample: source position of the destination pixel's centre (or corner).
      const int64_t sy = sample(src_y0, dv_dy, y, center);
      if (sy < 0 || sy >= src.height) throw Error(fmt::format("2D blit reads source row {} of {}", sy, src.height));
      src_row.resize(src.width ? src.width : src.pitch / bytes * bytes);
      read_rows(gpu_, src, 0, static_cast<uint32_t>(sy), static_cast<uint32_t>(src_row.size()), 1, src_row);
      for (uint32_t x = 0; x < width; ++x) {
        const int64_t sx = sample(src_x0, du_dx, x, center);
        if (sx < 0 || uint64_t(sx + 1) * bytes > src_row.size()) {
          throw Error(fmt::format("2D blit reads source column {} past the row", sx));
        }
        std::copy_n(src_row.data() + sx * bytes, bytes, dst_row.data() + uint64_t{x} * bytes);
      }
      write_rows(gpu_, dst, dst_x0 * bytes, dst_y0 + y, static_cast<uint32_t>(dst_row.size()), 1, dst_row);
    }
  }

  // Source coordinate (integer part of 32.32 fixed point) of destination pixel `i`'s centre or corner; wraps
  // like the hardware's fixed-point adder instead of overflowing.
  static int64_t sample(int64_t origin, int64_t step, uint32_t i, bool center) {
    const uint64_t offset = center ? (static_cast<uint64_t>(step) * (2 * uint64_t{i} + 1)) >> 1
                                   : static_cast<uint64_t>(step) * i;
    return static_cast<int64_t>(static_cast<uint64_t>(origin) + offset) >> 32;
  }

  std::vector<std::pair<uint32_t, uint32_t>> vertices_;
};

} // namespace

std::unique_ptr<Engine> create_2d_engine(Gpu& gpu) { return std::make_unique<TwoDEngine>(gpu); }

} // namespace kiln::maxwell
