#include "runtime/gpu/textures/blocklinear/swizzle.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "runtime/base/error.h"
#include "runtime/gpu/textures/blocklinear/gob.h"

namespace kiln::textures {
namespace {

/// Where one level's GOBs are: the pieces of the address formula that do not depend on the texel.
struct LevelGeometry {
  uint64_t block_bytes;       ///< one block of GOBs
  uint64_t block_row_bytes;   ///< one row of blocks (gobs_per_row blocks)
  uint64_t block_slice_bytes; ///< one slice of blocks in Z
  uint32_t height_log2;
  uint32_t depth_log2;
};

LevelGeometry geometry_of(const LevelLayout& level) {
  LevelGeometry g;
  g.height_log2 = level.block_height_log2;
  g.depth_log2 = level.block_depth_log2;
  g.block_bytes = uint64_t{gob_size_bytes} << (g.height_log2 + g.depth_log2);
  g.block_row_bytes = g.block_bytes * level.gobs_per_row;
  g.block_slice_bytes = g.block_row_bytes * level.blocks_per_column;
  return g;
}

/// Offset of the GOB holding slice z, GOB row gob_y, GOB column 0.
uint64_t gob_row_offset(const LevelGeometry& g, uint32_t gob_y, uint32_t z) {
  const uint32_t y_mask = (1u << g.height_log2) - 1;
  const uint32_t z_mask = (1u << g.depth_log2) - 1;
  return (z >> g.depth_log2) * g.block_slice_bytes + (gob_y >> g.height_log2) * g.block_row_bytes +
         (uint64_t{(z & z_mask) << g.height_log2} + (gob_y & y_mask)) * gob_size_bytes;
}

constexpr uint32_t prefetch_distance_gobs = 2;

template <bool to_linear>
inline void move(uint8_t* guest, uint8_t* linear, size_t count) {
  if constexpr (to_linear) std::memcpy(linear, guest, count);
  else std::memcpy(guest, linear, count);
}

/// A whole GOB: 8 rows of 4 chunks, each one 16-byte move (the compiler emits one vector load and store).
template <bool to_linear>
inline void move_whole_gob(uint8_t* gob, uint8_t* linear, uint64_t row_pitch) {
#pragma GCC unroll 8
  for (uint32_t y = 0; y < gob_height_rows; ++y) {
    uint8_t* row = linear + y * row_pitch;
#pragma GCC unroll 4
    for (uint32_t chunk = 0; chunk < 4; ++chunk) {
      move<to_linear>(gob + gob_chunk_offset(chunk, y), row + chunk * gob_chunk_bytes, gob_chunk_bytes);
    }
  }
}

/// Bytes [x0, x1) (inside the GOB, 0..64) of rows [y0, y1) (0..8): runs cut at 16-byte chunk edges.
template <bool to_linear>
void move_gob_part(uint8_t* gob, uint8_t* linear, uint64_t row_pitch, uint32_t x0, uint32_t x1, uint32_t y0,
                   uint32_t y1) {
  for (uint32_t y = y0; y < y1; ++y) {
    uint8_t* row = linear + (y - y0) * row_pitch;
    for (uint32_t x = x0; x < x1;) {
      const uint32_t end = std::min(x1, (x | (gob_chunk_bytes - 1)) + 1);
      move<to_linear>(gob + gob_offset(x, y), row + (x - x0), end - x);
      x = end;
    }
  }
}

/// Walks GOB rows top to bottom and, in each, GOB columns left to right: the linear side is written as 8
/// sequential row streams (writing a whole block column first would put up to 128 rows 4 KiB apart in one
/// L1 set, which measured 2x slower), while each GOB read is 512 contiguous bytes.
template <bool to_linear>
void copy_block_linear(const LevelLayout& level, uint32_t bytes_per_element, uint8_t* guest_level, uint8_t* linear,
                       const Region& r, uint64_t row_pitch, uint64_t slice_pitch) {
  const LevelGeometry g = geometry_of(level);
  const uint32_t x0 = r.x * bytes_per_element;
  const uint32_t x1 = (r.x + r.width) * bytes_per_element;
  const uint32_t y1 = r.y + r.height;
  const uint32_t first_gob_x = x0 / gob_width_bytes;
  const uint32_t last_gob_x = (x1 - 1) / gob_width_bytes;
  for (uint32_t z = r.z; z < r.z + r.depth; ++z) {
    uint8_t* linear_slice = linear + (z - r.z) * slice_pitch;
    for (uint32_t gob_y = r.y / gob_height_rows; gob_y * gob_height_rows < y1; ++gob_y) {
      const uint32_t row_start = std::max(r.y, gob_y * gob_height_rows);
      const uint32_t row_end = std::min(y1, (gob_y + 1) * gob_height_rows);
      const bool all_rows = row_end - row_start == gob_height_rows;
      uint8_t* gob_row = guest_level + gob_row_offset(g, gob_y, z);
      uint8_t* linear_rows = linear_slice + (row_start - r.y) * row_pitch;
      for (uint32_t gob_x = first_gob_x; gob_x <= last_gob_x; ++gob_x) {
        const uint32_t gob_left = gob_x * gob_width_bytes;
        const uint32_t from = std::max(x0, gob_left);
        const uint32_t to = std::min(x1, gob_left + gob_width_bytes);
        uint8_t* gob = gob_row + gob_x * g.block_bytes;
        uint8_t* target = linear_rows + (from - x0);
        if (all_rows && to - from == gob_width_bytes) {
          // The GOBs of a row are a block (up to 16 KiB, another page) apart, out of the hardware
          // prefetchers' reach: ask for the 8 lines of the GOB two columns ahead (reads when deswizzling,
          // lines to be written when swizzling). bench_textures: swizzle of surfaces beyond the caches up
          // to 2-3x faster; deswizzle of L3-sized ones ~10% less CPU time; two ahead beat one and four.
          if (gob_x + prefetch_distance_gobs <= last_gob_x) {
#pragma GCC unroll 8
            for (uint32_t line = 0; line < gob_size_bytes; line += 64) {
              __builtin_prefetch(gob + prefetch_distance_gobs * g.block_bytes + line, to_linear ? 0 : 1);
            }
          }
          move_whole_gob<to_linear>(gob, target, row_pitch);
        } else {
          move_gob_part<to_linear>(gob, target, row_pitch, from - gob_left, to - gob_left,
                                   row_start % gob_height_rows, row_start % gob_height_rows + (row_end - row_start));
        }
      }
    }
  }
}

template <bool to_linear>
void copy_pitch_linear(const LevelLayout& level, uint32_t bytes_per_element, uint8_t* guest_level, uint8_t* linear,
                       const Region& r, uint64_t row_pitch) {
  const size_t row_bytes = size_t{r.width} * bytes_per_element;
  for (uint32_t y = 0; y < r.height; ++y) {
    move<to_linear>(guest_level + uint64_t{r.y + y} * level.row_pitch + uint64_t{r.x} * bytes_per_element,
                    linear + y * row_pitch, row_bytes);
  }
}

template <bool to_linear>
void copy(const SurfaceLayout& layout, uint32_t layer, uint32_t level_index, const Region& region, uint8_t* guest,
          size_t guest_size, uint8_t* linear, size_t linear_size, LinearImage pitches) {
  const CopyPlan checked = plan_copy(layout, layer, level_index, region, guest_size, linear_size, pitches);
  const LevelLayout& level = layout.level(level_index);
  const uint32_t bytes = layout.description().element.bytes;
  uint8_t* guest_level = guest + checked.level_offset;
  if (layout.description().tiling == Tiling::pitch_linear) {
    copy_pitch_linear<to_linear>(level, bytes, guest_level, linear, region, checked.row_pitch);
  } else {
    copy_block_linear<to_linear>(level, bytes, guest_level, linear, region, checked.row_pitch, checked.slice_pitch);
  }
}

} // namespace

CopyPlan plan_copy(const SurfaceLayout& layout, uint32_t layer, uint32_t level_index, const Region& r,
                       uint64_t guest_size, uint64_t linear_size, LinearImage pitches) {
  const uint64_t level_offset = layout.offset_of(layer, level_index);
  const LevelLayout& level = layout.level(level_index);
  const auto fail = [&](const std::string& message) {
    throw Error(in_file(layout.name()), fmt::format("layer {} level {}: {}", layer, level_index, message));
  };
  if (r.width == 0 || r.height == 0 || r.depth == 0) fail("empty region");
  if (uint64_t{r.x} + r.width > level.width || uint64_t{r.y} + r.height > level.height ||
      uint64_t{r.z} + r.depth > level.depth) {
    fail(fmt::format("region {},{},{} size {}x{}x{} leaves the level of {}x{}x{} elements", r.x, r.y, r.z, r.width,
                     r.height, r.depth, level.width, level.height, level.depth));
  }
  if (guest_size < level_offset + level.size) {
    fail(fmt::format("guest memory of {} bytes is too small: the level ends at byte {}", guest_size,
                     level_offset + level.size));
  }
  const uint64_t row_bytes = uint64_t{r.width} * layout.description().element.bytes;
  const uint64_t row_pitch = pitches.row_pitch != 0 ? pitches.row_pitch : row_bytes;
  if (row_pitch < row_bytes) fail(fmt::format("linear row pitch {} is below the row's {} bytes", row_pitch, row_bytes));
  // Pitches come from callers (and files): products are checked so a huge pitch cannot wrap the bounds check.
  uint64_t rows_bytes = 0, slices_bytes = 0, needed = 0;
  const bool wraps = __builtin_mul_overflow(row_pitch, uint64_t{r.height}, &rows_bytes);
  const uint64_t slice_pitch = pitches.slice_pitch != 0 ? pitches.slice_pitch : rows_bytes;
  if (wraps || slice_pitch < rows_bytes) fail(fmt::format("linear slice pitch {} is too small", slice_pitch));
  if (__builtin_mul_overflow(slice_pitch, uint64_t{r.depth - 1}, &slices_bytes) ||
      __builtin_add_overflow(slices_bytes, rows_bytes - row_pitch + row_bytes, &needed) || linear_size < needed) {
    fail(fmt::format("linear image of {} bytes is smaller than the region needs", linear_size));
  }
  return {level_offset, row_pitch, slice_pitch};
}

Region whole_level(const SurfaceLayout& layout, uint32_t level) {
  const LevelLayout& l = layout.level(level);
  return Region{0, 0, 0, l.width, l.height, l.depth};
}

uint64_t element_offset(const SurfaceLayout& layout, uint32_t level_index, uint32_t x, uint32_t y, uint32_t z) {
  const LevelLayout& level = layout.level(level_index);
  const uint64_t byte_x = uint64_t{x} * layout.description().element.bytes;
  if (layout.description().tiling == Tiling::pitch_linear) return y * uint64_t{level.row_pitch} + byte_x;
  const LevelGeometry g = geometry_of(level);
  return gob_row_offset(g, y / gob_height_rows, z) + (byte_x / gob_width_bytes) * g.block_bytes +
         gob_offset(static_cast<uint32_t>(byte_x % gob_width_bytes), y % gob_height_rows);
}

void deswizzle(const SurfaceLayout& layout, uint32_t layer, uint32_t level, const Region& region,
               std::span<const uint8_t> guest, std::span<uint8_t> linear, LinearImage pitches) {
  // The guest pointer is only read on this path; the shared template takes it non-const.
  copy<true>(layout, layer, level, region, const_cast<uint8_t*>(guest.data()), guest.size(), linear.data(),
             linear.size(), pitches);
}

void swizzle(const SurfaceLayout& layout, uint32_t layer, uint32_t level, const Region& region,
             std::span<const uint8_t> linear, std::span<uint8_t> guest, LinearImage pitches) {
  copy<false>(layout, layer, level, region, guest.data(), guest.size(), const_cast<uint8_t*>(linear.data()),
              linear.size(), pitches);
}

uint64_t linear_surface_size(const SurfaceLayout& layout) {
  return linear_level_offset(layout, layout.layer_count() - 1, layout.level_count() - 1) +
         [&] {
           const LevelLayout& last = layout.level(layout.level_count() - 1);
           return uint64_t{last.width} * last.height * last.depth * layout.description().element.bytes;
         }();
}

uint64_t linear_level_offset(const SurfaceLayout& layout, uint32_t layer, uint32_t level) {
  uint64_t per_layer = 0;
  uint64_t before_level = 0;
  for (uint32_t index = 0; index < layout.level_count(); ++index) {
    const LevelLayout& l = layout.level(index);
    const uint64_t size = uint64_t{l.width} * l.height * l.depth * layout.description().element.bytes;
    if (index < level) before_level += size;
    per_layer += size;
  }
  return layer * per_layer + before_level;
}

void deswizzle_surface(const SurfaceLayout& layout, std::span<const uint8_t> guest, std::span<uint8_t> linear) {
  if (linear.size() < linear_surface_size(layout)) {
    throw Error(in_file(layout.name()), fmt::format("linear image of {} bytes is smaller than the {} needed",
                                                    linear.size(), linear_surface_size(layout)));
  }
  for (uint32_t layer = 0; layer < layout.layer_count(); ++layer) {
    for (uint32_t level = 0; level < layout.level_count(); ++level) {
      deswizzle(layout, layer, level, whole_level(layout, level), guest,
                linear.subspan(linear_level_offset(layout, layer, level)));
    }
  }
}

void swizzle_surface(const SurfaceLayout& layout, std::span<const uint8_t> linear, std::span<uint8_t> guest) {
  if (linear.size() < linear_surface_size(layout)) {
    throw Error(in_file(layout.name()), fmt::format("linear image of {} bytes is smaller than the {} needed",
                                                    linear.size(), linear_surface_size(layout)));
  }
  for (uint32_t layer = 0; layer < layout.layer_count(); ++layer) {
    for (uint32_t level = 0; level < layout.level_count(); ++level) {
      swizzle(layout, layer, level, whole_level(layout, level), linear.subspan(linear_level_offset(layout, layer, level)),
              guest);
    }
  }
}

} // namespace kiln::textures
