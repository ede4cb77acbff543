#pragma once
// One guest function as C++: every instruction a call to its semantics in runtime/core/mips/ops.h with the word
// and address as constants, the R3000 pipeline around it (retire_load after each instruction, the delay slot
// run between a branch and its transfer), gotos inside the function, host calls for JAL and tail calls.
// The platform is named through the namespace alias `kiln_platform` that the project's functions.h declares
// (kiln::psx or kiln::mipsel): it provides Machine, Bus, call_guest, check_return, resume_after_exception and
// untranslated.
#include <string>
#include <string_view>
#include <vector>

#include "recompiler/emit/mips/function_discovery.h"
#include "recompiler/pipeline/function_body.h"
#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/summary.h"

namespace kiln::mips {

using pipeline::host_function_name;

/// Appends the C++ of `function` to `out`; untranslatable words are reported in `untranslated` and compiled
/// to a call that stops the program naming them. Returns the number of instructions emitted.
size_t write_function(const ProgramImage& image, const Function& function, std::string& out,
                      std::vector<pipeline::UntranslatedInstruction>& untranslated);

/// What every generated MIPS project shares: fills the summary's counts, writes functions.h (the platform's
/// `recompiled_header`, `kiln_platform` naming `platform`) and the function sources, removes stale ones of an
/// earlier output, and returns function_table.cpp's text up to the end of its `entries` array. `banner` opens
/// every file.
std::string write_function_files(const ProgramImage& image, std::string_view banner, std::string_view platform,
                                 std::string_view recompiled_header, pipeline::ProjectFiles& files,
                                 pipeline::RecompileSummary& summary);

/// The text as the fallback interpreter reads it (runtime/core/mips/fallback.h): writes `opcodes.bin` (one
/// little-endian Opcode per word, Opcode::count for a word that is no instruction) and returns the assembly that
/// places it in the program as kiln_guest_opcodes.
std::string write_fallback_opcodes(const ProgramImage& image, pipeline::ProjectFiles& files);

} // namespace kiln::mips
