// vi:u, vi:s, vi:m (nn::visrv::sf root services, switchbrew "Display services") and the display service they
// hand out, and IHOSBinderDriver (switchbrew "Nvnflinger services") with the Android buffer queue a layer's
// native window names: the IGraphicBufferProducer transactions of Android's IGraphicBufferProducer.cpp in the
// version the Switch uses (codes 1-14, SET_PREALLOCATED_BUFFER being the Switch's own), parcels as Android
// lays them out (a 0x10-byte header: data size, data offset, objects size, objects offset; 4-byte aligned data;
// the interface token: strict-mode policy, then the String16 name). A queued buffer is an nvmap buffer
// described by the GraphicBuffer of SET_PREALLOCATED_BUFFER (Nvidia's native handle: nvmap id, then the
// planes with width, height, colour format, layout, pitch, offset, block height); after its fences are reached
// the frame is read out of guest memory (block-linear or pitch) and given to the frame sink.
#include "runtime/platform/switch/services/vi.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "runtime/core/guest_memory.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/nvdrv.h"
#include "runtime/platform/switch/services/periodic_thread.h"

namespace kiln::hos {

namespace {

constexpr uint32_t vi_module = 114;
constexpr Result vi_invalid_argument = make_result(vi_module, 1); ///< kiln's choice for a bad layer or display id
constexpr Result vi_not_found = make_result(vi_module, 7);        ///< a display name kiln does not have
constexpr uint64_t default_display_id = 1;
constexpr uint32_t display_width = 1280, display_height = 720;
constexpr size_t buffer_slots = 64; // Android's NUM_BUFFER_SLOTS

// Android status_t values a transaction answers in its reply.
constexpr int32_t status_ok = 0, status_bad_value = -22, status_no_init = -19, status_would_block = -11;

// ---- frames ------------------------------------------------------------------------------------------------

std::mutex sink_lock;
FrameSink& sink() {
  static FrameSink installed = write_frame_file;
  return installed;
}

std::atomic<uint64_t> frames_presented{0};

void present(const RgbaImage& frame) {
  std::lock_guard guard(sink_lock);
  sink()(frame, frames_presented.load());
  ++frames_presented; // counted once the sink has it: a pad script's next state starts with the next frame
}

// ---- parcels -------------------------------------------------------------------------------------------------

/// Reads an Android parcel's data section: 4-byte aligned values, each read checked against the end.
class ParcelReader {
public:
  /// `bytes`: the whole parcel (header included); false from valid() when the header points outside it.
  explicit ParcelReader(std::span<const uint8_t> bytes) {
    if (bytes.size() < 16) return;
    uint32_t header[4];
    std::memcpy(header, bytes.data(), 16);
    const uint64_t size = header[0], offset = header[1];
    if (offset > bytes.size() || size > bytes.size() - offset) return;
    data_ = bytes.subspan(offset, size);
    valid_ = true;
  }
  bool valid() const { return valid_ && !overrun_; }
  template <typename T>
  T read() {
    T value{};
    read_bytes(&value, sizeof(T));
    return value;
  }
  void read_bytes(void* out, size_t size) {
    const size_t aligned = (size + 3) & ~size_t{3};
    if (!valid_ || at_ + aligned > data_.size()) {
      overrun_ = true;
      return;
    }
    std::memcpy(out, data_.data() + at_, size);
    at_ += aligned;
  }
  /// Android's flattened object: length, fd count, then the bytes.
  std::vector<uint8_t> read_flattened() {
    const int32_t length = read<int32_t>(), fds = read<int32_t>();
    if (length < 0 || fds != 0 || static_cast<size_t>(length) > data_.size()) {
      overrun_ = true;
      return {};
    }
    std::vector<uint8_t> bytes(static_cast<size_t>(length));
    read_bytes(bytes.data(), bytes.size());
    return bytes;
  }
  /// The interface token: strict-mode policy, then a String16.
  std::u16string read_interface_token() {
    read<int32_t>();
    const int32_t length = read<int32_t>();
    if (length < 0 || static_cast<size_t>(length) > data_.size()) {
      overrun_ = true;
      return {};
    }
    std::u16string text(static_cast<size_t>(length) + 1, u'\0');
    read_bytes(text.data(), text.size() * 2);
    text.pop_back(); // the terminator
    return text;
  }

private:
  std::span<const uint8_t> data_;
  size_t at_ = 0;
  bool valid_ = false, overrun_ = false;
};

class ParcelWriter {
public:
  template <typename T>
  void write(const T& value) { write_bytes(&value, sizeof(T)); }
  void write_bytes(const void* bytes, size_t size) {
    const size_t at = data_.size();
    data_.resize(at + ((size + 3) & ~size_t{3}));
    std::memcpy(data_.data() + at, bytes, size);
  }
  void write_flattened(std::span<const uint8_t> bytes) {
    write<int32_t>(static_cast<int32_t>(bytes.size()));
    write<int32_t>(0);
    write_bytes(bytes.data(), bytes.size());
  }
  /// The parcel with its header: data at 0x10, no objects.
  std::vector<uint8_t> finish() const {
    std::vector<uint8_t> parcel(16 + data_.size());
    const uint32_t header[4] = {static_cast<uint32_t>(data_.size()), 16, 0, static_cast<uint32_t>(16 + data_.size())};
    std::memcpy(parcel.data(), header, 16);
    std::copy(data_.begin(), data_.end(), parcel.begin() + 16);
    return parcel;
  }

private:
  std::vector<uint8_t> data_;
};

// ---- the buffer queue ----------------------------------------------------------------------------------------

/// The GraphicBuffer a slot holds (Android's flattened "GBFR" header, then Nvidia's native handle ints).
struct GraphicBuffer {
  std::vector<uint8_t> flattened; ///< as the guest sent it, for REQUEST_BUFFER
  uint32_t width = 0, height = 0, format = 0;
  uint32_t nvmap_id = 0;
  // Plane 0 (the only one kiln presents).
  uint32_t plane_width = 0, plane_height = 0, layout = 0, pitch = 0, offset = 0, block_height_log2 = 0;
  uint64_t colour_format = 0;
};

constexpr uint32_t graphic_buffer_magic = 0x47424652; // "GBFR"
constexpr uint32_t nv_handle_magic = 0xdaffcaff;
constexpr uint32_t layout_pitch = 1, layout_block_linear = 3;
constexpr uint64_t colour_a8b8g8r8 = 0x100532120;
constexpr uint32_t pixel_format_rgba_8888 = 1, pixel_format_rgbx_8888 = 2;

/// Decodes SET_PREALLOCATED_BUFFER's flattened buffer; an error message when it is not one kiln presents.
std::optional<std::string> decode_graphic_buffer(std::span<const uint8_t> bytes, GraphicBuffer& out) {
  auto word = [&](size_t index) {
    uint32_t value = 0;
    if ((index + 1) * 4 <= bytes.size()) std::memcpy(&value, bytes.data() + index * 4, 4);
    return value;
  };
  // Header words: magic, width, height, stride, format, usage, pid, refcount, fd count, int count; then the
  // native handle's ints: -1, nvmap id, 0, 0xdaffcaff, pid, type, usage, format, ext format, stride, total
  // size, plane count, 0, and the planes (0x58 bytes each) from int 13.
  constexpr size_t ints = 10, plane = ints + 13;
  if (bytes.size() < (plane + 0x58 / 4) * 4) return fmt::format("GraphicBuffer of {} bytes is too short", bytes.size());
  if (word(0) != graphic_buffer_magic) return fmt::format("GraphicBuffer magic {:#x} is not 'GBFR'", word(0));
  if (word(8) != 0) return "GraphicBuffer carries file descriptors";
  if (word(ints + 3) != nv_handle_magic) return fmt::format("native handle magic {:#x} is not 0xdaffcaff", word(ints + 3));
  out.flattened.assign(bytes.begin(), bytes.end());
  out.width = word(1);
  out.height = word(2);
  out.format = word(4);
  out.nvmap_id = word(ints + 1);
  out.plane_width = word(plane + 0);
  out.plane_height = word(plane + 1);
  out.colour_format = word(plane + 2) | uint64_t{word(plane + 3)} << 32;
  out.layout = word(plane + 4);
  out.pitch = word(plane + 5);
  out.offset = word(plane + 7);
  out.block_height_log2 = word(plane + 9);
  if (out.format != pixel_format_rgba_8888 && out.format != pixel_format_rgbx_8888)
    return fmt::format("pixel format {} (kiln presents RGBA_8888 and RGBX_8888)", out.format);
  if (out.colour_format != colour_a8b8g8r8) return fmt::format("colour format {:#x} (kiln presents A8B8G8R8)", out.colour_format);
  if (out.layout != layout_pitch && out.layout != layout_block_linear) return fmt::format("layout {}", out.layout);
  if (out.plane_width == 0 || out.plane_height == 0 || out.pitch < out.plane_width * 4 || out.block_height_log2 > 5)
    return fmt::format("plane {}x{} with pitch {} and block height 2^{}", out.plane_width, out.plane_height, out.pitch, out.block_height_log2);
  return std::nullopt;
}

/// The guest's multi-fence: a count and four {syncpoint, value} pairs (0x24 bytes).
struct MultiFence {
  uint32_t count = 0;
  nvgpu_devices::Fence fences[4];
};
static_assert(sizeof(MultiFence) == 0x24);

class BufferQueue {
public:
  enum class SlotState { free, dequeued };
  struct Slot {
    std::optional<GraphicBuffer> buffer;
    SlotState state = SlotState::free;
  };

