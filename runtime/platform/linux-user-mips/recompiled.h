#pragma once
// What recompiled mipsel linux-user code calls besides the instruction semantics (the same names as
// runtime/platform/psx/recompiled.h: the emitter reaches either through the alias `kiln_platform`).
#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/core/mips/fallback.h"
#include "runtime/core/function_table.h"
#include "runtime/core/mips/step.h"
#include "runtime/platform/linux-syscalls/program32.h"
#include "runtime/platform/linux-user-mips/machine.h"

namespace kiln::mipsel {

using FunctionEntry = guest::FunctionEntry<Machine>; // the table shape the 32-bit platforms share
using RecompiledProgram = linux_calls::RecompiledProgram32<Machine, r3000::FallbackCode>;

/// The calls of runtime/core/function_table.h. resume_after_exception answers SYSCALL and resumes at pc + 4, any
/// other exception stops with an error; run_recompiled loads the segments, builds the initial stack from
/// argc/argv/environ and the auxiliary vector, and runs the entry.
KILN_RECOMPILED_PLATFORM_CALLS(Machine, RecompiledProgram);

} // namespace kiln::mipsel
