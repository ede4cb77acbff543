#include "runtime/platform/linux-user/host_device.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "runtime/core/guest_memory.h"
#include "runtime/host/host.h"
#include "runtime/platform/linux-user/kiln_host_abi.h"

namespace kiln::linux_user::host_device {
namespace {

// The ABI's button bits are the host pad's (kiln_host_abi.h lists them).
static_assert(static_cast<int>(host::Button::dpad_right) == 7 && static_cast<int>(host::Button::start) == 8 &&
              static_cast<int>(host::Button::right_stick) == 15 && host::axis_count == 4);

struct State {
  host::HostOptions options;
  std::string title = "kiln";
  std::unique_ptr<host::Host> host;
  std::set<int64_t> files;
};

State& state() {
  static State s;
  return s;
}

/// The Host, opened at the first open of the device (the guest's thread does all SDL work). A window that
/// cannot open ends the run: the person asked to see it.
host::Host& the_host() {
  State& s = state();
  if (!s.host) {
    try {
      s.host = std::make_unique<host::Host>(s.options, host::PlatformTraits{.title = s.title, .frame_rate = 60});
    } catch (const Error& e) {
      log::error("{}", e.what());
      std::_Exit(2);
    }
  }
  return *s.host;
}

} // namespace

std::string configure(std::vector<std::string>& arguments) {
  State& s = state();
  try {
    s.options = host::take_host_options(arguments);
  } catch (const Error& e) {
    return e.what();
  }
  if (!arguments.empty()) {
    const std::string& program = arguments[0];
    s.title = "kiln: " + program.substr(program.find_last_of('/') + 1) + (arguments.size() > 1 ? " " + arguments[1] : "");
  }
  return {};
}

std::optional<int64_t> open(std::string_view path) {
  if (path != KILN_HOST_DEVICE) return std::nullopt;
  the_host();
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC); // reserves the number, as the GPU nodes do
  if (fd < 0) return -errno;
  state().files.insert(fd);
  return fd;
}

bool owns(int64_t fd) { return state().files.count(fd) != 0; }

int64_t ioctl(int64_t fd, uint64_t request, uint64_t argument, uint64_t pc) {
  if (!owns(fd)) return -EBADF;
  host::Host& host = the_host();
  if (request == KILN_HOST_INFO) {
    if (!rt::guest_range_mapped(argument, sizeof(kiln_host_info))) return -EFAULT;
    const kiln_host_info info{KILN_HOST_VERSION, host.windowed() || host.options().window ? uint32_t{KILN_HOST_WINDOW} : 0u,
                              static_cast<uint32_t>(host.options().frames.value_or(0)), 0};
    std::memcpy(rt::host_pointer(argument), &info, sizeof info);
    return 0;
  }
  if (request == KILN_HOST_PRESENT) {
    if (!rt::guest_range_mapped(argument, sizeof(kiln_host_frame))) return -EFAULT;
    kiln_host_frame frame;
    std::memcpy(&frame, rt::host_pointer(argument), sizeof frame);
    if (frame.format != KILN_HOST_FORMAT_RGBA8 || frame.width == 0 || frame.height == 0 || frame.width > 16384 ||
        frame.height > 16384 || frame.pitch < frame.width * 4) {
      log::error("kiln-host: PRESENT at pc {:#x}: bad frame {}x{} pitch {} format {}", pc, frame.width, frame.height, frame.pitch, frame.format);
      return -EINVAL;
    }
    if (!rt::guest_range_mapped(frame.address, uint64_t{frame.pitch} * frame.height)) return -EFAULT;
    const auto* pixels = static_cast<const uint8_t*>(rt::host_pointer(frame.address));
    try {
      return host.present({pixels, frame.width, frame.height, frame.pitch}) ? 0 : 1;
    } catch (const Error& e) { // the window or its Vulkan device failed: nothing more can be shown
      log::error("{}", e.what());
      std::_Exit(2);
    }
  }
  log::error("kiln-host: unknown ioctl {:#x} at pc {:#x}", request, pc);
  return -ENOTTY;
}

int64_t read(int64_t fd, uint64_t address, uint64_t size) {
  if (!owns(fd)) return -EBADF;
  if (size < sizeof(kiln_host_pad)) return -EINVAL;
  if (!rt::guest_range_mapped(address, sizeof(kiln_host_pad))) return -EFAULT;
  const host::PadState pad = the_host().pad();
  kiln_host_pad out{pad.buttons, {pad.axes[0], pad.axes[1], pad.axes[2], pad.axes[3]}, 0};
  std::memcpy(rt::host_pointer(address), &out, sizeof out);
  return sizeof out;
}

int64_t close(int64_t fd) {
  if (!state().files.erase(fd)) return -EBADF;
  ::close(static_cast<int>(fd));
  return 0;
}

void shutdown() {
  State& s = state();
  if (!s.host) return;
  s.host->finish();
  s.host.reset();
}

} // namespace kiln::linux_user::host_device
