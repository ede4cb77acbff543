// nvdrv and nvdrv:a (nns::nvdrv::INvDrvServices, switchbrew "NV services"): the Horizon transport of kiln's
// nvgpu devices. A session opens device paths into small descriptors and passes each ioctl's argument as an
// input buffer (A, type 0x21) and an output buffer (B, type 0x22) whose sizes the ioctl number gives (Ioctl2
// adds a second input buffer, Ioctl3 a second output buffer: the "inline" data of a few requests); the
// layouts below are Horizon's (they differ from L4T's in numbers and fields: docs/nvgpu.md), decoded here and
// run by the shared devices.
#include "runtime/platform/switch/services/nvdrv.h"

#include <fmt/format.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

using nvgpu_devices::Devices;
using nvgpu_devices::Status;

nvgpu_devices::Devices& gpu_devices() {
  static Devices devices; // Horizon's guest gives every nvmap allocation its memory: no buffer region
  return devices;
}

namespace {

// ---- Horizon's ioctl layouts (switchbrew "NV services"; the number encodes direction, size, type, nr) ----
namespace abi {
constexpr uint32_t size_of(uint32_t code) { return (code >> 16) & 0x3fff; }
constexpr bool is_in(uint32_t code) { return code & 0x40000000; }
constexpr bool is_out(uint32_t code) { return code & 0x80000000; }
/// The request without its size field: SUBMIT_GPFIFO's size grows with its entries.
constexpr uint32_t without_size(uint32_t code) { return code & 0xc000ffff; }

// /dev/nvmap (type 0x01)
struct NvmapCreate { uint32_t size; uint32_t handle; };
struct NvmapFromId { uint32_t id; uint32_t handle; };
struct NvmapAlloc { uint32_t handle, heap_mask, flags, align; uint8_t kind; uint8_t padding[7]; uint64_t address; };
struct NvmapFree { uint32_t handle, padding; uint64_t address; uint32_t size, flags; };
struct NvmapParam { uint32_t handle, param, result; };
struct NvmapGetId { uint32_t id; uint32_t handle; };
constexpr uint32_t nvmap_create = 0xc0080101, nvmap_from_id = 0xc0080103, nvmap_alloc = 0xc0200104,
                   nvmap_free = 0xc0180105, nvmap_param = 0xc00c0109, nvmap_get_id = 0xc008010e;

// /dev/nvhost-as-gpu (type 'A')
struct AsBindChannel { uint32_t fd; };
struct AsAllocSpace { uint32_t pages, page_size, flags, padding; uint64_t offset_or_align; };
struct AsFreeSpace { uint64_t offset; uint32_t pages, page_size; };
struct AsUnmapBuffer { uint64_t offset; };
struct AsMapBufferEx { uint32_t flags; int32_t kind; uint32_t nvmap_handle; uint32_t page_size; uint64_t buffer_offset, mapping_size, offset; };
struct VaRegion { uint64_t offset; uint32_t page_size, padding; uint64_t pages; };
struct AsGetVaRegions { uint64_t unused; uint32_t buffer_size, padding; VaRegion regions[2]; };
struct AsInitializeEx { uint32_t big_page_size; int32_t as_fd; uint32_t flags, reserved; uint64_t va_range_start, va_range_end, va_range_split; };
constexpr uint32_t as_flag_fixed_offset = 1;
constexpr uint32_t as_bind_channel = 0x40044101, as_alloc_space = 0xc0184102, as_free_space = 0xc0104103,
                   as_unmap_buffer = 0xc0084105, as_map_buffer_ex = 0xc0284106, as_get_va_regions = 0xc0404108,
                   as_initialize_ex = 0x40284109;

// /dev/nvhost-gpu (type 'H'): one channel per open
struct Fence { uint32_t id, value; };
struct ChannelSubmitGpfifo { uint64_t unused_pointer; uint32_t num_entries, flags; Fence fence; }; // entries follow
struct ChannelAllocObjCtx { uint32_t class_num, flags; uint64_t obj_id; };
struct ChannelZcullBind { uint64_t gpu_va; uint32_t mode, padding; };
struct ChannelSetErrorNotifier { uint64_t offset, size; uint32_t nvmap_handle, padding; };
struct ChannelAllocGpfifoEx2 { uint32_t num_entries, flags, unknown0; Fence fence; uint32_t unknown[3]; };
constexpr uint32_t submit_flag_fence_wait = 1, submit_flag_fence_get = 2;
constexpr uint32_t channel_set_nvmap_fd = 0x40044801, channel_set_timeout = 0x40044803,
                   channel_alloc_gpfifo = 0x40084805, channel_submit_gpfifo = 0xc0004808 /* size varies */,
                   channel_alloc_obj_ctx = 0xc0104809, channel_zcull_bind = 0xc010480b,
                   channel_set_error_notifier = 0xc018480c, channel_set_priority = 0x4004480d,
                   channel_alloc_gpfifo_ex2 = 0xc020481a,
                   channel_kickoff_pb = 0xc018481b /* SUBMIT_GPFIFO's header; the entries come in Ioctl2's inline input */;

// /dev/nvhost-ctrl (type 0)
struct SyncptRead { uint32_t id, value; };
struct SyncptIncr { uint32_t id; };
struct SyncptWait { uint32_t id, threshold; int32_t timeout; };
struct SyncptWaitex { uint32_t id, threshold; int32_t timeout; uint32_t value; };
struct EventWait { uint32_t id, threshold; int32_t timeout; uint32_t value; }; // value: in the event slot (async), out the syncpoint value
struct EventSlot { uint32_t slot; };
// SYNCPT_INCR is in-only (0x40040015) on switchbrew's page; libnx encodes it inout (0xc0040015): both are taken.
constexpr uint32_t ctrl_syncpt_incr_inout = 0xc0040015;
constexpr uint32_t ctrl_syncpt_read = 0xc0080014, ctrl_syncpt_incr = 0x40040015, ctrl_syncpt_wait = 0xc00c0016,
                   ctrl_syncpt_waitex = 0xc0100019, ctrl_syncpt_read_max = 0xc008001a, ctrl_event_signal = 0xc004001c,
                   ctrl_event_wait = 0xc010001d, ctrl_event_wait_async = 0xc010001e, ctrl_event_register = 0xc004001f,
                   ctrl_event_unregister = 0xc0040020, ctrl_event_kill = 0x40080021;

// /dev/nvhost-ctrl-gpu (type 'G')
struct GetCharacteristics { uint64_t buffer_size, buffer_address; nvgpu_devices::GpuCharacteristics characteristics; };
struct GetTpcMasks { uint32_t mask_buffer_size, reserved[3]; uint64_t mask; };
struct GetActiveSlotMask { uint32_t slot, mask; };
struct GetGpuTime { uint64_t time, reserved; };
constexpr uint32_t gpu_zcull_get_ctx_size = 0x80044701, gpu_zcull_get_info = 0x80284702,
                   gpu_zbc_set_table = 0x402c4703, gpu_get_characteristics = 0xc0b04705, gpu_get_tpc_masks = 0xc0184706,
                   gpu_flush_l2 = 0x40084707, gpu_get_active_slot_mask = 0x80084714, gpu_get_gpu_time = 0xc010471c;

static_assert(sizeof(NvmapAlloc) == 0x20 && sizeof(NvmapFree) == 0x18 && sizeof(NvmapParam) == 0xc);
static_assert(sizeof(AsAllocSpace) == 0x18 && sizeof(AsMapBufferEx) == 0x28 && sizeof(AsGetVaRegions) == 0x40);
static_assert(sizeof(AsInitializeEx) == 0x28 && sizeof(ChannelSubmitGpfifo) == 0x18 && sizeof(ChannelSetErrorNotifier) == 0x18);
static_assert(sizeof(ChannelAllocGpfifoEx2) == 0x20 && sizeof(GetCharacteristics) == 0xb0 && sizeof(GetTpcMasks) == 0x18);
} // namespace abi

uint32_t to_nv_result(Status status) {
  switch (status) {
  case Status::ok: return nv_result::success;
  case Status::bad_value: return nv_result::bad_parameter;
  case Status::bad_handle: return nv_result::bad_value;
  case Status::fault: return nv_result::invalid_address;
  case Status::already_allocated: return nv_result::already_allocated;
  case Status::no_memory: return nv_result::insufficient_memory;
  case Status::timeout: return nv_result::timeout;
  case Status::not_supported: return nv_result::not_supported;
  case Status::failed: return nv_result::invalid_state;
  }
  return nv_result::invalid_state;
}

/// The argument of one ioctl: the input buffer's bytes in, the output buffer's bytes out, `size` bytes.
class Argument {
public:
  explicit Argument(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  template <typename T>
  bool get(T& out) const {
    if (bytes_.size() < sizeof(T)) return false;
    std::memcpy(&out, bytes_.data(), sizeof(T));
    return true;
  }
  template <typename T>
  void put(const T& value) {
    if (bytes_.size() < sizeof(T)) bytes_.resize(sizeof(T));
    std::memcpy(bytes_.data(), &value, sizeof(T));
  }
  std::span<const uint8_t> bytes() const { return bytes_; }

private:
  std::vector<uint8_t> bytes_;
};

/// Reads the argument, runs `body`, writes it back: the shape of every inout request.
template <typename T, typename Body>
uint32_t with(Argument& argument, Body&& body) {
  T value{};
  if (!argument.get(value)) return nv_result::invalid_size;
  const uint32_t result = body(value);
  argument.put(value);
  return result;
}


/// Every nvdrv command answers IPC success and its NvResult as the last output word.
Result reply(ipc::Context& c, uint32_t nv) {
  c.write(nv);
  return success;
}

/// One nvdrv session: its descriptors, the transfer memory Initialize gave, the events QueryEvent handed out.
class NvDrvServices final : public ipc::ServiceObject {
public:
  explicit NvDrvServices(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "Open", ipc::bind<&NvDrvServices::open>},
        {1, "Ioctl", ipc::bind<&NvDrvServices::ioctl>},
        {2, "Close", ipc::bind<&NvDrvServices::close>},
        {3, "Initialize", ipc::bind<&NvDrvServices::initialize>},
        {4, "QueryEvent", ipc::bind<&NvDrvServices::query_event>},
        {5, "MapSharedMemory", ipc::bind<&NvDrvServices::map_shared_memory>},
        {8, "SetAruid", ipc::bind<&NvDrvServices::set_aruid>},
        {11, "Ioctl2", ipc::bind<&NvDrvServices::ioctl2>},
        {12, "Ioctl3", ipc::bind<&NvDrvServices::ioctl3>},
    };
    return table;
  }
  ~NvDrvServices() override {
    for (const auto& [fd, file] : files_)
      if (file.device == Device::channel) devices_.destroy_channel(file.channel);
  }

private:
  enum class Device { nvmap, address_space, channel, ctrl, ctrl_gpu };
  struct File {
    Device device;
    std::string path;
    uint32_t channel = 0;
  };
  /// An nvhost-ctrl event slot: EVENT_WAIT_ASYNC arms it for a syncpoint threshold; it is signalled when reached.
  struct SyncpointEvent {
    std::shared_ptr<ReadableEvent> event = std::make_shared<ReadableEvent>();
    bool armed = false;
    uint32_t syncpoint = 0, threshold = 0;
  };
  static constexpr uint32_t event_slots = 64;