  std::mutex lock;
  bool connected = false;
  Slot slots[buffer_slots];
  std::shared_ptr<ReadableEvent> buffer_available = std::make_shared<ReadableEvent>();
};

/// Reads plane 0 of a queued buffer out of its nvmap memory as an RGBA8 frame.
RgbaImage read_frame(const GraphicBuffer& buffer) {
  const nvgpu_devices::Devices::Buffer* memory = gpu_devices().buffer(buffer.nvmap_id);
  if (!memory) throw Error(fmt::format("queued buffer names nvmap handle {}, which does not exist", buffer.nvmap_id));
  textures::SurfaceDescription description;
  description.width = buffer.pitch / 4; // the surface as wide as its pitch; the frame is the plane's width
  description.height = buffer.plane_height;
  description.element = {4, 1, 1};
  if (buffer.layout == layout_block_linear) {
    description.block_height_log2 = buffer.block_height_log2;
  } else {
    description.tiling = textures::Tiling::pitch_linear;
    description.pitch_bytes = buffer.pitch;
  }
  const textures::SurfaceLayout layout = textures::SurfaceLayout::compute(description, "queued buffer");
  if (buffer.offset > memory->size || layout.total_size() > memory->size - buffer.offset)
    throw Error(fmt::format("queued buffer: plane of {} bytes at offset {:#x} runs past nvmap handle {} ({} bytes)",
                            layout.total_size(), buffer.offset, buffer.nvmap_id, memory->size));
  std::vector<uint8_t> linear(textures::linear_surface_size(layout));
  textures::deswizzle_surface(layout, {rt::host_pointer(memory->guest_address + buffer.offset), layout.total_size()}, linear);
  RgbaImage frame;
  frame.width = buffer.plane_width;
  frame.height = buffer.plane_height;
  frame.pixels.resize(size_t{frame.width} * frame.height * 4);
  for (uint32_t y = 0; y < frame.height; ++y)
    std::memcpy(frame.pixels.data() + size_t{y} * frame.width * 4, linear.data() + size_t{y} * description.width * 4, size_t{frame.width} * 4);
  if (buffer.format == pixel_format_rgbx_8888)
    for (size_t i = 3; i < frame.pixels.size(); i += 4) frame.pixels[i] = 0xff;
  return frame;
}

// IGraphicBufferProducer transaction codes (BINDER_FIRST_CALL_TRANSACTION = 1).
enum Transaction : uint32_t {
  request_buffer = 1, set_buffer_count = 2, dequeue_buffer = 3, detach_buffer = 4, detach_next_buffer = 5,
  attach_buffer = 6, queue_buffer = 7, cancel_buffer = 8, query = 9, connect = 10, disconnect = 11,
  set_sideband_stream = 12, allocate_buffers = 13, set_preallocated_buffer = 14,
};
const char* transaction_name(uint32_t code) {
  static const char* names[] = {"?", "REQUEST_BUFFER", "SET_BUFFER_COUNT", "DEQUEUE_BUFFER", "DETACH_BUFFER",
                                "DETACH_NEXT_BUFFER", "ATTACH_BUFFER", "QUEUE_BUFFER", "CANCEL_BUFFER", "QUERY",
                                "CONNECT", "DISCONNECT", "SET_SIDEBAND_STREAM", "ALLOCATE_BUFFERS",
                                "SET_PREALLOCATED_BUFFER"};
  return code < std::size(names) ? names[code] : "?";
}

// ---- the display: layers, their queues, the vsync event ---------------------------------------------------

constexpr std::chrono::microseconds vsync_period(16667);
std::mutex host_vblank_lock;
std::chrono::steady_clock::time_point host_vblank_at; ///< the host frame clock's latest vertical blank
std::chrono::steady_clock::time_point last_host_vblank() {
  std::lock_guard guard(host_vblank_lock);
  return host_vblank_at;
}


class Display {
public:
  /// A new layer with its buffer queue; the layer id and its binder id are the same number.
  uint64_t create_layer() {
    std::lock_guard guard(lock_);
    const uint64_t id = next_layer_++;
    queues_[static_cast<int32_t>(id)] = std::make_shared<BufferQueue>();
    return id;
  }
  bool destroy_layer(uint64_t id) {
    std::lock_guard guard(lock_);
    return queues_.erase(static_cast<int32_t>(id)) != 0;
  }
  bool has_layer(uint64_t id) {
    std::lock_guard guard(lock_);
    return queues_.count(static_cast<int32_t>(id)) != 0;
  }
  std::shared_ptr<BufferQueue> queue(int32_t binder_id) {
    std::lock_guard guard(lock_);
    const auto found = queues_.find(binder_id);
    return found == queues_.end() ? nullptr : found->second;
  }

