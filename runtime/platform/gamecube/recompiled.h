#pragma once
// What recompiled GameCube code calls besides the instruction semantics (the names every 32-bit platform gives
// them: the emitter reaches them through the alias `kiln_platform`), and the program a generated project describes.
#include <cstddef>
#include <cstdint>

#include "runtime/core/function_table.h"
#include "runtime/core/ppc/fallback.h"
#include "runtime/platform/gamecube/machine.h"

namespace kiln::gamecube {

using FunctionEntry = guest::FunctionEntry<Machine>;

/// A DOL section or zero-filled BSS range: `size` bytes at `address`, the first `data_size` from `data`.
struct LoadSegment {
  uint32_t address, size;
  const unsigned char* data;
  size_t data_size;
};

struct RecompiledProgram {
  const FunctionEntry* functions; ///< sorted by address
  size_t count;
  uint32_t entry;
  const LoadSegment* segments;
  size_t segment_count;
  ppc::FallbackCode fallback; ///< the DOL's text, decoded
  const char* disc_image;     ///< the disc image the DOL came from ("" for a DOL): DI reads it
};

void install(const RecompiledProgram& program);
/// Runs the recompiled function at `address` (a physical vector address means its cached mirror), else the
/// fallback interpreter from there; an address outside the text stops with an error.
void call_guest(Machine& m, uint32_t address);
/// After a call came back to c.pc instead of after the call (longjmp, OSLoadContext): this frame resumes in the
/// fallback interpreter when the landing address is in it (runtime/core/ppc/fallback.h resume_frame).
void returned_elsewhere(Machine& m, uint32_t call_address, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp);
/// The instruction at `pc` raised an exception (c.next_pc its vector, SRR0/SRR1 set): the guest's handler runs
/// until its rfi returns; to the next instruction (sc) or to `pc` itself, which then runs again (FP unavailable
/// after the handler enabled the FPU).
void resume_after_exception(Machine& m, uint32_t pc);
[[noreturn]] void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why);

/// Loads the segments, writes the low-memory globals (and with a disc image its header and FST), sets the CPU as the
/// apploader leaves it and runs the entry. `--disc PATH` overrides the disc image; KILN_GX_DUMP=path writes the GX
/// FIFO stream the gather pipe collected when the run ends (a console reset). Returns 0 after a reset, 1 after
/// an error (printed to stderr).
int run_recompiled(const RecompiledProgram& program, int argc, char** argv);

} // namespace kiln::gamecube
