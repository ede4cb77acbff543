#include "runtime/gpu/nvgpu/devices.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/core/guest_log.h"
#include "runtime/core/guest_memory.h"
#include "runtime/gpu/maxwell/channel.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/stream_builder.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/maxwell/maxwell_renderer.h"

namespace kiln::nvgpu_devices {

namespace {

constexpr uint64_t page = rt::guest_page_size;
constexpr uint64_t driver_ring_size = 0x10000; // per channel: fence waits and increments, reused in a ring

uint64_t align_up(uint64_t value, uint64_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

/// Syncpoint thresholds compare with wrap-around, as host1x does.
bool reached(uint32_t value, uint32_t threshold) { return static_cast<int32_t>(value - threshold) >= 0; }

/// The engine classes a channel's object contexts may be: kiln's Maxwell and Ampere engine classes.
bool is_engine_class(uint32_t class_id) {
  return maxwell::is_known_class(class_id) && !maxwell::is_host_class(class_id);
}

} // namespace

const char* status_name(Status status) {
  switch (status) {
  case Status::ok: return "ok";
  case Status::bad_value: return "bad value";
  case Status::bad_handle: return "bad handle";
  case Status::fault: return "bad address";
  case Status::already_allocated: return "already allocated";
  case Status::no_memory: return "out of memory";
  case Status::timeout: return "timed out";
  case Status::not_supported: return "not supported";
  case Status::failed: return "failed";
  }
  return "?";
}

Devices::Devices(uint64_t buffer_region_base, uint64_t buffer_region_end)
    : buffer_region_base_(buffer_region_base), buffer_region_end_(buffer_region_end),
      next_buffer_address_(buffer_region_base) {}
Devices::~Devices() = default;

void Devices::set_backend(maxwell::Backend* backend, std::function<void()> flush) {
  std::lock_guard guard(lock_);
  gpu_.set_backend(backend);
  flush_ = std::move(flush);
  backend_chosen_ = true;
}

void Devices::set_gpu_settings(config::GpuSettings settings) {
  std::lock_guard guard(lock_);
  gpu_settings_ = std::move(settings);
}

void Devices::choose_backend() {
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
    renderer_ = std::make_unique<vulkan::MaxwellRenderer>(*context_, gpu_.memory(), vulkan::MaxwellRendererOptions{.gpu_settings = gpu_settings_});
  } catch (const std::exception& error) {
    renderer_.reset();
    context_.reset();
    rt::guest_log("kiln: no Vulkan renderer (%s): GPU draws are recorded, not rendered\n", error.what());
    return;
  }
  gpu_.set_backend(renderer_.get());
  flush_ = [this] { flush_renderer(); };
}

void Devices::flush_renderer() {
  renderer_->flush();
  const auto& diagnostics = renderer_->diagnostics();
  for (; renderer_diagnostics_printed_ < diagnostics.size(); ++renderer_diagnostics_printed_)
    rt::guest_log("kiln: renderer: %s\n", diagnostics[renderer_diagnostics_printed_].c_str());
  const std::vector<std::string> messages = context_->validation_log().messages();
  for (; validation_messages_printed_ < messages.size(); ++validation_messages_printed_)
    rt::guest_log("kiln: vulkan: %s\n", messages[validation_messages_printed_].c_str());
}

// ---- nvmap ----------------------------------------------------------------------------------------------

Status Devices::create_buffer(uint64_t size, uint32_t& handle) {
  std::lock_guard guard(lock_);
  if (size == 0) return Status::bad_value;
  handle = next_handle_++;
  buffers_[handle].size = align_up(size, page);
  return Status::ok;
}

Status Devices::allocate_buffer(uint32_t handle, uint64_t align, uint8_t kind, uint64_t guest_address) {
  std::lock_guard guard(lock_);
  const auto found = buffers_.find(handle);
  if (found == buffers_.end() || found->second.freed) return Status::bad_handle;
  Buffer& buffer = found->second;
  if (buffer.guest_address) return Status::already_allocated;
  if (align & (align - 1)) return Status::bad_value;
  buffer.align = std::max<uint64_t>(page, align);
  buffer.kind = kind;
  if (guest_address) { // the guest's own memory (Horizon: heap or transfer memory)
    if (guest_address % page || !rt::guest_range_mapped(guest_address, buffer.size)) return Status::fault;
    buffer.guest_address = guest_address;
    return Status::ok;
  }
  if (buffer_region_end_ == 0) return Status::bad_value; // this transport's guest must give the memory
  const uint64_t address = align_up(next_buffer_address_, buffer.align);
  if (address + buffer.size > buffer_region_end_) return Status::no_memory;
  rt::map_guest(address, buffer.size);
  buffer.guest_address = address;
  buffer.driver_memory = true;
  next_buffer_address_ = address + buffer.size + page; // a guard page between buffers
  return Status::ok;
}

Status Devices::free_buffer(uint32_t handle, Buffer* freed) {
  std::lock_guard guard(lock_);
  const auto found = buffers_.find(handle);
  if (found == buffers_.end() || found->second.freed) return Status::bad_handle;
  if (freed) *freed = found->second;
  found->second.freed = true;
  if (found->second.gpu_mappings == 0) release_buffer_memory(handle);
  return Status::ok;
}

const Devices::Buffer* Devices::buffer(uint32_t handle) const {
  const auto found = buffers_.find(handle);
  return found == buffers_.end() || found->second.freed ? nullptr : &found->second;
}

bool Devices::in_buffer_region(uint64_t address, uint64_t size) const {
  return address < buffer_region_end_ && address + size > buffer_region_base_;
}

void Devices::release_buffer_memory(uint32_t handle) {
  const Buffer& buffer = buffers_.at(handle);
  if (buffer.driver_memory) rt::unmap_guest(buffer.guest_address, buffer.size);
  buffers_.erase(handle);
}

// ---- the GPU address space ------------------------------------------------------------------------------

uint64_t Devices::allocate_gpu_range(uint64_t size, uint64_t align) {
  const uint64_t address = align_up(next_gpu_address_, std::max<uint64_t>(align, 0x10000));
  next_gpu_address_ = address + align_up(size, 0x10000);
  if (next_gpu_address_ > driver_gpu_base) throw Error("GPU address space exhausted");
  return address;
}

Status Devices::reserve_gpu_space(uint64_t size, uint64_t align, bool fixed, uint64_t& offset) {
  std::lock_guard guard(lock_);
  if (size == 0) return Status::bad_value;
  if (fixed) {
    if (offset + size > driver_gpu_base) return Status::bad_value;
    next_gpu_address_ = std::max(next_gpu_address_, offset + size);
  } else {
    if (align & (align - 1)) return Status::bad_value;
    offset = allocate_gpu_range(size, align);
  }
  return Status::ok;
}

Status Devices::map_buffer(uint32_t handle, uint64_t buffer_offset, uint64_t size, bool fixed, uint64_t& gpu_address) {
  std::lock_guard guard(lock_);
  const auto found = buffers_.find(handle);
  if (found == buffers_.end() || found->second.freed) return Status::bad_handle;
  Buffer& buffer = found->second;
  if (!buffer.guest_address) return Status::bad_value;
  if (buffer_offset % page || buffer_offset >= buffer.size) return Status::bad_value;
  const uint64_t length = size ? align_up(size, page) : buffer.size - buffer_offset;
  if (length > buffer.size - buffer_offset) return Status::bad_value;
  if (fixed && (gpu_address % page || gpu_address + length > driver_gpu_base)) return Status::bad_value;
  const uint64_t address = fixed ? gpu_address : allocate_gpu_range(length, buffer.align);
  gpu_.memory().map(address, {rt::host_pointer(buffer.guest_address + buffer_offset), length});
  gpu_mappings_[address] = GpuMapping{handle, length};
  ++buffer.gpu_mappings;
  gpu_address = address;
  return Status::ok;
}

Status Devices::unmap_buffer(uint64_t gpu_address) {
  std::lock_guard guard(lock_);
  const auto found = gpu_mappings_.find(gpu_address);
  if (found == gpu_mappings_.end()) return Status::bad_value;
  gpu_.memory().unmap(gpu_address);
  const uint32_t handle = found->second.handle;
  gpu_mappings_.erase(found);
  Buffer& buffer = buffers_.at(handle);
  if (--buffer.gpu_mappings == 0 && buffer.freed) release_buffer_memory(handle);
  return Status::ok;
}

// ---- channels -------------------------------------------------------------------------------------------

uint32_t Devices::create_channel() {
  std::lock_guard guard(lock_);
  const uint32_t channel = next_channel_++;
  channels_[channel] = Channel{};
  return channel;
}

void Devices::destroy_channel(uint32_t channel) {
  std::lock_guard guard(lock_);
  channels_.erase(channel); // its Gpu channel stays: work it queued still completes in order
}

Status Devices::bind_channel(uint32_t channel) {
  std::lock_guard guard(lock_);
  const auto found = channels_.find(channel);
  if (found == channels_.end()) return Status::bad_handle;
  found->second.bound = true;
  return Status::ok;
}

Status Devices::allocate_gpfifo(uint32_t channel_id, uint32_t entries, Fence& fence) {
  std::lock_guard guard(lock_);
  const auto found = channels_.find(channel_id);
  if (found == channels_.end()) return Status::bad_handle;
  Channel& channel = found->second;
  if (!channel.bound) {
    rt::guest_log("kiln: /dev/nvhost-gpu: GPFIFO allocated before the channel was bound to an address space\n");
    return Status::bad_value;
  }
  if (channel.gpu_channel || entries == 0) return Status::bad_value;
  choose_backend();
  channel.gpu_channel = gpu_.create_channel();
  channel.syncpoint = 1 + *channel.gpu_channel; // host1x syncpoint 0 is never handed out
  if (channel.syncpoint >= maxwell::Gpu::syncpoint_count) throw Error("out of syncpoints for GPU channels");
  channel.syncpoint_max = gpu_.syncpoint(channel.syncpoint);
  gpu_.memory().map_owned(driver_gpu_base + *channel.gpu_channel * driver_ring_size, driver_ring_size);
  fence = Fence{channel.syncpoint, channel.syncpoint_max};
  return Status::ok;
}

Status Devices::allocate_object_context(uint32_t channel_id, uint32_t class_id) {
  std::lock_guard guard(lock_);
  const auto found = channels_.find(channel_id);
  if (found == channels_.end()) return Status::bad_handle;
  if (!found->second.gpu_channel) return Status::bad_value;
  if (!is_engine_class(class_id)) {
    rt::guest_log("kiln: /dev/nvhost-gpu: ALLOC_OBJ_CTX for class %#x, which kiln does not implement\n", class_id);
    return Status::bad_value;
  }
  // The channel's host class follows the GPU family of its object contexts (C56F for the Ampere classes); a
  // channel that has run methods already keeps its class.
  if (const std::optional<maxwell::Family> family = maxwell::family_of(class_id)) {
    maxwell::Channel& channel = gpu_.channel(*found->second.gpu_channel);
    const maxwell::ClassId host = maxwell::host_class_of(*family);
    if (channel.host_class() != static_cast<uint32_t>(host)) {
      if (found->second.has_family) {
        rt::guest_log("kiln: /dev/nvhost-gpu: ALLOC_OBJ_CTX for %s on a channel of %s objects\n", maxwell::class_name(class_id).c_str(),
                      maxwell::class_name(channel.host_class()).c_str());
        return Status::bad_value;
      }
      try {
        channel.set_host_class(host);
      } catch (const Error& error) {
        rt::guest_log("kiln: /dev/nvhost-gpu: ALLOC_OBJ_CTX for %s: %s\n", maxwell::class_name(class_id).c_str(), error.what());
        return Status::bad_value;
      }
    }
    found->second.has_family = true;
  }
  return Status::ok; // the pushbuffer's SET_OBJECT binds the engine to a subchannel
}

Status Devices::submit(uint32_t channel_id, std::span<const maxwell::GpfifoEntry> guest_entries, SubmitOptions options,
                       Fence& fence) {
  std::lock_guard guard(lock_);
  const auto found = channels_.find(channel_id);
  if (found == channels_.end()) return Status::bad_handle;
  Channel& channel = found->second;
  if (!channel.gpu_channel) return Status::bad_value;
  const uint64_t ring = driver_gpu_base + *channel.gpu_channel * driver_ring_size;
  auto driver_entry = [&](const maxwell::StreamBuilder& stream) {
    const uint64_t bytes = stream.size() * 4;
    if (channel.ring_offset + bytes > driver_ring_size) channel.ring_offset = 0;
    const maxwell::GpfifoEntry entry = stream.place(gpu_.memory(), ring + channel.ring_offset);
    channel.ring_offset += static_cast<uint32_t>(bytes);
    return entry;
  };
  std::vector<maxwell::GpfifoEntry> entries;
  if (options.wait_for_fence) {
    if (fence.id >= maxwell::Gpu::syncpoint_count) return Status::bad_value;
    maxwell::StreamBuilder wait;
    wait.syncpoint_wait(fence.id, fence.value);
    entries.push_back(driver_entry(wait));
  }
  entries.insert(entries.end(), guest_entries.begin(), guest_entries.end());
  if (options.get_fence) {
    maxwell::StreamBuilder increment;
    increment.host(maxwell::host_method::wfi, 0).syncpoint_increment(channel.syncpoint);
    entries.push_back(driver_entry(increment));
    fence = Fence{channel.syncpoint, ++channel.syncpoint_max};
  }
  ++submits;
  gpu_.submit(*channel.gpu_channel, entries);
  run_gpu(std::chrono::milliseconds(0));
  return Status::ok;
}

Status Devices::set_error_notifier(uint32_t channel_id, uint32_t handle, uint64_t offset, uint64_t size) {
  std::lock_guard guard(lock_);
  const auto found = channels_.find(channel_id);
  if (found == channels_.end()) return Status::bad_handle;
  if (handle != 0) { // handle 0 turns the notifier off
    const Buffer* notifier = buffer(handle);
    if (!notifier) return Status::bad_handle;
    if (offset > notifier->size || size > notifier->size - offset) return Status::bad_value;
  }
  Channel& channel = found->second;
  channel.error_notifier_handle = handle;
  channel.error_notifier_offset = offset;
  channel.error_notifier_size = size;
  return Status::ok;
}

std::optional<uint32_t> Devices::channel_syncpoint(uint32_t channel_id) const {
  const auto found = channels_.find(channel_id);
  if (found == channels_.end() || !found->second.gpu_channel) return std::nullopt;
  return found->second.syncpoint;
}

void Devices::run_gpu(std::chrono::milliseconds timeout) {
  maxwell::RunOptions options;
  options.wait_timeout = timeout;
  options.diagnose_blocked = false; // blocked channels wait for later submissions or syncpoint increments
  gpu_.run(options);
  const auto& diagnostics = gpu_.diagnostics();
  for (; diagnostics_printed_ < diagnostics.size(); ++diagnostics_printed_)
    rt::guest_log("kiln: gpu: %s\n", diagnostics[diagnostics_printed_].describe().c_str());
}

// ---- syncpoints -----------------------------------------------------------------------------------------

Status Devices::read_syncpoint(uint32_t id, uint32_t& value) {
  std::lock_guard guard(lock_);
  if (id >= maxwell::Gpu::syncpoint_count) return Status::bad_value;
  run_gpu(std::chrono::milliseconds(0));
  value = gpu_.syncpoint(id);
  return Status::ok;
}

Status Devices::increment_syncpoint(uint32_t id) {
  std::lock_guard guard(lock_);
  if (id >= maxwell::Gpu::syncpoint_count) return Status::bad_value;
  gpu_.increment_syncpoint(id);
  run_gpu(std::chrono::milliseconds(0)); // a channel may wait for it
  return Status::ok;
}

bool Devices::syncpoint_reached(uint32_t id, uint32_t threshold) {
  std::lock_guard guard(lock_);
  if (id >= maxwell::Gpu::syncpoint_count) return false;
  run_gpu(std::chrono::milliseconds(0));
  return reached(gpu_.syncpoint(id), threshold);
}

Status Devices::wait_syncpoint(uint32_t id, uint32_t threshold, int32_t timeout_ms, uint32_t& value) {
  std::lock_guard guard(lock_);
  if (id >= maxwell::Gpu::syncpoint_count) return Status::bad_value;
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
    return Status::timeout;
  }
  if (flush_) flush_(); // the CPU reads what the GPU wrote once the fence is reached
  return Status::ok;
}

} // namespace kiln::nvgpu_devices