  /// The vsync event, signalled at 60 Hz by a host thread started at the first request; while the host's frame
  /// clock reports vertical blanks (host_vblank), those signal it and the thread's ticks stay silent.
  std::shared_ptr<ReadableEvent> vsync_event(Kernel& kernel) {
    kernel_ = &kernel;
    vsync_clock_.start(vsync_period, [this, &kernel] {
      if (std::chrono::steady_clock::now() - last_host_vblank() >= vsync_period) kernel.signal(*vsync_);
    });
    return vsync_;
  }
  void host_vblank() {
    if (Kernel* kernel = kernel_.load()) kernel->signal(*vsync_);
  }

private:
  std::mutex lock_;
  std::shared_ptr<ReadableEvent> vsync_ = std::make_shared<ReadableEvent>();
  std::atomic<Kernel*> kernel_{nullptr}; ///< set by the first vsync event request
  std::map<int32_t, std::shared_ptr<BufferQueue>> queues_;
  uint64_t next_layer_ = 1;
  PeriodicThread vsync_clock_; // last: stopped before the members its tick uses go
};

std::mutex displays_lock;
std::vector<std::weak_ptr<Display>> displays; ///< every registry's display, for host_vblank

/// The native window a layer's OpenLayer/CreateStrayLayer writes into the guest's B buffer: a parcel whose
/// data holds magic 2, process id 1, the binder id at word 2, padding and the driver name "dispdrv".
uint64_t write_native_window(ipc::Context& c, int32_t binder_id) {
  ParcelWriter parcel;
  const uint32_t words[6] = {2, 1, static_cast<uint32_t>(binder_id), 0, 0, 0};
  parcel.write_bytes(words, sizeof(words));
  parcel.write_bytes("dispdrv\0", 8);
  parcel.write<uint64_t>(0);
  const std::vector<uint8_t> bytes = parcel.finish();
  const ipc::GuestBuffer out = c.out_auto(0);
  const size_t size = std::min<size_t>(bytes.size(), out.size);
  if (size) std::memcpy(out.host(), bytes.data(), size);
  return bytes.size();
}

class HosBinderDriver final : public ipc::ServiceObject {
public:
  explicit HosBinderDriver(std::shared_ptr<Display> display) : display_(std::move(display)) {}
  std::string_view name() const override { return "vi:IHOSBinderDriver"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "TransactParcel", ipc::bind<&HosBinderDriver::transact_parcel>},
        {1, "AdjustRefcount", ipc::bind<&HosBinderDriver::adjust_refcount>},
        {2, "GetNativeHandle", ipc::bind<&HosBinderDriver::get_native_handle>},
        {3, "TransactParcelAuto", ipc::bind<&HosBinderDriver::transact_parcel>},
    };
    return table;
  }
  Result transact_parcel(ipc::Context& c) {
    const int32_t id = c.read<int32_t>();
    const uint32_t code = c.read<uint32_t>();
    const std::shared_ptr<BufferQueue> queue = display_->queue(id);
    if (!queue) {
      c.kernel().report_once(fmt::format("binder {}", id), fmt::format("vi: TransactParcel to binder id {} at guest address {:#x}: no such "
                                                                        "layer", id, c.pc()));
      return vi_invalid_argument;
    }
    const ipc::GuestBuffer in = c.in_auto(0), out = c.out_auto(0);
    ParcelReader parcel({in.host(), in.size});
    ParcelWriter reply;
    if (!parcel.valid() || parcel.read_interface_token() != u"android.gui.IGraphicBufferProducer" || !parcel.valid()) {
      c.kernel().report_once("binder parcel", fmt::format("vi: {} at guest address {:#x}: the parcel ({} bytes) has no "
                                                          "IGraphicBufferProducer token", transaction_name(code), c.pc(), in.size));
      reply.write<int32_t>(status_bad_value);
    } else {
      reply = transact(c, *queue, code, parcel);
    }
    const std::vector<uint8_t> bytes = reply.finish();
    if (bytes.size() > out.size) return vi_invalid_argument;
    std::memcpy(out.host(), bytes.data(), bytes.size());
    return success;
  }
  Result adjust_refcount(ipc::Context&) { return success; } // the queues live as long as their layers
  Result get_native_handle(ipc::Context& c) {
    const int32_t id = c.read<int32_t>();
    const std::shared_ptr<BufferQueue> queue = display_->queue(id);
    if (!queue) return vi_invalid_argument;
    // The buffer-available event: presentation is synchronous, so a dequeued buffer is free again at once.
    c.kernel().signal(*queue->buffer_available);
    c.push_copy_handle(queue->buffer_available);
    return success;
  }

private:
  ParcelWriter transact(ipc::Context& c, BufferQueue& queue, uint32_t code, ParcelReader& in) {
    std::lock_guard guard(queue.lock);
    ParcelWriter out;
    auto slot_of = [&](int32_t slot) -> BufferQueue::Slot* {
      return slot >= 0 && static_cast<size_t>(slot) < buffer_slots ? &queue.slots[slot] : nullptr;
    };
    auto queue_output = [&] { // QueueBufferOutput: width, height, transform hint, pending buffers
      const uint32_t output[4] = {display_width, display_height, 0, 0};
      out.write_bytes(output, sizeof(output));
    };
    switch (code) {
    case connect: {
      in.read<int32_t>(); // a listener object: none (libnx and the SDK pass 0)
      const int32_t api = in.read<int32_t>();
      in.read<int32_t>();
      if (!in.valid() || api <= 0) {
        out.write<int32_t>(status_bad_value);
        return out;
      }
      queue.connected = true;
      queue_output();
      out.write<int32_t>(status_ok);
      return out;
    }
    case disconnect:
      queue.connected = false;
      out.write<int32_t>(status_ok);
      return out;
    case set_preallocated_buffer: {
      const int32_t slot = in.read<int32_t>();
      const bool has_buffer = in.read<int32_t>() != 0;
      BufferQueue::Slot* target = slot_of(slot);
      if (!in.valid() || !target) {
        out.write<int32_t>(status_bad_value);
        return out;
      }
      if (!has_buffer) {
        target->buffer.reset();
        out.write<int32_t>(status_ok);
        return out;
      }
      const std::vector<uint8_t> flattened = in.read_flattened();
      GraphicBuffer buffer;
      if (const auto problem = in.valid() ? decode_graphic_buffer(flattened, buffer) : std::optional<std::string>("truncated parcel")) {
        c.kernel().report_once(fmt::format("graphic buffer {}", *problem),
                               fmt::format("vi: SET_PREALLOCATED_BUFFER slot {} at guest address {:#x}: {}", slot, c.pc(), *problem));
        out.write<int32_t>(status_bad_value);
        return out;
      }
      target->buffer = std::move(buffer);
      target->state = BufferQueue::SlotState::free;
      out.write<int32_t>(status_ok);
      return out;
    }
    case request_buffer: {
      BufferQueue::Slot* target = slot_of(in.read<int32_t>());
      if (!in.valid() || !target) {
        out.write<int32_t>(0);
        out.write<int32_t>(status_bad_value);
        return out;
      }
      out.write<int32_t>(target->buffer ? 1 : 0);
      if (target->buffer) out.write_flattened(target->buffer->flattened);
      out.write<int32_t>(status_ok);
      return out;
    }
    case dequeue_buffer: {
      // async, width, height, format, usage: kiln presents the buffers as preallocated.
      for (int i = 0; i < 5; ++i) in.read<uint32_t>();
      if (!queue.connected) {
        out.write<int32_t>(-1);
        out.write<int32_t>(0);
        out.write<int32_t>(status_no_init);
        return out;
      }
      for (size_t slot = 0; slot < buffer_slots; ++slot) {
        if (!queue.slots[slot].buffer || queue.slots[slot].state != BufferQueue::SlotState::free) continue;
        queue.slots[slot].state = BufferQueue::SlotState::dequeued;
        out.write<int32_t>(static_cast<int32_t>(slot));
        out.write<int32_t>(1); // a fence follows: none to wait for, the buffer was presented synchronously
        const MultiFence fence{};
        out.write_flattened({reinterpret_cast<const uint8_t*>(&fence), sizeof(fence)});
        out.write<int32_t>(status_ok);
        return out;
      }
      out.write<int32_t>(-1);
      out.write<int32_t>(0);
      out.write<int32_t>(status_would_block);
      return out;
    }
    case queue_buffer: {
      const int32_t slot = in.read<int32_t>();
      const std::vector<uint8_t> input = in.read_flattened(); // QueueBufferInput: timestamp ... fence at 0x30
      BufferQueue::Slot* target = slot_of(slot);
      MultiFence fence;
      if (!in.valid() || !target || !target->buffer || target->state != BufferQueue::SlotState::dequeued || input.size() < 0x30 + sizeof(fence)) {
        out.write<int32_t>(status_bad_value);
        return out;
      }
      std::memcpy(&fence, input.data() + 0x30, sizeof(fence));
      for (uint32_t i = 0; i < std::min<uint32_t>(fence.count, 4); ++i) { // the frame is complete once its fences are
        uint32_t value = 0;
        gpu_devices().wait_syncpoint(fence.fences[i].id, fence.fences[i].value, -1, value);
      }
      try {
        present(read_frame(*target->buffer));
      } catch (const Error& error) {
        c.kernel().report_once("queue_buffer", fmt::format("vi: QUEUE_BUFFER slot {} at guest address {:#x}: {}", slot, c.pc(), error.what()));
        target->state = BufferQueue::SlotState::free;
        out.write<int32_t>(status_bad_value);
        return out;
      }
      target->state = BufferQueue::SlotState::free;
      c.kernel().signal(*queue.buffer_available);
      queue_output();
      out.write<int32_t>(status_ok);
      return out;
    }
    case cancel_buffer: {
      BufferQueue::Slot* target = slot_of(in.read<int32_t>());
      if (target) target->state = BufferQueue::SlotState::free;
      out.write<int32_t>(target ? status_ok : status_bad_value);
      return out;
    }
    case query: {
      const int32_t what = in.read<int32_t>();
      // NATIVE_WINDOW_WIDTH 0, HEIGHT 1, FORMAT 2.
      const int32_t values[] = {display_width, display_height, static_cast<int32_t>(pixel_format_rgba_8888)};
      const bool known = what >= 0 && what < 3;
      out.write<int32_t>(known ? values[what] : 0);
      out.write<int32_t>(known ? status_ok : status_bad_value);
      return out;
    }
    default:
      c.kernel().report_once(fmt::format("binder code {}", code),
                             fmt::format("vi: IGraphicBufferProducer transaction {} ({}) at guest address {:#x} is not implemented",
                                         code, transaction_name(code), c.pc()));
      out.write<int32_t>(status_bad_value);
      return out;
    }
  }

