#include "runtime/gpu/maxwell/surface_copy.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/address_space.h"

namespace kiln::maxwell {

namespace {
// DEPENDENCY: block-linear address math belongs to kiln::textures (runtime/gpu/textures/), which is being
// written separately. Until it is available, block-linear surfaces are reported, never guessed.
[[noreturn]] void block_linear_unavailable(const Surface& surface) {
  throw Error(at_address("gpu", surface.address),
              "block-linear surface: needs the block-linear layout of kiln::textures, not integrated yet");
}
} // namespace

void write_rows(AddressSpace& memory, const Surface& surface, uint32_t x, uint32_t y, uint32_t row_bytes,
                uint32_t rows, std::span<const uint8_t> bytes) {
  if (surface.block_linear) block_linear_unavailable(surface);
  if (bytes.size() < uint64_t{row_bytes} * rows) throw Error("surface write: fewer bytes than rows need");
  for (uint32_t row = 0; row < rows; ++row) {
    const uint64_t address = surface.address + uint64_t{y + row} * surface.pitch + x;
    memory.write(address, bytes.subspan(uint64_t{row} * row_bytes, row_bytes));
  }
}

void read_rows(const AddressSpace& memory, const Surface& surface, uint32_t x, uint32_t y, uint32_t row_bytes,
               uint32_t rows, std::span<uint8_t> bytes) {
  if (surface.block_linear) block_linear_unavailable(surface);
  if (bytes.size() < uint64_t{row_bytes} * rows) throw Error("surface read: buffer smaller than the rows");
  for (uint32_t row = 0; row < rows; ++row) {
    const uint64_t address = surface.address + uint64_t{y + row} * surface.pitch + x;
    memory.read(address, bytes.subspan(uint64_t{row} * row_bytes, row_bytes));
  }
}

} // namespace kiln::maxwell
