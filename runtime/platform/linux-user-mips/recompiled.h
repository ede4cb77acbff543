#pragma once
// What recompiled mipsel linux-user code calls besides the instruction semantics (the same names as
// runtime/platform/psx/recompiled.h: the emitter reaches either through the alias `kiln_platform`).
#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/core/mips/fallback.h"
#include "runtime/core/function_table.h"
#include "runtime/core/mips/step.h"
#include "runtime/platform/linux-user-mips/machine.h"

namespace kiln::mipsel {

using FunctionEntry = guest::FunctionEntry<Machine>; // the table shape the 32-bit platforms share
struct RecompiledProgram {
  const FunctionEntry* functions; ///< sorted by address
  size_t count;
  uint32_t entry;
  const linux_calls::LoadSegment32* segments;
  size_t segment_count;
  uint32_t program_headers_address;
  uint16_t program_header_count, program_header_size;
  r3000::FallbackCode fallback; ///< the text, decoded: what the fallback interpreter runs
};

void install(const RecompiledProgram& program);
/// Runs the recompiled function at `address` (c.pc must be `address`), else the fallback interpreter from there;
/// an address outside the text stops with an error.
void call_guest(Machine& m, uint32_t address);
/// After a call from `call_address` in the recompiled function [start, end), entered with `entry_link` and
/// `entry_sp`, came back to c.pc instead of after the call (longjmp): this frame resumes in the fallback
/// interpreter when the landing address is in the function and the stack pointer in its frame; else the caller
/// returns and a frame further up takes over.
void returned_elsewhere(Machine& m, uint32_t call_address, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp);
/// SYSCALL at `pc` is answered and execution resumes at pc + 4; any other exception stops with an error.
void resume_after_exception(Machine& m, uint32_t pc);
[[noreturn]] void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why);

/// main() of a recompiled program: loads the segments, builds the initial stack from argc/argv/environ and the
/// auxiliary vector, runs the entry, returns the guest's exit status.
int run_recompiled(const RecompiledProgram& program, int argc, char** argv);

} // namespace kiln::mipsel
