#pragma once
// Turns a guest control-flow graph into the IR's structured tree (Ramsey, "Beyond Relooper: recursive
// translation of unstructured control flow to structured control flow", ICFP 2022): a loop construct per
// loop header, a block construct before each merge node, branches as break/continue or inlined code.
// Any reducible CFG works (loops, early exits, divergent branches); an irreducible one is an error naming the
// guest address of the offending edge.
#include <string>
#include <vector>

#include "translator/ir/ir.h"

namespace kiln::ir {

struct CfgBlock {
  enum class Exit : uint8_t { Jump, Branch, Return };
  uint64_t guest_address = 0;      ///< for messages
  std::vector<Node> body;          ///< straight-line code (may hold If nodes from predication)
  Exit exit = Exit::Return;
  ValueId condition = no_value;    ///< Branch: taken when true (defined in `body`)
  uint32_t target = 0;             ///< Jump / Branch-true: successor block index
  uint32_t fallthrough = 0;        ///< Branch-false: successor block index
};

/// Moves the blocks' code into `function.body` (which must be empty); block 0 is the entry. `where` names the
/// kernel in errors.
void structurize(Function& function, std::vector<CfgBlock> blocks, const std::string& where);

} // namespace kiln::ir
