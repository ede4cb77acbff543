#pragma once
// The GPU device nodes of L4T's nvgpu/nvmap drivers for a recompiled Linux program (what a Switch title reaches
// through nvdrv): the system calls route openat/ioctl/mmap/munmap/close of these nodes here. Only standard
// types cross this interface, so the platform sources need nothing of the GPU runtime to compile.
#include <cstdint>
#include <optional>
#include <string_view>

namespace kiln::linux_user::nvgpu {

/// Opens `path` when it names one of the devices (/dev/nvmap, /dev/nvhost-as-gpu, /dev/nvhost-gpu,
/// /dev/nvhost-ctrl-gpu, /dev/nvhost-ctrl): the new descriptor, or -errno. nullopt for any other path.
std::optional<int64_t> open(std::string_view path);
/// Whether `fd` is one of kiln's GPU descriptors (device nodes and the dma-buf fds of nvmap buffers).
bool owns(int64_t fd);
/// An ioctl on one of them; unknown requests are reported with device, number and guest pc (-ENOTTY).
int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc);
/// mmap of an nvmap buffer's dma-buf fd: the guest address of the buffer's own memory (CPU and GPU share it).
int64_t mmap(int64_t fd, uint64_t address, uint64_t length, uint64_t flags, uint64_t offset);
int64_t close(int64_t fd);
/// Whether [address, address + size) lies in nvmap buffer memory (munmap of a buffer mapping keeps the buffer).
bool holds_memory(uint64_t address, uint64_t size);
/// The process is exiting: the GPU is torn down in order, so a capture asked for with KILN_GPU_CAPTURE is written
/// (exit_group ends the process with _exit, which runs no destructors).
void shutdown();

} // namespace kiln::linux_user::nvgpu
