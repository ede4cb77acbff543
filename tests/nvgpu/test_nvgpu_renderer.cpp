// The driver's own backend: kiln's Vulkan renderer on lavapipe (validation and synchronization validation on).
// A 3D clear submitted through the channel reaches guest memory when the program waits for its fence, in the
// target's block-linear layout: what the CPU reads after the wait is the GPU's pixels.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

#include "runtime/core/guest_memory.h"
#include "runtime/gpu/maxwell/stream_builder.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/maxwell/maxwell_renderer.h"
#include "runtime/platform/linux-user/nvgpu_abi.h"
#include "runtime/platform/linux-user/nvgpu_driver.h"

using namespace kiln;
using namespace kiln::linux_user;
namespace abi = kiln::linux_user::nvgpu_abi;

namespace {
constexpr uint64_t arguments = 0x11000000;

template <typename T>
std::pair<T, int64_t> call(nvgpu::Driver& driver, int64_t fd, uint32_t request, T argument) {
  std::memcpy(rt::host_pointer(arguments), &argument, sizeof argument);
  const int64_t result = driver.ioctl(fd, request, arguments, 0x401000);
  std::memcpy(&argument, rt::host_pointer(arguments), sizeof argument);
  return {argument, result};
}
} // namespace

TEST_CASE("a 3D clear rendered on Vulkan is in guest memory after the fence wait", "[nvgpu][gpu]") {
  rt::reserve_guest_memory();
  rt::map_guest(arguments, 0x1000);
  setenv("KILN_VULKAN_VALIDATION", "1", 1);
  nvgpu::Driver driver; // no backend set: the driver creates the renderer at the first channel
  const int64_t nvmap = *driver.open("/dev/nvmap"), as = *driver.open("/dev/nvhost-as-gpu");
  const int64_t channel = *driver.open("/dev/nvhost-gpu"), ctrl = *driver.open("/dev/nvhost-ctrl");
  const uint32_t size = 0x10000;
  const uint32_t handle = call(driver, nvmap, abi::nvmap_create, abi::NvmapCreate{size, 0}).first.handle;
  REQUIRE(call(driver, nvmap, abi::nvmap_alloc, abi::NvmapAlloc{handle, 1u << 30, 0, 0x1000}).second == 0);
  const uint32_t dma_buf = call(driver, nvmap, abi::nvmap_get_fd, abi::NvmapCreate{0, handle}).first.size_or_id;
  const uint64_t cpu = static_cast<uint64_t>(driver.mmap(dma_buf, 0, size, 1, 0));
  REQUIRE(call(driver, as, abi::as_bind_channel, abi::AsBindChannel{static_cast<uint32_t>(channel)}).second == 0);
  REQUIRE(call(driver, channel, abi::channel_alloc_gpfifo_ex, abi::ChannelAllocGpfifoEx{64, 0, 0, {}}).second == 0);
  REQUIRE(driver.renderer() != nullptr);
  const uint64_t gpu = call(driver, as, abi::as_map_buffer_ex, abi::AsMapBufferEx{0, -1, dma_buf, 0, 0, 0, 0}).first.offset;

  // Colour target: 16x8 RGBA8 at +0x8000, block-linear with one-GOB blocks (64 bytes x 8 rows: one GOB).
  const uint64_t target = gpu + 0x8000;
  std::memset(rt::host_pointer(cpu + 0x8000), 0x77, 0x200);
  maxwell::StreamBuilder s;
  s.bind(0, maxwell::ClassId::threed);
  s.method(0, "SET_COLOR_TARGET_A", 0, static_cast<uint32_t>(target >> 32)).method(0, "SET_COLOR_TARGET_B", 0, static_cast<uint32_t>(target));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 0, 16).method(0, "SET_COLOR_TARGET_HEIGHT", 0, 8);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 0, 0xd5).method(0, "SET_COLOR_TARGET_MEMORY", 0, 0);
  s.method(0, "SET_CT_SELECT", 1);
  const float colour[4] = {1.0f, 0.0f, 1.0f, 1.0f}; // exact in UNORM8: 0xff, 0x00, 0xff, 0xff
  for (uint32_t i = 0; i < 4; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &colour[i], 4);
    s.method(0, "SET_COLOR_CLEAR_VALUE", i, bits);
  }
  s.method(0, "CLEAR_SURFACE", 0xfu << 2);
  std::memcpy(rt::host_pointer(cpu), s.words().data(), s.size() * 4);
  const maxwell::GpfifoEntry entry = maxwell::GpfifoEntry::commands(gpu, static_cast<uint32_t>(s.size()));
  const uint32_t words[2] = {entry.word0(), entry.word1()};
  std::memcpy(rt::host_pointer(arguments + 0x800), words, 8);
  const auto submitted = call(driver, channel, abi::channel_submit_gpfifo,
                              abi::ChannelSubmitGpfifo{arguments + 0x800, 1, abi::submit_flag_fence_get, {}});
  REQUIRE(submitted.second == 0);
  const abi::Fence fence = submitted.first.fence;
  REQUIRE(call(driver, ctrl, abi::ctrl_syncpt_waitex, abi::SyncptWaitex{fence.id, fence.value, 1000, 0}).second == 0);

  // Every pixel of the GOB holds the clear colour (a uniform colour is the same under any swizzle).
  int wrong = 0;
  for (uint32_t i = 0; i < 16 * 8; ++i) {
    const uint8_t* p = rt::host_pointer(cpu + 0x8000 + 4 * i);
    wrong += !(p[0] == 0xff && p[1] == 0x00 && p[2] == 0xff && p[3] == 0xff);
  }
  CHECK(wrong == 0);
  CHECK(driver.renderer()->diagnostics().empty());
  CHECK(driver.vulkan_context()->validation_log().count() == 0);
  unsetenv("KILN_VULKAN_VALIDATION");
}
