#include "runtime/core/guest_memory.h"

#include <sys/mman.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace kiln::rt {

uint8_t* guest_base = nullptr;

namespace {
std::vector<bool> mapped_pages; // one flag per guest page of the reservation actually in use
constexpr uint64_t tracked_pages = (uint64_t{1} << guest_address_bits) / guest_page_size;
}

void reserve_guest_memory() {
  if (guest_base) return;
  // The reservation is the masked range plus one guard page at each end.
  const size_t size = (size_t{1} << guest_address_bits) + 2 * guest_page_size;
  void* p = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("cannot reserve the guest address space");
  guest_base = static_cast<uint8_t*>(p) + guest_page_size;
  mapped_pages.assign(tracked_pages, false);
}

void map_guest(uint64_t address, uint64_t size) {
  if (size == 0) return;
  const uint64_t first = address / guest_page_size, last = (address + size - 1) / guest_page_size;
  if (last >= tracked_pages) throw std::runtime_error("guest mapping outside the address space");
  for (uint64_t page = first; page <= last; ++page) {
    if (mapped_pages[page]) continue;
    uint64_t end = page;
    while (end + 1 <= last && !mapped_pages[end + 1]) ++end;
    void* at = guest_base + page * guest_page_size;
    if (mmap(at, (end - page + 1) * guest_page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
      throw std::runtime_error("cannot map guest memory");
    for (uint64_t p = page; p <= end; ++p) mapped_pages[p] = true;
    page = end;
  }
}

namespace {
void check_range(uint64_t last) {
  if (last >= tracked_pages) throw std::runtime_error("guest mapping outside the address space");
}
} // namespace

void map_guest_shared(uint64_t address, uint64_t size, int fd, uint64_t offset) {
  if (size == 0) return;
  const uint64_t first = address / guest_page_size, last = (address + size - 1) / guest_page_size;
  check_range(last);
  if (mmap(guest_base + first * guest_page_size, (last - first + 1) * guest_page_size, PROT_READ | PROT_WRITE,
           MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(offset)) == MAP_FAILED)
    throw std::runtime_error("cannot map shared memory into the guest");
  for (uint64_t p = first; p <= last; ++p) mapped_pages[p] = true;
}

void protect_guest(uint64_t address, uint64_t size, int protection) {
  if (size == 0) return;
  const uint64_t first = address / guest_page_size, last = (address + size - 1) / guest_page_size;
  check_range(last);
  if (mprotect(guest_base + first * guest_page_size, (last - first + 1) * guest_page_size, protection) != 0)
    throw std::runtime_error("cannot change the protection of guest memory");
}

void unmap_guest(uint64_t address, uint64_t size) {
  if (size == 0) return;
  const uint64_t first = address / guest_page_size, last = (address + size - 1) / guest_page_size;
  if (last >= tracked_pages) return;
  mmap(guest_base + first * guest_page_size, (last - first + 1) * guest_page_size, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  for (uint64_t p = first; p <= last; ++p) mapped_pages[p] = false;
}

bool guest_range_mapped(uint64_t address, uint64_t size) {
  if (size == 0) return true;
  const uint64_t first = address / guest_page_size, last = (address + size - 1) / guest_page_size;
  if (last >= tracked_pages) return false;
  for (uint64_t p = first; p <= last; ++p)
    if (!mapped_pages[p]) return false;
  return true;
}

} // namespace kiln::rt
