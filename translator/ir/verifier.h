#pragma once
#include <string_view>

#include "translator/ir/ir.h"

namespace kiln::ir {

/// Checks types, operand counts, that every operand is defined before use in an enclosing block, that every
/// instruction sits in the tree once, and that jumps target an enclosing construct and end their block.
/// Throws kiln::Error naming `stage` (the pass that just ran), the value and its guest address.
void verify(const Function& function, std::string_view stage);

} // namespace kiln::ir
