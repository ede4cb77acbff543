// The nvgpu device nodes as a guest program drives them (ioctls on guest memory, as the system calls pass
// them), on the command processor with a recording backend: buffers shared by CPU and GPU, address spaces,
// channels, submissions with fences, syncpoint waits, and the draw state that reaches the backend.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstring>

#include "runtime/core/guest_memory.h"
#include "runtime/gpu/maxwell/backend.h"
#include "runtime/gpu/maxwell/channel.h"
#include "runtime/gpu/maxwell/stream_builder.h"
#include "runtime/platform/linux-user/nvgpu_abi.h"
#include "runtime/platform/linux-user/nvgpu_driver.h"

using namespace kiln;
using namespace kiln::linux_user;
namespace abi = kiln::linux_user::nvgpu_abi;

namespace {

constexpr uint64_t arguments = 0x10000000; // guest scratch page for ioctl arguments
constexpr uint64_t pc = 0x401000;

/// One driver with every device open, a buffer mapped for CPU and GPU, and a channel ready for submissions.
struct Fixture {
  maxwell::RecordingBackend backend;
  nvgpu::Driver driver;
  int64_t nvmap = 0, address_space = 0, channel = 0, ctrl = 0;
  uint64_t cpu = 0, gpu = 0; // the buffer's guest and GPU addresses
  static constexpr uint64_t buffer_size = 0x40000;
  int flushes = 0;

  Fixture() {
    rt::reserve_guest_memory();
    rt::map_guest(arguments, 0x1000);
    driver.set_backend(&backend, [this] { ++flushes; });
    nvmap = *driver.open("/dev/nvmap");
    address_space = *driver.open("/dev/nvhost-as-gpu");
    channel = *driver.open("/dev/nvhost-gpu");
    ctrl = *driver.open("/dev/nvhost-ctrl");
    REQUIRE(nvmap >= 0);
    REQUIRE(ctrl >= 0);

    auto create = call(nvmap, abi::nvmap_create, abi::NvmapCreate{static_cast<uint32_t>(buffer_size), 0});
    REQUIRE(create.second == 0);
    const uint32_t handle = create.first.handle;
    REQUIRE(call(nvmap, abi::nvmap_alloc, abi::NvmapAlloc{handle, 1u << 30, 0, 0x1000}).second == 0);
    auto dma_buf = call(nvmap, abi::nvmap_get_fd, abi::NvmapCreate{0, handle});
    REQUIRE(dma_buf.second == 0);
    const int64_t buffer_fd = dma_buf.first.size_or_id;
    const int64_t mapped = driver.mmap(buffer_fd, 0, buffer_size, 0x01, 0); // MAP_SHARED
    REQUIRE(mapped > 0);
    cpu = static_cast<uint64_t>(mapped);

    REQUIRE(call(address_space, abi::as_bind_channel, abi::AsBindChannel{static_cast<uint32_t>(channel)}).second == 0);
    REQUIRE(call(channel, abi::channel_alloc_gpfifo_ex, abi::ChannelAllocGpfifoEx{1024, 0, 0, {}}).second == 0);
    auto object = call(channel, abi::channel_alloc_obj_ctx, abi::ChannelAllocObjCtx{0xb197, 0, 0});
    REQUIRE(object.second == 0);
    auto map = call(address_space, abi::as_map_buffer_ex,
                    abi::AsMapBufferEx{0, -1, static_cast<uint32_t>(buffer_fd), 0, 0, 0, 0});
    REQUIRE(map.second == 0);
    gpu = map.first.offset;
  }

  /// Writes the argument to guest memory, runs the ioctl, reads the argument back.
  template <typename T>
  std::pair<T, int64_t> call(int64_t fd, uint32_t request, T argument) {
    std::memcpy(rt::host_pointer(arguments), &argument, sizeof argument);
    const int64_t result = driver.ioctl(fd, request, arguments, pc);
    std::memcpy(&argument, rt::host_pointer(arguments), sizeof argument);
    return {argument, result};
  }

