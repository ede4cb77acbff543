#pragma once
// The fallback interpreter's steps (runtime/core/fallback.h): for every instruction the recompiler did not place
// in a compiled function, a host routine that executes exactly that instruction on the `Cpu` state, emitted
// through the same semantics handlers as the compiled code.
#include <cstdint>
#include <string>
#include <vector>

#include "recompiler/analysis/program.h"
#include "recompiler/emit/cpp_emitter.h"

namespace kiln::emit {

struct FallbackSteps {
  std::vector<std::string> files; ///< C++ sources, each a few thousand steps
  std::string table;              ///< fallback_table.cpp: the sorted address -> step table, installed at start-up
  size_t count = 0;
};

/// Steps for the instructions at `addresses` (sorted, all inside the program's code ranges). Words without
/// semantics (padding, data between functions) become steps that trap with address and encoding if reached.
FallbackSteps emit_fallback_steps(const analysis::Program& program, const std::vector<uint64_t>& addresses);

} // namespace kiln::emit
