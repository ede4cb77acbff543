// nvdrv through sm and the kernel, with requests written word by word from switchbrew's layouts
// (https://switchbrew.org/wiki/IPC_Marshalling for the message, https://switchbrew.org/wiki/NV_services for the
// commands, ioctl numbers and argument structures) and GPU work written as raw pushbuffer words (host class
// B06F: SEMAPHOREA-D at 0x10-0x1c, NVIDIA's open-gpu-doc clb06f.h; GP_ENTRY words from the same header).
// Expected values come from those pages: the Tegra X1's characteristics, NvResult numbers, reply offsets.
#include <cstring>

#include "runtime/gpu/maxwell/backend.h"
#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/nvdrv.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;

constexpr uint64_t path_at = test::data_base + 0x1000;   // 0x7100101000
constexpr uint64_t in_at = test::data_base + 0x2000;     // 0x7100102000: ioctl input buffer
constexpr uint64_t out_at = test::data_base + 0x3000;    // 0x7100103000: ioctl output buffer
constexpr uint32_t sfci = 0x49434653;

/// A buffer descriptor (A or B): size low word, address low word, then flags 0, address bits 36-38 at 2-4,
/// size bits 32-35 at 24-27, address bits 32-35 at 28-31 (our sizes are under 4 GiB).
std::vector<uint32_t> buffer_descriptor(uint64_t address, uint32_t size) {
  return {size, static_cast<uint32_t>(address),
          static_cast<uint32_t>(((address >> 32) & 0xf) << 28 | ((address >> 36) & 0x7) << 2)};
}

/// The devices are the process's, so their backend outlives every fixture.
maxwell::RecordingBackend& backend() {
  static maxwell::RecordingBackend recording;
  return recording;
}

struct Fixture : test::IpcFixture {
  uint32_t nvdrv = 0;
  uint64_t heap = 0;

