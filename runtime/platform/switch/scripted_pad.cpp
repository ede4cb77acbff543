#include "runtime/platform/switch/scripted_pad.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "runtime/base/pad_script.h"

namespace kiln::hos {
namespace {

using host::Button;

// The Switch's button names and the host buttons hid reports them from (services/hid.cpp: A is east, B south,
// X north, Y west, as on a Pro Controller).
constexpr std::pair<std::string_view, Button> button_names[] = {
    {"a", Button::east},           {"b", Button::south},           {"x", Button::north},
    {"y", Button::west},           {"l", Button::left_shoulder},   {"r", Button::right_shoulder},
    {"zl", Button::left_trigger},  {"zr", Button::right_trigger},  {"plus", Button::start},
    {"minus", Button::select},     {"lstick", Button::left_stick}, {"rstick", Button::right_stick},
    {"up", Button::dpad_up},       {"down", Button::dpad_down},    {"left", Button::dpad_left},
    {"right", Button::dpad_right}};

constexpr std::pair<std::string_view, host::Axis> axis_names[] = {
    {"lx", host::Axis::left_x}, {"ly", host::Axis::left_y}, {"rx", host::Axis::right_x}, {"ry", host::Axis::right_y}};

constexpr int stick_max = 0x7fff; // Horizon's stick range is -0x7fff..0x7fff

} // namespace

ScriptedPad::ScriptedPad(const PadScriptText& script) {
  for (const PadScriptLine& line : script.lines()) {
    host::PadState state;
    for (const std::string& word : line.words) {
      if (const auto axis = script.axis(line, word, -stick_max, stick_max)) {
        const auto named = std::find_if(std::begin(axis_names), std::end(axis_names), [&](const auto& a) { return a.first == axis->name; });
        if (named == std::end(axis_names)) script.fail(line, fmt::format("unknown axis '{}' (known: lx ly rx ry)", axis->name));
        // The host pad's y grows downwards (hid turns it back): a script's y, like Horizon's, grows upwards.
        const bool vertical = named->second == host::Axis::left_y || named->second == host::Axis::right_y;
        state.axes[static_cast<size_t>(named->second)] = static_cast<int16_t>(vertical ? -axis->value : axis->value);
        continue;
      }
      const auto button = std::find_if(std::begin(button_names), std::end(button_names), [&](const auto& b) { return b.first == word; });
      if (button == std::end(button_names))
        script.fail(line, fmt::format("unknown button '{}' (known: a b x y l r zl zr plus minus lstick rstick up down left right)", word));
      state.buttons |= 1u << static_cast<unsigned>(button->second);
    }
    steps_.emplace_back(*line.frame, state);
  }
}

ScriptedPad::ScriptedPad(std::string_view text, const std::string& file) : ScriptedPad(PadScriptText(text, file)) {}

ScriptedPad ScriptedPad::from_file(const std::string& path) { return ScriptedPad(PadScriptText::from_file(path)); }

host::PadState ScriptedPad::state(uint64_t frame) const {
  const unsigned clamped = static_cast<unsigned>(std::min<uint64_t>(frame, std::numeric_limits<unsigned>::max()));
  return pad_script_state_at(steps_, clamped, host::PadState{});
}

} // namespace kiln::hos
