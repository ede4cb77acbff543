#pragma once
// The fallback interpreter's steps (runtime/core/aarch64/fallback.h): for every instruction of the executable sections
// but the entries of compiled functions, a host routine that executes exactly that instruction on the `Cpu`
// state, emitted through the same semantics handlers as the compiled code.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "recompiler/analysis/program.h"
#include "recompiler/emit/cpp_emitter.h"

namespace kiln::emit {

struct FallbackSteps {
  std::vector<std::string> files; ///< C++ sources, each a few thousand steps
  std::string table;              ///< fallback_table.cpp: the sorted address -> step table, installed at start-up
  size_t count = 0;               ///< instructions with a step
  size_t functions = 0;           ///< step functions: copies of a position-independent instruction share one
};

/// Steps for the instructions at `addresses` (sorted, all inside the program's code ranges; copies of a
/// position-independent instruction share one step function); those in
/// `resume_points` are marked as where a longjmp resumes a frame (FallbackStep::resume_point). Words without
/// semantics (padding, data between functions) become steps that trap with address and encoding if reached.
FallbackSteps emit_fallback_steps(const analysis::Program& program, const std::vector<uint64_t>& addresses, const std::set<uint64_t>& resume_points);

} // namespace kiln::emit
