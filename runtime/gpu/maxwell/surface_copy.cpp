#include "runtime/gpu/maxwell/surface_copy.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/address_space.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"

namespace kiln::maxwell {

namespace {

// A block-linear surface as kiln::textures describes it: one-byte elements (engines count bytes), the
// engine's block size, and `layer` as the slice of a 3D surface.
textures::SurfaceLayout layout_of(const Surface& surface) {
  textures::SurfaceDescription description;
  description.width = surface.width;
  description.height = std::max(surface.height, 1u);
  description.depth = std::max(surface.depth, 1u);
  description.element = textures::ElementFormat{1, 1, 1};
  description.tiling = textures::Tiling::block_linear;
  description.block_height_log2 = surface.block_height_log2;
  description.block_depth_log2 = surface.block_depth_log2;
  textures::SurfaceLayout layout =
      textures::SurfaceLayout::compute(description, fmt::format("block-linear surface at GPU 0x{:x}", surface.address));
  if (layout.total_size() > max_transfer_bytes) {
    throw Error(at_address("gpu", surface.address),
                fmt::format("block-linear surface of {} bytes is implausibly large", layout.total_size()));
  }
  return layout;
}

textures::Region region_of(const Surface& surface, uint32_t x, uint32_t y, uint32_t row_bytes, uint32_t rows) {
  return textures::Region{x, y, surface.layer, row_bytes, rows, 1};
}

// The bytes of guest memory a pitch access touches: from its first byte to the end of its last row.
uint64_t pitch_extent(const Surface& surface, uint32_t row_bytes, uint32_t rows) {
  return rows == 0 ? 0 : uint64_t{rows - 1} * surface.pitch + row_bytes;
}

} // namespace

void write_rows(Gpu& gpu, const Surface& surface, uint32_t x, uint32_t y, uint32_t row_bytes,
                uint32_t rows, std::span<const uint8_t> bytes) {
  if (bytes.size() < uint64_t{row_bytes} * rows) throw Error("surface write: fewer bytes than rows need");
  AddressSpace& memory = gpu.memory();
  if (surface.block_linear) {
    const textures::SurfaceLayout layout = layout_of(surface);
    gpu.backend().synchronize_memory(surface.address, layout.total_size(), MemoryAccess::write);
    // Read-modify-write of the surface: bytes outside the region stay as they are.
    std::vector<uint8_t> guest = memory.read_bytes(surface.address, layout.total_size());
    textures::swizzle(layout, 0, 0, region_of(surface, x, y, row_bytes, rows), bytes, guest);
    memory.write(surface.address, guest);
    return;
  }
  const uint64_t first = surface.address + uint64_t{y} * surface.pitch + x;
  gpu.backend().synchronize_memory(first, pitch_extent(surface, row_bytes, rows), MemoryAccess::write);
  for (uint32_t row = 0; row < rows; ++row) {
    const uint64_t address = surface.address + uint64_t{y + row} * surface.pitch + x;
    memory.write(address, bytes.subspan(uint64_t{row} * row_bytes, row_bytes));
  }
}

void read_rows(Gpu& gpu, const Surface& surface, uint32_t x, uint32_t y, uint32_t row_bytes,
               uint32_t rows, std::span<uint8_t> bytes) {
  if (bytes.size() < uint64_t{row_bytes} * rows) throw Error("surface read: buffer smaller than the rows");
  const AddressSpace& memory = gpu.memory();
  if (surface.block_linear) {
    const textures::SurfaceLayout layout = layout_of(surface);
    gpu.backend().synchronize_memory(surface.address, layout.total_size(), MemoryAccess::read);
    const std::vector<uint8_t> guest = memory.read_bytes(surface.address, layout.total_size());
    textures::deswizzle(layout, 0, 0, region_of(surface, x, y, row_bytes, rows), guest, bytes);
    return;
  }
  const uint64_t first = surface.address + uint64_t{y} * surface.pitch + x;
  gpu.backend().synchronize_memory(first, pitch_extent(surface, row_bytes, rows), MemoryAccess::read);
  for (uint32_t row = 0; row < rows; ++row) {
    const uint64_t address = surface.address + uint64_t{y + row} * surface.pitch + x;
    memory.read(address, bytes.subspan(uint64_t{row} * row_bytes, row_bytes));
  }
}

} // namespace kiln::maxwell
