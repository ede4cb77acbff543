#include "runtime/platform/linux-user/nvgpu_driver.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/core/guest_log.h"
#include "runtime/core/guest_memory.h"
#include "runtime/platform/linux-user/nvgpu_abi.h"

namespace kiln::linux_user::nvgpu {
namespace abi = nvgpu_abi;
using kiln::nvgpu_devices::Status;

namespace {

constexpr uint64_t page = rt::guest_page_size;
constexpr uint32_t max_gpfifo_entries_per_submit = 0x10000;

/// The errno an L4T driver gives for each outcome of the shared devices.
int64_t to_errno(Status status) {
  switch (status) {
  case Status::ok: return 0;
  case Status::bad_value: case Status::bad_handle: case Status::failed: return -EINVAL;
  case Status::fault: return -EFAULT;
  case Status::already_allocated: return -EEXIST;
  case Status::no_memory: return -ENOMEM;
  case Status::timeout: return -EAGAIN;
  case Status::not_supported: return -ENOTTY;
  }
  return -EINVAL;
}

template <typename T>
bool read_argument(uint64_t address, T& out) {
  if (!rt::guest_range_mapped(address, sizeof(T))) return false;
  std::memcpy(&out, rt::host_pointer(address), sizeof(T));
  return true;
}
template <typename T>
void write_argument(uint64_t address, const T& value) {
  std::memcpy(rt::host_pointer(address), &value, sizeof(T));
}

/// Reads the argument, runs `body` on it, writes it back on success: the shape of every _IOWR request.
template <typename T, typename Body>
int64_t with_argument(uint64_t address, Body&& body) {
  T value;
  if (!read_argument(address, value)) return -EFAULT;
  const int64_t result = body(value);
  if (result >= 0) write_argument(address, value);
  return result;
}

} // namespace

Driver::Driver() : devices_(buffer_memory_base, buffer_memory_end) {}
Driver::~Driver() {
  for (const auto& [fd, file] : files_) ::close(static_cast<int>(fd));
}

int64_t Driver::new_descriptor(File file) {
  // A host descriptor reserves the number, so the guest's other files never receive it.
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  files_[fd] = std::move(file);
  return fd;
}

std::optional<int64_t> Driver::open(std::string_view path) {
  struct Node {
    std::string_view path;
    Device device;
  };
  static constexpr Node nodes[] = {{"/dev/nvmap", Device::nvmap}, {"/dev/nvhost-as-gpu", Device::address_space},
                                   {"/dev/nvhost-gpu", Device::channel}, {"/dev/nvhost-ctrl-gpu", Device::ctrl_gpu},
                                   {"/dev/nvhost-ctrl", Device::ctrl}};
  for (const Node& node : nodes) {
    if (node.path != path) continue;
    File file{node.device, std::string(path)};
    if (node.device == Device::channel) file.channel = devices_.create_channel(); // every open is a new channel
    return new_descriptor(std::move(file));
  }
  return std::nullopt;
}

int64_t Driver::ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc) {
  const auto found = files_.find(fd);
  if (found == files_.end()) return -EBADF;
  File& file = found->second;
  int64_t result = -ENOTTY;
  try {
    switch (file.device) {
    case Device::nvmap: result = nvmap_ioctl(request, argument); break;
    case Device::address_space: result = address_space_ioctl(request, argument); break;
    case Device::channel: result = channel_ioctl(file.channel, request, argument); break;
    case Device::ctrl: result = ctrl_ioctl(request, argument); break;
    case Device::ctrl_gpu: case Device::dma_buf: break;
    }
  } catch (const Error& error) {
    rt::guest_log("kiln: %s: ioctl %#llx at guest pc %#llx failed: %s\n", file.path.c_str(),
                 static_cast<unsigned long long>(request), static_cast<unsigned long long>(pc), error.what());
    return -EINVAL;
  }
  if (result == -ENOTTY)
    rt::guest_log("kiln: unknown ioctl %#llx (type '%c', nr %u, size %u) on %s at guest pc %#llx\n",
                 static_cast<unsigned long long>(request), abi::ioc_type(request), abi::ioc_nr(request),
                 abi::ioc_size(request), file.path.c_str(), static_cast<unsigned long long>(pc));
  return result;
}

