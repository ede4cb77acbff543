#include "runtime/platform/psx/pad/scripted_pad.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <sstream>
#include <utility>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::psx {
namespace {

constexpr std::array<std::pair<std::string_view, uint16_t>, 16> button_names{{
    {"select", pad_button::select}, {"l3", pad_button::l3}, {"r3", pad_button::r3}, {"start", pad_button::start},
    {"up", pad_button::up}, {"right", pad_button::right}, {"down", pad_button::down}, {"left", pad_button::left},
    {"l2", pad_button::l2}, {"r2", pad_button::r2}, {"l1", pad_button::l1}, {"r1", pad_button::r1},
    {"triangle", pad_button::triangle}, {"circle", pad_button::circle}, {"cross", pad_button::cross},
    {"square", pad_button::square}}};

bool parse_number(std::string_view text, unsigned& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

ScriptedPad::ScriptedPad(std::string_view text, const std::string& file) {
  std::istringstream lines{std::string(text)};
  std::string line;
  for (unsigned number = 1; std::getline(lines, line); ++number) {
    auto fail = [&](const std::string& what) { throw Error(in_file(file), fmt::format("line {}: {}", number, what)); };
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string first;
    if (!(words >> first)) continue;
    if (first == "type") {
      std::string kind;
      words >> kind;
      if (!steps_.empty()) fail("'type' must come before the first state");
      if (kind == "digital") kind_ = PadKind::digital;
      else if (kind == "dualshock") kind_ = PadKind::dualshock;
      else fail(fmt::format("unknown pad type '{}' (known: digital, dualshock)", kind));
      continue;
    }
    Step step{};
    if (!parse_number(first, step.frame)) fail(fmt::format("'{}' is not a frame number or 'type'", first));
    if (!steps_.empty() && step.frame <= steps_.back().frame)
      fail(fmt::format("frame {} does not come after frame {}", step.frame, steps_.back().frame));
    for (std::string word; words >> word;) {
      if (word == "analog") {
        step.input.analog_button = true;
        continue;
      }
      if (const size_t eq = word.find('='); eq != std::string::npos) {
        const std::string axis = word.substr(0, eq);
        unsigned value = 0;
        if (!parse_number(std::string_view(word).substr(eq + 1), value) || value > 255)
          fail(fmt::format("'{}': an axis takes 0..255", word));
        uint8_t* target = axis == "lx" ? &step.input.left_x : axis == "ly" ? &step.input.left_y
                        : axis == "rx" ? &step.input.right_x : axis == "ry" ? &step.input.right_y : nullptr;
        if (!target) fail(fmt::format("unknown axis '{}' (known: lx ly rx ry)", axis));
        *target = static_cast<uint8_t>(value);
        continue;
      }
      bool found = false;
      for (const auto& [name, bit] : button_names)
        if (word == name) {
          step.input.pressed |= bit;
          found = true;
        }
      if (!found) fail(fmt::format("unknown button '{}'", word));
    }
    steps_.push_back(step);
  }
}

ScriptedPad ScriptedPad::from_file(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return ScriptedPad(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

PadInput ScriptedPad::poll(unsigned frame) {
  PadInput input;
  for (const Step& s : steps_)
    if (s.frame <= frame) input = s.input;
  return input;
}

} // namespace kiln::psx