  std::shared_ptr<Display> display_;
};

/// A display name: 0x40 bytes, NUL-terminated.
std::string read_display_name(ipc::Context& c) {
  char name[0x40];
  for (char& ch : name) ch = static_cast<char>(c.read<uint8_t>());
  name[0x3f] = 0;
  return name;
}

class SystemDisplayService final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "vi:ISystemDisplayService"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {1200, "GetZOrderCountMin", ipc::bind<&SystemDisplayService::z_min>},
        {1202, "GetZOrderCountMax", ipc::bind<&SystemDisplayService::z_max>},
        {2201, "SetLayerPosition", ipc::bind<&SystemDisplayService::accept>},
        {2203, "SetLayerSize", ipc::bind<&SystemDisplayService::accept>},
        {2205, "SetLayerZ", ipc::bind<&SystemDisplayService::accept>},
        {2207, "SetLayerVisibility", ipc::bind<&SystemDisplayService::accept>},
    };
    return table;
  }
  Result z_min(ipc::Context& c) { c.write<int64_t>(0); return success; }
  Result z_max(ipc::Context& c) { c.write<int64_t>(255); return success; }
  /// One layer, always shown full screen: position, size, order and visibility change nothing kiln shows.
  Result accept(ipc::Context&) { return success; }
};

