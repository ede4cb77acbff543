#pragma once
// The CPU reference of every computing IR op: the one place that says what an op means. Constant folding
// uses it, and the tests run the SPIR-V the backend emits for each op against it.
#include <cstdint>
#include <optional>
#include <span>

#include "translator/ir/op.h"
#include "translator/ir/types.h"

namespace kiln::ir {

struct TypedBits {
  Type type = Type::Void;
  uint64_t bits = 0;
};

/// The result bits of `op` applied to `args`, with result type `result`; nullopt for ops whose result does not
/// follow from their operands alone (memory, invocation ids, warp operations, locals, Const).
/// Approximate ops (MUFU) give the correctly rounded result; the hardware is within the bounds in
/// approximation_bound().
std::optional<uint64_t> evaluate(Op op, Type result, std::span<const TypedBits> args);

/// How far a hardware result of an Approximate op may be from evaluate(): `ulps` units in the last place of
/// the reference result, or `absolute` (for sin/cos, whose relative error near zeros is unbounded).
struct ApproximationBound {
  uint32_t ulps = 0;
  double absolute = 0.0;
};
ApproximationBound approximation_bound(Op op);

} // namespace kiln::ir
