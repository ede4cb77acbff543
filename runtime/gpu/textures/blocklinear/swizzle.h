#pragma once
// Moving texels between a guest surface (block-linear or pitch-linear) and a linear image: whole levels or
// sub-rectangles (partial uploads), any element size, compressed formats by block.
#include <cstdint>
#include <span>

#include "runtime/gpu/textures/blocklinear/surface.h"

namespace kiln::textures {

/// A box of one level, in elements (compressed blocks for compressed formats) and slices.
struct Region {
  uint32_t x = 0, y = 0, z = 0;
  uint32_t width = 0, height = 0, depth = 1;
};

/// The linear side of a copy: a tightly packed box by default (pitches 0), or rows/slices `row_pitch` and
/// `slice_pitch` bytes apart.
struct LinearImage {
  uint64_t row_pitch = 0;
  uint64_t slice_pitch = 0;
};

/// A validated copy: where the level starts in the surface and the linear pitches in bytes.
struct CopyPlan {
  uint64_t level_offset;
  uint64_t row_pitch;
  uint64_t slice_pitch;
};
/// Checks a copy of `region` of (layer, level) between `guest_size` bytes of surface and `linear_size` bytes of
/// linear image; throws kiln::Error naming the surface if the region leaves the level or a side is too small.
CopyPlan plan_copy(const SurfaceLayout& layout, uint32_t layer, uint32_t level, const Region& region,
                   uint64_t guest_size, uint64_t linear_size, LinearImage pitches);

/// The whole of `level`.
Region whole_level(const SurfaceLayout& layout, uint32_t level);

/// Byte offset of element (x, y, z) of `level` inside its level (the per-element reference the fast paths and
/// the GPU shader must agree with).
uint64_t element_offset(const SurfaceLayout& layout, uint32_t level, uint32_t x, uint32_t y, uint32_t z);

/// Copies `region` of (layer, level) out of `guest` (the whole surface, from its first byte) into `linear`.
/// Throws kiln::Error if the region leaves the level or either buffer is too small.
void deswizzle(const SurfaceLayout& layout, uint32_t layer, uint32_t level, const Region& region,
               std::span<const uint8_t> guest, std::span<uint8_t> linear, LinearImage pitches = {});
/// The reverse: writes `region` of (layer, level) of `guest` from `linear`; other guest bytes are untouched.
void swizzle(const SurfaceLayout& layout, uint32_t layer, uint32_t level, const Region& region,
             std::span<const uint8_t> linear, std::span<uint8_t> guest, LinearImage pitches = {});

/// Whole surfaces: the linear form holds every level of layer 0, then of layer 1, ..., each level tightly
/// packed (the order of DDS files and of the guest itself).
uint64_t linear_surface_size(const SurfaceLayout& layout);
uint64_t linear_level_offset(const SurfaceLayout& layout, uint32_t layer, uint32_t level);
void deswizzle_surface(const SurfaceLayout& layout, std::span<const uint8_t> guest, std::span<uint8_t> linear);
void swizzle_surface(const SurfaceLayout& layout, std::span<const uint8_t> linear, std::span<uint8_t> guest);

} // namespace kiln::textures