  Result open(ipc::Context& c) {
    std::lock_guard guard(lock_);
    const ipc::GuestBuffer path_buffer = c.in_auto(0);
    std::string path(reinterpret_cast<const char*>(path_buffer.host()), path_buffer.size);
    path.resize(std::strlen(path.c_str())); // the path may carry its terminator
    uint32_t fd = 0, error = nv_result::success;
    if (!transfer_memory_) {
      error = nv_result::not_initialized;
    } else if (const auto device = device_for(path)) {
      File file{*device, path};
      if (*device == Device::channel) file.channel = devices_.create_channel(); // every open is a new channel
      fd = next_fd_++;
      files_[fd] = file;
    } else {
      c.kernel().report_once("nvdrv device " + path,
                             fmt::format("nvdrv: Open(\"{}\") at guest address {:#x}: kiln has no such device; NvResult {:#x}",
                                         path, c.pc(), nv_result::not_supported));
      error = nv_result::not_supported;
    }
    c.write(fd);
    return reply(c, error);
  }

  Result ioctl(ipc::Context& c) {
    const uint32_t fd = c.read<uint32_t>(), code = c.read<uint32_t>();
    return reply(c, run_ioctl(c, fd, code, {}, {}));
  }

  /// Ioctl2 (3.0.0+): Ioctl with a second input buffer, the request's inline input. The device sees it after
  /// the argument, where Ioctl's SUBMIT_GPFIFO carries its entries (KICKOFF_PB sends them this way).
  Result ioctl2(ipc::Context& c) {
    const uint32_t fd = c.read<uint32_t>(), code = c.read<uint32_t>();
    return reply(c, run_ioctl(c, fd, code, c.in_auto(1), {}));
  }

