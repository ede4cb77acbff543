#pragma once
// The guest address space: one reservation at a host base; a guest pointer is an offset into it. Every access
// masks the offset into the reservation, whose unmapped parts are PROT_NONE, so a wild guest pointer faults
// (reported with the guest address) instead of touching host memory.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kiln::rt {

constexpr unsigned guest_address_bits = 36;
constexpr uint64_t guest_address_mask = (uint64_t{1} << guest_address_bits) - 1;
constexpr uint64_t guest_page_size = 4096;

extern uint8_t* guest_base;

/// Reserves the address space (idempotent). Throws std::runtime_error if the host refuses.
void reserve_guest_memory();
/// Makes [address, address+size) accessible (read/write; page-granular) and zero-filled if newly mapped.
void map_guest(uint64_t address, uint64_t size);
/// Returns [address, address+size) to PROT_NONE.
void unmap_guest(uint64_t address, uint64_t size);
/// Whether every page of the range is mapped.
bool guest_range_mapped(uint64_t address, uint64_t size);

inline uint8_t* host_pointer(uint64_t address) { return guest_base + (address & guest_address_mask); }

template <typename T>
inline T load(uint8_t* base, uint64_t address) {
  T value;
  std::memcpy(&value, base + (address & guest_address_mask), sizeof(T));
  return value;
}
template <typename T>
inline void store(uint8_t* base, uint64_t address, T value) {
  std::memcpy(base + (address & guest_address_mask), &value, sizeof(T));
}

} // namespace kiln::rt
