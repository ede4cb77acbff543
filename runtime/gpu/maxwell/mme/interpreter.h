#pragma once
// Runs a macro instruction by instruction.
#include <cstdint>
#include <span>

#include "runtime/gpu/maxwell/mme/macro_context.h"

namespace kiln::maxwell::mme {

/// Runs the macro starting at `start` of `code`. The first parameter is preloaded into r1. Throws kiln::Error
/// (naming the instruction index) for invalid instructions, a branch in a delay slot, running off the code, or a
/// macro that spends its branch budget (never ends).
void interpret(std::span<const uint32_t> code, uint32_t start, MacroContext& context);

} // namespace kiln::maxwell::mme
