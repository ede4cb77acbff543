#include "recompiler/config/patch_sets.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "recompiler/config/changes_toml.h"

namespace kiln::config {

PatchSet load_patch_set(const std::filesystem::path& folder) {
  const std::filesystem::path manifest = folder / "patch.toml";
  const std::string file = manifest.string();
  if (!std::filesystem::is_regular_file(manifest)) throw Error(in_file(file), "not a patch set (no patch.toml manifest)");
  const toml::table root_table = parse_toml_file(file);
  const TableFields root(root_table, file, "patch.toml",
                         {"id", "version", "authors", "description", "title_hash", "depends", "conflicts", KILN_CONFIG_CHANGE_KEYS});
  PatchSet set;
  set.manifest = manifest;
  set.line = root.line();
  set.id = root.string("id");
  set.version = root.string("version");
  set.description = root.optional_string("description").value_or("");
  set.authors = root.strings("authors");
  set.title_hash = check_hash_syntax(root, "title_hash");
  set.depends = root.strings("depends");
  set.conflicts = root.strings("conflicts");
  set.changes = parse_changes(root, folder, set.id);
  return set;
}

std::filesystem::path find_patch_set(const std::string& name, const TitleConfig& config, const std::filesystem::path& patches_root) {
  if (std::filesystem::is_regular_file(std::filesystem::path(name) / "patch.toml")) return name;
  const std::filesystem::path by_id = patches_root / config.title / name;
  if (std::filesystem::is_regular_file(by_id / "patch.toml")) return by_id;
  throw Error(fmt::format("patch set '{}' not found (neither a folder with patch.toml nor {})", name, by_id.string()));
}

CombinedChanges combine_changes(const TitleConfig& config, const std::vector<PatchSet>& sets) {
  CombinedChanges out;
  out.changes = config.changes;
  std::vector<std::string> applied_ids;
  for (const PatchSet& set : sets) {
    const std::string where = fmt::format("{}:{}", set.manifest.string(), set.line);
    if (std::find(applied_ids.begin(), applied_ids.end(), set.id) != applied_ids.end())
      out.conflicts.push_back(fmt::format("patch set '{}' is applied twice ({})", set.id, where));
    const bool title_matches = std::any_of(config.inputs.begin(), config.inputs.end(), [&](const InputExecutable& i) { return i.hash == set.title_hash; });
    if (!title_matches)
      out.conflicts.push_back(fmt::format("patch set '{}' ({}) was made for title hash {}, but {} has input hash {}", set.id, where, set.title_hash,
                                          config.file.string(), config.inputs.empty() ? "(none)" : config.inputs.front().hash));
    for (const std::string& dependency : set.depends)
      if (std::find(applied_ids.begin(), applied_ids.end(), dependency) == applied_ids.end())
        out.conflicts.push_back(fmt::format("patch set '{}' ({}) depends on '{}', which is not applied before it", set.id, where, dependency));
    for (const PatchSet& other : sets) {
      if (&other == &set) continue;
      if (std::find(set.conflicts.begin(), set.conflicts.end(), other.id) != set.conflicts.end())
        out.conflicts.push_back(fmt::format("patch set '{}' ({}) declares a conflict with '{}', which is also applied", set.id, where, other.id));
    }
    applied_ids.push_back(set.id);
    out.applied.push_back(fmt::format("{} {}", set.id, set.version));
    out.changes.append(set.changes);
  }
  // Two sources changing the same instruction, or claiming the same function.
  std::map<uint64_t, std::vector<const Origin*>> patched;
  for (const InstructionPatch& p : out.changes.patches) patched[p.address].push_back(&p.origin);
  for (const auto& [address, origins] : patched)
    for (size_t k = 1; k < origins.size(); ++k)
      out.conflicts.push_back(fmt::format("instruction {:#x} is patched by {} and by {}", address, origins[0]->describe(), origins[k]->describe()));
  std::map<uint64_t, std::vector<std::pair<const Origin*, const char*>>> claimed;
  for (const Replacement& r : out.changes.replacements) claimed[r.address].push_back({&r.origin, "replaced"});
  for (const Stub& s : out.changes.stubs) claimed[s.address].push_back({&s.origin, "stubbed"});
  for (const IgnoredFunction& i : out.changes.ignore) claimed[i.address].push_back({&i.origin, "ignored"});
  for (const auto& [address, claims] : claimed)
    for (size_t k = 1; k < claims.size(); ++k)
      out.conflicts.push_back(fmt::format("function {:#x} is {} by {} and {} by {}", address, claims[0].second, claims[0].first->describe(), claims[k].second,
                                          claims[k].first->describe()));
  return out;
}

CombinedChanges combine_changes_or_throw(const TitleConfig& config, const std::vector<PatchSet>& sets) {
  CombinedChanges combined = combine_changes(config, sets);
  if (combined.conflicts.empty()) return combined;
  std::string message = fmt::format("{} conflict(s) between the title config and the patch sets:", combined.conflicts.size());
  for (const std::string& c : combined.conflicts) message += "\n  " + c;
  throw Error(message);
}

} // namespace kiln::config
