#pragma once
// The generated projects of the PowerPC platforms: a static 32-bit big-endian PowerPC ELF on
// runtime/platform/linux-user-ppc (ppc32 system calls). Loads the input, finds its functions (program_image.h),
// writes their C++ (function_writer.h) and the platform's glue through the shared project files.
#include <filesystem>
#include <span>

#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/summary.h"
#include "recompiler/pipeline/title_hints.h"

namespace kiln::ppc {

/// `hints`: the title's kiln.toml (instruction patches are applied to the code before it is decoded).
void write_ppc_linux_project(std::span<const uint8_t> bytes, const std::filesystem::path& input, const std::filesystem::path& source_root,
                             const pipeline::TitleHints& hints, pipeline::ProjectFiles& files, pipeline::RecompileSummary& summary);

} // namespace kiln::ppc
