#pragma once
// The generated projects of the two MIPS platforms: a PS-X EXE on runtime/platform/psx (the R3000A variant, load
// delays), a static 32-bit little-endian MIPS ELF on runtime/platform/linux-user-mips (MIPS32r2, interlocked loads, o32
// system calls). Each loads its input, finds its functions (function_discovery.h), writes their C++
// (function_writer.h) and the platform's glue through the shared project files, and fills the summary's counts.
#include <filesystem>
#include <span>

#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/summary.h"
#include "recompiler/pipeline/title_hints.h"

namespace kiln::mips {

struct ProjectRoots {
  std::filesystem::path source_root; ///< kiln's repository (runtime sources the project compiles)
  std::filesystem::path binary_root; ///< kiln's build tree (the PS1 host shell, prebuilt: kiln_psx_host)
};

/// `hints`: the title's kiln.toml (instruction patches are applied to the code before it is decoded).
void write_psx_project(const std::filesystem::path& input, const ProjectRoots& roots, const pipeline::TitleHints& hints,
                       pipeline::ProjectFiles& files, pipeline::RecompileSummary& summary);
void write_mipsel_linux_project(std::span<const uint8_t> bytes, const std::filesystem::path& input, const ProjectRoots& roots,
                                const pipeline::TitleHints& hints, pipeline::ProjectFiles& files, pipeline::RecompileSummary& summary);

} // namespace kiln::mips