  Fixture() {
    hos::register_default_services(*registry, hos::SystemSettings{});
    hos::gpu_devices().set_backend(&backend());
    nvdrv = open_service(0x767264766e); // "nvdrv", little-endian
    REQUIRE(nvdrv != 0);
    heap = g.heap(0x400000);
  }
  /// A request with one A buffer (and one B buffer when out_size): type 4, A count at bits 20-23, B count at
  /// 24-27; the raw data after the descriptors at a 16-byte boundary: SFCI, command, then the u32 arguments.
  uint32_t request(uint32_t command, std::vector<uint32_t> args, uint64_t in, uint32_t in_size, uint64_t out = 0,
                   uint32_t out_size = 0) {
    std::vector<uint32_t> words = {0x00100004u | (out ? 0x01000000u : 0u), 0};
    for (uint32_t w : buffer_descriptor(in, in_size)) words.push_back(w);
    if (out)
      for (uint32_t w : buffer_descriptor(out, out_size)) words.push_back(w);
    while (words.size() % 4) words.push_back(0);
    const size_t raw = words.size();
    for (uint32_t w : {sfci, 0u, command, 0u}) words.push_back(w);
    words.insert(words.end(), args.begin(), args.end());
    words[1] = static_cast<uint32_t>(words.size() - raw + 4); // raw words, with room for the alignment padding
    message(words);
    REQUIRE(send(nvdrv) == 0);
    return peek<uint32_t>(tls + 0x18); // IPC result after SFCO at 0x10
  }
  /// A request with only raw arguments (and `copies` copy handles): 16-byte aligned SFCI after the header.
  uint32_t plain(uint32_t command, std::vector<uint32_t> args, std::vector<uint32_t> copies = {}) {
    std::vector<uint32_t> words = {0x00000004, copies.empty() ? 0u : 0x80000000u};
    if (!copies.empty()) {
      words.push_back(static_cast<uint32_t>(copies.size()) << 1); // copy-handle count at bits 1-4
      words.insert(words.end(), copies.begin(), copies.end());
    }
    while (words.size() % 4) words.push_back(0);
    for (uint32_t w : {sfci, 0u, command, 0u}) words.push_back(w);
    words.insert(words.end(), args.begin(), args.end());
    words[1] |= static_cast<uint32_t>(words.size() - 2 + 4);
    message(words);
    REQUIRE(send(nvdrv) == 0);
    return peek<uint32_t>(tls + 0x18);
  }
  /// Initialize(size) with the current process (pseudo handle 0xffff8001) and a transfer memory of the heap.
  uint32_t initialize() {
    g.cpu().x[1] = heap;
    g.cpu().x[2] = 0x100000;
    g.cpu().x[3] = 0; // no permission for the owner while the driver holds it
    REQUIRE(test::Guest::svc(g.cpu(), 0x15) == 0);
    const uint32_t transfer_memory = static_cast<uint32_t>(g.cpu().x[1]);
    REQUIRE(plain(3, {0x100000}, {0xffff8001, transfer_memory}) == 0);
    return peek<uint32_t>(tls + 0x20);
  }
  /// Open(path): FdOut at 0x20, Err at 0x24.
  std::pair<uint32_t, uint32_t> open(const char* path) {
    std::memcpy(rt::host_pointer(path_at), path, std::strlen(path) + 1);
    REQUIRE(request(0, {}, path_at, static_cast<uint32_t>(std::strlen(path) + 1)) == 0);
    return {peek<uint32_t>(tls + 0x20), peek<uint32_t>(tls + 0x24)};
  }
  /// Ioctl(fd, code) with the argument `size` bytes at in_at/out_at; the NvResult.
  uint32_t ioctl(uint32_t fd, uint32_t code, uint32_t in_size, uint32_t out_size) {
    REQUIRE(request(1, {fd, code}, in_at, in_size, out_at, out_size) == 0);
    return peek<uint32_t>(tls + 0x20);
  }
  uint32_t ioctl(uint32_t fd, uint32_t code) {
    const uint32_t size = (code >> 16) & 0x3fff;
    return ioctl(fd, code, size, size);
  }
  /// A request with A buffers `a` and B buffers `b` (switchbrew's descriptor order: every A, then every B).
  uint32_t request_buffers(uint32_t command, std::vector<uint32_t> args, std::vector<std::pair<uint64_t, uint32_t>> a,
                           std::vector<std::pair<uint64_t, uint32_t>> b) {
    std::vector<uint32_t> words = {0x4u | static_cast<uint32_t>(a.size()) << 20 | static_cast<uint32_t>(b.size()) << 24, 0};
    for (const auto& list : {a, b})
      for (const auto& [address, size] : list)
        for (uint32_t w : buffer_descriptor(address, size)) words.push_back(w);
    while (words.size() % 4) words.push_back(0);
    const size_t raw = words.size();
    for (uint32_t w : {sfci, 0u, command, 0u}) words.push_back(w);
    words.insert(words.end(), args.begin(), args.end());
    words[1] = static_cast<uint32_t>(words.size() - raw + 4);
    message(words);
    REQUIRE(send(nvdrv) == 0);
    REQUIRE(peek<uint32_t>(tls + 0x18) == 0);
    return peek<uint32_t>(tls + 0x20);
  }
  /// Ioctl2 (command 11): fd, request; A buffers: the argument, the inline input; B buffer: the argument out.
  uint32_t ioctl2(uint32_t fd, uint32_t code, uint64_t inline_at, uint32_t inline_size) {
    const uint32_t size = (code >> 16) & 0x3fff;
    return request_buffers(11, {fd, code}, {{in_at, size}, {inline_at, inline_size}}, {{out_at, size}});
  }
  /// Ioctl3 (command 12): fd, request; A buffer: the argument; B buffers: the argument out, the inline output.
  uint32_t ioctl3(uint32_t fd, uint32_t code, uint64_t inline_at, uint32_t inline_size) {
    const uint32_t size = (code >> 16) & 0x3fff;
    return request_buffers(12, {fd, code}, {{in_at, size}}, {{out_at, size}, {inline_at, inline_size}});
  }
  void in_words(std::vector<uint32_t> words) {
    std::memset(rt::host_pointer(in_at), 0, 0x1000);
    for (size_t i = 0; i < words.size(); ++i) poke<uint32_t>(in_at + 4 * i, words[i]);
  }
  uint32_t out_word(size_t i) { return peek<uint32_t>(out_at + 4 * i); }
};

