// Memory SVCs against switchbrew's "SVC" page: the 39-bit layout GetInfo reports, SetHeapSize, permissions,
// attributes, MapMemory into the stack region, QueryMemory's MemoryInfo bytes, shared and transfer memory.
// Result values are written as the hex numbers libnx and switchbrew list (module 1, description << 9).
#include <catch2/catch.hpp>

#include "tests/switch/kernel/guest_harness.h"

namespace {

using namespace kiln;
using kiln::test::Guest;
using kiln::test::peek;
using kiln::test::poke;

constexpr uint32_t svc_set_heap_size = 0x01, svc_set_memory_permission = 0x02, svc_set_memory_attribute = 0x03, svc_map_memory = 0x04,
                   svc_unmap_memory = 0x05, svc_query_memory = 0x06, svc_map_shared_memory = 0x13, svc_create_transfer_memory = 0x15,
                   svc_close_handle = 0x16, svc_get_info = 0x29, svc_unmap_shared_memory = 0x14;

struct Info {
  uint64_t address, size;
  uint32_t state, attribute, permission;
};

/// QueryMemory, read back field by field at switchbrew's MemoryInfo offsets (0 addr, 8 size, 0x10 type,
/// 0x14 attribute, 0x18 permission, 0x1c/0x20 ipc/device ref counts, 0x24 padding).
Info query(Guest& g, uint64_t address) {
  constexpr uint64_t out = test::data_base + 0x800;
  g.cpu().x[0] = out;
  g.cpu().x[2] = address;
  REQUIRE(Guest::svc(g.cpu(), svc_query_memory) == 0);
  CHECK(peek<uint32_t>(out + 0x1c) == 0);
  CHECK(peek<uint32_t>(out + 0x20) == 0);
  return {peek<uint64_t>(out), peek<uint64_t>(out + 8), peek<uint32_t>(out + 0x10), peek<uint32_t>(out + 0x14), peek<uint32_t>(out + 0x18)};
}

uint64_t get_info(Guest& g, uint32_t id, uint32_t handle = 0xffff8001, uint64_t sub = 0, uint32_t expected = 0) {
  g.cpu().x[1] = id;
  g.cpu().x[2] = handle;
  g.cpu().x[3] = sub;
  CHECK(Guest::svc(g.cpu(), svc_get_info) == expected);
  return g.cpu().x[1];
}

TEST_CASE("GetInfo reports the 39-bit regions of switchbrew's address-space table") {
  Guest g;
  CHECK(get_info(g, 12) == 0x8000000);    // ASLR region start
  CHECK(get_info(g, 13) == 0x7ff8000000); // its size: up to 1 << 39
  CHECK(get_info(g, 3) == 0x1000000000);  // alias region: 64 GiB
  CHECK(get_info(g, 5) == 0x180000000);   // heap region: 6 GiB
  CHECK(get_info(g, 15) == 0x80000000);   // stack region: 2 GiB
  const uint64_t alias = get_info(g, 2), heap = get_info(g, 4), stack = get_info(g, 14);
  struct Region { uint64_t start, size; } regions[] = {{alias, 0x1000000000}, {heap, 0x180000000}, {stack, 0x80000000}};
  for (const Region& a : regions) {
    CHECK(a.start >= 0x8000000);
    CHECK(a.start + a.size <= 0x8000000000);
    for (const Region& b : regions)
      if (&a != &b) CHECK((a.start + a.size <= b.start || b.start + b.size <= a.start));
  }
  CHECK(get_info(g, 18) == hos::ProcessConfig{}.program_id);
  CHECK(get_info(g, 6) == hos::ProcessConfig{}.total_memory);
  CHECK(get_info(g, 0) == 0x7);          // cores 0-2
  CHECK(get_info(g, 1) == 0x0ffffffff0000000); // priorities 28..59
  CHECK(get_info(g, 23) == 1);
  // Random entropy: handle 0, sub ids 0-3; other handles and ids are errors.
  uint64_t entropy[4];
  for (uint64_t i = 0; i < 4; ++i) entropy[i] = get_info(g, 11, 0, i);
  CHECK((entropy[0] | entropy[1] | entropy[2] | entropy[3]) != 0);
  get_info(g, 11, 0, 4, 0xe801);         // InvalidCombination
  get_info(g, 11, 0xffff8001, 0, 0xe401); // InvalidHandle
  get_info(g, 2, 0x1234, 0, 0xe401);
  get_info(g, 0x1000, 0xffff8001, 0, 0xf001); // InvalidEnumValue
}

TEST_CASE("SetHeapSize grows and shrinks the heap in 2 MiB steps") {
  Guest g;
  g.cpu().x[1] = 0x100000;
  CHECK(Guest::svc(g.cpu(), svc_set_heap_size) == 0xca01); // InvalidSize
  g.cpu().x[1] = 0x200000000;
  CHECK(Guest::svc(g.cpu(), svc_set_heap_size) == 0x10801); // LimitReached: above the 3 GiB the process may use
  const uint64_t heap = g.heap(0x400000);
  CHECK(heap == get_info(g, 4));
  const Info info = query(g, heap + 0x1234);
  CHECK(info.address == heap);
  CHECK(info.size == 0x400000);
  CHECK(info.state == 5); // Normal
  CHECK(info.attribute == 0);
  CHECK(info.permission == 3);
  poke<uint64_t>(heap + 0x3ffff8, 0x1122334455667788);
  CHECK(peek<uint64_t>(heap + 0x3ffff8) == 0x1122334455667788);
  CHECK(get_info(g, 7) >= 0x400000); // used memory counts the heap
  g.heap(0x200000);
  CHECK(query(g, heap).size == 0x200000);
  CHECK(query(g, heap + 0x200000).state == 0); // Free
  CHECK(!rt::guest_range_mapped(heap + 0x200000, 0x1000));
}

TEST_CASE("QueryMemory beyond the address space reports the inaccessible rest") {
  Guest g;
  const Info info = query(g, 0x8000001000);
  CHECK(info.address == 0x8000000000);
  CHECK(info.size == 0xffffff8000000000);
  CHECK(info.state == 0x10);
  g.cpu().x[0] = 0x10; // an unmapped MemoryInfo pointer
  g.cpu().x[2] = 0;
  CHECK(Guest::svc(g.cpu(), svc_query_memory) == 0xe601); // InvalidPointer
}

TEST_CASE("SetMemoryPermission and SetMemoryAttribute change heap pages") {
  Guest g;
  const uint64_t heap = g.heap(0x200000);
  auto set_permission = [&](uint64_t address, uint64_t size, uint32_t permission) {
    g.cpu().x[0] = address;
    g.cpu().x[1] = size;
    g.cpu().x[2] = permission;
    return Guest::svc(g.cpu(), svc_set_memory_permission);
  };
  CHECK(set_permission(heap + 0x1000, 0x1000, 1) == 0);
  Info info = query(g, heap + 0x1000);
  CHECK(info.address == heap + 0x1000);
  CHECK(info.size == 0x1000);
  CHECK(info.permission == 1);
  CHECK(query(g, heap).size == 0x1000); // the blocks around it keep read/write
  CHECK(set_permission(heap, 0x1000, 2) == 0xd801);   // write-only: InvalidNewMemoryPermission
  CHECK(set_permission(heap + 4, 0x1000, 1) == 0xcc01); // InvalidAddress
  CHECK(set_permission(heap, 0, 1) == 0xca01);          // InvalidSize
  CHECK(set_permission(test::code_base - 0x100000, 0x1000, 1) == 0xd401); // free memory: InvalidCurrentMemory
  CHECK(set_permission(heap + 0x1000, 0x1000, 3) == 0);
  CHECK(query(g, heap).size == 0x200000); // merged again

  auto set_attribute = [&](uint32_t mask, uint32_t value) {
    g.cpu().x[0] = heap;
    g.cpu().x[1] = 0x2000;
    g.cpu().x[2] = mask;
    g.cpu().x[3] = value;
    return Guest::svc(g.cpu(), svc_set_memory_attribute);
  };
  CHECK(set_attribute(8, 8) == 0);
  CHECK(query(g, heap).attribute == 8); // Uncached
  CHECK(set_attribute(8, 0) == 0);
  CHECK(query(g, heap).attribute == 0);
  CHECK(set_attribute(1, 1) == 0xe801); // only Uncached may change: InvalidCombination
  CHECK(set_attribute(0, 8) == 0xe801); // value outside the mask
}

TEST_CASE("MapMemory moves heap pages into the stack region and UnmapMemory brings them back") {
  Guest g;
  const uint64_t heap = g.heap(0x200000);
  const uint64_t stack = get_info(g, 14) + 0x10000;
  for (uint64_t i = 0; i < 0x2000; i += 8) poke<uint64_t>(heap + i, i * 3);
  auto call = [&](uint32_t svc, uint64_t destination, uint64_t source, uint64_t size) {
    g.cpu().x[0] = destination;
    g.cpu().x[1] = source;
    g.cpu().x[2] = size;
    return Guest::svc(g.cpu(), svc);
  };
  CHECK(call(svc_map_memory, heap + 0x100000, heap, 0x2000) == 0xdc01); // destination outside the stack region
  CHECK(call(svc_map_memory, stack, heap + 1, 0x2000) == 0xcc01);
  CHECK(call(svc_map_memory, stack, heap, 0x2000) == 0);
  CHECK(peek<uint64_t>(stack + 0x1ff8) == 0x1ff8 * 3);
  Info destination = query(g, stack);
  CHECK(destination.state == 0xb); // Stack
  CHECK(destination.permission == 3);
  Info source = query(g, heap);
  CHECK(source.size == 0x2000);
  CHECK(source.permission == 0);
  CHECK(source.attribute == 1); // Locked while mapped
  CHECK(call(svc_map_memory, stack + 0x10000, heap, 0x2000) == 0xd401); // the source is busy
  poke<uint64_t>(stack, 0xabcdef);
  CHECK(call(svc_unmap_memory, stack, heap, 0x2000) == 0);
  CHECK(peek<uint64_t>(heap) == 0xabcdef); // what the guest wrote through the mapping
  CHECK(query(g, heap).permission == 3);
  CHECK(query(g, stack).state == 0);
}

TEST_CASE("Shared memory is one set of pages for the host and the guest") {
  Guest g;
  const auto shared = g.kernel.create_shared_memory(0x2000, hos::permission::read_write);
  uint32_t handle = 0;
  REQUIRE(g.kernel.add_handle(shared, &handle) == 0);
  auto map = [&](uint64_t address, uint32_t permission) {
    g.cpu().x[0] = handle;
    g.cpu().x[1] = address;
    g.cpu().x[2] = 0x2000;
    g.cpu().x[3] = permission;
    return Guest::svc(g.cpu(), svc_map_shared_memory);
  };
  CHECK(map(get_info(g, 4), 3) == 0xdc01); // inside the heap region: InvalidMemoryRegion
  CHECK(map(0x4000000000, 4) == 0xd801);
  constexpr uint64_t at = 0x4000000000;
  CHECK(map(at, 3) == 0);
  CHECK(query(g, at).state == 6); // Shared
  std::memcpy(shared->host + 0x1000, "host", 5);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(at + 0x1000))) == "host");
  poke<uint32_t>(at + 8, 0xfeedface);
  uint32_t seen;
  std::memcpy(&seen, shared->host + 8, 4);
  CHECK(seen == 0xfeedface);
  g.cpu().x[0] = handle;
  g.cpu().x[1] = at;
  g.cpu().x[2] = 0x2000;
  CHECK(Guest::svc(g.cpu(), svc_unmap_shared_memory) == 0);
  CHECK(query(g, at).state == 0);
}