  /// Places `stream` in the shared buffer at `offset` through the CPU view and submits it.
  std::pair<abi::Fence, int64_t> submit(const maxwell::StreamBuilder& stream, uint64_t offset, uint32_t flags,
                                        abi::Fence fence = {}) {
    std::memcpy(rt::host_pointer(cpu + offset), stream.words().data(), stream.size() * 4);
    const maxwell::GpfifoEntry entry = maxwell::GpfifoEntry::commands(gpu + offset, static_cast<uint32_t>(stream.size()));
    const uint32_t words[2] = {entry.word0(), entry.word1()};
    const uint64_t entries = arguments + 0x800;
    std::memcpy(rt::host_pointer(entries), words, sizeof words);
    auto result = call(channel, abi::channel_submit_gpfifo, abi::ChannelSubmitGpfifo{entries, 1, flags, fence});
    return {result.first.fence, result.second};
  }

  uint32_t cpu_word(uint64_t offset) const {
    uint32_t value;
    std::memcpy(&value, rt::host_pointer(cpu + offset), 4);
    return value;
  }
};

uint32_t high(uint64_t address) { return static_cast<uint32_t>(address >> 32); }
uint32_t low(uint64_t address) { return static_cast<uint32_t>(address); }

} // namespace

TEST_CASE("nvgpu ioctl numbers match the L4T headers' _IOC encoding", "[nvgpu]") {
  // Spelled out from asm-generic/ioctl.h: direction << 30 | size << 16 | type << 8 | nr.
  CHECK(abi::nvmap_create == 0xc0084e00u);            // _IOWR('N', 0, 8 bytes)
  CHECK(abi::nvmap_alloc == 0x40104e03u);             // _IOW('N', 3, 16 bytes)
  CHECK(abi::nvmap_free == 0x00004e04u);              // _IO('N', 4)
  CHECK(abi::as_map_buffer_ex == 0xc0284107u);        // _IOWR('A', 7, 40 bytes)
  CHECK(abi::channel_submit_gpfifo == 0xc018486bu);   // _IOWR('H', 107, 24 bytes)
  CHECK(abi::channel_alloc_gpfifo_ex == 0x4020487bu); // _IOW('H', 123, 32 bytes)
  CHECK(abi::ctrl_syncpt_waitex == 0xc0104806u);      // _IOWR('H', 6, 16 bytes)
}

TEST_CASE("nvmap memory is one set of bytes for the CPU mapping and the GPU mapping", "[nvgpu]") {
  Fixture f;
  CHECK(f.cpu >= nvgpu::buffer_memory_base);
  CHECK(f.cpu < nvgpu::buffer_memory_end);
  // CPU writes are what the GPU reads...
  const uint32_t pattern = 0x5eedf00d;
  std::memcpy(rt::host_pointer(f.cpu + 0x100), &pattern, 4);
  CHECK(f.driver.gpu().memory().read_u32(f.gpu + 0x100) == pattern);
  // ... and a GPU semaphore release lands where the CPU reads.
  maxwell::StreamBuilder s;
  s.semaphore_release(f.gpu + 0x800, 0x1234abcd);
  const auto [fence, result] = f.submit(s, 0x1000, abi::submit_flag_fence_get);
  REQUIRE(result == 0);
  CHECK(f.cpu_word(0x800) == 0x1234abcdu);
}

TEST_CASE("a fence from SUBMIT_GPFIFO is a syncpoint the ctrl device reads and waits on", "[nvgpu]") {
  Fixture f;
  maxwell::StreamBuilder s;
  s.host(maxwell::host_method::nop, 0);
  const auto [first, r1] = f.submit(s, 0x1000, abi::submit_flag_fence_get);
  const auto [second, r2] = f.submit(s, 0x1100, abi::submit_flag_fence_get);
  REQUIRE(r1 == 0);
  REQUIRE(r2 == 0);
  CHECK(first.id != 0);
  CHECK(second.id == first.id);
  CHECK(second.value == first.value + 1);
  auto read = f.call(f.ctrl, abi::ctrl_syncpt_read, abi::SyncptRead{first.id, 0});
  REQUIRE(read.second == 0);
  CHECK(read.first.value == second.value);
  auto wait = f.call(f.ctrl, abi::ctrl_syncpt_waitex, abi::SyncptWaitex{second.id, second.value, 100, 0});
  CHECK(wait.second == 0);
  CHECK(wait.first.value == second.value);
  CHECK(f.flushes == 1); // the renderer writes back before the CPU reads
  // A threshold nobody will reach fails without blocking when the timeout is 0.
  auto never = f.call(f.ctrl, abi::ctrl_syncpt_waitex, abi::SyncptWaitex{second.id, second.value + 5, 0, 0});
  CHECK(never.second == -EAGAIN);
}

