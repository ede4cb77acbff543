#include "runtime/platform/linux-user/nvgpu_driver.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/core/guest_memory.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/stream_builder.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/renderer/maxwell_renderer.h"
#include "runtime/platform/linux-user/nvgpu_abi.h"
#include "runtime/core/guest_log.h"

namespace kiln::linux_user::nvgpu {
namespace abi = nvgpu_abi;

namespace {

constexpr uint64_t page = rt::guest_page_size;
constexpr uint64_t driver_ring_size = 0x10000; // per channel: fence waits and increments, reused in a ring
constexpr uint32_t max_gpfifo_entries_per_submit = 0x10000;

uint64_t align_up(uint64_t value, uint64_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

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

/// Reads the argument, runs `body` on it, writes it back: the shape of every _IOWR request.
template <typename T, typename Body>
int64_t with_argument(uint64_t address, Body&& body) {
  T value;
  if (!read_argument(address, value)) return -EFAULT;
  const int64_t result = body(value);
  if (result >= 0) write_argument(address, value);
  return result;
}

/// Syncpoint thresholds compare with wrap-around, as host1x does.
bool reached(uint32_t value, uint32_t threshold) { return static_cast<int32_t>(value - threshold) >= 0; }

bool is_maxwell_class(uint32_t class_id) {
  using maxwell::ClassId;
  for (ClassId known : {ClassId::threed, ClassId::compute, ClassId::copy, ClassId::inline_to_memory, ClassId::twod})
    if (class_id == static_cast<uint32_t>(known)) return true;
  return false;
}

} // namespace

Driver::Driver() = default;
Driver::~Driver() {
  for (const auto& [fd, file] : files_) ::close(static_cast<int>(fd));
}

void Driver::set_backend(maxwell::Backend* backend, std::function<void()> flush) {
  gpu_.set_backend(backend);
  flush_ = std::move(flush);
  backend_chosen_ = true;
}

void Driver::choose_backend() {
  if (backend_chosen_) return;
  backend_chosen_ = true;
  const char* backend = std::getenv("KILN_GPU_BACKEND");
  if (backend && std::string_view(backend) == "record") return; // the Gpu's RecordingBackend
  const char* validation = std::getenv("KILN_VULKAN_VALIDATION");
  const bool validate = validation && std::string_view(validation) == "1";
  try {
    vulkan::ContextOptions options;
    options.validation = validate;
    options.synchronization_validation = validate;
    context_ = std::make_unique<vulkan::Context>(options);
    renderer_ = std::make_unique<vulkan::MaxwellRenderer>(*context_, gpu_.memory());
  } catch (const std::exception& error) {
    renderer_.reset();
    context_.reset();
    rt::guest_log("kiln: no Vulkan renderer (%s): GPU draws are recorded, not rendered\n", error.what());
    return;
  }
  gpu_.set_backend(renderer_.get());
  flush_ = [this] { flush_renderer(); };
}

void Driver::flush_renderer() {
  renderer_->flush();
  const auto& diagnostics = renderer_->diagnostics();
  for (; renderer_diagnostics_printed_ < diagnostics.size(); ++renderer_diagnostics_printed_)
    rt::guest_log("kiln: renderer: %s\n", diagnostics[renderer_diagnostics_printed_].c_str());
  const std::vector<std::string> messages = context_->validation_log().messages();
  for (; validation_messages_printed_ < messages.size(); ++validation_messages_printed_)
    rt::guest_log("kiln: vulkan: %s\n", messages[validation_messages_printed_].c_str());
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
    if (node.device == Device::channel) { // every open of the channel node is a new channel
      file.channel = next_channel_++;
      channels_[file.channel] = ChannelState{};
    }
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
    case Device::channel: result = channel_ioctl(channels_.at(file.channel), request, argument); break;
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
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) -> int64_t {
      if (a.size_or_id == 0) return -EINVAL;
      a.handle = next_handle_++;
      buffers_[a.handle].size = align_up(a.size_or_id, page);
      return 0;
    });
  case abi::nvmap_from_id: // ids are handles: one process, one nvmap client
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) -> int64_t {
      if (!buffers_.count(a.size_or_id)) return -EINVAL;
      a.handle = a.size_or_id;
      return 0;
    });
  case abi::nvmap_get_id:
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) -> int64_t {
      if (!buffers_.count(a.handle)) return -EINVAL;
      a.size_or_id = a.handle;
      return 0;
    });
  case abi::nvmap_get_fd:
    return with_argument<abi::NvmapCreate>(argument, [&](abi::NvmapCreate& a) -> int64_t {
      if (!buffers_.count(a.handle)) return -EINVAL;
      const int64_t fd = new_descriptor(File{Device::dma_buf, "nvmap dma-buf", a.handle});
      if (fd < 0) return fd;
      a.size_or_id = static_cast<uint32_t>(fd);
      return 0;
    });
  case abi::nvmap_alloc: {
    abi::NvmapAlloc a;
    if (!read_argument(argument, a)) return -EFAULT;
    const auto found = buffers_.find(a.handle);
    if (found == buffers_.end() || found->second.freed) return -EINVAL;
    Buffer& buffer = found->second;
    if (buffer.guest_address) return -EEXIST;
    if (a.align & (a.align - 1)) return -EINVAL;
    buffer.align = std::max<uint64_t>(page, a.align);
    const uint64_t address = align_up(next_buffer_address_, buffer.align);
    if (address + buffer.size > buffer_memory_end) return -ENOMEM;
    rt::map_guest(address, buffer.size);
    buffer.guest_address = address;
    next_buffer_address_ = address + buffer.size + page; // a guard page between buffers
    return 0;
  }
  case abi::nvmap_free: { // the argument is the handle
    const uint32_t handle = static_cast<uint32_t>(argument);
    const auto found = buffers_.find(handle);
    if (found == buffers_.end() || found->second.freed) return -EINVAL;
    found->second.freed = true;
    if (found->second.gpu_mappings == 0) release_buffer_memory(handle);
    return 0;
  }
  case abi::nvmap_param:
    return with_argument<abi::NvmapParam>(argument, [&](abi::NvmapParam& a) -> int64_t {
      const auto found = buffers_.find(a.handle);
      if (found == buffers_.end()) return -EINVAL;
      const Buffer& buffer = found->second;
      switch (a.param) {
      case 1: a.result = buffer.size; return 0;
      case 2: a.result = buffer.align; return 0;
      case 3: a.result = buffer.guest_address; return 0;
      case 4: a.result = uint64_t{1} << 30; return 0; // NVMAP_HEAP_IOVMM
      case 5: a.result = 0; return 0;                 // pitch kind
      default: return -EINVAL;
      }
    });
  default: return -ENOTTY;
  }
}