int64_t Driver::nvmap_ioctl(uint64_t request, uint64_t argument) {
  switch (request) {
  case abi::nvmap_create:
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) {
      return to_errno(devices_.create_buffer(a.size_or_id, a.handle));
    });
  case abi::nvmap_from_id: // ids are handles: one process, one nvmap client
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) -> int64_t {
      if (!devices_.buffer(a.size_or_id)) return -EINVAL;
      a.handle = a.size_or_id;
      return 0;
    });
  case abi::nvmap_get_id:
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) -> int64_t {
      if (!devices_.buffer(a.handle)) return -EINVAL;
      a.size_or_id = a.handle;
      return 0;
    });
  case abi::nvmap_get_fd:
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) -> int64_t {
      if (!devices_.buffer(a.handle)) return -EINVAL;
      const int64_t fd = new_descriptor(File{Device::dma_buf, "nvmap dma-buf", a.handle});
      if (fd < 0) return fd;
      a.size_or_id = static_cast<uint32_t>(fd);
      return 0;
    });
  case abi::nvmap_alloc: {
    abi::NvmapAlloc a;
    if (!read_argument(argument, a)) return -EFAULT;
    return to_errno(devices_.allocate_buffer(a.handle, a.align, 0, 0)); // L4T: the driver gives the memory
  }
  case abi::nvmap_free: // the argument is the handle
    return to_errno(devices_.free_buffer(static_cast<uint32_t>(argument)));
  case abi::nvmap_param:
    return with_argument<abi::NvmapParam>(argument, [&](abi::NvmapParam& a) -> int64_t {
      const auto* buffer = devices_.buffer(a.handle);
      if (!buffer) return -EINVAL;
      switch (a.param) {
      case 1: a.result = buffer->size; return 0;
      case 2: a.result = buffer->align; return 0;
      case 3: a.result = buffer->guest_address; return 0;
      case 4: a.result = uint64_t{1} << 30; return 0; // NVMAP_HEAP_IOVMM
      case 5: a.result = buffer->kind; return 0;
      default: return -EINVAL;
      }
    });
  default: return -ENOTTY;
  }
}

int64_t Driver::address_space_ioctl(uint64_t request, uint64_t argument) {
  switch (request) {
  case abi::as_bind_channel: {
    abi::AsBindChannel a;
    if (!read_argument(argument, a)) return -EFAULT;
    const auto found = files_.find(a.channel_fd);
    if (found == files_.end() || found->second.device != Device::channel) return -EINVAL;
    return to_errno(devices_.bind_channel(found->second.channel));
  }
  case abi::as_alloc_space:
    return with_argument<abi::AsAllocSpace>(argument, [&](abi::AsAllocSpace& a) {
      const bool fixed = a.flags & abi::as_flag_fixed_offset;
      if (!fixed) a.offset_or_align = std::max<uint64_t>(a.offset_or_align, a.page_size);
      return to_errno(devices_.reserve_gpu_space(uint64_t{a.pages} * a.page_size, a.offset_or_align, fixed, a.offset_or_align));
    });
  case abi::as_free_space: return 0; // reservations only steer the allocator
  case abi::as_map_buffer_ex:
    return with_argument<abi::AsMapBufferEx>(argument, [&](abi::AsMapBufferEx& a) -> int64_t {
      const auto file = files_.find(a.dmabuf_fd); // L4T names the buffer by its dma-buf descriptor
      if (file == files_.end() || file->second.device != Device::dma_buf) return -EINVAL;
      const int64_t result = to_errno(devices_.map_buffer(file->second.handle, a.buffer_offset, a.mapping_size,
                                                          a.flags & abi::as_flag_fixed_offset, a.offset));
      if (result == 0 && a.page_size == 0) a.page_size = static_cast<uint32_t>(page);
      return result;
    });
  case abi::as_unmap_buffer: {
    abi::AsUnmapBuffer a;
    if (!read_argument(argument, a)) return -EFAULT;
    return to_errno(devices_.unmap_buffer(a.offset));
  }
  default: return -ENOTTY;
  }
}

int64_t Driver::channel_ioctl(uint32_t channel, uint64_t request, uint64_t argument) {
  switch (request) {
  case abi::channel_set_nvmap_fd: case abi::channel_set_timeout: case abi::channel_set_priority:
  case abi::channel_set_timeout_ex:
    return 0; // one nvmap client per process; kiln's waits have their own timeouts
  case abi::channel_alloc_gpfifo: case abi::channel_alloc_gpfifo_ex: {
    uint32_t entries = 0;
    if (!read_argument(argument, entries)) return -EFAULT; // num_entries leads both layouts
    kiln::nvgpu_devices::Fence fence;
    return to_errno(devices_.allocate_gpfifo(channel, entries, fence));
  }
  case abi::channel_alloc_obj_ctx:
    return with_argument<abi::ChannelAllocObjCtx>(argument, [&](abi::ChannelAllocObjCtx& a) {
      a.obj_id = a.class_num;
      return to_errno(devices_.allocate_object_context(channel, a.class_num));
    });
  case abi::channel_submit_gpfifo: return submit(channel, argument);
  default: return -ENOTTY;
  }
}

