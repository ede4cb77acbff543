#pragma once
// What recompiled ppc32 linux-user code calls besides the instruction semantics (the names every 32-bit platform
// gives them: the emitter reaches them through the alias `kiln_platform`).
#include <cstddef>
#include <cstdint>

#include "runtime/core/function_table.h"
#include "runtime/core/ppc/fallback.h"
#include "runtime/platform/linux-syscalls/program32.h"
#include "runtime/platform/linux-user-ppc/machine.h"

namespace kiln::ppc_linux {

using FunctionEntry = guest::FunctionEntry<Machine>;
using RecompiledProgram = linux_calls::RecompiledProgram32<Machine, ppc::FallbackCode>;

/// The calls of runtime/core/function_table.h. resume_after_exception does what the kernel emulates for user
/// programs and goes on (mfpvr: user mode may not read the PVR, Linux answers it); anything else (a trap, an
/// alignment or other program exception) would be a signal, which kiln reports as an error naming it.
/// run_recompiled loads the segments, builds the initial stack from argc/argv/environ and the auxiliary vector,
/// and runs the entry.
KILN_RECOMPILED_PLATFORM_CALLS(Machine, RecompiledProgram);

} // namespace kiln::ppc_linux
