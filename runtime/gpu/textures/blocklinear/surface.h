#pragma once
// A guest surface (texture or render target) in Maxwell memory: its description, and the calculator that
// answers where every mip level of every layer lives and how large the whole thing is. The runtime uses it
// to upload, to read back, and to tell which texture a guest memory write touched.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::textures {

enum class Tiling { block_linear, pitch_linear };

/// How the GOB block height (and, for 3D, depth) is chosen when the description does not give it.
/// Both take the height in element rows x 1.5 in GOBs and keep the largest power of two <= it, capped at 16:
/// NVN truncates the GOB count (seed 002 section 2.1: 160x160 BC3 -> 4 GOBs), deko3d rounds it up (-> 8 GOBs).
enum class BlockHeightRule { nvn_truncate, deko3d_round_up };

/// One element of the format: a texel, or a compressed block (BC: 4x4 in 8 or 16 bytes; ASTC: up to 12x12).
struct ElementFormat {
  uint32_t bytes = 4;   ///< 1, 2, 4, 8 or 16
  uint32_t width = 1;   ///< texels per element horizontally (compressed block width)
  uint32_t height = 1;  ///< texels per element vertically
};

struct SurfaceDescription {
  uint32_t width = 0;        ///< texels
  uint32_t height = 1;       ///< texels
  uint32_t depth = 1;        ///< texels; > 1 makes a 3D surface (whose depth shrinks per level)
  uint32_t array_layers = 1; ///< 2D array layers; a cube map is 6 layers, a cube array 6 x n
  uint32_t mip_levels = 1;
  ElementFormat element;
  Tiling tiling = Tiling::block_linear;
  uint32_t pitch_bytes = 0;  ///< pitch-linear row pitch (0: the row's bytes)
  /// Block-linear block height / depth as log2 of GOBs (0..5); empty: chosen by `rule`.
  std::optional<uint32_t> block_height_log2;
  std::optional<uint32_t> block_depth_log2;
  BlockHeightRule rule = BlockHeightRule::nvn_truncate;
};

/// Where one mip level lives inside a layer, and its geometry in elements.
struct LevelLayout {
  uint64_t offset = 0;         ///< from the start of the layer
  uint64_t size = 0;           ///< bytes
  uint32_t width = 0;          ///< elements (compressed blocks for compressed formats)
  uint32_t height = 0;         ///< element rows
  uint32_t depth = 0;          ///< slices
  uint32_t block_height_log2 = 0; ///< after the per-level shrink
  uint32_t block_depth_log2 = 0;
  uint32_t gobs_per_row = 0;   ///< block-linear: GOB columns (= blocks per row, blocks are one GOB wide)
  uint32_t blocks_per_column = 0; ///< block-linear: blocks stacked in Y
  uint32_t row_pitch = 0;      ///< pitch-linear: bytes per row
};

/// A layer/level pair that a byte range of the surface overlaps.
struct Subresource {
  uint32_t layer = 0;
  uint32_t level = 0;
};

class SurfaceLayout {
public:
  /// Validates `description` and computes the layout; throws kiln::Error (naming `name` and the field) for
  /// zero or oversized dimensions, unsupported element sizes, too many levels, block sizes out of range.
  static SurfaceLayout compute(const SurfaceDescription& description, const std::string& name = "surface");

  const SurfaceDescription& description() const { return description_; }
  const LevelLayout& level(uint32_t level) const { return levels_.at(level); }
  uint32_t level_count() const { return static_cast<uint32_t>(levels_.size()); }
  uint32_t layer_count() const { return description_.array_layers; }
  /// Block height / depth (log2 GOBs) chosen for level 0, before the per-level shrink.
  uint32_t block_height_log2() const { return block_height_log2_; }
  uint32_t block_depth_log2() const { return block_depth_log2_; }
  /// Bytes from one array layer to the next (the mip chain, padded to the layer alignment).
  uint64_t layer_stride() const { return layer_stride_; }
  uint64_t total_size() const { return total_size_; }
  /// Byte offset of (layer, level) from the start of the surface.
  uint64_t offset_of(uint32_t layer, uint32_t level) const;
  /// Every layer/level whose bytes overlap [offset, offset + size) of the surface.
  std::vector<Subresource> touched(uint64_t offset, uint64_t size) const;
  const std::string& name() const { return name_; }

private:
  SurfaceDescription description_;
  std::string name_;
  std::vector<LevelLayout> levels_;
  uint32_t block_height_log2_ = 0;
  uint32_t block_depth_log2_ = 0;
  uint64_t layer_stride_ = 0;
  uint64_t total_size_ = 0;
};

/// The automatic block height (log2 GOBs, 0..4) for a 2D surface `height_in_elements` rows high.
uint32_t auto_block_height_log2(uint32_t height_in_elements, BlockHeightRule rule);
/// The automatic block depth (log2 GOBs, 0..4) for a 3D surface `depth` slices deep.
uint32_t auto_block_depth_log2(uint32_t depth);
/// The per-level shrink: the block loses halves while half of it (in units of `unit` rows or slices per GOB)
/// still covers the level's `extent`.
uint32_t shrink_block_log2(uint32_t block_log2, uint32_t unit, uint32_t extent);

} // namespace kiln::textures
