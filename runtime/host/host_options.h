#pragma once
// The options every built title understands (docs/host.md lists them): how it is shown, for how long, what is
// captured. They are taken out of the program's arguments before the guest sees the rest.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/gpu/vulkan/presentation.h"

namespace kiln::host {

struct HostOptions {
  bool window = false;            ///< --window (default --headless: no window, no SDL video)
  bool fullscreen = false;        ///< --fullscreen
  std::optional<uint64_t> frames; ///< --frames N: the title stops after N frames
  std::string capture_directory;  ///< --capture DIR: every presented frame as DIR/frame_N.png
  vulkan::PresentOptions present; ///< --present-mode fifo|mailbox|immediate, --scaling aspect|integer|stretch
  std::optional<uint32_t> window_scale; ///< --scale N: the window opens at N times the first frame's size (default: the platform's)
  bool unthrottled = false;       ///< --unthrottled (always so headless)
  bool hold = false;              ///< --hold: after the last frame the window stays until it is closed
  bool mute = false;              ///< --mute: no audio device is opened
  std::string input_config;       ///< --input FILE: a kiln.toml whose [input] table remaps the pad
  bool validation = false;        ///< KILN_VULKAN_VALIDATION=1 in the environment: validation layers, sync checks on
};

/// Removes the options above (and their values) from `arguments`, leaving the title's own in order. A bad
/// value or a missing one is an Error naming the option.
HostOptions take_host_options(std::vector<std::string>& arguments);

/// One line per option, for a title's --help.
std::string host_options_help();

} // namespace kiln::host
