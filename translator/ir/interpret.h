#pragma once
// Runs a whole IR function on the CPU, one invocation at a time: every computing op through its CPU reference
// (reference.h), the structured control flow, locals, and the graphics stage interface through callbacks. It
// makes a translated graphics program runnable without a GPU, as the oracle tests compare formulas against.
#include <cstdint>
#include <functional>
#include <map>

#include "translator/ir/ir.h"

namespace kiln::ir {

struct InterpretEnvironment {
  /// LoadAttribute: the bits of the stage input at attribute address `address`.
  std::function<uint32_t(uint32_t address)> attribute;
  /// LoadConstBank: the 32-bit word of bank `bank` at byte `offset`.
  std::function<uint32_t(uint32_t bank, uint32_t offset)> const_bank;
  /// Instructions and loop iterations evaluated before the run is abandoned as runaway (a loop that never ends).
  uint64_t step_limit = 10'000'000;
};

struct InterpretResult {
  std::map<uint32_t, uint32_t> outputs; ///< StoreAttribute target -> the bits last stored
  bool demoted = false;                 ///< the invocation ran Demote (its outputs are void)
};

/// Runs `function`; throws kiln::Error naming the op for anything it cannot evaluate on the CPU (memory, warp
/// and texture operations), or when the step limit is reached.
InterpretResult interpret(const Function& function, const InterpretEnvironment& environment);

} // namespace kiln::ir
