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

/// verify, then fold and DCE until nothing changes (verifying after every pass).
void run_passes(Function& function);

} // namespace kiln::ir