TEST_CASE("nvdrv Open needs Initialize and names unknown devices") {
  Fixture f;
  CHECK(f.open("/dev/nvmap").second == 3); // NotInitialized
  CHECK(f.initialize() == 0);
  const auto nvmap = f.open("/dev/nvmap");
  CHECK(nvmap.second == 0);
  CHECK(nvmap.first != 0);
  CHECK(f.open("/dev/nvhost-nvdec").second == 2); // NotSupported
  // Close, then an ioctl on the closed descriptor: BadParameter.
  CHECK(f.plain(2, {nvmap.first}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0);
  f.in_words({0x1000, 0});
  CHECK(f.ioctl(nvmap.first, 0xc0080101) == 4);
}

TEST_CASE("nvhost-ctrl-gpu reports the Tegra X1 and its zcull layout") {
  Fixture f;
  REQUIRE(f.initialize() == 0);
  const uint32_t gpu = f.open("/dev/nvhost-ctrl-gpu").first;
  // GET_CHARACTERISTICS 0xC0B04705: u64 buf_size, u64 buf_addr, then the 0xa0-byte characteristics.
  f.in_words({0xa0, 0, 0, 0});
  CHECK(f.ioctl(gpu, 0xc0b04705) == 0);
  CHECK(f.out_word(0) == 0xa0);
  CHECK(f.out_word(4 + 0) == 0x120);             // arch GM200
  CHECK(f.out_word(4 + 1) == 0xb);               // impl GM20B
  CHECK(f.out_word(4 + 2) == 0xa1);              // rev
  CHECK(f.out_word(4 + 0x28 / 4) == 0x20000);    // big_page_size
  CHECK(f.out_word(4 + 0x5c / 4) == 0xb197);     // threed_class
  CHECK(f.out_word(4 + 0x60 / 4) == 0xb1c0);     // compute_class
  CHECK(f.out_word(4 + 0x64 / 4) == 0xb06f);     // gpfifo_class
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(out_at + 0x10 + 0x90))) == "gm20b");
  // ZCULL_GET_CTX_SIZE 0x80044701, ZCULL_GET_INFO 0x80284702: out only.
  CHECK(f.ioctl(gpu, 0x80044701, 0, 4) == 0);
  CHECK(f.out_word(0) == 0x20000);
  CHECK(f.ioctl(gpu, 0x80284702, 0, 0x28) == 0);
  CHECK(f.out_word(0) == 0x20);  // width_align_pixels
  CHECK(f.out_word(9) == 0x10);  // subregion_count
  // GET_TPC_MASKS 0xC0184706: the mask of the GPC's two TPCs at 0x10.
  f.in_words({4, 0, 0, 0, 0, 0});
  CHECK(f.ioctl(gpu, 0xc0184706) == 0);
  CHECK(f.out_word(4) == 0x3);
  // An output buffer smaller than the ioctl's size: InvalidSize.
  CHECK(f.ioctl(gpu, 0xc0b04705, 0xb0, 0x10) == 0xa);

  // Ioctl3: the same requests with an inline output buffer, which receives the characteristics (0xa0 bytes)
  // and the TPC mask (8 bytes) as well as the argument does.
  constexpr uint64_t inline_at = out_at + 0x800;
  std::memset(rt::host_pointer(inline_at), 0xee, 0x100);
  f.in_words({0xa0, 0, 0, 0});
  CHECK(f.ioctl3(gpu, 0xc0b04705, inline_at, 0xa0) == 0);
  CHECK(f.out_word(0) == 0xa0);
  CHECK(peek<uint32_t>(inline_at) == 0x120);
  CHECK(peek<uint32_t>(inline_at + 0x5c) == 0xb197);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(inline_at + 0x90))) == "gm20b");
  CHECK(peek<uint32_t>(inline_at + 0xa0) == 0xeeeeeeee); // nothing past the characteristics
  CHECK(std::memcmp(rt::host_pointer(inline_at), rt::host_pointer(out_at + 0x10), 0xa0) == 0);
  std::memset(rt::host_pointer(inline_at), 0, 0x100);
  f.in_words({4, 0, 0, 0, 0, 0});
  CHECK(f.ioctl3(gpu, 0xc0184706, inline_at, 8) == 0);
  CHECK(peek<uint64_t>(inline_at) == 0x3);
  CHECK(f.ioctl3(gpu, 0xc0b04705, inline_at, 0x10) == 0xa); // an inline output too small: InvalidSize
}

