#pragma once
// kiln's nvgpu driver: the state behind the GPU device nodes. nvmap buffers live in guest memory (a region of
// their own), so a CPU mapping of a buffer and the GPU's view of it are the same bytes; every address space
// maps into the one kiln::maxwell::Gpu; a channel is a Gpu channel with a syncpoint for its fences.
// Submissions run the command processor at once (work completes in order), so a fence is reached when its
// submit returns unless a channel waits on an acquire; syncpoint waits run the processor again until the
// threshold is reached or the guest's timeout passes, then let the backend write GPU results back to memory.
// The backend is kiln's Vulkan renderer unless a test sets one (KILN_GPU_BACKEND=record: draws are recorded
// only; KILN_VULKAN_VALIDATION=1 turns the validation layers on and prints their messages at each flush).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/gpu/maxwell/gpu.h"

namespace kiln::vulkan {
class Context;
class MaxwellRenderer;
} // namespace kiln::vulkan

namespace kiln::linux_user::nvgpu {

/// Guest addresses reserved for nvmap buffer memory (the platform's anonymous mmaps stay below it).
constexpr uint64_t buffer_memory_base = 0xc00000000;
constexpr uint64_t buffer_memory_end = 0xe00000000;
/// GPU addresses the driver keeps for its own pushbuffers (fence increments and waits), one page per channel.
constexpr uint64_t driver_gpu_base = 0xfff0000000;

class Driver {
public:
  Driver();
  ~Driver();

  maxwell::Gpu& gpu() { return gpu_; }
  /// The renderer: `flush` writes its results back into guest memory (called before a fence wait returns).
  void set_backend(maxwell::Backend* backend, std::function<void()> flush = {});
  /// The Vulkan renderer and its context when the driver created them (nullptr otherwise).
  vulkan::MaxwellRenderer* renderer() { return renderer_.get(); }
  const vulkan::Context* vulkan_context() const { return context_.get(); }

  std::optional<int64_t> open(std::string_view path);
  bool owns(int64_t fd) const { return files_.count(fd) != 0; }
  int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc);
  int64_t mmap(int64_t fd, uint64_t address, uint64_t length, uint64_t flags, uint64_t offset);
  int64_t close(int64_t fd);
  bool holds_memory(uint64_t address, uint64_t size) const;

  /// Statistics for reports and tests.
  uint64_t submits = 0, waits = 0;

private:
  enum class Device { nvmap, address_space, channel, ctrl_gpu, ctrl, dma_buf };
  struct File {
    Device device;
    std::string path;
    uint32_t handle = 0;   ///< dma_buf: the nvmap handle
    uint32_t channel = 0;  ///< channel: index into channels_
  };
  struct Buffer {
    uint64_t size = 0;
    uint64_t align = 0x1000;
    uint64_t guest_address = 0; ///< 0 until NVMAP_IOC_ALLOC
    uint32_t gpu_mappings = 0;
    bool freed = false;
  };
  struct GpuMapping {
    uint32_t handle;
    uint64_t size;
  };
  struct ChannelState {
    bool bound = false;            ///< to an address space
    std::optional<uint32_t> gpu_channel; ///< created at GPFIFO allocation
    uint32_t syncpoint = 0;
    uint32_t syncpoint_max = 0;    ///< the value its last fence asked for
    uint32_t ring_offset = 0;      ///< next free word of its driver page
  };

  int64_t nvmap_ioctl(uint64_t request, uint64_t argument);
  int64_t address_space_ioctl(uint64_t request, uint64_t argument);
  int64_t channel_ioctl(ChannelState& channel, uint64_t request, uint64_t argument);
  int64_t ctrl_ioctl(uint64_t request, uint64_t argument);
  int64_t submit(ChannelState& channel, uint64_t argument);
  int64_t wait_syncpoint(uint32_t id, uint32_t threshold, int32_t timeout_ms, uint32_t& reached);
  /// Runs the command processor and prints the diagnostics it produced.
  void run_gpu(std::chrono::milliseconds timeout);
  uint64_t allocate_gpu_range(uint64_t size, uint64_t align);
  int64_t new_descriptor(File file);
  void release_buffer_memory(uint32_t handle);
  /// Creates the Vulkan renderer at the first channel unless a backend was set.
  void choose_backend();
  void flush_renderer();

  maxwell::Gpu gpu_;
  std::function<void()> flush_;
  bool backend_chosen_ = false;
  // Declared after gpu_: destroyed first, while the address space they use still exists.
  std::unique_ptr<vulkan::Context> context_;
  std::unique_ptr<vulkan::MaxwellRenderer> renderer_;
  size_t validation_messages_printed_ = 0, renderer_diagnostics_printed_ = 0;
  std::map<int64_t, File> files_;
  std::map<uint32_t, Buffer> buffers_;
  std::map<uint64_t, GpuMapping> gpu_mappings_; ///< by GPU address
  std::map<uint32_t, ChannelState> channels_;
  uint32_t next_handle_ = 1, next_channel_ = 0;
  uint64_t next_buffer_address_ = buffer_memory_base;
  uint64_t next_gpu_address_ = 0x100000000;
  size_t diagnostics_printed_ = 0;
};

/// The process-wide driver the system calls use.
Driver& driver();

} // namespace kiln::linux_user::nvgpu