TEST_CASE("Transfer memory locks heap pages until its handle is closed") {
  Guest g;
  const uint64_t heap = g.heap(0x200000);
  g.cpu().x[1] = heap;
  g.cpu().x[2] = 0x4000;
  g.cpu().x[3] = 0;
  REQUIRE(Guest::svc(g.cpu(), svc_create_transfer_memory) == 0);
  const uint32_t handle = static_cast<uint32_t>(g.cpu().x[1]);
  Info info = query(g, heap);
  CHECK(info.size == 0x4000);
  CHECK(info.permission == 0);
  CHECK(info.attribute == 1);
  g.cpu().x[0] = handle;
  CHECK(Guest::svc(g.cpu(), svc_close_handle) == 0);
  info = query(g, heap);
  CHECK(info.permission == 3);
  CHECK(info.attribute == 0);
  CHECK(info.size == 0x200000);
  g.cpu().x[0] = handle;
  CHECK(Guest::svc(g.cpu(), svc_close_handle) == 0xe401); // closed twice: InvalidHandle
}

} // namespace

// switchbrew "SVC", MapPhysicalMemory (0x2c) / UnmapPhysicalMemory (0x2d): X0 address, X1 size; both 0x1000
// aligned (else InvalidAddress 0xcc01 / InvalidSize 0xca01), no wrap-around (InvalidMemoryRegion 0xdc01), the
// process must have a system resource (InvalidState 0xfa01) and the range must lie in the alias region GetInfo
// 2/3 gives (InvalidMemoryRegion 0xdc01); more than the process may use is LimitReached (0x10801).
TEST_CASE("MapPhysicalMemory maps alias-region pages that QueryMemory and UnmapPhysicalMemory see") {
  constexpr uint32_t svc_map_physical_memory = 0x2c, svc_unmap_physical_memory = 0x2d;
  hos::ProcessConfig config;
  config.system_resource_size = 0x400000;
  config.total_memory = 0x10000000; // 256 MiB, so the limit is reachable
  Guest g(config);
  auto call = [&](uint32_t svc, uint64_t address, uint64_t size) {
    g.cpu().x[0] = address;
    g.cpu().x[1] = size;
    return Guest::svc(g.cpu(), svc);
  };
  CHECK(get_info(g, 16) == 0x400000);                  // SystemResourceSizeTotal
  CHECK(get_info(g, 21) == 0x10000000 - 0x400000);     // TotalNonSystemMemorySize
  const uint64_t used_before = get_info(g, 22);        // UsedNonSystemMemorySize
  CHECK(get_info(g, 7) == used_before + 0x400000);     // UsedMemorySize counts the system resource
  const uint64_t alias = get_info(g, 2), alias_size = get_info(g, 3);

  CHECK(call(svc_map_physical_memory, alias + 0x800, 0x1000) == 0xcc01);
  CHECK(call(svc_map_physical_memory, alias, 0x800) == 0xca01);
  CHECK(call(svc_map_physical_memory, alias, 0) == 0xca01);
  CHECK(call(svc_map_physical_memory, 0xfffffffffffff000, 0x2000) == 0xdc01);   // wraps around
  CHECK(call(svc_map_physical_memory, alias - 0x1000, 0x2000) == 0xdc01);        // starts below the alias region
  CHECK(call(svc_map_physical_memory, alias + alias_size - 0x1000, 0x2000) == 0xdc01); // ends past it
  CHECK(call(svc_map_physical_memory, get_info(g, 4), 0x1000) == 0xdc01);        // the heap region is not alias
  CHECK(call(svc_map_physical_memory, alias, 0x10000000) == 0x10801);            // more than the process may use

  CHECK(call(svc_map_physical_memory, alias + 0x10000, 0x4000) == 0);
  Info info = query(g, alias + 0x12000);
  CHECK(info.address == alias + 0x10000);
  CHECK(info.size == 0x4000);
  CHECK(info.state == 5); // Normal
  CHECK(info.permission == 3);
  CHECK(info.attribute == 0);
  CHECK(query(g, alias).state == 0);
  CHECK(get_info(g, 22) == used_before + 0x4000);
  poke<uint64_t>(alias + 0x13ff8, 0x5555aaaa5555aaaa);
  // Mapping over pages already mapped keeps them (and their bytes) and maps only the free ones.
  CHECK(call(svc_map_physical_memory, alias + 0xe000, 0x8000) == 0);
  info = query(g, alias + 0xe000);
  CHECK(info.address == alias + 0xe000);
  CHECK(info.size == 0x8000);
  CHECK(peek<uint64_t>(alias + 0x13ff8) == 0x5555aaaa5555aaaa);
  CHECK(peek<uint64_t>(alias + 0xe000) == 0);
  CHECK(get_info(g, 22) == used_before + 0x8000);
  CHECK(call(svc_map_physical_memory, alias + 0xe000, 0x8000) == 0); // all mapped: nothing to do

  // Unmapping takes the mapped pages of the range (free ones inside it are skipped) ...
  CHECK(call(svc_unmap_physical_memory, alias + 0xc000, 0x4000) == 0);
  CHECK(query(g, alias + 0xe000).state == 0);
  info = query(g, alias + 0x10000);
  CHECK(info.address == alias + 0x10000);
  CHECK(info.size == 0x6000);
  CHECK(!rt::guest_range_mapped(alias + 0xe000, 0x2000));
  CHECK(get_info(g, 22) == used_before + 0x6000);
  // ... and refuses pages it did not map: a heap range is outside the alias region, and transfer memory made
  // from physical pages is locked.
  const uint64_t heap = g.heap(0x200000);
  CHECK(call(svc_unmap_physical_memory, heap, 0x1000) == 0xdc01);
  g.cpu().x[1] = alias + 0x10000;
  g.cpu().x[2] = 0x1000;
  g.cpu().x[3] = 0; // no permission while transferred
  REQUIRE(Guest::svc(g.cpu(), svc_create_transfer_memory) == 0);
  const uint32_t transfer = static_cast<uint32_t>(g.cpu().x[1]);
  CHECK(call(svc_unmap_physical_memory, alias + 0x10000, 0x6000) == 0xd401); // InvalidCurrentMemory
  CHECK(query(g, alias + 0x11000).state == 5);                               // nothing was unmapped
  g.cpu().x[0] = transfer;
  REQUIRE(Guest::svc(g.cpu(), svc_close_handle) == 0);
  CHECK(call(svc_unmap_physical_memory, alias + 0x10000, 0x6000) == 0);
  info = query(g, alias + 0x10000);
  CHECK(info.state == 0);
  CHECK(info.address + info.size >= alias + 0x16000);
  CHECK(get_info(g, 22) == used_before + 0x200000); // the heap remains
}

TEST_CASE("MapPhysicalMemory needs a system resource, as a homebrew process lacks one") {
  Guest g; // kiln's default process: no main.npdm, system resource size 0
  CHECK(get_info(g, 16) == 0);
  const uint64_t alias = get_info(g, 2);
  g.cpu().x[0] = alias;
  g.cpu().x[1] = 0x1000;
  CHECK(Guest::svc(g.cpu(), 0x2c) == 0xfa01); // InvalidState
  g.cpu().x[0] = alias;
  g.cpu().x[1] = 0x1000;
  CHECK(Guest::svc(g.cpu(), 0x2d) == 0xfa01);
  g.cpu().x[0] = alias + 1; // the alignment checks come first
  g.cpu().x[1] = 0x1000;
  CHECK(Guest::svc(g.cpu(), 0x2c) == 0xcc01);
}
