#pragma once
// The guest address space: one reservation at a host base; a guest pointer is an offset into it. Every access
// masks the offset into the reservation, whose unmapped parts are PROT_NONE, so a wild guest pointer faults
// (reported with the guest address) instead of touching host memory. 39 bits hold a Horizon process's whole
// address space (runtime/platform/switch/kernel/address_space.h) without aliasing; linux-user uses the low 64 GiB.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kiln::rt {

constexpr unsigned guest_address_bits = 39;
constexpr uint64_t guest_address_mask = (uint64_t{1} << guest_address_bits) - 1;
constexpr uint64_t guest_page_size = 4096;

extern uint8_t* guest_base;

/// Reserves the address space (idempotent). Throws std::runtime_error if the host refuses.
void reserve_guest_memory();
/// Makes [address, address+size) accessible (read/write; page-granular) and zero-filled if newly mapped.
void map_guest(uint64_t address, uint64_t size);
/// Maps `size` bytes of the file `fd` from `offset` shared at [address, address+size) (read/write), replacing
/// what was there: the same pages are then visible to the host through its own mapping of the file.
void map_guest_shared(uint64_t address, uint64_t size, int fd, uint64_t offset);
/// Sets the host protection of mapped pages (PROT_* bits): a guest access the permission forbids faults.
void protect_guest(uint64_t address, uint64_t size, int protection);
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