TEST_CASE("nvhost-as-gpu GET_VA_REGIONS through Ioctl3 writes the regions to the inline output") {
  Fixture f;
  REQUIRE(f.initialize() == 0);
  const uint32_t as = f.open("/dev/nvhost-as-gpu").first;
  // GET_VA_REGIONS 0xC0404108 {u64 not used, u32 buf_size, pad, two VaRegions {u64 offset, u32 page_size, pad,
  // u64 pages}}: the small-page region, then the big-page (0x20000) one.
  constexpr uint64_t inline_at = out_at + 0x800;
  f.in_words({0, 0, 0x30, 0});
  CHECK(f.ioctl3(as, 0xc0404108, inline_at, 0x30) == 0);
  CHECK(f.out_word(2) == 0x30);
  CHECK(peek<uint32_t>(inline_at + 8) == 0x1000);
  CHECK(peek<uint32_t>(inline_at + 0x18 + 8) == 0x20000);
  CHECK(peek<uint64_t>(inline_at) == peek<uint64_t>(out_at + 0x10));
  CHECK(peek<uint64_t>(inline_at + 0x18) == peek<uint64_t>(out_at + 0x28));
  CHECK(peek<uint64_t>(inline_at + 0x10) * 0x1000 == peek<uint64_t>(inline_at + 0x18) - peek<uint64_t>(inline_at)); // contiguous
}