class ManagerDisplayService final : public ipc::ServiceObject {
public:
  explicit ManagerDisplayService(std::shared_ptr<Display> display) : display_(std::move(display)) {}
  std::string_view name() const override { return "vi:IManagerDisplayService"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {2010, "CreateManagedLayer", ipc::bind<&ManagerDisplayService::create_managed_layer>},
        {2011, "DestroyManagedLayer", ipc::bind<&ManagerDisplayService::destroy_managed_layer>},
        {6000, "AddToLayerStack", ipc::bind<&ManagerDisplayService::add_to_layer_stack>},
    };
    return table;
  }
  Result create_managed_layer(ipc::Context& c) {
    c.read<uint32_t>();
    if (c.read<uint64_t>() != default_display_id) return vi_invalid_argument;
    c.write(display_->create_layer());
    return success;
  }
  Result destroy_managed_layer(ipc::Context& c) { return display_->destroy_layer(c.read<uint64_t>()) ? success : vi_invalid_argument; }
  Result add_to_layer_stack(ipc::Context&) { return success; } // one stack: the display

private:
  std::shared_ptr<Display> display_;
};

class ApplicationDisplayService final : public ipc::ServiceObject {
public:
  explicit ApplicationDisplayService(std::shared_ptr<Display> display) : display_(std::move(display)) {}
  std::string_view name() const override { return "vi:IApplicationDisplayService"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {100, "GetRelayService", ipc::bind<&ApplicationDisplayService::relay_service>},
        {101, "GetSystemDisplayService", ipc::bind<&ApplicationDisplayService::system_display_service>},
        {102, "GetManagerDisplayService", ipc::bind<&ApplicationDisplayService::manager_display_service>},
        {103, "GetIndirectDisplayTransactionService", ipc::bind<&ApplicationDisplayService::relay_service>},
        {1010, "OpenDisplay", ipc::bind<&ApplicationDisplayService::open_display>},
        {1011, "OpenDefaultDisplay", ipc::bind<&ApplicationDisplayService::open_default_display>},
        {1020, "CloseDisplay", ipc::bind<&ApplicationDisplayService::close_display>},
        {1102, "GetDisplayResolution", ipc::bind<&ApplicationDisplayService::display_resolution>},
        {2020, "OpenLayer", ipc::bind<&ApplicationDisplayService::open_layer>},
        {2021, "CloseLayer", ipc::bind<&ApplicationDisplayService::close_layer>},
        {2030, "CreateStrayLayer", ipc::bind<&ApplicationDisplayService::create_stray_layer>},
        {2031, "DestroyStrayLayer", ipc::bind<&ApplicationDisplayService::close_layer>},
        {2101, "SetLayerScalingMode", ipc::bind<&ApplicationDisplayService::set_layer_scaling_mode>},
        {5202, "GetDisplayVsyncEvent", ipc::bind<&ApplicationDisplayService::display_vsync_event>},
    };
    return table;
  }
  Result relay_service(ipc::Context& c) {
    c.push_object(std::make_shared<HosBinderDriver>(display_));
    return success;
  }
  Result system_display_service(ipc::Context& c) {
    c.push_object(std::make_shared<SystemDisplayService>());
    return success;
  }
  Result manager_display_service(ipc::Context& c) {
    c.push_object(std::make_shared<ManagerDisplayService>(display_));
    return success;
  }
  Result open_display(ipc::Context& c) {
    const std::string name = read_display_name(c);
    if (name != "Default") {
      c.kernel().report_once("display " + name, fmt::format("vi: OpenDisplay(\"{}\") at guest address {:#x}: kiln has one display, "
                                                            "\"Default\"; replying {:#x}", name, c.pc(), vi_not_found));
      return vi_not_found;
    }
    c.write(default_display_id);
    return success;
  }
  Result open_default_display(ipc::Context& c) {
    c.write(default_display_id);
    return success;
  }
  Result close_display(ipc::Context& c) { return c.read<uint64_t>() == default_display_id ? success : vi_invalid_argument; }
  Result display_resolution(ipc::Context& c) {
    if (c.read<uint64_t>() != default_display_id) return vi_invalid_argument;
    c.write<int64_t>(display_width);
    c.write<int64_t>(display_height);
    return success;
  }
  /// OpenLayer: DisplayName, layer id (from CreateManagedLayer), aruid; the native window into the B buffer.
  Result open_layer(ipc::Context& c) {
    const std::string display = read_display_name(c);
    const uint64_t layer = c.read<uint64_t>();
    if (display != "Default" || !display_->has_layer(layer)) return vi_invalid_argument;
    c.write(write_native_window(c, static_cast<int32_t>(layer)));
    return success;
  }
  Result close_layer(ipc::Context& c) { return display_->destroy_layer(c.read<uint64_t>()) ? success : vi_invalid_argument; }
  Result create_stray_layer(ipc::Context& c) {
    c.read<uint32_t>(); // layer flags
    if (c.read<uint64_t>() != default_display_id) return vi_invalid_argument;
    const uint64_t layer = display_->create_layer();
    c.write(layer);
    c.write(write_native_window(c, static_cast<int32_t>(layer)));
    return success;
  }
  Result set_layer_scaling_mode(ipc::Context& c) {
    const uint32_t mode = c.read<uint32_t>();
    const uint64_t layer = c.read<uint64_t>();
    // None, FitToLayer, ScaleAndCrop, PreserveAspectRatio...: kiln shows the frame as queued.
    if (mode > 4 || !display_->has_layer(layer)) return vi_invalid_argument;
    return success;
  }
  Result display_vsync_event(ipc::Context& c) {
    if (c.read<uint64_t>() != default_display_id) return vi_invalid_argument;
    c.push_copy_handle(display_->vsync_event(c.kernel()));
    return success;
  }

