#pragma once
// Answering a Linux system call for any linux-user platform (abi.h says what differs between them). The
// platform gives its process (guest memory, mappings, the program break, how it exits, device files it
// emulates) and the call's number and six arguments as the guest passed them.
#include <cstdint>
#include <optional>

#include "runtime/platform/linux-syscalls/abi.h"

namespace kiln::linux_calls {

/// Device files a platform emulates (the L4T GPU nodes, /dev/kiln-host): the calls on their descriptors go here.
class DeviceFiles {
public:
  virtual ~DeviceFiles() = default;
  /// A descriptor when `path` names one of the devices.
  virtual std::optional<int64_t> open(const char* path) = 0;
  virtual bool owns(int64_t fd) const = 0;
  virtual int64_t read(int64_t fd, uint64_t address, uint64_t size) = 0;
  virtual int64_t close(int64_t fd) = 0;
  virtual int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc) = 0;
  /// mmap of a device descriptor: the address or -errno; nullopt when the descriptor maps as a file does.
  virtual std::optional<int64_t> mmap(int64_t fd, uint64_t address, uint64_t length, uint64_t flags, uint64_t offset) = 0;
  /// Whether [address, address + size) is device memory munmap must leave alone.
  virtual bool holds_memory(uint64_t address, uint64_t size) const = 0;
  /// The process ends.
  virtual void shutdown() = 0;
};

class Process {
public:
  virtual ~Process() = default;
  /// The host bytes of guest [address, address + size) when all of it is mapped, else nullptr.
  virtual uint8_t* guest(uint64_t address, uint64_t size) = 0;
  /// A fresh zeroed read/write mapping of `size` bytes (page multiple): at `address` when `fixed` (replacing
  /// what was there), else where the process places mappings. The address, or a negative host errno.
  virtual int64_t map(uint64_t address, uint64_t size, bool fixed) = 0;
  virtual void unmap(uint64_t address, uint64_t size) = 0;
  /// brk(wanted): the new break, or the current one when `wanted` is refused (or 0).
  virtual uint64_t brk(uint64_t wanted) = 0;
  virtual uint64_t stack_size() const = 0;
  /// set_thread_area (MIPS): the thread pointer RDHWR $29 reads.
  virtual void set_thread_pointer(uint64_t) {}
  /// exit/exit_group: ends the process with `status` (does not return).
  [[noreturn]] virtual void exit(int status) = 0;
  virtual DeviceFiles* devices() { return nullptr; }
};

/// Answers call `number` of `abi` with `args` (as the guest passed them, each zero-extended) at guest `pc`: the
/// result, or a negative host errno (the caller converts it with guest_errno). A call kiln does not answer is
/// reported in kiln's log with its name and `pc`, and fails with ENOSYS as on a kernel without it.
int64_t system_call(const Abi& abi, Process& process, uint32_t number, const uint64_t args[6], uint64_t pc);

} // namespace kiln::linux_calls
