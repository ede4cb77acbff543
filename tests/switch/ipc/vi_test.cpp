// vi and its binder relay through sm and the kernel (requests, parcels and surfaces as tests/switch/ipc/vi_harness.h
// says where each layout comes from).
#include <cstring>
#include <string>

#include "tests/switch/ipc/vi_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;

using namespace kiln::test::vi;
using Fixture = ViFixture;

TEST_CASE("vi opens the default display, a stray layer whose native window names its binder, and a 60 Hz vsync event") {
  Fixture f;
  // OpenDisplay: the DisplayName, 0x40 bytes: "Default".
  std::vector<uint32_t> name(16, 0);
  std::memcpy(name.data(), "Default", 7);
  REQUIRE(f.call(f.display_service, 1010, name) == 0);
  const uint64_t display = peek<uint64_t>(f.tls + 0x20);
  std::vector<uint32_t> other(16, 0);
  std::memcpy(other.data(), "External", 8);
  CHECK(f.call(f.display_service, 1010, other) != 0);
  // GetDisplayResolution(display): s64 width, s64 height.
  REQUIRE(f.call(f.display_service, 1102, {static_cast<uint32_t>(display), 0}) == 0);
  CHECK(peek<int64_t>(f.tls + 0x20) == 1280);
  CHECK(peek<int64_t>(f.tls + 0x28) == 720);
  // CreateStrayLayer(u32 flags, pad, u64 display) with the 0x100-byte native window buffer: layer id, size.
  REQUIRE(f.call(f.display_service, 2030, {1, 0, static_cast<uint32_t>(display), 0}, window_at, 0x100) == 0);
  const uint64_t layer = peek<uint64_t>(f.tls + 0x20);
  const uint64_t size = peek<uint64_t>(f.tls + 0x28);
  CHECK(size >= 0x10 + 12);
  const uint32_t data_size = peek<uint32_t>(window_at), data_offset = peek<uint32_t>(window_at + 4);
  CHECK(data_offset + data_size <= size);
  CHECK(peek<uint32_t>(window_at + data_offset + 8) == layer); // the binder id at data word 2
  // SetLayerScalingMode(u32 mode, pad, u64 layer): FitToLayer (2).
  CHECK(f.call(f.display_service, 2101, {2, 0, static_cast<uint32_t>(layer), 0}) == 0);
  CHECK(f.call(f.display_service, 2101, {2, 0, 999, 0}) != 0);
  // GetDisplayVsyncEvent(display): a copy handle that is signalled within a frame or two.
  REQUIRE(f.call(f.display_service, 5202, {static_cast<uint32_t>(display), 0}) == 0);
  const uint32_t vsync = f.word(3);
  CHECK(f.wait(vsync, 100'000'000) == 0);
  // ResetSignal, then signalled again: the event repeats.
  f.g.cpu().x[0] = vsync;
  REQUIRE(test::Guest::svc(f.g.cpu(), 0x17) == 0);
  CHECK(f.wait(vsync, 100'000'000) == 0);
}

TEST_CASE("am's CreateManagedDisplayLayer makes the layer vi's OpenLayer opens, as libnx's viCreateLayer asks") {
  Fixture f;
  const uint32_t proxy = f.open_application_proxy();
  REQUIRE(f.call(proxy, 1) == 0); // GetSelfController
  const uint32_t self = f.word(3);
  REQUIRE(f.call(self, 40) == 0); // CreateManagedDisplayLayer: u64 layer id
  const uint64_t layer = peek<uint64_t>(f.tls + 0x20);
  CHECK(layer != 0);
  // OpenLayer(DisplayName "Default", u64 layer id, u64 aruid) with the 0x100-byte native window buffer.
  std::vector<uint32_t> args(16, 0);
  std::memcpy(args.data(), "Default", 7);
  for (const uint32_t w : {static_cast<uint32_t>(layer), 0u, 0x51u, 0u}) args.push_back(w);
  REQUIRE(f.call(f.display_service, 2020, args, window_at, 0x100) == 0);
  const uint32_t data_offset = peek<uint32_t>(window_at + 4);
  CHECK(peek<uint32_t>(window_at + data_offset + 8) == layer); // its binder id
  // A second managed layer is a new one; a layer id nobody made is refused.
  REQUIRE(f.call(self, 40) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) != layer);
  args[16] = 999;
  CHECK(f.call(f.display_service, 2020, args, window_at, 0x100) != 0);
  // GetAccumulatedSuspendedTickValue is 0 and its changed event is a copy handle that stays unsignalled.
  REQUIRE(f.call(self, 90) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == 0);
  REQUIRE(f.call(self, 91) == 0);
  CHECK(f.word(2) == 0x2);
  const auto event = f.g.kernel.lookup_as<hos::ReadableEvent>(f.word(3));
  REQUIRE(event);
  CHECK_FALSE(event->signaled);
}

