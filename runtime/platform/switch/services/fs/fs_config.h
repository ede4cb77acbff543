#pragma once
// Where fsp-srv's file systems live on the host (kiln.toml [switch.fs], docs/switch.md).
#include <string>

namespace kiln::hos::fs {

struct FileSystemConfig {
  std::string romfs;                   ///< a folder or a RomFS image file; empty: the title has no RomFS
  std::string save_root = "kiln-save"; ///< save data: SAVE_ROOT/<program id>/<user id>/
  std::string sd_card = "kiln-sdmc";   ///< the SD card's root folder
};

/// Applies the [switch.fs] table of the TOML file `path` to `config` (relative paths are relative to the
/// file's folder). A missing table leaves the defaults; a bad value is an Error naming the file and line.
void load_file_system_config(const std::string& path, FileSystemConfig& config);

} // namespace kiln::hos::fs
