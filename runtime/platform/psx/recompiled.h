#pragma once
// What recompiled PS1 code calls besides the instruction semantics: the address -> function table for
// indirect jumps and calls, and the checks where control leaves what the recompiler could follow.
#include <cstddef>
#include <cstdint>

#include "runtime/core/mips/fallback.h"
#include "runtime/core/function_table.h"
#include "runtime/core/mips/step.h"
#include "runtime/platform/psx/machine.h"

namespace kiln::psx {

using FunctionEntry = guest::FunctionEntry<Machine>; // the table shape the 32-bit platforms share
struct RecompiledProgram {
  const FunctionEntry* functions; ///< sorted by address
  size_t count;
  ProgramImage image;
  r3000::FallbackCode fallback; ///< the text, decoded: what the fallback interpreter runs
};

/// The calls of runtime/core/function_table.h. call_guest also reaches a BIOS entry (A0h/B0h/C0h) and the exit
/// address; resume_after_exception answers SYSCALL and resumes at pc + 4; run_recompiled reads the run options
/// (`--frames N` ...), then runs the entry function.
KILN_RECOMPILED_PLATFORM_CALLS(Machine, RecompiledProgram);

} // namespace kiln::psx