  /// Ioctl3 (3.0.0+): Ioctl with a second output buffer, the request's inline output, which receives the
  /// variable part of the answer (the GPU characteristics, the TPC mask, the VA regions) as well.
  Result ioctl3(ipc::Context& c) {
    const uint32_t fd = c.read<uint32_t>(), code = c.read<uint32_t>();
    return reply(c, run_ioctl(c, fd, code, {}, c.out_auto(1)));
  }

  Result close(ipc::Context& c) {
    std::lock_guard guard(lock_);
    const uint32_t fd = c.read<uint32_t>();
    const auto found = files_.find(fd);
    if (found == files_.end()) return reply(c, nv_result::bad_parameter);
    if (found->second.device == Device::channel) devices_.destroy_channel(found->second.channel);
    files_.erase(found);
    return reply(c, nv_result::success);
  }

  Result initialize(ipc::Context& c) {
    std::lock_guard guard(lock_);
    const uint32_t size = c.read<uint32_t>();
    // Copy handles: the current process, then the transfer memory the driver may use for its own state.
    std::shared_ptr<TransferMemory> memory;
    if (c.handles_in.size() >= 2) memory = std::dynamic_pointer_cast<TransferMemory>(c.handles_in[1]);
    if (!memory) return kernel_result::invalid_handle;
    // kiln's devices keep their state on the host, so the memory stays locked, unused, for the session's life.
    if (memory->size < size) return reply(c, nv_result::insufficient_transfer_memory);
    transfer_memory_ = std::move(memory);
    return reply(c, nv_result::success);
  }