TEST_CASE("nvdrv drives a channel: nvmap memory from the heap, a submission with a fence, a semaphore written") {
  Fixture f;
  REQUIRE(f.initialize() == 0);
  const uint32_t nvmap = f.open("/dev/nvmap").first, as = f.open("/dev/nvhost-as-gpu").first;
  const uint32_t channel = f.open("/dev/nvhost-gpu").first, ctrl = f.open("/dev/nvhost-ctrl").first;
  const uint64_t buffer = f.heap + 0x200000; // past the transfer memory
  constexpr uint32_t size = 0x10000;

  // nvmap CREATE {size, handle out}, ALLOC {handle, heapmask, flags, align, kind, pad, u64 addr}, PARAM, GET_ID.
  f.in_words({size, 0});
  REQUIRE(f.ioctl(nvmap, 0xc0080101) == 0);
  const uint32_t handle = f.out_word(1);
  CHECK(handle != 0);
  f.in_words({handle, 0, 0, 0x1000, 0, 0, static_cast<uint32_t>(buffer), static_cast<uint32_t>(buffer >> 32)});
  CHECK(f.ioctl(nvmap, 0xc0200104) == 0);
  CHECK(f.ioctl(nvmap, 0xc0200104) == 0xd); // AlreadyAllocated
  f.in_words({handle, 1, 0});
  CHECK(f.ioctl(nvmap, 0xc00c0109) == 0);
  CHECK(f.out_word(2) == size);
  f.in_words({0, handle});
  CHECK(f.ioctl(nvmap, 0xc008010e) == 0);
  CHECK(f.out_word(0) == handle);

  // BIND_CHANNEL {fd}, ALLOC_GPFIFO_EX2 {entries, flags, unk0, fence out, unk[3]}, ALLOC_OBJ_CTX {class, flags, u64 id}.
  f.in_words({channel});
  CHECK(f.ioctl(as, 0x40044101, 4, 0) == 0);
  f.in_words({0x800, 0, 1});
  REQUIRE(f.ioctl(channel, 0xc020481a) == 0);
  const uint32_t syncpoint = f.out_word(3);
  CHECK(syncpoint != 0);
  f.in_words({0xb197, 0, 0, 0});
  CHECK(f.ioctl(channel, 0xc0104809) == 0);
  f.in_words({0x1234, 0, 0, 0});
  CHECK(f.ioctl(channel, 0xc0104809) == 4); // a class kiln lacks: BadParameter
  // SET_ERROR_NOTIFIER {u64 offset, u64 size, u32 nvmap handle, pad}: a page of the buffer; libnx's form
  // (offset and size 0, 1 in the handle's place); a range past the buffer: BadParameter.
  f.in_words({0, 0, 0x1000, 0, handle, 0});
  CHECK(f.ioctl(channel, 0xc018480c) == 0);
  f.in_words({0, 0, 0, 0, 1, 0});
  CHECK(f.ioctl(channel, 0xc018480c) == 0);
  f.in_words({0, 0, 0x20000, 0, handle, 0});
  CHECK(f.ioctl(channel, 0xc018480c) == 4);
  // ZCULL_BIND {u64 gpu_va, u32 mode, pad}: accepted.
  f.in_words({0, 0, 1, 0});
  CHECK(f.ioctl(channel, 0xc010480b) == 0);
  // MAP_BUFFER_EX {flags, kind, nvmap handle, reserved, u64 buffer_offset, u64 mapping_size, u64 offset out}.
  f.in_words({0, 0xffffffff, handle, 0, 0, 0, 0, 0, 0, 0});
  REQUIRE(f.ioctl(as, 0xc0284106) == 0);
  const uint64_t gpu = f.out_word(8) | uint64_t{f.out_word(9)} << 32;
  CHECK(gpu != 0);

  // The pushbuffer at buffer + 0x100: an incrementing method header (type 1 at bits 29-31, count at 16-28,
  // method dword address at 0-12) for SEMAPHOREA-D: address high, low (buffer + 0x800), payload, RELEASE with
  // the 4-byte size bit (24).
  const uint64_t target = gpu + 0x800;
  const uint32_t push[] = {(1u << 29) | (4u << 16) | (0x10 >> 2), static_cast<uint32_t>(target >> 32),
                           static_cast<uint32_t>(target), 0xcafe1234, 0x01000002};
  for (size_t i = 0; i < 5; ++i) poke<uint32_t>(buffer + 0x100 + 4 * i, push[i]);
  // SUBMIT_GPFIFO 0xC0??4808 with one entry after its 0x18-byte header {u64 gpfifo, u32 count, u32 flags
  // (FENCE_GET = 2), fence}: GP_ENTRY0 = address bits 2-31, GP_ENTRY1 = address bits 32-39 | length << 10.
  const uint64_t pushbuffer = gpu + 0x100;
  f.in_words({0, 0, 1, 2, 0, 0, static_cast<uint32_t>(pushbuffer), static_cast<uint32_t>(pushbuffer >> 32) | (5u << 10)});
  REQUIRE(f.ioctl(channel, 0xc0204808) == 0);
  CHECK(f.out_word(4) == syncpoint);
  const uint32_t threshold = f.out_word(5);
  CHECK(peek<uint32_t>(buffer + 0x800) == 0xcafe1234);

  // SYNCPT_WAITEX {id, threshold, timeout, value out} and EVENT_WAIT: the fence is reached.
  f.in_words({syncpoint, threshold, 100, 0});
  CHECK(f.ioctl(ctrl, 0xc0100019) == 0);
  CHECK(f.out_word(3) == threshold);
  f.in_words({syncpoint, threshold, 100, 0});
  CHECK(f.ioctl(ctrl, 0xc010001d) == 0);
  // A threshold never reached: Timeout (a zero timeout answers at once).
  f.in_words({syncpoint, threshold + 5, 0, 0});
  CHECK(f.ioctl(ctrl, 0xc0100019) == 5);

  // KICKOFF_PB 0xC018481B through Ioctl2: SUBMIT_GPFIFO's 0x18-byte header as the argument, the GP entries in
  // the inline input buffer. A second pushbuffer at buffer + 0x200 releases another payload at buffer + 0x810.
  const uint64_t second = gpu + 0x200, second_target = gpu + 0x810;
  const uint32_t push2[] = {(1u << 29) | (4u << 16) | (0x10 >> 2), static_cast<uint32_t>(second_target >> 32),
                            static_cast<uint32_t>(second_target), 0x5eed0002, 0x01000002};
  for (size_t i = 0; i < 5; ++i) poke<uint32_t>(buffer + 0x200 + 4 * i, push2[i]);
  constexpr uint64_t entries_at = in_at + 0x800;
  f.in_words({0, 0, 1, 2, 0, 0});
  poke<uint32_t>(entries_at, static_cast<uint32_t>(second));
  poke<uint32_t>(entries_at + 4, static_cast<uint32_t>(second >> 32) | (5u << 10));
  REQUIRE(f.ioctl2(channel, 0xc018481b, entries_at, 8) == 0);
  CHECK(peek<uint32_t>(buffer + 0x810) == 0x5eed0002);
  CHECK(f.out_word(4) == syncpoint);
  CHECK(f.out_word(5) > threshold); // a later fence
  // The same header claiming two entries with one in the inline input: InvalidSize, nothing submitted.
  f.in_words({0, 0, 2, 2, 0, 0});
  poke<uint32_t>(entries_at, static_cast<uint32_t>(second));
  CHECK(f.ioctl2(channel, 0xc018481b, entries_at, 8) == 0xa);
}

