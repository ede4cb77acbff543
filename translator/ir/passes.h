#pragma once
// Optimisation passes over a Function. run_passes() runs them with the verifier after each one.
#include "translator/ir/ir.h"

namespace kiln::ir {

/// Forwards locals through straight-line code, simplifies identities and folds pure ops whose operands are
/// constants, using the CPU reference (reference.h). Returns the number of changes.
size_t fold_constants(Function& function);

/// Removes unused pure and memory-reading instructions, stores to locals nobody loads, and empty constructs.
/// Returns the number of removed nodes.
size_t eliminate_dead_code(Function& function);

/// A deep copy: the backend expands ops on a copy of the function it is given.
Function clone(const Function& function);

/// Replaces each f32 FFma by its exact integer sequence (integer_fma.h), the FP64-free lowering that
/// spirv::FmaMode::exact_f32 selects. Returns the number of FFmas replaced.
size_t expand_f32_fma(Function& function);

/// verify, then fold and DCE until nothing changes (verifying after every pass).
void run_passes(Function& function);

} // namespace kiln::ir