  Result query_event(ipc::Context& c) {
    std::lock_guard guard(lock_);
    const uint32_t fd = c.read<uint32_t>(), event_id = c.read<uint32_t>();
    const auto found = files_.find(fd);
    if (found == files_.end()) return reply(c, nv_result::bad_parameter);
    std::shared_ptr<ReadableEvent> event;
    switch (found->second.device) {
    case Device::ctrl: // the syncpoint event slots; the low bits name the slot
      if ((event_id & 0xffff) >= event_slots) return reply(c, nv_result::bad_parameter);
      event = syncpoint_events_[event_id & 0xffff].event;
      break;
    case Device::channel: case Device::ctrl_gpu: // SM exception and error-notifier events: kiln raises none
      if (event_id < 1 || event_id > 3) return reply(c, nv_result::bad_parameter);
      event = device_events_[{fd, event_id}];
      if (!event) event = device_events_[{fd, event_id}] = std::make_shared<ReadableEvent>();
      break;
    default: return reply(c, nv_result::not_supported);
    }
    c.push_copy_handle(event);
    return reply(c, nv_result::success);
  }

  /// Maps transfer memory for a device's own use (audio, some nvhost devices); kiln's devices need none.
  Result map_shared_memory(ipc::Context& c) {
    std::lock_guard guard(lock_);
    const uint32_t fd = c.read<uint32_t>();
    return reply(c, files_.count(fd) ? nv_result::success : nv_result::bad_parameter);
  }

  /// SetAruid (SetClientPID before 3.0.0): the applet resource user id the client sends, with its PID.
  Result set_aruid(ipc::Context& c) {
    std::lock_guard guard(lock_);
    aruid_ = c.read<uint64_t>();
    return reply(c, nv_result::success);
  }

  static std::optional<Device> device_for(std::string_view path) {
    static constexpr std::pair<std::string_view, Device> nodes[] = {
        {"/dev/nvmap", Device::nvmap}, {"/dev/nvhost-as-gpu", Device::address_space}, {"/dev/nvhost-gpu", Device::channel},
        {"/dev/nvhost-ctrl", Device::ctrl}, {"/dev/nvhost-ctrl-gpu", Device::ctrl_gpu}};
    for (const auto& [name, device] : nodes)
      if (name == path) return device;
    return std::nullopt;
  }

