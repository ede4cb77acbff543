#pragma once
// Reading whole files, and deterministic output: a file is rewritten only when its bytes change,
// so incremental host builds of generated code do not recompile what did not change.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

namespace kiln {

/// Reads a whole file; throws kiln::Error naming the path on failure.
std::vector<uint8_t> read_file(const std::filesystem::path& path);

enum class WriteResult { unchanged, written };

/// Writes `bytes` to `path` (creating parent folders) unless the file already holds exactly these bytes.
/// The write goes to a temporary file renamed over the target, so a crash never leaves a half-written file.
WriteResult write_file_if_changed(const std::filesystem::path& path, std::span<const uint8_t> bytes);
WriteResult write_file_if_changed(const std::filesystem::path& path, std::string_view text);

} // namespace kiln
