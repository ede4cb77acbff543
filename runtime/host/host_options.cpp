#include "runtime/host/host_options.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

#include "runtime/base/error.h"

namespace kiln::host {
namespace {

uint64_t whole_number(const std::string& option, const std::string& text, uint64_t minimum) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || text[0] == '-' || value < minimum)
    throw Error(fmt::format("{} {}: expected a whole number of at least {}", option, text, minimum));
  return value;
}

} // namespace

HostOptions take_host_options(std::vector<std::string>& arguments) {
  HostOptions options;
  const char* validation = std::getenv("KILN_VULKAN_VALIDATION");
  options.validation = validation && std::strcmp(validation, "1") == 0;
  std::vector<std::string> rest;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& option = arguments[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= arguments.size()) throw Error(fmt::format("{} needs a value", option));
      return arguments[++i];
    };
    if (option == "--window") options.window = true;
    else if (option == "--headless") options.window = false;
    else if (option == "--fullscreen") options.fullscreen = true;
    else if (option == "--unthrottled") options.unthrottled = true;
    else if (option == "--hold") options.hold = true;
    else if (option == "--mute") options.mute = true;
    else if (option == "--frames") options.frames = whole_number(option, value(), 1);
    else if (option == "--scale") options.window_scale = static_cast<uint32_t>(whole_number(option, value(), 1));
    else if (option == "--capture") options.capture_directory = value();
    else if (option == "--input") options.input_config = value();
    else if (option == "--present-mode") {
      const std::string& name = value();
      const auto mode = vulkan::present_mode_from_name(name);
      if (!mode) throw Error(fmt::format("--present-mode {}: expected fifo, mailbox or immediate", name));
      options.present.mode = *mode;
    } else if (option == "--scaling") {
      const std::string& name = value();
      const auto scaling = vulkan::scaling_from_name(name);
      if (!scaling) throw Error(fmt::format("--scaling {}: expected aspect, integer or stretch", name));
      options.present.scaling = *scaling;
    } else {
      rest.push_back(option);
    }
  }
  if (options.fullscreen) options.window = true;
  arguments = std::move(rest);
  return options;
}

std::string host_options_help() {
  return "  --window              show the title in a window (default: --headless)\n"
         "  --headless            no window: frames only to the title's own files and --capture\n"
         "  --fullscreen          a fullscreen window (F11 or Alt+Return toggles)\n"
         "  --frames N            stop after N frames\n"
         "  --capture DIR         write every presented frame as DIR/frame_N.png\n"
         "  --present-mode MODE   fifo (default), mailbox or immediate\n"
         "  --scaling MODE        aspect (default), integer or stretch\n"
         "  --scale N             the window opens at N times the frame size (default 4; Switch 1)\n"
         "  --unthrottled         do not wait for the console's frame rate\n"
         "  --hold                keep the window and its last frame until the window is closed\n"
         "  --mute                no audio\n"
         "  --input FILE          remap the pad with the [input] table of FILE (a kiln.toml)\n";
}

} // namespace kiln::host
