#pragma once
// The L4T device nodes of kiln's nvgpu devices (runtime/gpu/nvgpu/devices.h) for a recompiled linux-user
// program: descriptors, the L4T ioctl layouts of nvgpu_abi.h read from and written to guest memory, and the
// dma-buf descriptors of nvmap buffers that the program mmaps. The device logic itself is shared with
// Horizon's nvdrv service; docs/nvgpu.md has the table of how the two ABIs differ.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/gpu/nvgpu/devices.h"

namespace kiln::linux_user::nvgpu {

/// Guest addresses reserved for nvmap buffer memory (the platform's anonymous mmaps stay below it).
constexpr uint64_t buffer_memory_base = 0xc00000000;
constexpr uint64_t buffer_memory_end = 0xe00000000;
using kiln::nvgpu_devices::driver_gpu_base;

class Driver {
public:
  Driver();
  ~Driver();

  maxwell::Gpu& gpu() { return devices_.gpu(); }
  kiln::nvgpu_devices::Devices& devices() { return devices_; }
  /// The renderer: `flush` writes its results back into guest memory (called before a fence wait returns).
  void set_backend(maxwell::Backend* backend, std::function<void()> flush = {}) { devices_.set_backend(backend, std::move(flush)); }
  /// The Vulkan renderer and its context when the devices created them (nullptr otherwise).
  vulkan::MaxwellRenderer* renderer() { return devices_.renderer(); }
  const vulkan::Context* vulkan_context() const { return devices_.vulkan_context(); }

  std::optional<int64_t> open(std::string_view path);
  bool owns(int64_t fd) const { return files_.count(fd) != 0; }
  int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc);
  int64_t mmap(int64_t fd, uint64_t address, uint64_t length, uint64_t flags, uint64_t offset);
  int64_t close(int64_t fd);
  bool holds_memory(uint64_t address, uint64_t size) const { return devices_.in_buffer_region(address, size); }

private:
  enum class Device { nvmap, address_space, channel, ctrl_gpu, ctrl, dma_buf };
  struct File {
    Device device;
    std::string path;
    uint32_t handle = 0;   ///< dma_buf: the nvmap handle
    uint32_t channel = 0;  ///< channel: the devices' channel
  };

  int64_t nvmap_ioctl(uint64_t request, uint64_t argument);
  int64_t address_space_ioctl(uint64_t request, uint64_t argument);
  int64_t channel_ioctl(uint32_t channel, uint64_t request, uint64_t argument);
  int64_t ctrl_ioctl(uint64_t request, uint64_t argument);
  int64_t submit(uint32_t channel, uint64_t argument);
  int64_t new_descriptor(File file);

  kiln::nvgpu_devices::Devices devices_;
  std::map<int64_t, File> files_;
};

/// The process-wide driver the system calls use.
Driver& driver();

} // namespace kiln::linux_user::nvgpu
