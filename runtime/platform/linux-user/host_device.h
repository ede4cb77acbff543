#pragma once
// /dev/kiln-host for recompiled linux-user programs (kiln_host_abi.h): the host shell (runtime/host) seen as a
// device. Only standard types cross this interface, like nvgpu.h, so the platform sources compile without SDL.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::linux_user::host_device {

/// Takes the host options (--window, --frames N, ...) out of the program's arguments before the guest gets
/// them; an error message (empty when fine) for a bad option.
std::string configure(std::vector<std::string>& arguments);
std::optional<int64_t> open(std::string_view path);
bool owns(int64_t fd);
int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc);
int64_t read(int64_t fd, uint64_t address, uint64_t size);
int64_t close(int64_t fd);
/// The process is exiting: --hold keeps the last frame up until the window is closed; the window goes.
void shutdown();

} // namespace kiln::linux_user::host_device