  /// Where the part of a request's argument that Ioctl3 also writes to its inline output lies.
  struct InlinePart {
    uint32_t code;
    uint32_t offset, size;
  };
  /// The part for `code`, or size 0 for a request without one (its inline output is left as it is).
  static InlinePart inline_output_part(uint32_t code) {
    static constexpr InlinePart parts[] = {
        {abi::gpu_get_characteristics, offsetof(abi::GetCharacteristics, characteristics), sizeof(nvgpu_devices::GpuCharacteristics)},
        {abi::gpu_get_tpc_masks, offsetof(abi::GetTpcMasks, mask), sizeof(uint64_t)},
        {abi::as_get_va_regions, offsetof(abi::AsGetVaRegions, regions), sizeof(abi::AsGetVaRegions::regions)},
    };
    for (const InlinePart& part : parts)
      if (part.code == code) return part;
    return {code, 0, 0};
  }

  uint32_t run_ioctl(ipc::Context& c, uint32_t fd, uint32_t code, ipc::GuestBuffer inline_in, ipc::GuestBuffer inline_out) {
    std::lock_guard guard(lock_);
    kernel_ = &c.kernel();
    const auto found = files_.find(fd);
    if (found == files_.end()) return nv_result::bad_parameter;
    const File& file = found->second;
    // The argument: the input buffer's bytes when the request reads, zeros otherwise; `size` bytes either way,
    // then Ioctl2's inline input.
    const uint32_t size = abi::size_of(code);
    std::vector<uint8_t> bytes(size);
    const ipc::GuestBuffer in = c.in_auto(0), out = c.out_auto(0);
    if (abi::is_in(code)) {
      if (in.size < size) return nv_result::invalid_size;
      std::memcpy(bytes.data(), in.host(), size);
    }
    if (abi::is_out(code) && out.size < size) return nv_result::invalid_size;
    if (inline_in.size) bytes.insert(bytes.end(), inline_in.host(), inline_in.host() + inline_in.size);
    const InlinePart inline_part = inline_out.size ? inline_output_part(code) : InlinePart{code, 0, 0};
    if (inline_out.size < inline_part.size) return nv_result::invalid_size;
    Argument argument(std::move(bytes));
    std::optional<uint32_t> result;
    try {
      switch (file.device) {
      case Device::nvmap: result = nvmap_ioctl(code, argument); break;
      case Device::address_space: result = address_space_ioctl(code, argument); break;
      case Device::channel: result = channel_ioctl(file.channel, code, argument); break;
      case Device::ctrl: result = ctrl_ioctl(code, argument); break;
      case Device::ctrl_gpu: result = ctrl_gpu_ioctl(code, argument); break;
      }
    } catch (const Error& error) {
      c.kernel().report_once(fmt::format("nvdrv ioctl {} {:#x} failed", file.path, code),
                             fmt::format("nvdrv: {}: ioctl {:#010x} at guest address {:#x} failed: {}", file.path, code, c.pc(), error.what()));
      return nv_result::invalid_state;
    }
    if (!result) {
      c.kernel().report_once(fmt::format("nvdrv ioctl {} {:#x}", file.path, code),
                             fmt::format("nvdrv: unknown ioctl {:#010x} (type {:#x}, nr {}, size {:#x}) on {} at guest address {:#x}; "
                                         "NvResult {:#x}", code, (code >> 8) & 0xff, code & 0xff, size, file.path, c.pc(),
                                         nv_result::not_implemented));
      return nv_result::not_implemented;
    }
    if (abi::is_out(code)) std::memcpy(out.host(), argument.bytes().data(), size);
    if (inline_part.size) std::memcpy(inline_out.host(), argument.bytes().data() + inline_part.offset, inline_part.size);
    signal_reached_events();
    return *result;
  }

