#pragma once
// Reading kiln.toml's [gpu] table (title_config.h GpuSettings) from a checked root table.
#include "recompiler/config/title_config.h"
#include "recompiler/config/toml_fields.h"

namespace kiln::config {

/// The [gpu] table of `root` (empty settings without one); unknown keys and bad values name file and line.
GpuSettings parse_gpu_settings(const TableFields& root);

} // namespace kiln::config
