#include "runtime/platform/switch/services/fs/fs_config.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::hos::fs {

void load_file_system_config(const std::string& path, FileSystemConfig& config) {
  const std::vector<uint8_t> bytes = read_file(path);
  toml::table root;
  try {
    root = toml::parse(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
  } catch (const toml::parse_error& e) {
    throw Error(fmt::format("{}:{}: {}", path, e.source().begin.line, e.description()));
  }
  const toml::table* fs = root["switch"]["fs"].as_table();
  if (!fs) return;
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  for (const auto& [key, node] : *fs) {
    std::string* target = key == "romfs" ? &config.romfs : key == "save" ? &config.save_root : key == "sdcard" ? &config.sd_card : nullptr;
    if (!target)
      throw Error(fmt::format("{}:{}: [switch.fs] '{}' is not a key (keys: romfs, save, sdcard)", path, node.source().begin.line, key.str()));
    const auto value = node.value<std::string>();
    if (!value || value->empty())
      throw Error(fmt::format("{}:{}: [switch.fs] {} must be a non-empty string (a host path)", path, node.source().begin.line, key.str()));
    const std::filesystem::path p(*value);
    *target = p.is_absolute() ? p.string() : (base / p).lexically_normal().string();
  }
}

} // namespace kiln::hos::fs
