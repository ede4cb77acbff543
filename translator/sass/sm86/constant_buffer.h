#pragma once
// How a kernel's constant banks reach a Vulkan shader: all of them packed into one uniform buffer (set 0,
// binding 0). Bank 0 (driver area + parameters, CUDA's layout) comes first; every other bank the cubin defines
// follows at a 16-byte boundary. The lowering reads c[N][x] at offset_of(N) + x; a runtime fills the buffer
// with pack_constant_buffer.
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "translator/sass/sm86/cubin.h"

namespace kiln::sass::sm86 {

struct ConstantBufferLayout {
  std::vector<std::pair<uint32_t, uint32_t>> banks;  ///< (bank number, byte offset in the buffer), bank 0 first
  uint32_t size = 0;                                  ///< bytes in all
  /// Where the device address of the module's global memory lies (8 bytes), for kernels whose code the loader
  /// patches with a module symbol's address (Kernel::code_symbols): the lowering adds the symbol's offset to it.
  std::optional<uint32_t> global_base;

  std::optional<uint32_t> offset_of(uint32_t bank) const;
};

ConstantBufferLayout constant_buffer_layout(const Kernel& kernel);

/// The uniform buffer's contents: `bank0` (the caller's driver area and parameters, at most the layout's bank-0
/// size) then every other bank, with R_CUDA_64 relocations resolved against `global_base`, the device address of
/// the module's global memory (Cubin::global_init).
std::vector<uint8_t> pack_constant_buffer(const Kernel& kernel, std::span<const uint8_t> bank0, uint64_t global_base);

} // namespace kiln::sass::sm86
