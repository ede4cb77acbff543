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

} // namespace kiln::host
