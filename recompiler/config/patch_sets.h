#pragma once
// Modders' patch sets: patches/<title>/<set>/patch.toml, a manifest (id, version, authors, title hash, depends,
// conflicts) plus the same change tables as kiln.toml. Sets apply in the order given; every conflict between
// them (and with the title's kiln.toml) is found before anything is generated or built.
#include <filesystem>
#include <string>
#include <vector>

#include "recompiler/config/title_config.h"

namespace kiln::config {

struct PatchSet {
  std::filesystem::path manifest; ///< .../patch.toml
  std::string id, version, description;
  std::vector<std::string> authors;
  std::string title_hash; ///< the input executable the set was made for
  std::vector<std::string> depends, conflicts;
  Changes changes;
  int line = 0; ///< where the manifest's root starts (for messages)
};

/// Loads `folder`/patch.toml (errors name file and line).
PatchSet load_patch_set(const std::filesystem::path& folder);

/// A set named on the command line: a folder, or an id under `patches_root`/<title>/ (`patches_root` is
/// normally <kiln source>/patches).
std::filesystem::path find_patch_set(const std::string& name, const TitleConfig& config, const std::filesystem::path& patches_root);

/// The title's changes with the sets' applied in order, and every conflict found.
struct CombinedChanges {
  Changes changes;
  std::vector<std::string> applied;   ///< "id version" of each set, in order
  std::vector<std::string> conflicts; ///< empty when the combination is valid
};
CombinedChanges combine_changes(const TitleConfig& config, const std::vector<PatchSet>& sets);

/// combine_changes, throwing one kiln::Error listing every conflict when there is any.
CombinedChanges combine_changes_or_throw(const TitleConfig& config, const std::vector<PatchSet>& sets);

} // namespace kiln::config