int64_t Driver::submit(uint32_t channel, uint64_t argument) {
  abi::ChannelSubmitGpfifo a;
  if (!read_argument(argument, a)) return -EFAULT;
  if (a.flags & abi::submit_flag_sync_fence) {
    rt::guest_log("kiln: /dev/nvhost-gpu: sync-fence file descriptors are not supported (use syncpoint fences)\n");
    return -EINVAL;
  }
  // L4T passes the entries by pointer into the program's memory.
  if (a.num_entries > max_gpfifo_entries_per_submit || !rt::guest_range_mapped(a.gpfifo, uint64_t{a.num_entries} * 8))
    return -EFAULT;
  std::vector<maxwell::GpfifoEntry> entries;
  for (uint32_t i = 0; i < a.num_entries; ++i) {
    uint32_t words[2];
    std::memcpy(words, rt::host_pointer(a.gpfifo + uint64_t{i} * 8), 8);
    entries.push_back(maxwell::GpfifoEntry::decode(words[0], words[1]));
  }
  kiln::nvgpu_devices::Fence fence{a.fence.id, a.fence.value};
  const kiln::nvgpu_devices::Devices::SubmitOptions options{(a.flags & abi::submit_flag_fence_wait) != 0,
                                                    (a.flags & abi::submit_flag_fence_get) != 0};
  const int64_t result = to_errno(devices_.submit(channel, entries, options, fence));
  if (result != 0) return result;
  if (options.get_fence) a.fence = abi::Fence{fence.id, fence.value};
  write_argument(argument, a);
  return 0;
}

int64_t Driver::ctrl_ioctl(uint64_t request, uint64_t argument) {
  switch (request) {
  case abi::ctrl_syncpt_read:
    return with_argument<abi::SyncptRead>(argument, [&](abi::SyncptRead& a) {
      return to_errno(devices_.read_syncpoint(a.id, a.value));
    });
  case abi::ctrl_syncpt_incr: {
    abi::SyncptIncr a;
    if (!read_argument(argument, a)) return -EFAULT;
    return to_errno(devices_.increment_syncpoint(a.id));
  }
  case abi::ctrl_syncpt_waitex:
    return with_argument<abi::SyncptWaitex>(argument, [&](abi::SyncptWaitex& a) {
      return to_errno(devices_.wait_syncpoint(a.id, a.thresh, a.timeout, a.value));
    });
  default: return -ENOTTY;
  }
}

int64_t Driver::mmap(int64_t fd, uint64_t address, uint64_t length, uint64_t flags, uint64_t offset) {
  const File& file = files_.at(fd);
  if (file.device != Device::dma_buf) {
    rt::guest_log("kiln: mmap of %s: map an nvmap buffer through its dma-buf fd (NVMAP_IOC_GET_FD)\n", file.path.c_str());
    return -ENODEV;
  }
  const auto* buffer = devices_.buffer(file.handle);
  if (!buffer || !buffer->guest_address) return -EINVAL;
  if (length == 0 || offset % page || offset >= buffer->size || length > buffer->size - offset) return -EINVAL;
  constexpr uint64_t map_fixed = 0x10;
  if ((flags & map_fixed) && address != buffer->guest_address + offset) return -EINVAL; // cannot move the buffer
  return static_cast<int64_t>(buffer->guest_address + offset);
}

int64_t Driver::close(int64_t fd) {
  const auto found = files_.find(fd);
  if (found == files_.end()) return -EBADF;
  if (found->second.device == Device::channel) devices_.destroy_channel(found->second.channel);
  files_.erase(found);
  return ::close(static_cast<int>(fd)) < 0 ? -errno : 0;
}

namespace {
// Created at the first open of a device node, so programs that never touch the GPU never build one.
std::unique_ptr<Driver>& instance() {
  static std::unique_ptr<Driver> driver;
  return driver;
}
} // namespace

Driver& driver() {
  if (!instance()) instance() = std::make_unique<Driver>();
  return *instance();
}

std::optional<int64_t> open(std::string_view path) {
  if (!path.starts_with("/dev/nv")) return std::nullopt;
  return driver().open(path);
}
bool owns(int64_t fd) { return instance() && instance()->owns(fd); }
int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc) { return driver().ioctl(fd, request, argument, pc); }
int64_t mmap(int64_t fd, uint64_t address, uint64_t length, uint64_t flags, uint64_t offset) {
  return driver().mmap(fd, address, length, flags, offset);
}
int64_t close(int64_t fd) { return driver().close(fd); }
bool holds_memory(uint64_t address, uint64_t size) { return instance() && instance()->holds_memory(address, size); }
void shutdown() { instance().reset(); }

} // namespace kiln::linux_user::nvgpu
