// `kiln gpu ...`: the Vulkan device kiln runs on.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "recompiler/config/title_config.h"
#include "runtime/gpu/vulkan/device_report.h"
#include "runtime/gpu/vulkan/host_profile.h"
#include "runtime/gpu/vulkan/headless_target.h"
#include "tools/kiln/command_registry.h"

namespace {

/// `gpu_settings`: a title's [gpu] overrides, applied to each device's profile.
void print_device_info(const kiln::config::GpuSettings& gpu_settings) {
  const auto devices = kiln::vulkan::report_devices();
  if (devices.empty()) throw kiln::Error("no Vulkan devices found (install mesa-vulkan-drivers for lavapipe)");
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto& device = devices[i];
    fmt::print("device {}: {} ({}), Vulkan {}\n  driver: {}\n", i, device.name, device.type, device.api_version,
               device.driver);
    size_t width = 0;
    for (const auto& [feature, value] : device.features) width = std::max(width, feature.size());
    for (const auto& [feature, value] : device.features) fmt::print("  {:<{}}  {}\n", feature, width, value);
    const kiln::vulkan::HostProfile profile = kiln::vulkan::choose_host_profile(device.host, gpu_settings);
    fmt::print("  host profile: {}\n    {}\n    key: {}\n", profile.entry, kiln::vulkan::host_identity_text(device.host),
               profile.key_text());
    width = 0;
    for (const auto& line : profile.lines) width = std::max(width, line.name.size() + line.value.size() + 3);
    for (const auto& line : profile.lines) {
      fmt::print("    {:<{}}  {}\n", fmt::format("{} = {}", line.name, line.value), width, line.reason);
    }
  }
}

std::array<float, 4> parse_colour(const std::string& text) {
  std::array<float, 4> rgba{0, 0, 0, 1};
  std::istringstream in(text);
  std::string part;
  size_t count = 0;
  while (std::getline(in, part, ',')) {
    if (count == 4) throw kiln::Error("--colour takes at most 4 components: " + text);
    try {
      rgba[count++] = std::stof(part);
    } catch (const std::exception&) {
      throw kiln::Error("--colour: not a number: '" + part + "'");
    }
  }
  if (count < 3) throw kiln::Error("--colour needs R,G,B[,A] in 0..1: " + text);
  return rgba;
}

void setup_gpu_commands(CLI::App& root) {
  CLI::App& gpu = kiln::cli::command_group(root, "gpu", "the Vulkan device kiln renders with");

  auto* info = gpu.add_subcommand("info", "list Vulkan devices, the features kiln uses and the host profile chosen for each");
  static std::string info_config;
  info->add_option("--config", info_config, "a title's kiln.toml: apply its [gpu] overrides to the profiles");
  info->callback([] { print_device_info(info_config.empty() ? kiln::config::GpuSettings{} : kiln::config::load_gpu_settings(info_config)); });

  auto* clear = gpu.add_subcommand("clear", "clear a headless render target and write it to a PNG (bring-up check)");
  static std::string colour = "0.25,0.5,0.75,1";
  static std::string output;
  static uint32_t size = 64;
  static bool validation = false;
  clear->add_option("-o,--output", output, "PNG file to write")->required();
  clear->add_option("--colour", colour, "clear colour R,G,B[,A], each 0..1")->capture_default_str();
  clear->add_option("--size", size, "width and height in pixels")->capture_default_str()->check(CLI::Range(1, 4096));
  clear->add_flag("--validation", validation, "run with the Vulkan validation layers; any message is an error");
  clear->callback([] {
    kiln::vulkan::Context context({.validation = validation, .synchronization_validation = validation});
    kiln::vulkan::HeadlessTarget target(context, {size, size});
    target.clear(parse_colour(colour));
    kiln::write_png(output, target.read_back());
    if (context.validation_log().count() != 0) {
      throw kiln::Error(fmt::format("{} Vulkan validation message(s)", context.validation_log().count()));
    }
    kiln::log::info("cleared a {}x{} target on {} and wrote {}", size, size, context.device_name(), output);
  });
}

} // namespace

KILN_REGISTER_COMMAND("gpu", setup_gpu_commands);
