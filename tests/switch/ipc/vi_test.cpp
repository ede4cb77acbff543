// vi and its binder relay through sm and the kernel. Requests are written from switchbrew's "Display
// services" and "Nvnflinger services" pages (command ids and arguments; IPC_Marshalling for the message),
// parcels from Android's Parcel layout (a 0x10-byte header: data size, data offset, objects size, objects
// offset; the interface token: strict-mode policy 0x100 and the String16 "android.gui.IGraphicBufferProducer")
// and IGraphicBufferProducer's transaction codes and arguments; the GraphicBuffer from Android's flattened
// layout ("GBFR", width, height, stride, format, usage, pid, refcount, fd and int counts) with Nvidia's native
// handle (nvmap id at int 1, 0xdaffcaff at int 3, plane 0 from int 13: width, height, colour format u64,
// layout, pitch, -, offset, kind, block height). The surface is written block-linear with the GOB layout of the
// Tegra X1 TRM (64x8-byte GOBs of 16x2-byte sectors, blocks of 2^n GOBs stacked in Y), computed here.
#include <cstring>
#include <string>

#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/nvdrv.h"
#include "runtime/platform/switch/services/vi.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;

constexpr uint32_t sfci = 0x49434653;
constexpr uint64_t parcel_in = test::data_base + 0x2000, parcel_out = test::data_base + 0x4000;
constexpr uint64_t window_at = test::data_base + 0x6000;

std::vector<uint32_t> descriptor(uint64_t address, uint32_t size) {
  return {size, static_cast<uint32_t>(address), static_cast<uint32_t>(((address >> 32) & 0xf) << 28 | ((address >> 36) & 0x7) << 2)};
}

/// An Android parcel's data, 4-byte aligned, with its header in front.
struct Parcel {
  std::vector<uint8_t> data;
  void i32(int32_t v) { bytes(&v, 4); }
  void bytes(const void* p, size_t n) {
    const size_t at = data.size();
    data.resize(at + ((n + 3) & ~size_t{3}));
    std::memcpy(data.data() + at, p, n);
  }
  void token() {
    i32(0x100);
    const std::string name = "android.gui.IGraphicBufferProducer";
    i32(static_cast<int32_t>(name.size()));
    std::vector<uint16_t> utf16(name.begin(), name.end());
    utf16.push_back(0);
    bytes(utf16.data(), utf16.size() * 2);
  }
  void flattened(const void* p, size_t n) {
    i32(static_cast<int32_t>(n));
    i32(0);
    bytes(p, n);
  }
  void store(uint64_t at) const {
    const uint32_t header[4] = {static_cast<uint32_t>(data.size()), 0x10, 0, static_cast<uint32_t>(0x10 + data.size())};
    std::memcpy(rt::host_pointer(at), header, 16);
    std::memcpy(rt::host_pointer(at + 16), data.data(), data.size());
  }
};

struct Fixture : test::IpcFixture {
  std::vector<std::pair<RgbaImage, uint64_t>> frames;
  uint32_t display_service = 0, binder = 0;

  Fixture() {
    hos::register_default_services(*registry, hos::SystemSettings{});
    hos::set_frame_sink([this](const RgbaImage& frame, uint64_t number) { frames.emplace_back(frame, number); });
    const uint32_t vi = open_service(0x6d3a6976); // "vi:m", little-endian
    REQUIRE(vi != 0);
    REQUIRE(call(vi, 2, {1}) == 0); // GetDisplayService(policy 1)
    display_service = word(3);
    REQUIRE(call(display_service, 100) == 0); // GetRelayService
    binder = word(3);
  }
  ~Fixture() { hos::set_frame_sink([](const RgbaImage&, uint64_t) {}); }
  /// A command with raw u32 arguments and an optional B buffer (type 6): SFCI at the first 16-byte boundary.
  uint32_t call(uint32_t session, uint32_t command, std::vector<uint32_t> args = {}, uint64_t b = 0, uint32_t b_size = 0) {
    std::vector<uint32_t> words = {b ? 0x01000004u : 0x00000004u, 0};
    if (b)
      for (uint32_t w : descriptor(b, b_size)) words.push_back(w);
    const size_t raw = words.size();
    while (words.size() % 4) words.push_back(0);
    for (uint32_t w : {sfci, 0u, command, 0u}) words.push_back(w);
    words.insert(words.end(), args.begin(), args.end());
    words[1] = static_cast<uint32_t>(words.size() - raw + 4);
    message(words);
    REQUIRE(send(session) == 0);
    return peek<uint32_t>(tls + 0x18);
  }
  /// TransactParcel(id, code, A parcel_in, B parcel_out, flags 0); the reply's data words.
  std::vector<int32_t> transact(int32_t id, uint32_t code, const Parcel& parcel) {
    parcel.store(parcel_in);
    std::memset(rt::host_pointer(parcel_out), 0, 0x400);
    std::vector<uint32_t> words = {0x01100004, 0};
    for (uint32_t w : descriptor(parcel_in, static_cast<uint32_t>(16 + parcel.data.size()))) words.push_back(w);
    for (uint32_t w : descriptor(parcel_out, 0x400)) words.push_back(w);
    const size_t raw = words.size();
    for (uint32_t w : {sfci, 0u, 0u, 0u, static_cast<uint32_t>(id), code, 0u}) words.push_back(w);
    words[1] = static_cast<uint32_t>(words.size() - raw + 4);
    message(words);
    REQUIRE(send(binder) == 0);
    REQUIRE(peek<uint32_t>(tls + 0x18) == 0);
    const uint32_t size = peek<uint32_t>(parcel_out), offset = peek<uint32_t>(parcel_out + 4);
    std::vector<int32_t> reply(size / 4);
    for (size_t i = 0; i < reply.size(); ++i) reply[i] = peek<int32_t>(parcel_out + offset + 4 * i);
    return reply;
  }
  uint32_t wait(uint32_t handle, int64_t timeout_ns) {
    poke<uint32_t>(test::data_base + 0x800, handle);
    g.cpu().x[1] = test::data_base + 0x800;
    g.cpu().x[2] = 1;
    g.cpu().x[3] = static_cast<uint64_t>(timeout_ns);
    return test::Guest::svc(g.cpu(), 0x18);
  }
};