void Driver::release_buffer_memory(uint32_t handle) {
  const Buffer& buffer = buffers_.at(handle);
  if (buffer.guest_address) rt::unmap_guest(buffer.guest_address, buffer.size);
  buffers_.erase(handle);
}

uint64_t Driver::allocate_gpu_range(uint64_t size, uint64_t align) {
  const uint64_t address = align_up(next_gpu_address_, std::max<uint64_t>(align, 0x10000));
  next_gpu_address_ = address + align_up(size, 0x10000);
  if (next_gpu_address_ > driver_gpu_base) throw Error("GPU address space exhausted");
  return address;
}

int64_t Driver::address_space_ioctl(uint64_t request, uint64_t argument) {
  switch (request) {
  case abi::as_bind_channel: {
    abi::AsBindChannel a;
    if (!read_argument(argument, a)) return -EFAULT;
    const auto found = files_.find(a.channel_fd);
    if (found == files_.end() || found->second.device != Device::channel) return -EINVAL;
    channels_.at(found->second.channel).bound = true;
    return 0;
  }
  case abi::as_alloc_space:
    return with_argument<abi::AsAllocSpace>(argument, [&](abi::AsAllocSpace& a) -> int64_t {
      const uint64_t size = uint64_t{a.pages} * a.page_size;
      if (size == 0) return -EINVAL;
      if (a.flags & abi::as_flag_fixed_offset) {
        next_gpu_address_ = std::max(next_gpu_address_, a.offset_or_align + size);
      } else {
        a.offset_or_align = allocate_gpu_range(size, std::max<uint64_t>(a.offset_or_align, a.page_size));
      }
      return 0;
    });
  case abi::as_free_space: return 0; // reservations only steer the allocator
  case abi::as_map_buffer_ex:
    return with_argument<abi::AsMapBufferEx>(argument, [&](abi::AsMapBufferEx& a) -> int64_t {
      const auto file = files_.find(a.dmabuf_fd);
      if (file == files_.end() || file->second.device != Device::dma_buf) return -EINVAL;
      const auto found = buffers_.find(file->second.handle);
      if (found == buffers_.end() || !found->second.guest_address) return -EINVAL;
      Buffer& buffer = found->second;
      const uint64_t size = a.mapping_size ? align_up(a.mapping_size, page) : buffer.size - a.buffer_offset;
      if (a.buffer_offset % page || a.buffer_offset >= buffer.size || size > buffer.size - a.buffer_offset) return -EINVAL;
      const uint64_t gpu_address = (a.flags & abi::as_flag_fixed_offset) ? a.offset
                                                                           : allocate_gpu_range(size, buffer.align);
      gpu_.memory().map(gpu_address, {rt::host_pointer(buffer.guest_address + a.buffer_offset), size});
      gpu_mappings_[gpu_address] = GpuMapping{file->second.handle, size};
      ++buffer.gpu_mappings;
      a.offset = gpu_address;
      if (a.page_size == 0) a.page_size = static_cast<uint32_t>(page);
      return 0;
    });
  case abi::as_unmap_buffer: {
    abi::AsUnmapBuffer a;
    if (!read_argument(argument, a)) return -EFAULT;
    const auto found = gpu_mappings_.find(a.offset);
    if (found == gpu_mappings_.end()) return -EINVAL;
    gpu_.memory().unmap(a.offset);
    const uint32_t handle = found->second.handle;
    gpu_mappings_.erase(found);
    Buffer& buffer = buffers_.at(handle);
    if (--buffer.gpu_mappings == 0 && buffer.freed) release_buffer_memory(handle);
    return 0;
  }
  default: return -ENOTTY;
  }
}