TEST_CASE("nvhost-ctrl event slots: QueryEvent's event is signalled when an async wait's threshold is reached") {
  Fixture f;
  REQUIRE(f.initialize() == 0);
  const uint32_t ctrl = f.open("/dev/nvhost-ctrl").first;
  // QueryEvent(fd, event id 3): Err at 0x20, the event as the reply's copy handle (word 3).
  REQUIRE(f.plain(4, {ctrl, 3}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0);
  const uint32_t event = f.word(3);
  // Syncpoint 100 (not a channel's): read it, wait asynchronously for value + 2 in slot 3.
  f.in_words({100, 0});
  REQUIRE(f.ioctl(ctrl, 0xc0080014) == 0);
  const uint32_t start = f.out_word(1);
  f.in_words({100, start + 2, -1u, 3});
  CHECK(f.ioctl(ctrl, 0xc010001e) == 5); // Timeout: armed
  auto signalled = [&] {
    poke<uint32_t>(test::data_base + 0x800, event);
    f.g.cpu().x[1] = test::data_base + 0x800;
    f.g.cpu().x[2] = 1;
    f.g.cpu().x[3] = 0; // WaitSynchronization with timeout 0
    return test::Guest::svc(f.g.cpu(), 0x18) == 0;
  };
  f.in_words({100});
  CHECK(f.ioctl(ctrl, 0x40040015, 4, 0) == 0); // SYNCPT_INCR
  CHECK_FALSE(signalled());
  f.in_words({100});
  CHECK(f.ioctl(ctrl, 0xc0040015) == 0); // the inout encoding libnx uses
  CHECK(signalled());
}

TEST_CASE("nvdrv reports an unknown ioctl with device, number and guest address") {
  Fixture f;
  REQUIRE(f.initialize() == 0);
  const uint32_t nvmap = f.open("/dev/nvmap").first;
  f.in_words({0, 0});
  CHECK(f.ioctl(nvmap, 0xc0080177) == 1); // NotImplemented
  // SetAruid (8): u64 aruid with the PID descriptor; Err 0.
  f.message({0x00000004, 0x8000000c, 0x00000001, 0, 0, 0, 0, 0, sfci, 0, 8, 0, 0x51, 0});
  REQUIRE(f.send(f.nvdrv) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
}

} // namespace
