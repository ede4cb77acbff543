#include "runtime/gpu/maxwell/address_space.h"

#include <fmt/format.h>

#include <cstring>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::maxwell {

namespace {
Error gpu_error(uint64_t address, std::string message) {
  return Error(at_address("gpu", address), std::move(message));
}
} // namespace

void AddressSpace::map(uint64_t gpu_address, std::span<uint8_t> host) {
  const uint64_t size = host.size();
  if (gpu_address % page_size != 0 || size % page_size != 0 || size == 0) {
    throw gpu_error(gpu_address, fmt::format("mapping of 0x{:x} bytes is not page-aligned (page 0x{:x})", size, page_size));
  }
  if (gpu_address + size > address_limit) throw gpu_error(gpu_address, "mapping past the 40-bit GPU address space");
  auto next = mappings_.lower_bound(gpu_address);
  if (next != mappings_.end() && next->first < gpu_address + size) {
    throw gpu_error(gpu_address, fmt::format("mapping overlaps the one at 0x{:x}", next->first));
  }
  if (next != mappings_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second.size > gpu_address) {
      throw gpu_error(gpu_address, fmt::format("mapping overlaps the one at 0x{:x}", previous->first));
    }
  }
  mappings_[gpu_address] = Mapping{host.data(), size};
}

std::span<uint8_t> AddressSpace::map_owned(uint64_t gpu_address, uint64_t size) {
  GuestBytes bytes(align_up(size, page_size), 0);
  std::span<uint8_t> host(bytes.data(), bytes.size());
  map(gpu_address, host);
  owned_[gpu_address] = std::move(bytes); // the vector's buffer does not move
  return host;
}

void AddressSpace::unmap(uint64_t gpu_address) {
  if (mappings_.erase(gpu_address) == 0) throw gpu_error(gpu_address, "unmap of an address that starts no mapping");
  owned_.erase(gpu_address);
}

uint8_t* AddressSpace::translate(uint64_t address, uint64_t size, const char* what) const {
  auto it = mappings_.upper_bound(address);
  if (it != mappings_.begin()) {
    --it;
    const uint64_t offset = address - it->first;
    if (offset < it->second.size && size <= it->second.size - offset) return it->second.host + offset;
  }
  throw gpu_error(address, fmt::format("{} of 0x{:x} bytes touches unmapped GPU memory", what, size));
}

bool AddressSpace::is_mapped(uint64_t gpu_address, uint64_t size) const {
  return host_pointer(gpu_address, size) != nullptr;
}

const uint8_t* AddressSpace::host_pointer(uint64_t gpu_address, uint64_t size) const {
  auto it = mappings_.upper_bound(gpu_address);
  if (it == mappings_.begin()) return nullptr;
  --it;
  const uint64_t offset = gpu_address - it->first;
  if (offset >= it->second.size || size > it->second.size - offset) return nullptr;
  return it->second.host + offset;
}

void AddressSpace::note_access(uint64_t gpu_address, uint64_t size, bool force) const {
  if (!first_touch_ || size == 0 || (!tracking_ && !force)) return;
  const uint64_t first = gpu_address / page_size;
  const uint64_t last = (gpu_address + size - 1) / page_size;
  for (uint64_t page = first; page <= last; ++page) {
    if (!touched_.insert(page).second) continue;
    const uint8_t* host = host_pointer(page * page_size, page_size);
    if (host) first_touch_(page * page_size, std::span<const uint8_t>(host, page_size));
  }
}

void AddressSpace::read(uint64_t gpu_address, std::span<uint8_t> out) const {
  const uint8_t* host = translate(gpu_address, out.size(), "read");
  note_access(gpu_address, out.size());
  std::memcpy(out.data(), host, out.size());
}

void AddressSpace::write(uint64_t gpu_address, std::span<const uint8_t> bytes) {
  uint8_t* host = translate(gpu_address, bytes.size(), "write");
  note_access(gpu_address, bytes.size());
  std::memcpy(host, bytes.data(), bytes.size());
}

uint32_t AddressSpace::read_u32(uint64_t gpu_address) const {
  uint8_t bytes[4];
  read(gpu_address, bytes);
  return load<uint32_t>(bytes, Endian::little);
}

uint64_t AddressSpace::read_u64(uint64_t gpu_address) const {
  uint8_t bytes[8];
  read(gpu_address, bytes);
  return load<uint64_t>(bytes, Endian::little);
}

void AddressSpace::write_u32(uint64_t gpu_address, uint32_t value) {
  uint8_t bytes[4];
  store<uint32_t>(bytes, value, Endian::little);
  write(gpu_address, bytes);
}

void AddressSpace::write_u64(uint64_t gpu_address, uint64_t value) {
  uint8_t bytes[8];
  store<uint64_t>(bytes, value, Endian::little);
  write(gpu_address, bytes);
}

std::vector<uint8_t> AddressSpace::read_bytes(uint64_t gpu_address, uint64_t size) const {
  translate(gpu_address, size, "read"); // before allocating: a bad size must be an error, not an allocation failure
  std::vector<uint8_t> bytes(size);
  read(gpu_address, bytes);
  return bytes;
}

std::vector<std::pair<uint64_t, uint64_t>> AddressSpace::mappings() const {
  std::vector<std::pair<uint64_t, uint64_t>> result;
  for (const auto& [address, mapping] : mappings_) result.emplace_back(address, mapping.size);
  return result;
}

void AddressSpace::set_first_touch_callback(FirstTouchCallback callback) {
  first_touch_ = std::move(callback);
  touched_.clear();
}

} // namespace kiln::maxwell