private:
  std::shared_ptr<Display> display_;
};

/// vi:u (command 0), vi:s (1), vi:m (2): GetDisplayService.
class DisplayRootService final : public ipc::ServiceObject {
public:
  DisplayRootService(const char* name, std::shared_ptr<Display> display) : name_(name), display_(std::move(display)) {}
  std::string_view name() const override { return name_; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command user[] = {{0, "GetDisplayService", ipc::bind<&DisplayRootService::get_display_service>}};
    static constexpr ipc::Command system[] = {{1, "GetDisplayService", ipc::bind<&DisplayRootService::get_display_service>}};
    static constexpr ipc::Command manager[] = {{2, "GetDisplayService", ipc::bind<&DisplayRootService::get_display_service>}};
    if (name_ == "vi:u") return user;
    if (name_ == "vi:s") return system;
    return manager;
  }
  Result get_display_service(ipc::Context& c) {
    c.read<uint32_t>(); // the policy: 0 user, 1 system/manager
    c.push_object(std::make_shared<ApplicationDisplayService>(display_));
    return success;
  }

private:
  std::string_view name_;
  std::shared_ptr<Display> display_;
};

} // namespace

void write_frame_file(const RgbaImage& frame, uint64_t number) {
  const char* directory = std::getenv("KILN_FRAME_DIR");
  if (!directory || !*directory) {
    log::info("vi: frame {} presented ({}x{}); set KILN_FRAME_DIR to write it as PNG", number, frame.width, frame.height);
    return;
  }
  std::filesystem::create_directories(directory);
  const std::filesystem::path path = std::filesystem::path(directory) / fmt::format("frame_{}.png", number);
  write_png(path, frame);
  log::info("vi: frame {} ({}x{}) -> {}", number, frame.width, frame.height, path.string());
}