int64_t Driver::channel_ioctl(ChannelState& channel, uint64_t request, uint64_t argument) {
  switch (request) {
  case abi::channel_set_nvmap_fd: case abi::channel_set_timeout: case abi::channel_set_priority:
  case abi::channel_set_timeout_ex:
    return 0; // one nvmap client per process; kiln's waits have their own timeouts
  case abi::channel_alloc_gpfifo: case abi::channel_alloc_gpfifo_ex: {
    uint32_t entries = 0;
    if (!rt::guest_range_mapped(argument, 4)) return -EFAULT;
    std::memcpy(&entries, rt::host_pointer(argument), 4);
    if (!channel.bound) {
      rt::guest_log("kiln: /dev/nvhost-gpu: GPFIFO allocated before the channel was bound to an address space\n");
      return -EINVAL;
    }
    if (channel.gpu_channel || entries == 0) return -EINVAL;
    choose_backend();
    channel.gpu_channel = gpu_.create_channel();
    channel.syncpoint = 1 + *channel.gpu_channel; // host1x syncpoint 0 is never handed out
    if (channel.syncpoint >= maxwell::Gpu::syncpoint_count) throw Error("out of syncpoints for GPU channels");
    channel.syncpoint_max = gpu_.syncpoint(channel.syncpoint);
    gpu_.memory().map_owned(driver_gpu_base + *channel.gpu_channel * driver_ring_size, driver_ring_size);
    return 0;
  }
  case abi::channel_alloc_obj_ctx:
    return with_argument<abi::ChannelAllocObjCtx>(argument, [&](abi::ChannelAllocObjCtx& a) -> int64_t {
      if (!channel.gpu_channel) return -EINVAL;
      if (!is_maxwell_class(a.class_num)) {
        rt::guest_log("kiln: /dev/nvhost-gpu: ALLOC_OBJ_CTX for class %#x, which kiln does not implement\n", a.class_num);
        return -EINVAL;
      }
      a.obj_id = a.class_num; // the pushbuffer's SET_OBJECT binds the engine to a subchannel
      return 0;
    });
  case abi::channel_submit_gpfifo: return submit(channel, argument);
  default: return -ENOTTY;
  }
}

int64_t Driver::submit(ChannelState& channel, uint64_t argument) {
  abi::ChannelSubmitGpfifo a;
  if (!read_argument(argument, a)) return -EFAULT;
  if (!channel.gpu_channel) return -EINVAL;
  if (a.flags & abi::submit_flag_sync_fence) {
    rt::guest_log("kiln: /dev/nvhost-gpu: sync-fence file descriptors are not supported (use syncpoint fences)\n");
    return -EINVAL;
  }
  if (a.num_entries > max_gpfifo_entries_per_submit || !rt::guest_range_mapped(a.gpfifo, uint64_t{a.num_entries} * 8))
    return -EFAULT;
  const uint64_t ring = driver_gpu_base + *channel.gpu_channel * driver_ring_size;
  auto driver_entry = [&](const maxwell::StreamBuilder& stream) {
    const uint64_t bytes = stream.size() * 4;
    if (channel.ring_offset + bytes > driver_ring_size) channel.ring_offset = 0;
    const maxwell::GpfifoEntry entry = stream.place(gpu_.memory(), ring + channel.ring_offset);
    channel.ring_offset += static_cast<uint32_t>(bytes);
    return entry;
  };
  std::vector<maxwell::GpfifoEntry> entries;
  if (a.flags & abi::submit_flag_fence_wait) {
    if (a.fence.id >= maxwell::Gpu::syncpoint_count) return -EINVAL;
    maxwell::StreamBuilder wait;
    wait.syncpoint_wait(a.fence.id, a.fence.value);
    entries.push_back(driver_entry(wait));
  }
  for (uint32_t i = 0; i < a.num_entries; ++i) {
    uint32_t words[2];
    std::memcpy(words, rt::host_pointer(a.gpfifo + uint64_t{i} * 8), 8);
    entries.push_back(maxwell::GpfifoEntry::decode(words[0], words[1]));
  }
  if (a.flags & abi::submit_flag_fence_get) {
    maxwell::StreamBuilder increment;
    increment.host(maxwell::host_method::wfi, 0).syncpoint_increment(channel.syncpoint);
    entries.push_back(driver_entry(increment));
    a.fence = abi::Fence{channel.syncpoint, ++channel.syncpoint_max};
  }
  ++submits;
  gpu_.submit(*channel.gpu_channel, entries);
  run_gpu(std::chrono::milliseconds(0));
  write_argument(argument, a);
  return 0;
}

