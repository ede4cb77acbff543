#pragma once
// Where fsp-srv's file systems live on the host (kiln.toml [switch.fs], read by title_config.h; docs/switch.md).
#include <cstdint>
#include <optional>
#include <string>

namespace kiln::hos::fs {

struct FileSystemConfig {
  std::string romfs;                   ///< a folder or a RomFS image file; empty: the title has no RomFS
  std::string save_root = "kiln-save"; ///< save data: SAVE_ROOT/<program id>/<user id>/
  std::string sd_card = "kiln-sdmc";   ///< the SD card's root folder
  /// main.npdm's FS permissions (title_access.h; ACI0 & ACID); none for a homebrew NRO, which hbloader starts
  /// with every permission.
  std::optional<uint64_t> permissions;
};

} // namespace kiln::hos::fs
