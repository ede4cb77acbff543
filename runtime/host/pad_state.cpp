#include "runtime/host/pad_state.h"

namespace kiln::host {
namespace {
constexpr std::array<std::string_view, button_count> names = {
    "south", "east", "west", "north", "dpad_up", "dpad_down", "dpad_left", "dpad_right",
    "start", "select", "left_shoulder", "right_shoulder", "left_trigger", "right_trigger", "left_stick", "right_stick"};
} // namespace

std::string_view button_name(Button button) { return names[static_cast<size_t>(button)]; }

std::optional<Button> button_from_name(std::string_view name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<Button>(i);
  return std::nullopt;
}

std::optional<PadDevice> pad_device_from_name(std::string_view name) {
  if (name == "pad") return PadDevice{};
  if (name == "keyboard") return PadDevice{PadDevice::Kind::keyboard, 0};
  constexpr std::string_view controller = "controller";
  if (name.size() == controller.size() + 1 && name.starts_with(controller) && name.back() >= '0' && name.back() <= '7')
    return PadDevice{PadDevice::Kind::controller, static_cast<uint32_t>(name.back() - '0')};
  return std::nullopt;
}

std::string pad_device_name(PadDevice device) {
  switch (device.kind) {
  case PadDevice::Kind::combined: return "pad";
  case PadDevice::Kind::keyboard: return "keyboard";
  case PadDevice::Kind::controller: return "controller" + std::to_string(device.index);
  }
  return "pad";
}

} // namespace kiln::host
