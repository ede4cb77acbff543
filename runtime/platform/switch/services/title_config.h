#pragma once
// What a title's kiln.toml sets for the Horizon runtime: [switch.fs] (fsp-srv's host folders) and
// [switch.audio] (the headless WAV file), [switch.fonts] (pl:u's font folder), and [gpu] (the renderer's host
// profile overrides, read by recompiler/config). docs/switch.md lists the keys.
#include <string>

#include "runtime/platform/switch/services/settings.h"

namespace kiln::hos {

/// Applies the tables above of the TOML file `path` to `settings` (relative paths are relative to the file's
/// folder). Missing tables leave the defaults; an unknown key or a bad value is an Error naming file and line.
void load_title_config(const std::string& path, SystemSettings& settings);

} // namespace kiln::hos