TEST_CASE("a FENCE_WAIT submission runs only after the syncpoint is incremented", "[nvgpu]") {
  Fixture f;
  const uint32_t user_syncpoint = 100;
  maxwell::StreamBuilder s;
  s.semaphore_release(f.gpu + 0x900, 7);
  const auto [fence, result] = f.submit(s, 0x1000, abi::submit_flag_fence_wait | abi::submit_flag_fence_get,
                                        abi::Fence{user_syncpoint, 1});
  REQUIRE(result == 0);
  CHECK(f.cpu_word(0x900) == 0u); // blocked on syncpoint 100 reaching 1
  REQUIRE(f.call(f.ctrl, abi::ctrl_syncpt_incr, abi::SyncptIncr{user_syncpoint}).second == 0);
  CHECK(f.cpu_word(0x900) == 7u);
  CHECK(f.call(f.ctrl, abi::ctrl_syncpt_waitex, abi::SyncptWaitex{fence.id, fence.value, 100, 0}).second == 0);
}

TEST_CASE("draws submitted through the channel reach the backend with their state", "[nvgpu]") {
  Fixture f;
  const uint64_t target = f.gpu + 0x20000, constants = f.gpu + 0x8000, programs = f.gpu + 0x10000;
  std::vector<uint8_t> sph(0x50);
  for (size_t i = 0; i < sph.size(); ++i) sph[i] = static_cast<uint8_t>(0x40 + i);
  std::memcpy(rt::host_pointer(f.cpu + 0x10000 + 0x30), sph.data(), sph.size()); // written by the CPU
  maxwell::StreamBuilder s;
  s.bind(0, maxwell::ClassId::threed);
  s.method(0, "SET_PROGRAM_REGION_A", high(programs)).method(0, "SET_PROGRAM_REGION_B", low(programs));
  s.method(0, "SET_PIPELINE_SHADER", 1, 1u | (1u << 4)).method(0, "SET_PIPELINE_PROGRAM", 1, 0x30);
  s.method(0, "SET_COLOR_TARGET_A", 0, high(target)).method(0, "SET_COLOR_TARGET_B", 0, low(target));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 0, 64).method(0, "SET_COLOR_TARGET_HEIGHT", 0, 48);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 0, 0xd5);
  const uint32_t selector[] = {0x100, high(constants), low(constants)};
  s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", selector);
  s.method(0, "BIND_GROUP_CONSTANT_BUFFER", 4, 1u | (1u << 4)); // fragment stage, slot 1, valid
  s.method(0, "SET_DEPTH_TEST", 1);
  s.method(0, "BEGIN", 4).method(0, "SET_VERTEX_ARRAY_START", 0).method(0, "DRAW_VERTEX_ARRAY", 6).method(0, "END", 0);
  const auto [fence, result] = f.submit(s, 0x1000, abi::submit_flag_fence_get);
  REQUIRE(result == 0);
  CHECK(f.driver.gpu().error_count() == 0);
  REQUIRE(f.backend.draws == 1);
  const auto& draw = *std::get<std::shared_ptr<const maxwell::DrawSnapshot>>(f.backend.events.back());
  CHECK(draw.topology == 4);
  CHECK(draw.count == 6);
  CHECK(draw.programs[1].address == programs + 0x30);
  CHECK(std::vector<uint8_t>(draw.programs[1].header.begin(), draw.programs[1].header.end()) == sph);
  CHECK(draw.color_targets[0].address == target);
  CHECK(draw.color_targets[0].width == 64);
  CHECK(draw.color_targets[0].height == 48);
  CHECK(draw.constant_buffers[4][1].valid);
  CHECK(draw.constant_buffers[4][1].address == constants);
  CHECK(draw.constant_buffers[4][1].size == 0x100);
}

