#include "runtime/host/input_mapping.h"

#include <SDL.h>
#include <fmt/format.h>
#include <toml++/toml.h>


#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::host {
namespace {

constexpr std::string_view controller_prefix = "pad:";

Error error_at(const std::string& path, const toml::source_region& where, const std::string& message) {
  return Error(in_file(fmt::format("{}:{}", path, where.begin.line)), message);
}

std::string button_list() {
  std::string list;
  for (size_t i = 0; i < button_count; ++i) list += (i ? ", " : "") + std::string(button_name(static_cast<Button>(i)));
  return list;
}

/// One binding ("Left" or "pad:dpleft") into `bindings`, checked against SDL's names.
void add_binding(const std::string& path, const toml::node& node, InputMapping::Bindings& bindings) {
  const auto* value = node.as_string();
  if (!value) throw error_at(path, node.source(), "[input] bindings are strings (\"Left\", \"pad:a\") or arrays of them");
  const std::string& name = value->get();
  if (name.rfind(controller_prefix, 0) == 0) {
    const std::string button = name.substr(controller_prefix.size());
    if (SDL_GameControllerGetButtonFromString(button.c_str()) == SDL_CONTROLLER_BUTTON_INVALID)
      throw error_at(path, node.source(), fmt::format("'{}' is not a controller button (SDL names: a, b, x, y, back, guide, start, leftstick, rightstick, leftshoulder, rightshoulder, dpup, dpdown, dpleft, dpright)", name));
    bindings.controller_buttons.push_back(button);
  } else {
    if (SDL_GetScancodeFromName(name.c_str()) == SDL_SCANCODE_UNKNOWN)
      throw error_at(path, node.source(), fmt::format("'{}' is not a key name (SDL key names: \"Left\", \"X\", \"Return\", \"Space\", \"Right Shift\"...)", name));
    bindings.keys.push_back(name);
  }
}

} // namespace

InputMapping default_input_mapping() {
  InputMapping m;
  const auto bind = [&](Button button, std::vector<std::string> keys, std::string controller_button) {
    m[button] = {std::move(keys), {std::move(controller_button)}};
  };
  bind(Button::south, {"Z"}, "a");
  bind(Button::east, {"X"}, "b");
  bind(Button::west, {"A"}, "x");
  bind(Button::north, {"S"}, "y");
  bind(Button::dpad_up, {"Up"}, "dpup");
  bind(Button::dpad_down, {"Down"}, "dpdown");
  bind(Button::dpad_left, {"Left"}, "dpleft");
  bind(Button::dpad_right, {"Right"}, "dpright");
  bind(Button::start, {"Return"}, "start");
  bind(Button::select, {"Right Shift"}, "back");
  bind(Button::left_shoulder, {"Q"}, "leftshoulder");
  bind(Button::right_shoulder, {"W"}, "rightshoulder");
  // The triggers are axes on a controller (read as pressed past half travel in input.cpp).
  m[Button::left_trigger].keys = {"1"};
  m[Button::right_trigger].keys = {"2"};
  bind(Button::left_stick, {}, "leftstick");
  bind(Button::right_stick, {}, "rightstick");
  return m;
}

InputMapping apply_input_text(std::string_view text, const std::string& path, InputMapping mapping) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw error_at(path, e.source(), std::string(e.description()));
  }
  const toml::node* input = root.get("input");
  if (!input) return mapping;
  const toml::table* table = input->as_table();
  if (!table) throw error_at(path, input->source(), "'input' must be a table: [input]");
  for (const auto& [key, node] : *table) {
    const auto button = button_from_name(key.str());
    if (!button) throw error_at(path, key.source(), fmt::format("[input] '{}' is not a pad button (buttons: {})", key.str(), button_list()));
    InputMapping::Bindings bindings;
    if (const toml::array* list = node.as_array()) {
      for (const toml::node& item : *list) add_binding(path, item, bindings);
    } else {
      add_binding(path, node, bindings);
    }
    mapping[*button] = std::move(bindings);
  }
  return mapping;
}

InputMapping apply_input_table(const std::string& path, InputMapping mapping) {
  const std::vector<uint8_t> bytes = read_file(path, input::text);
  return apply_input_text(std::string(bytes.begin(), bytes.end()), path, std::move(mapping));
}

} // namespace kiln::host
