#pragma once
// The platform-neutral pad every platform's input maps from: the buttons and axes of a modern controller.
// A platform turns it into its own pad (PS1 digital/analog pad, Switch npad, the linux-user kiln device).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::host {

enum class Button : uint8_t {
  south, east, west, north, // face buttons by position (Xbox A B X Y, PlayStation cross circle square triangle)
  dpad_up, dpad_down, dpad_left, dpad_right,
  start, select, left_shoulder, right_shoulder, left_trigger, right_trigger, left_stick, right_stick,
};
constexpr size_t button_count = 16;

enum class Axis : uint8_t { left_x, left_y, right_x, right_y };
constexpr size_t axis_count = 4;

struct PadState {
  uint32_t buttons = 0;                ///< bit (1 << Button) set while held
  std::array<int16_t, axis_count> axes{}; ///< -32768..32767, 0 at rest; y grows downwards as SDL reports it

  bool held(Button button) const { return (buttons >> static_cast<unsigned>(button)) & 1; }
  bool operator==(const PadState&) const = default;
};

/// Which host device a pad reads: every keyboard key and controller together (the default), the keyboard alone, or
/// one controller, counted from 0 in the order they were connected (a platform with several pads maps them).
struct PadDevice {
  enum class Kind : uint8_t { combined, keyboard, controller };
  Kind kind = Kind::combined;
  uint32_t index = 0; ///< the controller's number
  bool operator==(const PadDevice&) const = default;
};
/// "pad" (combined), "keyboard", "controller0".."controller7".
std::optional<PadDevice> pad_device_from_name(std::string_view name);
std::string pad_device_name(PadDevice device);

/// "south", "dpad_left", ...: the names `[input]` tables use.
std::string_view button_name(Button button);
std::optional<Button> button_from_name(std::string_view name);

} // namespace kiln::host
