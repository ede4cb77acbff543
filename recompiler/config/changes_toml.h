#pragma once
// The change tables kiln.toml and patch manifests share ([[functions]], [[jump_tables]], [[ignore]], [[stubs]],
// [[patches]], [[hooks]], [[replacements]], sources), read from a checked root table.
#include <filesystem>
#include <string>

#include "recompiler/config/title_config.h"
#include "recompiler/config/toml_fields.h"

namespace kiln::config {

/// The keys parse_changes reads (for the root table's allowed list).
#define KILN_CONFIG_CHANGE_KEYS "functions", "jump_tables", "ignore", "stubs", "patches", "hooks", "replacements", "sources"

/// Reads the change tables of `root`; C++ source paths are resolved against `base_dir` and must exist.
/// A content-hash field ("xxh128:<32 hex>"); anything else is an error at its line.
std::string check_hash_syntax(const TableFields& table, std::string_view key);

Changes parse_changes(const TableFields& root, const std::filesystem::path& base_dir, const std::string& patch_set);

} // namespace kiln::config