TEST_CASE("nvgpu misuse gets errors, unknown requests are reported", "[nvgpu]") {
  Fixture f;
  CHECK(f.call(f.channel, abi::channel_alloc_obj_ctx, abi::ChannelAllocObjCtx{0xc597, 0, 0}).second == -EINVAL);
  CHECK(f.call(f.channel, abi::iowr('H', 77, 8), uint64_t{0}).second == -ENOTTY);
  CHECK(f.driver.ioctl(f.nvmap, abi::nvmap_create, 0x20000000, pc) == -EFAULT); // argument not in guest memory
  const int64_t unbound = *f.driver.open("/dev/nvhost-gpu");
  CHECK(f.call(unbound, abi::channel_alloc_gpfifo_ex, abi::ChannelAllocGpfifoEx{1024, 0, 0, {}}).second == -EINVAL);
  CHECK(f.driver.mmap(f.nvmap, 0, 0x1000, 1, 0) == -ENODEV); // buffers map through their dma-buf fd
  CHECK_FALSE(f.driver.open("/dev/null").has_value());
  CHECK(f.driver.close(unbound) == 0);
  CHECK_FALSE(f.driver.owns(unbound));
}

TEST_CASE("a channel of Ampere object contexts runs C56F host methods and fences like a Maxwell one", "[nvgpu]") {
  Fixture f;
  // A second channel, of the Ampere family: its first object context (C797) makes its host class C56F.
  const int64_t ampere = *f.driver.open("/dev/nvhost-gpu");
  REQUIRE(f.call(f.address_space, abi::as_bind_channel, abi::AsBindChannel{static_cast<uint32_t>(ampere)}).second == 0);
  REQUIRE(f.call(ampere, abi::channel_alloc_gpfifo_ex, abi::ChannelAllocGpfifoEx{1024, 0, 0, {}}).second == 0);
  for (uint32_t class_id : {0xc797u, 0xc7b5u, 0xc7c0u, 0x902du, 0xa140u}) {
    INFO(class_id);
    CHECK(f.call(ampere, abi::channel_alloc_obj_ctx, abi::ChannelAllocObjCtx{class_id, 0, 0}).second == 0);
  }
  CHECK(f.call(ampere, abi::channel_alloc_obj_ctx, abi::ChannelAllocObjCtx{0xb197, 0, 0}).second == -EINVAL); // the other family
  CHECK(f.call(f.channel, abi::channel_alloc_obj_ctx, abi::ChannelAllocObjCtx{0xc797, 0, 0}).second == -EINVAL);
  CHECK(f.driver.gpu().channel(1).host_class() == 0xc56f);
  CHECK(f.driver.gpu().channel(0).host_class() == 0xb06f);

  // SEM_EXECUTE RELEASE of a 64-bit payload, then the driver's fence (WFI + syncpoint increment, at offsets C56F
  // leaves to Tegra's syncpoint methods) on the Ampere channel.
  maxwell::StreamBuilder s;
  const uint64_t semaphore = f.gpu + 0x3000;
  s.host(maxwell::host_method::sem_addr_lo, low(semaphore)).host(maxwell::host_method::sem_addr_hi, high(semaphore));
  s.host(maxwell::host_method::sem_payload_lo, 0x89abcdef).host(maxwell::host_method::sem_payload_hi, 0x01234567);
  s.host(maxwell::host_method::sem_execute, 1u | (1u << 24)); // RELEASE, PAYLOAD_SIZE_64BIT
  std::memcpy(rt::host_pointer(f.cpu + 0x2000), s.words().data(), s.size() * 4);
  const maxwell::GpfifoEntry entry = maxwell::GpfifoEntry::commands(f.gpu + 0x2000, static_cast<uint32_t>(s.size()));
  const uint32_t words[2] = {entry.word0(), entry.word1()};
  const uint64_t entries = arguments + 0x800;
  std::memcpy(rt::host_pointer(entries), words, sizeof words);
  const auto submitted = f.call(ampere, abi::channel_submit_gpfifo, abi::ChannelSubmitGpfifo{entries, 1, abi::submit_flag_fence_get, {}});
  REQUIRE(submitted.second == 0);
  CHECK(f.driver.gpu().error_count() == 0);
  CHECK(f.cpu_word(0x3000) == 0x89abcdef);
  CHECK(f.cpu_word(0x3004) == 0x01234567);
  const abi::Fence fence = submitted.first.fence;
  CHECK(f.call(f.ctrl, abi::ctrl_syncpt_waitex, abi::SyncptWaitex{fence.id, fence.value, 100, 0}).second == 0);
}
