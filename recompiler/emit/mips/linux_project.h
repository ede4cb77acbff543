#pragma once
// `kiln recompile --platform linux-user` on a 32-bit little-endian MIPS ELF (mipsel-linux-gnu-gcc -static):
// the MIPS32r2 variant of the MIPS frontend (interlocked loads) writes a C++ project whose functions call
// runtime/core/mips/ops.h and run on runtime/platform/linux-user-mips (o32 system calls).
#include <filesystem>
#include <string>

#include "recompiler/emit/mips/psx_project.h"

namespace kiln::mips {

/// The input is a 32-bit MIPS ELF (either byte order; big endian is then rejected with a clear error).
bool is_mips_elf(const std::filesystem::path& input);

/// Same options and report as the PS1 project (input, output, source_root, instructions_per_file).
PsxRecompileReport recompile_mipsel_linux(const PsxRecompileOptions& options);

/// One summary line plus the first untranslated words (all of them with `list_untranslated`).
std::string describe_report(const std::string& input, const PsxRecompileReport& report, double seconds, bool list_untranslated);

} // namespace kiln::mips
