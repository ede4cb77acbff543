#include "translator/sass/sm86/constant_buffer.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::sass::sm86 {

std::optional<uint32_t> ConstantBufferLayout::offset_of(uint32_t bank) const {
  for (const auto& [number, offset] : banks) {
    if (number == bank) return offset;
  }
  return std::nullopt;
}

ConstantBufferLayout constant_buffer_layout(const Kernel& kernel) {
  ConstantBufferLayout layout;
  layout.banks.emplace_back(0, 0);
  layout.size = std::max<uint32_t>(static_cast<uint32_t>(kernel.constant0.size()), kernel.parameter_base + kernel.parameter_size);
  for (const auto& bank : kernel.constant_banks) {
    const uint32_t offset = static_cast<uint32_t>(align_up(uint64_t{layout.size}, uint64_t{16}));
    layout.banks.emplace_back(bank.bank, offset);
    layout.size = offset + static_cast<uint32_t>(bank.bytes.size());
  }
  if (!kernel.code_symbols.empty()) {
    layout.global_base = static_cast<uint32_t>(align_up(uint64_t{layout.size}, uint64_t{16}));
    layout.size = *layout.global_base + 8;
  }
  return layout;
}

std::vector<uint8_t> pack_constant_buffer(const Kernel& kernel, std::span<const uint8_t> bank0, uint64_t global_base) {
  const ConstantBufferLayout layout = constant_buffer_layout(kernel);
  const uint32_t bank0_size = layout.banks.size() > 1 ? layout.banks[1].second : layout.global_base.value_or(layout.size);
  if (bank0.size() > bank0_size) {
    throw Error(fmt::format("kernel {}: {} bytes of constant bank 0 given, the layout holds {}", kernel.name, bank0.size(), bank0_size));
  }
  std::vector<uint8_t> buffer(layout.size, 0);
  std::copy(bank0.begin(), bank0.end(), buffer.begin());
  for (size_t i = 0; i < kernel.constant_banks.size(); ++i) {
    const ConstantBank& bank = kernel.constant_banks[i];
    uint8_t* base = buffer.data() + layout.banks[i + 1].second;
    std::copy(bank.bytes.begin(), bank.bytes.end(), base);
    for (const auto& relocation : bank.relocations) {
      const uint64_t address = global_base + relocation.symbol_offset + relocation.addend;
      std::memcpy(base + relocation.offset, &address, 8);  // the parser checked the 8 bytes lie inside the bank
    }
  }
  if (layout.global_base) std::memcpy(buffer.data() + *layout.global_base, &global_base, 8);
  return buffer;
}

} // namespace kiln::sass::sm86
