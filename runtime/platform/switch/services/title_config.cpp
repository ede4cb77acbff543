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
  if (const toml::table* fonts = root["switch"]["fonts"].as_table()) {
    for (const auto& [name, node] : *fonts) {
      const std::string key(name.str());
      if (key != "folder") unknown_key(path, node, "switch.fonts", key, "folder");
      settings.font_folder = host_path(path, node, "switch.fonts", key);
    }
  }
}

} // namespace kiln::hos
