#pragma once
// One PowerPC guest function as C++: every instruction a call to its semantics in runtime/core/ppc/ops.h with the
// word and address as constants; branches read where the semantics sent control (Cpu::next_pc) and become gotos
// inside the function, host calls for bl, tail calls, returns for blr; what pipeline::FunctionBody shares with
// the other fixed-width ISAs decides labels and how control leaves. The platform is named through the alias
// `kiln_platform` the project's functions.h declares: it provides Machine, Bus, call_guest, check_return,
// resume_after_exception and untranslated.
#include <string>
#include <string_view>
#include <vector>

#include "recompiler/emit/ppc/program_image.h"
#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/summary.h"

namespace kiln::ppc {

/// What a platform needs of the emitted code beyond the semantics.
struct WriterOptions {
  /// `c.pc` = the instruction's address before each one that reaches the Bus or its hooks (memory, MSR, SPRs, the
  /// time base): the GameCube reports hardware-register accesses with their PC and takes interrupts there.
  bool pc_at_bus_access = false;
};

/// Appends the C++ of `function` to `out`; untranslatable words are reported in `untranslated` and compiled to a
/// call that stops the program naming them. Returns the number of instructions emitted.
size_t write_function(const ProgramImage& image, const Function& function, std::string& out,
                      std::vector<pipeline::UntranslatedInstruction>& untranslated, const WriterOptions& options = {});

/// Fills the summary's counts, writes functions.h (`kiln_platform` naming `platform`, whose declarations are in
/// `recompiled_header`) and the function sources, and returns function_table.cpp's text up to the end of its
/// `entries` array. `banner` opens every file.
std::string write_function_files(const ProgramImage& image, std::string_view banner, std::string_view platform,
                                 std::string_view recompiled_header, pipeline::ProjectFiles& files,
                                 pipeline::RecompileSummary& summary, const WriterOptions& options = {});


} // namespace kiln::ppc
