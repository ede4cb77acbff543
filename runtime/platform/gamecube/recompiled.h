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

/// The calls of runtime/core/function_table.h. call_guest takes a physical vector address for its cached mirror;
/// returned_elsewhere also serves OSLoadContext; resume_after_exception (c.next_pc the vector, SRR0/SRR1 set)
/// runs the guest's own handler until its rfi returns, to the next instruction (sc) or to `pc` itself, which then
/// runs again (FP unavailable after the handler enabled the FPU). run_recompiled loads the segments, writes the
/// low-memory globals (and with a disc image its header and FST), sets the CPU as the apploader leaves it and runs
/// the entry. `--disc PATH` overrides the disc image; KILN_GX_DUMP=path writes the GX FIFO stream the gather pipe
/// collected when the run ends (a console reset). Returns 0 after a reset, 1 after an error (printed to stderr).
KILN_RECOMPILED_PLATFORM_CALLS(Machine, RecompiledProgram);

} // namespace kiln::gamecube
