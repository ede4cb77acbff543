#pragma once
// Reading whole files, and deterministic output: a file is rewritten only when its bytes change,
// so incremental host builds of generated code do not recompile what did not change.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/base/input_limits.h"

namespace kiln {

/// Reads a whole file of `kind`; throws kiln::Error naming the path on failure, and before reading anything
/// when the file is larger than the kind's limit (a stream that is not a regular file is read up to it).
std::vector<uint8_t> read_file(const std::filesystem::path& path, const InputKind& kind = input::any);
/// The error read_file gives for `size` bytes over `kind`'s limit (for readers that check a size themselves).
[[noreturn]] void refuse_oversized(const std::filesystem::path& path, uint64_t size, const InputKind& kind);

enum class WriteResult { unchanged, written };

/// Writes `bytes` to `path` (creating parent folders) unless the file already holds exactly these bytes.
/// The write goes to a temporary file renamed over the target, so a crash never leaves a half-written file.
WriteResult write_file_if_changed(const std::filesystem::path& path, std::span<const uint8_t> bytes);
WriteResult write_file_if_changed(const std::filesystem::path& path, std::string_view text);

} // namespace kiln
