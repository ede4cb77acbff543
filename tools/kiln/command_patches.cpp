// `kiln patches ...`: modders' patch sets (patches/<title>/<set>/patch.toml) checked against a title.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "recompiler/config/patch_sets.h"
#include "recompiler/core/recompile.h"
#include "runtime/base/error.h"
#include "tools/kiln/command_registry.h"

namespace {

size_t change_count(const kiln::config::Changes& c) {
  return c.functions.size() + c.jump_tables.size() + c.ignore.size() + c.stubs.size() + c.patches.size() + c.hooks.size() + c.replacements.size();
}

void setup_patches_commands(CLI::App& root) {
  CLI::App& patches = kiln::cli::command_group(root, "patches", "modders' patch sets for a title");

  static std::string config_file;
  static std::vector<std::string> sets;
  auto* check = patches.add_subcommand("check", "apply patch sets in order to a title's configuration and report every conflict");
  check->add_option("--config", config_file, "the title's kiln.toml")->required();
  check->add_option("sets", sets, "patch sets in the order they apply (folders, or ids under patches/<title>/)")->required();
  check->callback([] {
    const kiln::config::TitleConfig config = kiln::config::load_title_config(config_file);
    std::vector<kiln::config::PatchSet> loaded;
    for (const std::string& name : sets) {
      loaded.push_back(kiln::config::load_patch_set(kiln::config::find_patch_set(name, config, kiln::recompiler::source_root() / "patches")));
      const auto& set = loaded.back();
      std::string authors;
      for (const auto& a : set.authors) authors += (authors.empty() ? "" : ", ") + a;
      fmt::print("{} {} by {}: {} change(s), {} C++ file(s)\n", set.id, set.version, authors.empty() ? "(no authors)" : authors, change_count(set.changes),
                 set.changes.sources.size());
    }
    const auto combined = kiln::config::combine_changes(config, loaded);
    for (const std::string& conflict : combined.conflicts) fmt::print("conflict: {}\n", conflict);
    if (!combined.conflicts.empty()) throw kiln::Error(fmt::format("{} conflict(s); nothing was built", combined.conflicts.size()));
    fmt::print("no conflicts: {} patch set(s) apply in this order to {}\n", loaded.size(), config.title);
  });

  static std::string list_config;
  auto* list = patches.add_subcommand("list", "list the patch sets under patches/<title>/");
  list->add_option("--config", list_config, "the title's kiln.toml")->required();
  list->callback([] {
    const kiln::config::TitleConfig config = kiln::config::load_title_config(list_config);
    const auto folder = kiln::recompiler::source_root() / "patches" / config.title;
    if (!std::filesystem::is_directory(folder)) return fmt::print("no patch sets for {} ({} does not exist)\n", config.title, folder.string());
    std::vector<std::filesystem::path> found;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
      if (std::filesystem::is_regular_file(entry.path() / "patch.toml")) found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    for (const auto& path : found) {
      const auto set = kiln::config::load_patch_set(path);
      fmt::print("{} {}: {}\n", set.id, set.version, set.description);
    }
  });
}

} // namespace

KILN_REGISTER_COMMAND("patches", setup_patches_commands);
