#pragma once
// vi and its binder relay driven through sm and the kernel, for vi's unit test and the host-shell test program.
// Requests are written from switchbrew's "Display services" and "Nvnflinger services" pages (command ids and
// arguments; IPC_Marshalling for the message), parcels from Android's Parcel layout (a 0x10-byte header: data
// size, data offset, objects size, objects offset; the interface token: strict-mode policy 0x100 and the
// String16 "android.gui.IGraphicBufferProducer") and IGraphicBufferProducer's transaction codes and arguments;
// the GraphicBuffer from Android's flattened layout ("GBFR", width, height, stride, format, usage, pid,
// refcount, fd and int counts) with Nvidia's native handle (nvmap id at int 1, 0xdaffcaff at int 3, plane 0
// from int 13: width, height, colour format u64, layout, pitch, -, offset, kind, block height). Surfaces are
// written block-linear with the GOB layout of the Tegra X1 TRM (64x8-byte GOBs of 16x2-byte sectors, blocks of
// 2^n GOBs stacked in Y), computed here.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/nvdrv.h"
#include "runtime/platform/switch/services/vi.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace kiln::test::vi {

constexpr uint32_t sfci = 0x49434653;
constexpr uint64_t parcel_in = kiln::test::data_base + 0x2000, parcel_out = kiln::test::data_base + 0x4000;
constexpr uint64_t window_at = kiln::test::data_base + 0x6000;

inline std::vector<uint32_t> descriptor(uint64_t address, uint32_t size) {
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

/// A process with kiln's services and vi:m's display service and binder relay open. It collects the presented
/// frames unless `collect_frames` is false (then they go wherever the sink was pointed).
struct ViFixture : kiln::test::IpcFixture {
  std::vector<std::pair<RgbaImage, uint64_t>> frames;
  uint32_t display_service = 0, binder = 0;
  bool own_sink;

  explicit ViFixture(const hos::SystemSettings& settings = {}, bool collect_frames = true) : own_sink(collect_frames) {
    hos::register_default_services(*registry, settings);
    if (own_sink) hos::set_frame_sink([this](const RgbaImage& frame, uint64_t number) { frames.emplace_back(frame, number); });
    const uint32_t vi = open_service(0x6d3a6976); // "vi:m", little-endian
    REQUIRE(vi != 0);
    REQUIRE(call(vi, 2, {1}) == 0); // GetDisplayService(policy 1)
    display_service = word(3);
    REQUIRE(call(display_service, 100) == 0); // GetRelayService
    binder = word(3);
  }
  ~ViFixture() {
    if (own_sink) hos::set_frame_sink([](const RgbaImage&, uint64_t) {});
  }
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
    poke<uint32_t>(kiln::test::data_base + 0x800, handle);
    g.cpu().x[1] = kiln::test::data_base + 0x800;
    g.cpu().x[2] = 1;
    g.cpu().x[3] = static_cast<uint64_t>(timeout_ns);
    return kiln::test::Guest::svc(g.cpu(), 0x18);
  }
};

/// The byte offset of byte column `x_bytes`, row `y` in a block-linear surface `pitch` bytes wide whose blocks
/// are 2^block_height_log2 GOBs high (Tegra X1 TRM: a GOB is 64 bytes x 8 rows, 512 bytes; inside it, 32-byte
/// halves, 2-row groups of 64 bytes, 16-byte sectors, one row pair each).
inline uint64_t block_linear_offset(uint32_t x_bytes, uint32_t y, uint32_t pitch, uint32_t block_height_log2) {
  const uint32_t block_rows = 8u << block_height_log2, gobs_per_row = pitch / 64;
  const uint64_t block = uint64_t{y / block_rows} * gobs_per_row + x_bytes / 64;
  const uint32_t gob_in_block = (y % block_rows) / 8;
  const uint32_t gx = x_bytes % 64, gy = y % 8;
  const uint32_t in_gob = (gx / 32) * 256 + (gy / 2) * 64 + ((gx % 32) / 16) * 32 + (gy % 2) * 16 + gx % 16;
  return block * (512u << block_height_log2) + gob_in_block * 512 + in_gob;
}

/// The flattened GraphicBuffer of SET_PREALLOCATED_BUFFER: an RGBA8 block-linear surface `width` x `height`,
/// `pitch` bytes a row, at `plane_offset` in nvmap buffer `handle`, blocks of 2^block_height_log2 GOBs.
inline std::vector<uint32_t> graphic_buffer(uint32_t handle, uint32_t width, uint32_t height, uint32_t pitch, uint32_t plane_offset,
                                     uint32_t block_height_log2) {
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
  return gb;
}

/// The buffer queue requests both the vi test and the host test program send (layouts from Android's
/// IGraphicBufferProducer, as the vi test's comments give them).
/// CONNECT: no listener, NATIVE_WINDOW_API_CPU, not producer-controlled.
inline Parcel connect_parcel() {
  Parcel p;
  p.token();
  for (int32_t v : {0, 2, 0}) p.i32(v);
  return p;
}
/// SET_PREALLOCATED_BUFFER(slot 0, present, the flattened GraphicBuffer).
inline Parcel preallocate_parcel(const std::vector<uint32_t>& graphic_buffer) {
  Parcel p;
  p.token();
  p.i32(0);
  p.i32(1);
  p.flattened(graphic_buffer.data(), graphic_buffer.size() * 4);
  return p;
}
/// DEQUEUE_BUFFER(async 0, width, height, format RGBA_8888, usage 0xb00).
inline Parcel dequeue_parcel(uint32_t width, uint32_t height) {
  Parcel p;
  p.token();
  for (int32_t v : {0, static_cast<int32_t>(width), static_cast<int32_t>(height), 1, 0xb00}) p.i32(v);
  return p;
}
/// QUEUE_BUFFER(slot 0, QueueBufferInput: timestamp, auto, crop, scaling, transform, sticky, unknown, swap
/// interval 1, then the multi-fence at 0x30 with no fences).
inline Parcel queue_parcel() {
  std::vector<uint8_t> input(0x54, 0);
  const uint32_t swap_interval = 1;
  std::memcpy(input.data() + 0x2c, &swap_interval, 4);
  Parcel p;
  p.token();
  p.i32(0);
  p.flattened(input.data(), input.size());
  return p;
}

} // namespace kiln::test::vi
