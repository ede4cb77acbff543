#include "runtime/gpu/textures/blocklinear/surface.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/textures/blocklinear/gob.h"

namespace kiln::textures {
namespace {

// Limits well above what any guest can create (Maxwell textures stop at 16384 texels, the Switch has 4 GiB),
// so anything past them is a malformed description rather than a big texture.
constexpr uint32_t max_dimension = 1u << 16;
constexpr uint32_t max_layers = 1u << 16;
constexpr uint32_t max_block_log2 = 5; // the TIC's 3-bit GOB block fields allow 1..32 GOBs
constexpr uint64_t max_total_size = uint64_t{1} << 36;

[[noreturn]] void reject(const std::string& name, const std::string& message) {
  throw Error(in_file(name), "invalid surface description: " + message);
}

void check_dimension(const std::string& name, const char* field, uint64_t value, uint64_t limit) {
  if (value == 0) reject(name, fmt::format("{} is 0", field));
  if (value > limit) reject(name, fmt::format("{} {} is larger than {}", field, value, limit));
}

uint32_t largest_power_of_two_log2(uint32_t value) { return value <= 1 ? 0 : std::bit_width(value) - 1; }

void validate(const SurfaceDescription& d, const std::string& name) {
  check_dimension(name, "width", d.width, max_dimension);
  check_dimension(name, "height", d.height, max_dimension);
  check_dimension(name, "depth", d.depth, max_dimension);
  check_dimension(name, "array layers", d.array_layers, max_layers);
  check_dimension(name, "mip levels", d.mip_levels, 17);
  if (d.depth > 1 && d.array_layers > 1) reject(name, "a 3D surface cannot have array layers");
  const uint32_t largest = std::max({d.width, d.height, d.depth});
  const uint32_t full_chain = static_cast<uint32_t>(std::bit_width(largest));
  if (d.mip_levels > full_chain) {
    reject(name, fmt::format("{} mip levels, but a {}x{}x{} surface has at most {}", d.mip_levels, d.width,
                             d.height, d.depth, full_chain));
  }
  const uint32_t bytes = d.element.bytes;
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16) {
    reject(name, fmt::format("{} bytes per element (must be 1, 2, 4, 8 or 16)", bytes));
  }
  if (d.element.width == 0 || d.element.width > 16 || d.element.height == 0 || d.element.height > 16) {
    reject(name, fmt::format("element of {}x{} texels (must be 1..16 each)", d.element.width, d.element.height));
  }
  if (d.block_height_log2 && *d.block_height_log2 > max_block_log2) {
    reject(name, fmt::format("block height 2^{} GOBs (must be 1..32 GOBs, log2 0..5)", *d.block_height_log2));
  }
  if (d.block_depth_log2 && *d.block_depth_log2 > max_block_log2) {
    reject(name, fmt::format("block depth 2^{} GOBs (must be 1..32 GOBs, log2 0..5)", *d.block_depth_log2));
  }
  if (d.tiling == Tiling::pitch_linear) {
    if (d.mip_levels != 1 || d.array_layers != 1 || d.depth != 1) {
      reject(name, "a pitch-linear surface is 2D with one level and one layer");
    }
    const uint64_t row_bytes = div_ceil(d.width, d.element.width) * bytes;
    if (d.pitch_bytes != 0 && d.pitch_bytes < row_bytes) {
      reject(name, fmt::format("pitch {} is smaller than a row of {} bytes", d.pitch_bytes, row_bytes));
    }
  }
}

} // namespace

uint32_t auto_block_height_log2(uint32_t height_in_elements, BlockHeightRule rule) {
  const uint64_t rows_and_half = uint64_t{height_in_elements} + height_in_elements / 2;
  const uint64_t gobs = rule == BlockHeightRule::nvn_truncate ? rows_and_half / gob_height_rows
                                                              : div_ceil(rows_and_half, gob_height_rows);
  return std::min<uint32_t>(largest_power_of_two_log2(static_cast<uint32_t>(gobs)), 4);
}

uint32_t auto_block_depth_log2(uint32_t depth) {
  return std::min<uint32_t>(largest_power_of_two_log2(depth + depth / 2), 4);
}

uint32_t shrink_block_log2(uint32_t block_log2, uint32_t unit, uint32_t extent) {
  while (block_log2 > 0 && (uint64_t{unit} << (block_log2 - 1)) >= extent) --block_log2;
  return block_log2;
}