TEST_CASE("the buffer queue presents a queued block-linear RGBA8 buffer from nvmap memory as a frame") {
  Fixture f;
  REQUIRE(f.call(f.display_service, 2030, {0, 0, 1, 0}, window_at, 0x100) == 0);
  const int32_t id = static_cast<int32_t>(peek<uint32_t>(window_at + peek<uint32_t>(window_at + 4) + 8));

  // The surface: 64x16 RGBA8, pitch 256 bytes, blocks of 2 GOBs (16 rows), in an nvmap buffer of heap memory.
  constexpr uint32_t width = 64, height = 16, pitch = 256, block_height_log2 = 1;
  const uint64_t heap = f.g.heap(0x200000);
  auto& gpu = hos::gpu_devices();
  uint32_t handle = 0;
  REQUIRE(gpu.create_buffer(0x10000, handle) == nvgpu_devices::Status::ok);
  REQUIRE(gpu.allocate_buffer(handle, 0x1000, 0xfe, heap) == nvgpu_devices::Status::ok);
  auto pixel = [](uint32_t x, uint32_t y) { return uint32_t{x * 4} | (y * 16) << 8 | 0x80u << 16 | 0xffu << 24; };
  constexpr uint32_t plane_offset = 0x1000;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x)
      poke<uint32_t>(heap + plane_offset + block_linear_offset(x * 4, y, pitch, block_height_log2), pixel(x, y));

  const auto connected = f.transact(id, 10, connect_parcel());
  REQUIRE(connected.size() == 5);
  CHECK(connected[0] == 1280);
  CHECK(connected[1] == 720);
  CHECK(connected[4] == 0);

  const std::vector<uint32_t> gb = graphic_buffer(handle, width, height, pitch, plane_offset, block_height_log2);
  CHECK(f.transact(id, 14, preallocate_parcel(gb)).back() == 0);

  // REQUEST_BUFFER(0): non-null, the buffer back.
  Parcel request;
  request.token();
  request.i32(0);
  const auto requested = f.transact(id, 1, request);
  CHECK(requested[0] == 1);
  CHECK(requested[1] == static_cast<int32_t>(gb.size() * 4));
  CHECK(requested.back() == 0);

  // DEQUEUE_BUFFER: slot 0 and a fence of 0x24 bytes.
  const auto dequeued = f.transact(id, 3, dequeue_parcel(width, height));
  REQUIRE(dequeued.size() >= 5);
  CHECK(dequeued[0] == 0);
  CHECK(dequeued[1] == 1);
  CHECK(dequeued[2] == 0x24);
  CHECK(dequeued.back() == 0);

  const auto queued = f.transact(id, 7, queue_parcel());
  REQUIRE(queued.size() == 5);
  CHECK(queued[0] == 1280);
  CHECK(queued.back() == 0);
  REQUIRE(f.frames.size() == 1);
  const RgbaImage& frame = f.frames[0].first;
  REQUIRE(frame.width == width);
  REQUIRE(frame.height == height);
  size_t differ = 0;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint32_t got;
      std::memcpy(&got, frame.pixels.data() + (size_t{y} * width + x) * 4, 4);
      if (got != pixel(x, y)) ++differ;
    }
  CHECK(differ == 0);

  // QUERY(NATIVE_WINDOW_HEIGHT) and a transaction kiln does not implement (DETACH_BUFFER: BAD_VALUE -22).
  Parcel query;
  query.token();
  query.i32(1);
  const auto answered = f.transact(id, 9, query);
  CHECK(answered[0] == 720);
  CHECK(answered[1] == 0);
  Parcel detach;
  detach.token();
  detach.i32(0);
  CHECK(f.transact(id, 4, detach).back() == -22);
  // A parcel without the interface token: BAD_VALUE.
  Parcel bare;
  bare.i32(0);
  CHECK(f.transact(id, 3, bare).back() == -22);
  // GetNativeHandle(id, 0xf): the buffer-available event.
  CHECK(f.call(f.binder, 2, {static_cast<uint32_t>(id), 0xf}) == 0);
  CHECK(f.wait(f.word(3), 0) == 0);
}

} // namespace
