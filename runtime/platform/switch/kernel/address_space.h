#pragma once
// The address space Horizon gives a 39-bit application process, and the memory map the memory SVCs change and
// QueryMemory reports. kiln places the regions at fixed addresses (no ASLR); GetInfo reports these values.
// Memory is backed by kiln's guest reservation (runtime/core/guest_memory.h): every guest address is its own
// host page, and a permission the guest lacks is a host protection that faults.
#include <cstdint>
#include <map>
#include <mutex>
#include <span>

#include "runtime/platform/switch/kernel/result.h"

namespace kiln::hos {

namespace layout {
constexpr uint64_t address_space_start = 0x8000000;    ///< the ASLR ("code") region, GetInfo 12/13
constexpr uint64_t address_space_end = 0x8000000000;   ///< 39 bits
constexpr uint64_t alias_region_start = 0x1000000000;  ///< GetInfo 2/3: 64 GiB
constexpr uint64_t alias_region_size = 0x1000000000;
constexpr uint64_t heap_region_start = 0x2000000000;   ///< GetInfo 4/5: 6 GiB
constexpr uint64_t heap_region_size = 0x180000000;
constexpr uint64_t stack_region_start = 0x2200000000;  ///< GetInfo 14/15: 2 GiB
constexpr uint64_t stack_region_size = 0x80000000;
constexpr uint64_t kernel_area_start = 0x2300000000;   ///< where kiln puts what the kernel maps itself (TLS pages)
constexpr uint64_t kernel_area_size = 0x100000000;
constexpr uint64_t heap_granularity = 0x200000;        ///< SetHeapSize takes multiples of 2 MiB
constexpr uint64_t page_size = 0x1000;
} // namespace layout

/// svc::MemoryState values (the low byte of the kernel's state, which QueryMemory reports).
enum class MemoryState : uint32_t {
  free = 0x00, io = 0x01, static_ = 0x02, code = 0x03, code_data = 0x04, normal = 0x05, shared = 0x06, alias = 0x07,
  alias_code = 0x08, alias_code_data = 0x09, ipc = 0x0a, stack = 0x0b, thread_local_ = 0x0c, transfered = 0x0d,
  shared_transfered = 0x0e, shared_code = 0x0f, inaccessible = 0x10,
};
namespace permission {
constexpr uint32_t none = 0, read = 1, write = 2, execute = 4, read_write = 3, read_execute = 5;
constexpr uint32_t dont_care = 0x10000000;
} // namespace permission
namespace attribute {
constexpr uint32_t locked = 1, ipc_mapped = 2, device_shared = 4, uncached = 8;
} // namespace attribute

/// svc::MemoryInfo as QueryMemory writes it (0x28 bytes, switchbrew "SVC" / QueryMemory).
struct MemoryInfo {
  uint64_t address;
  uint64_t size;
  uint32_t state;
  uint32_t attribute;
  uint32_t permission;
  uint32_t ipc_count;
  uint32_t device_count;
  uint32_t padding;
};
static_assert(sizeof(MemoryInfo) == 0x28);

class AddressSpace {
public:
  AddressSpace();

  /// Maps fresh zeroed memory (loader segments, TLS pages), with `contents` copied in at `address + offset`
  /// before the permission applies. Fails unless the range is free.
  Result map(uint64_t address, uint64_t size, MemoryState state, uint32_t permission, std::span<const uint8_t> contents = {},
             uint64_t offset = 0);
  /// The first free, page-aligned range of `size` bytes inside [start, start + region_size), or 0.
  uint64_t find_free(uint64_t start, uint64_t region_size, uint64_t size);

  Result set_heap_size(uint64_t size, uint64_t* address);
  uint64_t heap_size();
  Result set_permission(uint64_t address, uint64_t size, uint32_t permission);
  Result set_attribute(uint64_t address, uint64_t size, uint32_t mask, uint32_t value);
  Result map_memory(uint64_t destination, uint64_t source, uint64_t size);
  Result unmap_memory(uint64_t destination, uint64_t source, uint64_t size);
  MemoryInfo query(uint64_t address);
  /// MapPhysicalMemory: the free pages of [address, address + size) inside the alias region become Normal
  /// read/write memory (pages already mapped this way keep their contents); `limit` caps used_size() after it.
  Result map_physical(uint64_t address, uint64_t size, uint64_t limit);
  /// UnmapPhysicalMemory: the range's Normal pages return to free; any other state in it is refused.
  Result unmap_physical(uint64_t address, uint64_t size);
  /// Maps `size` bytes of the memory file `fd` at `address` (shared memory: state shared).
  Result map_shared(uint64_t address, uint64_t size, int fd, uint32_t permission);
  Result unmap_shared(uint64_t address, uint64_t size);
  /// Transfer memory: the range (normal, read/write, unlocked) becomes `permission` and locked until released.
  Result lock_for_transfer(uint64_t address, uint64_t size, uint32_t permission);
  void release_transfer(uint64_t address, uint64_t size);
  /// Whether the whole range is mapped with at least `permission` for the guest (IPC buffers, arbitration).
  bool accessible(uint64_t address, uint64_t size, uint32_t permission);
  /// Unmaps everything this address space mapped (the process is gone).
  void release_all();
  /// Everything mapped (code, heap, stacks, TLS, shared memory): GetInfo's used memory size.
  uint64_t used_size();

private:
  struct Block {
    uint64_t size;
    MemoryState state;
    uint32_t permission;
    uint32_t attribute;
    bool operator==(const Block&) const = default;
  };
  using Blocks = std::map<uint64_t, Block>;
  Blocks::iterator split(uint64_t at);
  template <typename Predicate>
  bool all_blocks(uint64_t address, uint64_t size, Predicate predicate);
  void assign(uint64_t address, uint64_t size, MemoryState state, uint32_t permission, uint32_t attribute);
  void merge();
  static bool valid_range(uint64_t address, uint64_t size);
  static Result check_alias_range(uint64_t address, uint64_t size);
  uint64_t used_size_locked() const;

  std::mutex mutex_;
  Blocks blocks_;
  uint64_t heap_size_ = 0;
};

/// Host protection for a guest permission.
int host_protection(uint32_t permission);

} // namespace kiln::hos