SurfaceLayout SurfaceLayout::compute(const SurfaceDescription& description, const std::string& name) {
  validate(description, name);
  SurfaceLayout layout;
  layout.description_ = description;
  layout.name_ = name;
  const ElementFormat& element = description.element;
  const bool is_3d = description.depth > 1;
  const uint32_t height_elements = static_cast<uint32_t>(div_ceil(description.height, element.height));

  if (description.tiling == Tiling::pitch_linear) {
    LevelLayout level;
    level.width = static_cast<uint32_t>(div_ceil(description.width, element.width));
    level.height = height_elements;
    level.depth = 1;
    level.row_pitch = description.pitch_bytes != 0 ? description.pitch_bytes : level.width * element.bytes;
    level.size = uint64_t{level.row_pitch} * level.height;
    layout.levels_.push_back(level);
    layout.layer_stride_ = layout.total_size_ = level.size;
    return layout;
  }

  layout.block_height_log2_ = description.block_height_log2.value_or(
      is_3d ? 0 : auto_block_height_log2(height_elements, description.rule));
  layout.block_depth_log2_ = description.block_depth_log2.value_or(is_3d ? auto_block_depth_log2(description.depth) : 0);

  uint64_t offset = 0;
  for (uint32_t index = 0; index < description.mip_levels; ++index) {
    LevelLayout level;
    level.width = static_cast<uint32_t>(div_ceil(std::max(1u, description.width >> index), element.width));
    level.height = static_cast<uint32_t>(div_ceil(std::max(1u, description.height >> index), element.height));
    level.depth = std::max(1u, description.depth >> index);
    level.block_height_log2 = shrink_block_log2(layout.block_height_log2_, gob_height_rows, level.height);
    level.block_depth_log2 = shrink_block_log2(layout.block_depth_log2_, 1, level.depth);
    level.gobs_per_row = static_cast<uint32_t>(div_ceil(uint64_t{level.width} * element.bytes, gob_width_bytes));
    const uint64_t gob_rows = div_ceil(level.height, gob_height_rows);
    level.blocks_per_column = static_cast<uint32_t>(div_ceil(gob_rows, uint64_t{1} << level.block_height_log2));
    const uint64_t blocks_deep = div_ceil(level.depth, uint64_t{1} << level.block_depth_log2);
    level.size = uint64_t{level.gobs_per_row} * level.blocks_per_column * blocks_deep *
                 (uint64_t{gob_size_bytes} << (level.block_height_log2 + level.block_depth_log2));
    level.offset = offset;
    offset += level.size;
    layout.levels_.push_back(level);
  }
  // Layers are padded to the level-0 block shrunk to the full height/depth (deko3d alignLayerSize, Ryujinx
  // AlignLayerSize): that is levels_[0]'s block, since the shrink rule is the same.
  const uint64_t layer_alignment =
      uint64_t{gob_size_bytes} << (layout.levels_[0].block_height_log2 + layout.levels_[0].block_depth_log2);
  layout.layer_stride_ = align_up(offset, layer_alignment);
  layout.total_size_ = layout.layer_stride_ * description.array_layers;
  if (layout.total_size_ > max_total_size) {
    reject(name, fmt::format("{} bytes in all, more than the {} a guest can address", layout.total_size_,
                             max_total_size));
  }
  return layout;
}

uint64_t SurfaceLayout::offset_of(uint32_t layer, uint32_t level) const {
  if (layer >= layer_count() || level >= level_count()) {
    throw Error(in_file(name_), fmt::format("layer {} level {} is outside a surface of {} layers and {} levels",
                                            layer, level, layer_count(), level_count()));
  }
  return layer * layer_stride_ + levels_[level].offset;
}

std::vector<Subresource> SurfaceLayout::touched(uint64_t offset, uint64_t size) const {
  std::vector<Subresource> result;
  if (size == 0 || offset >= total_size_) return result;
  const uint64_t end = std::min(total_size_, offset + std::min(size, total_size_));
  for (uint32_t layer = static_cast<uint32_t>(offset / layer_stride_); layer < layer_count(); ++layer) {
    const uint64_t layer_start = layer * layer_stride_;
    if (layer_start >= end) break;
    for (uint32_t index = 0; index < level_count(); ++index) {
      const uint64_t start = layer_start + levels_[index].offset;
      if (start < end && start + levels_[index].size > offset) result.push_back({layer, index});
    }
  }
  return result;
}

} // namespace kiln::textures
