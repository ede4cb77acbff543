#pragma once
// What a porter's C++ hook returns (games/<title>/kiln.toml [[hooks]]): a hook runs before or after one guest
// instruction with the guest registers in `Cpu` (x[], sp, the flags n/z/c/v, v_regs[]); it may change them and
// then let the guest code go on, return from the guest function (x0 holds the result), or branch elsewhere.
#include <cstdint>

#include "runtime/core/aarch64/cpu.h"

namespace kiln::rt {

struct HookResult {
  enum class Action : uint8_t { proceed, return_to_caller, branch };
  Action action = Action::proceed;
  uint64_t target = 0; ///< guest address for `branch`

  static HookResult proceed() { return {}; }
  static HookResult return_to_caller() { return {Action::return_to_caller, 0}; }
  /// Inside the hooked function: to an address listed in the hook's `targets`; elsewhere: a tail call.
  static HookResult branch_to(uint64_t target) { return {Action::branch, target}; }
};

using HookFunction = HookResult (*)(Cpu*);

} // namespace kiln::rt
