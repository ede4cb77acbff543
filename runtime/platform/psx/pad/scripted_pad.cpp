#include "runtime/platform/psx/pad/scripted_pad.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "runtime/base/pad_script.h"

namespace kiln::psx {
namespace {

constexpr std::array<std::pair<std::string_view, uint16_t>, 16> button_names{{
    {"select", pad_button::select}, {"l3", pad_button::l3}, {"r3", pad_button::r3}, {"start", pad_button::start},
    {"up", pad_button::up}, {"right", pad_button::right}, {"down", pad_button::down}, {"left", pad_button::left},
    {"l2", pad_button::l2}, {"r2", pad_button::r2}, {"l1", pad_button::l1}, {"r1", pad_button::r1},
    {"triangle", pad_button::triangle}, {"circle", pad_button::circle}, {"cross", pad_button::cross},
    {"square", pad_button::square}}};

constexpr std::string_view settings[] = {"type"};

} // namespace

ScriptedPad::ScriptedPad(const PadScriptText& script) {
  for (const PadScriptLine& line : script.lines()) {
    if (!line.frame) { // the only setting: type
      const std::string kind = line.words.size() > 1 ? line.words[1] : "";
      if (kind == "digital") kind_ = PadKind::digital;
      else if (kind == "dualshock") kind_ = PadKind::dualshock;
      else script.fail(line, fmt::format("unknown pad type '{}' (known: digital, dualshock)", kind));
      continue;
    }
    PadInput input;
    for (const std::string& word : line.words) {
      if (word == "analog") {
        input.analog_button = true;
        continue;
      }
      if (const auto axis = script.axis(line, word, 0, 255)) {
        uint8_t* target = axis->name == "lx" ? &input.left_x : axis->name == "ly" ? &input.left_y
                        : axis->name == "rx" ? &input.right_x : axis->name == "ry" ? &input.right_y : nullptr;
        if (!target) script.fail(line, fmt::format("unknown axis '{}' (known: lx ly rx ry)", axis->name));
        *target = static_cast<uint8_t>(axis->value);
        continue;
      }
      const auto button = std::find_if(button_names.begin(), button_names.end(), [&](const auto& b) { return b.first == word; });
      if (button == button_names.end()) script.fail(line, fmt::format("unknown button '{}'", word));
      input.pressed |= button->second;
    }
    steps_.emplace_back(*line.frame, input);
  }
}

ScriptedPad::ScriptedPad(std::string_view text, const std::string& file) : ScriptedPad(PadScriptText(text, file, settings)) {}

ScriptedPad ScriptedPad::from_file(const std::string& path) { return ScriptedPad(PadScriptText::from_file(path, settings)); }

PadInput ScriptedPad::poll(unsigned frame) { return pad_script_state_at(steps_, frame, PadInput{}); }

} // namespace kiln::psx
