#include "runtime/platform/switch/kernel/address_space.h"

#include <sys/mman.h>

#include <cstring>
#include <vector>

#include "runtime/core/guest_memory.h"

namespace kiln::hos {

namespace kr = kernel_result;

int host_protection(uint32_t permission) {
  // Guest code never runs from guest memory (it was recompiled), so execute-only pages stay readable for the host.
  int protection = PROT_NONE;
  if (permission & (permission::read | permission::execute)) protection |= PROT_READ;
  if (permission & permission::write) protection |= PROT_WRITE;
  return protection;
}

AddressSpace::AddressSpace() { blocks_[0] = {layout::address_space_end, MemoryState::free, permission::none, 0}; }

bool AddressSpace::valid_range(uint64_t address, uint64_t size) {
  return size != 0 && address + size > address && address + size <= layout::address_space_end;
}

AddressSpace::Blocks::iterator AddressSpace::split(uint64_t at) {
  auto it = std::prev(blocks_.upper_bound(at));
  if (it->first == at) return it;
  const uint64_t offset = at - it->first;
  Block tail = it->second;
  tail.size -= offset;
  it->second.size = offset;
  return blocks_.emplace(at, tail).first;
}

template <typename Predicate>
bool AddressSpace::all_blocks(uint64_t address, uint64_t size, Predicate predicate) {
  for (auto it = std::prev(blocks_.upper_bound(address)); it != blocks_.end() && it->first < address + size; ++it)
    if (!predicate(it->second)) return false;
  return true;
}

void AddressSpace::assign(uint64_t address, uint64_t size, MemoryState state, uint32_t perm, uint32_t attr) {
  auto first = split(address);
  if (address + size < layout::address_space_end) split(address + size);
  first = blocks_.find(address);
  auto last = blocks_.lower_bound(address + size);
  blocks_.erase(std::next(first), last);
  first->second = {size, state, perm, attr};
  merge();
}

void AddressSpace::merge() {
  for (auto it = blocks_.begin(); it != blocks_.end();) {
    auto next = std::next(it);
    if (next == blocks_.end()) break;
    Block a = it->second, b = next->second;
    a.size = b.size = 0;
    if (a == b) {
      it->second.size += next->second.size;
      blocks_.erase(next);
    } else {
      it = next;
    }
  }
}

Result AddressSpace::map(uint64_t address, uint64_t size, MemoryState state, uint32_t perm, std::span<const uint8_t> contents, uint64_t offset) {
  std::lock_guard lock(mutex_);
  if (address % layout::page_size) return kr::invalid_address;
  if (size % layout::page_size) return kr::invalid_size;
  if (!valid_range(address, size)) return kr::invalid_current_memory;
  if (!all_blocks(address, size, [](const Block& b) { return b.state == MemoryState::free; })) return kr::invalid_current_memory;
  if (offset + contents.size() > size) return kr::invalid_size;
  rt::map_guest(address, size);
  std::memset(rt::host_pointer(address), 0, size);
  if (!contents.empty()) std::memcpy(rt::host_pointer(address + offset), contents.data(), contents.size());
  rt::protect_guest(address, size, host_protection(perm));
  assign(address, size, state, perm, 0);
  return success;
}

uint64_t AddressSpace::find_free(uint64_t start, uint64_t region_size, uint64_t size) {
  std::lock_guard lock(mutex_);
  for (auto it = std::prev(blocks_.upper_bound(start)); it != blocks_.end() && it->first < start + region_size; ++it) {
    if (it->second.state != MemoryState::free) continue;
    const uint64_t from = std::max(it->first, start), to = std::min(it->first + it->second.size, start + region_size);
    if (to > from && to - from >= size) return from;
  }
  return 0;
}

Result AddressSpace::set_heap_size(uint64_t size, uint64_t* address) {
  std::lock_guard lock(mutex_);
  if (size % layout::heap_granularity) return kr::invalid_size;
  if (size > layout::heap_region_size) return kr::out_of_memory;
  const uint64_t base = layout::heap_region_start;
  if (size > heap_size_) {
    rt::map_guest(base + heap_size_, size - heap_size_);
    rt::protect_guest(base + heap_size_, size - heap_size_, host_protection(permission::read_write));
    assign(base + heap_size_, size - heap_size_, MemoryState::normal, permission::read_write, 0);
  } else if (size < heap_size_) {
    const bool releasable = all_blocks(base + size, heap_size_ - size, [](const Block& b) {
      return b.state == MemoryState::normal && b.permission == permission::read_write && b.attribute == 0;
    });
    if (!releasable) return kr::invalid_current_memory;
    rt::unmap_guest(base + size, heap_size_ - size);
    assign(base + size, heap_size_ - size, MemoryState::free, permission::none, 0);
  }
  heap_size_ = size;
  *address = base;
  return success;
}

uint64_t AddressSpace::heap_size() {
  std::lock_guard lock(mutex_);
  return heap_size_;
}

Result AddressSpace::set_permission(uint64_t address, uint64_t size, uint32_t perm) {
  std::lock_guard lock(mutex_);
  if (address % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (!valid_range(address, size)) return kr::invalid_current_memory;
  if (perm != permission::none && perm != permission::read && perm != permission::read_write) return kr::invalid_new_memory_permission;
  const bool reprotectable = all_blocks(address, size, [](const Block& b) {
    return (b.state == MemoryState::normal || b.state == MemoryState::code_data) && b.attribute == 0;
  });
  if (!reprotectable) return kr::invalid_current_memory;
  const MemoryState state = std::prev(blocks_.upper_bound(address))->second.state;
  if (!all_blocks(address, size, [&](const Block& b) { return b.state == state; })) return kr::invalid_current_memory;
  rt::protect_guest(address, size, host_protection(perm));
  assign(address, size, state, perm, 0);
  return success;
}

Result AddressSpace::set_attribute(uint64_t address, uint64_t size, uint32_t mask, uint32_t value) {
  std::lock_guard lock(mutex_);
  if (address % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if ((mask | value) != mask || (mask & ~attribute::uncached)) return kr::invalid_combination;
  if (!valid_range(address, size)) return kr::invalid_current_memory;
  if (!all_blocks(address, size, [](const Block& b) { return b.state == MemoryState::normal || b.state == MemoryState::code_data; }))
    return kr::invalid_current_memory;
  // Blocks keep their own permission; only the attribute bits under the mask change.
  split(address);
  if (address + size < layout::address_space_end) split(address + size);
  for (auto it = blocks_.find(address); it != blocks_.end() && it->first < address + size; ++it)
    it->second.attribute = (it->second.attribute & ~mask) | value;
  merge();
  return success;
}

Result AddressSpace::map_memory(uint64_t destination, uint64_t source, uint64_t size) {
  std::lock_guard lock(mutex_);
  if (destination % layout::page_size || source % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (!valid_range(source, size) || !valid_range(destination, size)) return kr::invalid_current_memory;
  if (destination < layout::stack_region_start || destination + size > layout::stack_region_start + layout::stack_region_size)
    return kr::invalid_memory_region;
  if (!all_blocks(source, size, [](const Block& b) {
        return b.state == MemoryState::normal && b.permission == permission::read_write && b.attribute == 0;
      }))
    return kr::invalid_current_memory;
  if (!all_blocks(destination, size, [](const Block& b) { return b.state == MemoryState::free; })) return kr::invalid_current_memory;
  // The source is inaccessible while mapped, so moving its bytes to the destination (and back on unmap) is
  // indistinguishable from Horizon's aliasing for the guest.
  rt::map_guest(destination, size);
  std::memcpy(rt::host_pointer(destination), rt::host_pointer(source), size);
  rt::protect_guest(source, size, PROT_NONE);
  assign(source, size, MemoryState::normal, permission::none, attribute::locked);
  assign(destination, size, MemoryState::stack, permission::read_write, 0);
  return success;
}

Result AddressSpace::unmap_memory(uint64_t destination, uint64_t source, uint64_t size) {
  std::lock_guard lock(mutex_);
  if (destination % layout::page_size || source % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (!valid_range(source, size) || !valid_range(destination, size)) return kr::invalid_current_memory;
  if (destination < layout::stack_region_start || destination + size > layout::stack_region_start + layout::stack_region_size)
    return kr::invalid_memory_region;
  if (!all_blocks(source, size, [](const Block& b) {
        return b.state == MemoryState::normal && b.permission == permission::none && b.attribute == attribute::locked;
      }))
    return kr::invalid_current_memory;
  if (!all_blocks(destination, size, [](const Block& b) { return b.state == MemoryState::stack && b.attribute == 0; }))
    return kr::invalid_current_memory;
  rt::protect_guest(source, size, PROT_READ | PROT_WRITE);
  rt::protect_guest(destination, size, PROT_READ | PROT_WRITE);
  std::memcpy(rt::host_pointer(source), rt::host_pointer(destination), size);
  rt::unmap_guest(destination, size);
  assign(source, size, MemoryState::normal, permission::read_write, 0);
  assign(destination, size, MemoryState::free, permission::none, 0);
  return success;
}

MemoryInfo AddressSpace::query(uint64_t address) {
  std::lock_guard lock(mutex_);
  if (address >= layout::address_space_end)
    return {layout::address_space_end, 0 - layout::address_space_end, static_cast<uint32_t>(MemoryState::inaccessible), 0, 0, 0, 0, 0};
  const auto it = std::prev(blocks_.upper_bound(address));
  return {it->first, it->second.size, static_cast<uint32_t>(it->second.state), it->second.attribute, it->second.permission, 0, 0, 0};
}

// The argument checks of switchbrew's MapPhysicalMemory/UnmapPhysicalMemory, in the kernel's order.
Result AddressSpace::check_alias_range(uint64_t address, uint64_t size) {
  if (address % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (address + size <= address) return kr::invalid_memory_region;
  if (address < layout::alias_region_start || address + size > layout::alias_region_start + layout::alias_region_size)
    return kr::invalid_memory_region;
  return success;
}

Result AddressSpace::map_physical(uint64_t address, uint64_t size, uint64_t limit) {
  std::lock_guard lock(mutex_);
  if (const Result r = check_alias_range(address, size); r != success) return r;
  // Pages already mapped count as done and keep their contents (the kernel's rule: only free pages are mapped).
  uint64_t unmapped = 0;
  for (auto it = std::prev(blocks_.upper_bound(address)); it != blocks_.end() && it->first < address + size; ++it)
    if (it->second.state == MemoryState::free)
      unmapped += std::min(it->first + it->second.size, address + size) - std::max(it->first, address);
  if (unmapped == 0) return success;
  if (used_size_locked() + unmapped > limit) return kr::limit_reached;
  std::vector<std::pair<uint64_t, uint64_t>> free_ranges;
  for (auto it = std::prev(blocks_.upper_bound(address)); it != blocks_.end() && it->first < address + size; ++it)
    if (it->second.state == MemoryState::free) {
      const uint64_t from = std::max(it->first, address), to = std::min(it->first + it->second.size, address + size);
      free_ranges.emplace_back(from, to - from);
    }
  for (const auto& [from, length] : free_ranges) {
    rt::map_guest(from, length);
    std::memset(rt::host_pointer(from), 0, length);
    rt::protect_guest(from, length, host_protection(permission::read_write));
    assign(from, length, MemoryState::normal, permission::read_write, 0);
  }
  return success;
}

Result AddressSpace::unmap_physical(uint64_t address, uint64_t size) {
  std::lock_guard lock(mutex_);
  if (const Result r = check_alias_range(address, size); r != success) return r;
  std::vector<std::pair<uint64_t, uint64_t>> mapped;
  for (auto it = std::prev(blocks_.upper_bound(address)); it != blocks_.end() && it->first < address + size; ++it) {
    const uint64_t from = std::max(it->first, address), to = std::min(it->first + it->second.size, address + size);
    if (it->second.state == MemoryState::free) continue;
    // Only MapPhysicalMemory puts Normal pages into the alias region (MapSharedMemory refuses it); pages of any
    // other state, or locked ones (transfer memory), are not its to unmap.
    if (it->second.state != MemoryState::normal || it->second.attribute != 0)
      return kr::invalid_current_memory;
    mapped.emplace_back(from, to - from);
  }
  for (const auto& [from, length] : mapped) {
    rt::unmap_guest(from, length);
    assign(from, length, MemoryState::free, permission::none, 0);
  }
  return success;
}

Result AddressSpace::map_shared(uint64_t address, uint64_t size, int fd, uint32_t perm) {
  std::lock_guard lock(mutex_);
  if (address % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (perm != permission::read && perm != permission::read_write) return kr::invalid_new_memory_permission;
  if (!valid_range(address, size) || address < layout::address_space_start) return kr::invalid_current_memory;
  auto overlaps = [&](uint64_t start, uint64_t length) { return address < start + length && start < address + size; };
  if (overlaps(layout::heap_region_start, layout::heap_region_size) || overlaps(layout::alias_region_start, layout::alias_region_size))
    return kr::invalid_memory_region;
  if (!all_blocks(address, size, [](const Block& b) { return b.state == MemoryState::free; })) return kr::invalid_current_memory;
  rt::map_guest_shared(address, size, fd, 0);
  rt::protect_guest(address, size, host_protection(perm));
  assign(address, size, MemoryState::shared, perm, 0);
  return success;
}

Result AddressSpace::unmap_shared(uint64_t address, uint64_t size) {
  std::lock_guard lock(mutex_);
  if (address % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (!valid_range(address, size)) return kr::invalid_current_memory;
  if (!all_blocks(address, size, [](const Block& b) { return b.state == MemoryState::shared; })) return kr::invalid_current_memory;
  rt::unmap_guest(address, size);
  assign(address, size, MemoryState::free, permission::none, 0);
  return success;
}

Result AddressSpace::lock_for_transfer(uint64_t address, uint64_t size, uint32_t perm) {
  std::lock_guard lock(mutex_);
  if (address % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (perm != permission::none && perm != permission::read && perm != permission::read_write) return kr::invalid_new_memory_permission;
  if (!valid_range(address, size)) return kr::invalid_current_memory;
  if (!all_blocks(address, size, [](const Block& b) {
        return b.state == MemoryState::normal && b.permission == permission::read_write && b.attribute == 0;
      }))
    return kr::invalid_current_memory;
  rt::protect_guest(address, size, host_protection(perm));
  assign(address, size, MemoryState::normal, perm, attribute::locked);
  return success;
}

void AddressSpace::release_transfer(uint64_t address, uint64_t size) {
  std::lock_guard lock(mutex_);
  rt::protect_guest(address, size, PROT_READ | PROT_WRITE);
  assign(address, size, MemoryState::normal, permission::read_write, 0);
}

bool AddressSpace::accessible(uint64_t address, uint64_t size, uint32_t perm) {
  std::lock_guard lock(mutex_);
  if (size == 0) return address <= layout::address_space_end;
  if (!valid_range(address, size)) return false;
  return all_blocks(address, size, [&](const Block& b) {
    return b.state != MemoryState::free && b.state != MemoryState::inaccessible && (b.permission & perm) == perm;
  });
}

void AddressSpace::release_all() {
  std::lock_guard lock(mutex_);
  for (const auto& [start, block] : blocks_)
    if (block.state != MemoryState::free) rt::unmap_guest(start, block.size);
  blocks_.clear();
  blocks_[0] = {layout::address_space_end, MemoryState::free, permission::none, 0};
  heap_size_ = 0;
}

uint64_t AddressSpace::used_size() {
  std::lock_guard lock(mutex_);
  return used_size_locked();
}

uint64_t AddressSpace::used_size_locked() const {
  uint64_t used = 0;
  for (const auto& [start, block] : blocks_)
    if (block.state != MemoryState::free && block.state != MemoryState::inaccessible) used += block.size;
  return used;
}

} // namespace kiln::hos
