#include "runtime/platform/switch/services/title_config.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>

#include "recompiler/config/title_config.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::hos {

namespace {

std::string host_path(const std::string& path, const toml::node& node, const std::string& table, const std::string& key) {
  const auto value = node.value<std::string>();
  if (!value || value->empty())
    throw Error(fmt::format("{}:{}: [{}] {} must be a non-empty string (a host path)", path, node.source().begin.line, table, key));
  const std::filesystem::path p(*value);
  return p.is_absolute() ? p.string() : (std::filesystem::path(path).parent_path() / p).lexically_normal().string();
}

[[noreturn]] void unknown_key(const std::string& path, const toml::node& node, const std::string& table, const std::string& key,
                              const char* keys) {
  throw Error(fmt::format("{}:{}: [{}] '{}' is not a key (keys: {})", path, node.source().begin.line, table, key, keys));
}

std::string string_value(const std::string& path, const toml::node& node, const std::string& table, const std::string& key) {
  const auto value = node.value<std::string>();
  if (!value) throw Error(fmt::format("{}:{}: [{}] {} must be a string", path, node.source().begin.line, table, key));
  return *value;
}

/// [[switch.input.npad]]: each table one npad (id, style, device); the list replaces kiln's default npads.
std::vector<NpadConfig> read_npads(const std::string& path, const toml::node& node) {
  constexpr const char* table = "switch.input.npad";
  const toml::array* list = node.as_array();
  if (!list || !list->is_array_of_tables())
    throw Error(fmt::format("{}:{}: [switch.input] npad must be an array of tables ([[{}]])", path, node.source().begin.line, table));
  std::vector<NpadConfig> npads;
  for (const toml::node& element : *list) {
    const toml::table& entry = *element.as_table();
    const int line = static_cast<int>(entry.source().begin.line);
    std::optional<uint32_t> id, style;
    host::PadDevice device;
    for (const auto& [name, value] : entry) {
      const std::string key(name.str());
      const int value_line = static_cast<int>(value.source().begin.line);
      if (key == "id") {
        const std::string text = string_value(path, value, table, key);
        id = npad_id_from_name(text);
        if (!id) throw Error(fmt::format("{}:{}: [{}] id '{}' is not an npad (No1..No8, Handheld)", path, value_line, table, text));
      } else if (key == "style") {
        const std::string text = string_value(path, value, table, key);
        style = npad_style_from_name(text);
        if (!style)
          throw Error(fmt::format("{}:{}: [{}] style '{}' is not one kiln presents (FullKey, Handheld, JoyDual, JoyLeft, JoyRight)",
                                  path, value_line, table, text));
      } else if (key == "device") {
        const std::string text = string_value(path, value, table, key);
        const auto found = host::pad_device_from_name(text);
        if (!found)
          throw Error(fmt::format("{}:{}: [{}] device '{}' is not a host device (pad, keyboard, controller0..controller7)", path,
                                  value_line, table, text));
        device = *found;
      } else {
        unknown_key(path, value, table, key, "id, style, device");
      }
    }
    if (!id || !style) throw Error(fmt::format("{}:{}: [{}] needs an id and a style", path, line, table));
    // Horizon's Handheld npad is the console with both Joy-Cons attached: it has the Handheld style and no other.
    if ((*id == npad_id_handheld) != (*style == npad_style::handheld))
      throw Error(fmt::format("{}:{}: [{}] the Handheld style belongs to the Handheld id (and only there)", path, line, table));
    for (const NpadConfig& other : npads)
      if (other.id == *id) throw Error(fmt::format("{}:{}: [{}] npad {} is given twice", path, line, table, npad_id_name(*id)));
    npads.push_back({*id, *style, device});
  }
  return npads;
}

} // namespace

void load_title_config(const std::string& path, SystemSettings& settings) {
  const std::vector<uint8_t> bytes = read_file(path, kiln::input::text);
  toml::table root;
  try {
    root = toml::parse(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
  } catch (const toml::parse_error& e) {
    throw Error(fmt::format("{}:{}: {}", path, e.source().begin.line, e.description()));
  }
  if (const toml::table* fs = root["switch"]["fs"].as_table()) {
    for (const auto& [name, node] : *fs) {
      const std::string key(name.str());
      fs::FileSystemConfig& c = settings.file_systems;
      std::string* target = key == "romfs" ? &c.romfs : key == "save" ? &c.save_root : key == "sdcard" ? &c.sd_card : nullptr;
      if (!target) unknown_key(path, node, "switch.fs", key, "romfs, save, sdcard");
      *target = host_path(path, node, "switch.fs", key);
    }
  }
  if (const toml::table* audio = root["switch"]["audio"].as_table()) {
    for (const auto& [name, node] : *audio) {
      const std::string key(name.str());
      if (key != "wav") unknown_key(path, node, "switch.audio", key, "wav");
      settings.audio.wav_path = host_path(path, node, "switch.audio", key);
    }
  }
  settings.gpu = config::load_gpu_settings(path);
  if (const toml::table* input = root["switch"]["input"].as_table()) {
    for (const auto& [name, node] : *input) {
      const std::string key(name.str());
      if (key != "npad") unknown_key(path, node, "switch.input", key, "npad");
      settings.npads = read_npads(path, node);
    }
  }
  if (const toml::table* fonts = root["switch"]["fonts"].as_table()) {
    for (const auto& [name, node] : *fonts) {
      const std::string key(name.str());
      if (key != "folder") unknown_key(path, node, "switch.fonts", key, "folder");
      settings.font_folder = host_path(path, node, "switch.fonts", key);
    }
  }
}

} // namespace kiln::hos