/// The byte offset of byte column `x_bytes`, row `y` in a block-linear surface `pitch` bytes wide whose blocks
/// are 2^block_height_log2 GOBs high (Tegra X1 TRM: a GOB is 64 bytes x 8 rows, 512 bytes; inside it, 32-byte
/// halves, 2-row groups of 64 bytes, 16-byte sectors, one row pair each).
uint64_t block_linear_offset(uint32_t x_bytes, uint32_t y, uint32_t pitch, uint32_t block_height_log2) {
  const uint32_t block_rows = 8u << block_height_log2, gobs_per_row = pitch / 64;
  const uint64_t block = uint64_t{y / block_rows} * gobs_per_row + x_bytes / 64;
  const uint32_t gob_in_block = (y % block_rows) / 8;
  const uint32_t gx = x_bytes % 64, gy = y % 8;
  const uint32_t in_gob = (gx / 32) * 256 + (gy / 2) * 64 + ((gx % 32) / 16) * 32 + (gy % 2) * 16 + gx % 16;
  return block * (512u << block_height_log2) + gob_in_block * 512 + in_gob;
}

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

  Parcel connect;
  connect.token();
  for (int32_t v : {0, 2, 0}) connect.i32(v); // no listener, NATIVE_WINDOW_API_CPU, not producer-controlled
  const auto connected = f.transact(id, 10, connect);
  REQUIRE(connected.size() == 5);
  CHECK(connected[0] == 1280);
  CHECK(connected[1] == 720);
  CHECK(connected[4] == 0);

  // SET_PREALLOCATED_BUFFER(slot 0, present, the flattened GraphicBuffer).
  std::vector<uint32_t> gb(10 + 13 + 3 * 0x58 / 4 + 2, 0);
  const uint32_t header[10] = {0x47424652, width, height, width, 1, 0xb00, 42, 0, 0, static_cast<uint32_t>(gb.size() - 10)};
  std::memcpy(gb.data(), header, sizeof(header));
  uint32_t* ints = gb.data() + 10;
  ints[0] = 0xffffffff;
  ints[1] = handle; // nvmap id
  ints[3] = 0xdaffcaff;
  ints[4] = 42;
  ints[7] = ints[8] = 1;           // format, ext format: RGBA_8888
  ints[9] = width;                 // stride in pixels
  ints[10] = pitch * height;       // total size
  ints[11] = 1;                    // planes
  uint32_t* plane = ints + 13;
  plane[0] = width;
  plane[1] = height;
  plane[2] = 0x00532120;           // colour format A8B8G8R8 (u64 0x100532120)
  plane[3] = 0x1;
  plane[4] = 3;                    // block linear
  plane[5] = pitch;
  plane[7] = plane_offset;
  plane[8] = 0xfe;                 // kind generic 16BX2
  plane[9] = block_height_log2;
  Parcel preallocate;
  preallocate.token();
  preallocate.i32(0);
  preallocate.i32(1);
  preallocate.flattened(gb.data(), gb.size() * 4);
  CHECK(f.transact(id, 14, preallocate).back() == 0);

  // REQUEST_BUFFER(0): non-null, the buffer back.
  Parcel request;
  request.token();
  request.i32(0);
  const auto requested = f.transact(id, 1, request);
  CHECK(requested[0] == 1);
  CHECK(requested[1] == static_cast<int32_t>(gb.size() * 4));
  CHECK(requested.back() == 0);

  // DEQUEUE_BUFFER(async 0, width, height, format, usage): slot 0 and a fence of 0x24 bytes.
  Parcel dequeue;
  dequeue.token();
  for (int32_t v : {0, static_cast<int32_t>(width), static_cast<int32_t>(height), 1, 0xb00}) dequeue.i32(v);
  const auto dequeued = f.transact(id, 3, dequeue);
  REQUIRE(dequeued.size() >= 5);
  CHECK(dequeued[0] == 0);
  CHECK(dequeued[1] == 1);
  CHECK(dequeued[2] == 0x24);
  CHECK(dequeued.back() == 0);

  // QUEUE_BUFFER(slot 0, QueueBufferInput: timestamp, auto, crop, scaling, transform, sticky, unknown,
  // swap interval, then the multi-fence at 0x30 with no fences).
  std::vector<uint8_t> input(0x54, 0);
  const uint32_t swap_interval = 1;
  std::memcpy(input.data() + 0x2c, &swap_interval, 4);
  Parcel queue;
  queue.token();
  queue.i32(0);
  queue.flattened(input.data(), input.size());
  const auto queued = f.transact(id, 7, queue);
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
