// Linux AArch64 system calls (asm-generic numbering) of static programs, answered by the shared Linux layer
// (runtime/platform/linux-syscalls): number in x8, arguments in x0-x5, the result (or -errno) in x0. The process
// is kiln's 39-bit guest address space; the L4T GPU nodes and /dev/kiln-host are its device files.
#include <unistd.h>

#include "runtime/platform/linux-syscalls/system_calls.h"
#include "runtime/platform/linux-user/host_device.h"
#include "runtime/platform/linux-user/nvgpu.h"
#include "runtime/platform/linux-user/process.h"

namespace kiln::linux_user {
namespace {

class Devices final : public linux_calls::DeviceFiles {
public:
  std::optional<int64_t> open(const char* path) override {
    if (const auto gpu_fd = nvgpu::open(path)) return gpu_fd;
    return host_device::open(path);
  }
  bool owns(int64_t fd) const override { return nvgpu::owns(fd) || host_device::owns(fd); }
  int64_t read(int64_t fd, uint64_t address, uint64_t size) override {
    return host_device::owns(fd) ? host_device::read(fd, address, size) : -22; // EINVAL: GPU nodes are not read
  }
  int64_t close(int64_t fd) override { return nvgpu::owns(fd) ? nvgpu::close(fd) : host_device::close(fd); }
  int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc) override {
    return nvgpu::owns(fd) ? nvgpu::ioctl(fd, request, argument, pc) : host_device::ioctl(fd, request, argument, pc);
  }
  std::optional<int64_t> mmap(int64_t fd, uint64_t address, uint64_t length, uint64_t flags, uint64_t offset) override {
    if (nvgpu::owns(fd)) return nvgpu::mmap(fd, address, length, flags, offset);
    return std::nullopt;
  }
  bool holds_memory(uint64_t address, uint64_t size) const override { return nvgpu::holds_memory(address, size); }
  void shutdown() override {
    host_device::shutdown();
    nvgpu::shutdown();
  }
};

class Aarch64Process final : public linux_calls::Process {
public:
  uint8_t* guest(uint64_t address, uint64_t size) override {
    return rt::guest_range_mapped(address, size) ? rt::host_pointer(address) : nullptr;
  }
  int64_t map(uint64_t address, uint64_t size, bool fixed) override {
    ProcessState& state = process_state();
    uint64_t at;
    if (fixed) {
      at = address;
      rt::unmap_guest(at, size);
    } else {
      at = state.mmap_next;
      state.mmap_next += size + rt::guest_page_size; // a guard page between mappings
      if (state.mmap_next >= mmap_end) return -12;   // ENOMEM
    }
    rt::map_guest(at, size);
    return static_cast<int64_t>(at);
  }
  void unmap(uint64_t address, uint64_t size) override { rt::unmap_guest(address, size); }
  uint64_t brk(uint64_t wanted) override {
    ProcessState& state = process_state();
    if (wanted == 0 || wanted < state.brk_start || wanted >= mmap_base) return state.brk_current;
    if (wanted > state.brk_current) rt::map_guest(state.brk_current, wanted - state.brk_current);
    state.brk_current = wanted;
    return state.brk_current;
  }
  uint64_t stack_size() const override { return linux_user::stack_size; }
  [[noreturn]] void exit(int status) override { _exit(status); }
  linux_calls::DeviceFiles* devices() override { return &devices_; }

private:
  Devices devices_;
};

} // namespace

void handle_syscall(rt::Cpu* cpu, uint64_t pc) {
  static Aarch64Process process;
  cpu->x[0] = static_cast<uint64_t>(linux_calls::system_call(linux_calls::aarch64_abi, process, static_cast<uint32_t>(cpu->x[8]), cpu->x, pc));
}

} // namespace kiln::linux_user