void Driver::run_gpu(std::chrono::milliseconds timeout) {
  maxwell::RunOptions options;
  options.wait_timeout = timeout;
  options.diagnose_blocked = false; // blocked channels wait for later submissions or syncpoint increments
  gpu_.run(options);
  const auto& diagnostics = gpu_.diagnostics();
  for (; diagnostics_printed_ < diagnostics.size(); ++diagnostics_printed_)
    rt::guest_log("kiln: gpu: %s\n", diagnostics[diagnostics_printed_].describe().c_str());
}

int64_t Driver::wait_syncpoint(uint32_t id, uint32_t threshold, int32_t timeout_ms, uint32_t& value) {
  if (id >= maxwell::Gpu::syncpoint_count) return -EINVAL;
  ++waits;
  // Only the GPU can advance a syncpoint this program waits on, and it runs here: "no timeout" is capped so a
  // wait that can never finish ends with a message instead of hanging.
  constexpr int32_t longest_wait_ms = 2000;
  const int32_t timeout = timeout_ms < 0 || timeout_ms > longest_wait_ms ? longest_wait_ms : timeout_ms;
  run_gpu(std::chrono::milliseconds(0));
  if (!reached(gpu_.syncpoint(id), threshold) && timeout > 0) run_gpu(std::chrono::milliseconds(timeout));
  value = gpu_.syncpoint(id);
  if (!reached(value, threshold)) {
    if (timeout_ms != 0)
      rt::guest_log("kiln: syncpoint %u wait for %u timed out after %d ms at value %u\n", id, threshold, timeout, value);
    return -EAGAIN;
  }
  if (flush_) flush_(); // the CPU reads what the GPU wrote once the fence is reached
  return 0;
}

int64_t Driver::ctrl_ioctl(uint64_t request, uint64_t argument) {
  switch (request) {
  case abi::ctrl_syncpt_read:
    return with_argument<abi::SyncptRead>(argument, [&](abi::SyncptRead& a) -> int64_t {
      if (a.id >= maxwell::Gpu::syncpoint_count) return -EINVAL;
      run_gpu(std::chrono::milliseconds(0));
      a.value = gpu_.syncpoint(a.id);
      return 0;
    });
  case abi::ctrl_syncpt_incr: {
    abi::SyncptIncr a;
    if (!read_argument(argument, a)) return -EFAULT;
    if (a.id >= maxwell::Gpu::syncpoint_count) return -EINVAL;
    gpu_.increment_syncpoint(a.id);
    run_gpu(std::chrono::milliseconds(0)); // a channel may wait for it
    return 0;
  }
  case abi::ctrl_syncpt_waitex:
    return with_argument<abi::SyncptWaitex>(argument, [&](abi::SyncptWaitex& a) -> int64_t {
      return wait_syncpoint(a.id, a.thresh, a.timeout, a.value);
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
  const auto found = buffers_.find(file.handle);
  if (found == buffers_.end() || !found->second.guest_address) return -EINVAL;
  const Buffer& buffer = found->second;
  if (length == 0 || offset % page || offset >= buffer.size || length > buffer.size - offset) return -EINVAL;
  constexpr uint64_t map_fixed = 0x10;
  if ((flags & map_fixed) && address != buffer.guest_address + offset) return -EINVAL; // cannot move the buffer
  return static_cast<int64_t>(buffer.guest_address + offset);
}

int64_t Driver::close(int64_t fd) {
  if (!files_.erase(fd)) return -EBADF;
  return ::close(static_cast<int>(fd)) < 0 ? -errno : 0;
}

bool Driver::holds_memory(uint64_t address, uint64_t size) const {
  return address < buffer_memory_end && address + size > buffer_memory_base;
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
