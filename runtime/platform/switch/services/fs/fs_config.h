#pragma once
// Where fsp-srv's file systems live on the host (kiln.toml [switch.fs], read by title_config.h; docs/switch.md).
#include <string>

namespace kiln::hos::fs {

struct FileSystemConfig {
  std::string romfs;                   ///< a folder or a RomFS image file; empty: the title has no RomFS
  std::string save_root = "kiln-save"; ///< save data: SAVE_ROOT/<program id>/<user id>/
  std::string sd_card = "kiln-sdmc";   ///< the SD card's root folder
};

} // namespace kiln::hos::fs
