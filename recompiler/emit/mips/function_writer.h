#pragma once
// One guest function as C++: every instruction a call to its semantics in runtime/core/mips/ops.h with the word
// and address as constants, the R3000 pipeline around it (retire_load after each instruction, the delay slot
// run between a branch and its transfer), gotos inside the function, host calls for JAL and tail calls.
// The platform is named through the namespace alias `kiln_platform` that the project's functions.h declares
// (kiln::psx or kiln::mipsel): it provides Machine, Bus, call_guest, check_return, resume_after_exception and
// untranslated.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "recompiler/emit/mips/function_discovery.h"
#include "recompiler/emit/mips/psx_project.h"

namespace kiln::mips {

/// The host name of the function starting at `address`.
std::string host_function_name(uint32_t address);

/// Appends the C++ of `function` to `out`; untranslatable words are reported in `untranslated` and compiled
/// to a call that stops the program naming them. Returns the number of instructions emitted.
size_t write_function(const ProgramImage& image, const Function& function, std::string& out,
                      std::vector<UntranslatedWord>& untranslated);

/// What every generated MIPS project shares: fills the report's counts, writes functions.h (the platform's
/// `recompiled_header`, `kiln_platform` naming `platform`) and the functions_NNN.cpp chunks through `write`,
/// removes stale chunks of an earlier, larger output, and returns function_table.cpp's text up to the end of
/// its `entries` array. `banner` opens every file.
std::string write_function_files(const ProgramImage& image, std::string_view banner, std::string_view platform,
                                 std::string_view recompiled_header, const PsxRecompileOptions& options,
                                 PsxRecompileReport& report,
                                 const std::function<void(const std::string&, std::string_view)>& write);

} // namespace kiln::mips