  std::optional<uint32_t> nvmap_ioctl(uint32_t code, Argument& argument) {
    switch (code) {
    case abi::nvmap_create:
      return with<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) { return to_nv_result(devices_.create_buffer(a.size, a.handle)); });
    case abi::nvmap_from_id: // ids are handles: one process, one nvmap client
      return with<abi::NvmapFromId>(argument, [&](abi::NvmapFromId& a) {
        a.handle = a.id;
        return devices_.buffer(a.id) ? nv_result::success : nv_result::bad_value;
      });
    case abi::nvmap_get_id:
      return with<abi::NvmapGetId>(argument, [&](abi::NvmapGetId& a) {
        a.id = a.handle;
        return devices_.buffer(a.handle) ? nv_result::success : nv_result::bad_value;
      });
    case abi::nvmap_alloc:
      return with<abi::NvmapAlloc>(argument, [&](abi::NvmapAlloc& a) {
        if (a.address == 0) return nv_result::bad_parameter; // Horizon's guest always gives the memory
        return to_nv_result(devices_.allocate_buffer(a.handle, a.align, a.kind, a.address));
      });
    case abi::nvmap_free:
      return with<abi::NvmapFree>(argument, [&](abi::NvmapFree& a) {
        Devices::Buffer freed;
        const Status status = devices_.free_buffer(a.handle, &freed);
        if (status == Status::ok) {
          a.address = freed.guest_address;
          a.size = static_cast<uint32_t>(freed.size);
          a.flags = 0; // the memory returns to the guest, which owns it
        }
        return to_nv_result(status);
      });
    case abi::nvmap_param:
      return with<abi::NvmapParam>(argument, [&](abi::NvmapParam& a) {
        const auto* buffer = devices_.buffer(a.handle);
        if (!buffer) return nv_result::bad_value;
        switch (a.param) {
        case 1: a.result = static_cast<uint32_t>(buffer->size); break;
        case 2: a.result = static_cast<uint32_t>(buffer->align); break;
        case 3: a.result = static_cast<uint32_t>(buffer->guest_address); break; // the low word, as the field is 32-bit
        case 4: a.result = 0x40000000; break;                                   // heap: IOVMM
        case 5: a.result = buffer->kind; break;
        default: return nv_result::bad_parameter;
        }
        return nv_result::success;
      });
    default: return std::nullopt;
    }
  }

  std::optional<uint32_t> address_space_ioctl(uint32_t code, Argument& argument) {
    switch (code) {
    case abi::as_bind_channel: {
      abi::AsBindChannel a{};
      argument.get(a);
      const auto found = files_.find(a.fd); // Horizon names the channel by its nvdrv descriptor
      if (found == files_.end() || found->second.device != Device::channel) return nv_result::bad_parameter;
      return to_nv_result(devices_.bind_channel(found->second.channel));
    }
    case abi::as_initialize_ex: // the address space's big page size and VA range: kiln keeps one GPU VA space
      return nv_result::success;
    case abi::as_alloc_space:
      return with<abi::AsAllocSpace>(argument, [&](abi::AsAllocSpace& a) {
        const bool fixed = a.flags & abi::as_flag_fixed_offset;
        if (!fixed) a.offset_or_align = std::max<uint64_t>(a.offset_or_align, a.page_size);
        return to_nv_result(devices_.reserve_gpu_space(uint64_t{a.pages} * a.page_size, a.offset_or_align, fixed, a.offset_or_align));
      });
    case abi::as_free_space: return nv_result::success; // reservations only steer the allocator
    case abi::as_map_buffer_ex:
      return with<abi::AsMapBufferEx>(argument, [&](abi::AsMapBufferEx& a) {
        return to_nv_result(devices_.map_buffer(a.nvmap_handle, a.buffer_offset, a.mapping_size,
                                                a.flags & abi::as_flag_fixed_offset, a.offset));
      });
    case abi::as_unmap_buffer: {
      abi::AsUnmapBuffer a{};
      argument.get(a);
      return to_nv_result(devices_.unmap_buffer(a.offset));
    }
    case abi::as_get_va_regions:
      return with<abi::AsGetVaRegions>(argument, [&](abi::AsGetVaRegions& a) {
        // kiln's allocator hands out addresses from 4 GiB up to the driver's pages: one region per page size.
        constexpr uint64_t start = 0x100000000, end = nvgpu_devices::driver_gpu_base;
        a.buffer_size = sizeof(a.regions);
        a.regions[0] = abi::VaRegion{start, 0x1000, 0, (end - start) / 2 / 0x1000};
        a.regions[1] = abi::VaRegion{start + (end - start) / 2, 0x20000, 0, (end - start) / 2 / 0x20000};
        return nv_result::success;
      });
    default: return std::nullopt;
    }
  }

  std::optional<uint32_t> channel_ioctl(uint32_t channel, uint32_t code, Argument& argument) {
    if (abi::without_size(code) == abi::channel_submit_gpfifo || code == abi::channel_kickoff_pb) return submit(channel, argument);
    switch (code) {
    case abi::channel_set_nvmap_fd: case abi::channel_set_timeout: case abi::channel_set_priority:
      return nv_result::success; // one nvmap per process; kiln's waits have their own timeouts
    case abi::channel_alloc_gpfifo: case abi::channel_alloc_gpfifo_ex2:
      return with<abi::ChannelAllocGpfifoEx2>(argument, [&](abi::ChannelAllocGpfifoEx2& a) {
        nvgpu_devices::Fence fence;
        const Status status = devices_.allocate_gpfifo(channel, a.num_entries, fence);
        if (code == abi::channel_alloc_gpfifo_ex2) a.fence = abi::Fence{fence.id, fence.value};
        return to_nv_result(status);
      });
    case abi::channel_alloc_obj_ctx:
      return with<abi::ChannelAllocObjCtx>(argument, [&](abi::ChannelAllocObjCtx& a) {
        a.obj_id = a.class_num;
        return to_nv_result(devices_.allocate_object_context(channel, a.class_num));
      });
    case abi::channel_zcull_bind: // kiln has no zcull: the binding is accepted and has no effect
      return nv_result::success;
    case abi::channel_set_error_notifier:
      return with<abi::ChannelSetErrorNotifier>(argument, [&](abi::ChannelSetErrorNotifier& a) {
        // libnx passes offset and size 0 and an enable flag in the handle's place: a notifier without memory.
        if (a.size == 0) return to_nv_result(devices_.set_error_notifier(channel, 0, 0, 0));
        return to_nv_result(devices_.set_error_notifier(channel, a.nvmap_handle, a.offset, a.size));
      });
    default: return std::nullopt;
    }
  }

  uint32_t submit(uint32_t channel, Argument& argument) {
    abi::ChannelSubmitGpfifo a{};
    if (!argument.get(a)) return nv_result::invalid_size;
    // Horizon passes the entries inside the argument, after its 0x18-byte header (the pointer field is unused).
    const std::span<const uint8_t> bytes = argument.bytes();
    if (bytes.size() < sizeof(a) + uint64_t{a.num_entries} * 8) return nv_result::invalid_size;
    std::vector<maxwell::GpfifoEntry> entries;
    for (uint32_t i = 0; i < a.num_entries; ++i) {
      uint32_t words[2];
      std::memcpy(words, bytes.data() + sizeof(a) + i * 8, 8);
      entries.push_back(maxwell::GpfifoEntry::decode(words[0], words[1]));
    }
    nvgpu_devices::Fence fence{a.fence.id, a.fence.value};
    const Devices::SubmitOptions options{(a.flags & abi::submit_flag_fence_wait) != 0, (a.flags & abi::submit_flag_fence_get) != 0};
    const Status status = devices_.submit(channel, entries, options, fence);
    if (status == Status::ok && options.get_fence) a.fence = abi::Fence{fence.id, fence.value};
    argument.put(a);
    return to_nv_result(status);
  }

  std::optional<uint32_t> ctrl_ioctl(uint32_t code, Argument& argument) {
    switch (code) {
    case abi::ctrl_syncpt_read: case abi::ctrl_syncpt_read_max: // kiln's syncpoints reach their maximum at submit
      return with<abi::SyncptRead>(argument, [&](abi::SyncptRead& a) { return to_nv_result(devices_.read_syncpoint(a.id, a.value)); });
    case abi::ctrl_syncpt_incr: case abi::ctrl_syncpt_incr_inout: {
      abi::SyncptIncr a{};
      argument.get(a);
      return to_nv_result(devices_.increment_syncpoint(a.id));
    }
    case abi::ctrl_syncpt_wait: {
      abi::SyncptWait a{};
      argument.get(a);
      uint32_t value = 0;
      return to_nv_result(devices_.wait_syncpoint(a.id, a.threshold, a.timeout, value));
    }
    case abi::ctrl_syncpt_waitex:
      return with<abi::SyncptWaitex>(argument, [&](abi::SyncptWaitex& a) {
        return to_nv_result(devices_.wait_syncpoint(a.id, a.threshold, a.timeout, a.value));
      });
    case abi::ctrl_event_wait:
      return with<abi::EventWait>(argument, [&](abi::EventWait& a) {
        return to_nv_result(devices_.wait_syncpoint(a.id, a.threshold, a.timeout, a.value));
      });
    case abi::ctrl_event_wait_async:
      return with<abi::EventWait>(argument, [&](abi::EventWait& a) {
        const uint32_t slot = a.value & 0xffff;
        uint32_t value = 0;
        if (devices_.wait_syncpoint(a.id, a.threshold, 0, value) == Status::ok) {
          a.value = value;
          return nv_result::success;
        }
        if (slot >= event_slots) return nv_result::bad_parameter;
        SyncpointEvent& event = syncpoint_events_[slot];
        event.armed = true;
        event.syncpoint = a.id;
        event.threshold = a.threshold;
        return nv_result::timeout; // not yet: the slot's event is signalled when the syncpoint gets there
      });
    case abi::ctrl_event_register: case abi::ctrl_event_unregister: case abi::ctrl_event_signal:
      return with<abi::EventSlot>(argument, [&](abi::EventSlot& a) {
        if (a.slot >= event_slots) return nv_result::bad_parameter;
        SyncpointEvent& event = syncpoint_events_[a.slot];
        event.armed = false;
        if (code == abi::ctrl_event_signal) kernel_signal(*event.event);
        return nv_result::success;
      });
    case abi::ctrl_event_kill: { // a mask of slots to disarm
      uint64_t mask = 0;
      argument.get(mask);
      for (uint32_t slot = 0; slot < event_slots; ++slot)
        if (mask >> slot & 1) syncpoint_events_[slot].armed = false;
      return nv_result::success;
    }
    default: return std::nullopt;
    }
  }

  std::optional<uint32_t> ctrl_gpu_ioctl(uint32_t code, Argument& argument) {
    switch (code) {
    case abi::gpu_zcull_get_ctx_size: argument.put(nvgpu_devices::zcull_context_size); return nv_result::success;
    case abi::gpu_zcull_get_info: argument.put(nvgpu_devices::ZcullInfo{}); return nv_result::success;
    case abi::gpu_zbc_set_table: return nv_result::success; // zero-bandwidth clear colours: kiln clears directly
    case abi::gpu_get_characteristics:
      return with<abi::GetCharacteristics>(argument, [&](abi::GetCharacteristics& a) {
        a.buffer_size = sizeof(a.characteristics);
        a.characteristics = nvgpu_devices::GpuCharacteristics{};
        return nv_result::success;
      });
    case abi::gpu_get_tpc_masks:
      return with<abi::GetTpcMasks>(argument, [&](abi::GetTpcMasks& a) {
        a.mask = 0x3; // both TPCs of the one GPC
        return nv_result::success;
      });
    case abi::gpu_flush_l2: return nv_result::success; // the host's view of GPU memory is coherent
    case abi::gpu_get_active_slot_mask: argument.put(abi::GetActiveSlotMask{0x7, 0x1}); return nv_result::success;
    case abi::gpu_get_gpu_time: {
      const auto now = std::chrono::steady_clock::now().time_since_epoch();
      argument.put(abi::GetGpuTime{static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()), 0});
      return nv_result::success;
    }
    default: return std::nullopt;
    }
  }

  void kernel_signal(ReadableEvent& event) {
    if (kernel_) kernel_->signal(event);
  }
  /// Armed event slots whose syncpoint got to its threshold are signalled (after every ioctl: only ioctls
  /// run the GPU).
  void signal_reached_events() {
    for (SyncpointEvent& event : syncpoint_events_) {
      if (!event.armed || !devices_.syncpoint_reached(event.syncpoint, event.threshold)) continue;
      event.armed = false;
      kernel_signal(*event.event);
    }
  }

  std::string name_;
  Devices& devices_ = gpu_devices();
  Kernel* kernel_ = nullptr;
  std::recursive_mutex lock_;
  std::map<uint32_t, File> files_;
  uint32_t next_fd_ = 1;
  std::shared_ptr<TransferMemory> transfer_memory_;
  uint64_t aruid_ = 0;
  SyncpointEvent syncpoint_events_[event_slots];
  std::map<std::pair<uint32_t, uint32_t>, std::shared_ptr<ReadableEvent>> device_events_;
};

} // namespace

void register_nvdrv(ServiceRegistry& registry, const config::GpuSettings& gpu) {
  gpu_devices().set_gpu_settings(gpu);
  for (const char* name : {"nvdrv", "nvdrv:a"})
    registry.add(name, [name] { return std::make_shared<NvDrvServices>(name); });
}

} // namespace kiln::hos
