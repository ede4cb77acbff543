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

/// Installs the table call_guest() searches (one program per process).
void install(const RecompiledProgram& program);
/// Runs the guest code at `address` (c.pc must already be `address`): a recompiled function, a BIOS entry
/// (A0h/B0h/C0h), the exit address, or any other instruction of the text in the fallback interpreter. Anything
/// else stops with an error naming the address.
void call_guest(Machine& m, uint32_t address);
/// After a call from `call_address` in the recompiled function [start, end), entered with `entry_link` and
/// `entry_sp`, came back to c.pc instead of after the call (longjmp): this frame resumes in the fallback
/// interpreter when the landing address is in the function and the stack pointer in its frame; else the caller
/// returns and a frame further up takes over.
void returned_elsewhere(Machine& m, uint32_t call_address, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp);
/// An exception raised at `pc`: answered (SYSCALL) and resumed at pc + 4, or a kiln::Error.
void resume_after_exception(Machine& m, uint32_t pc);
/// An instruction the recompiler could not translate was reached.
[[noreturn]] void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why);

/// main() of a recompiled program: the run options (`--frames N` ...), then the entry function.
int run_recompiled(const RecompiledProgram& program, int argc, char** argv);

} // namespace kiln::psx