uint64_t presented_frames() { return frames_presented.load(); }

void set_frame_sink(FrameSink new_sink) {
  std::lock_guard guard(sink_lock);
  sink() = std::move(new_sink);
}

void host_vblank() {
  {
    std::lock_guard guard(host_vblank_lock);
    host_vblank_at = std::chrono::steady_clock::now();
  }
  std::lock_guard guard(displays_lock);
  for (const std::weak_ptr<Display>& weak : displays)
    if (const auto display = weak.lock()) display->host_vblank();
}

uint64_t create_managed_display_layer(ServiceRegistry& registry) { return registry.shared_state<Display>()->create_layer(); }

void register_vi(ServiceRegistry& registry) {
  // One display per registry (per process), shared by every vi session, the binder relay and am's managed layers.
  auto display = registry.shared_state<Display>();
  {
    std::lock_guard guard(displays_lock);
    std::erase_if(displays, [](const std::weak_ptr<Display>& weak) { return weak.expired(); });
    displays.push_back(display);
  }
  for (const char* name : {"vi:u", "vi:s", "vi:m"})
    registry.add(name, [name, display] { return std::make_shared<DisplayRootService>(name, display); });
  registry.add_interface("vi:IApplicationDisplayService", [display] { return std::make_shared<ApplicationDisplayService>(display); });
  registry.add_interface("vi:IHOSBinderDriver", [display] { return std::make_shared<HosBinderDriver>(display); });
  registry.add_interface("vi:ISystemDisplayService", [] { return std::make_shared<SystemDisplayService>(); });
  registry.add_interface("vi:IManagerDisplayService", [display] { return std::make_shared<ManagerDisplayService>(display); });
}

} // namespace kiln::hos
