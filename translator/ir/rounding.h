#pragma once
// Directed rounding (.RZ/.RM/.RP of NVIDIA's float arithmetic), which Vulkan cannot select per instruction: each
// result is computed by the host's round-to-nearest op, then moved one unit in the last place towards the exact
// value when rounding went the other way, the direction read from the exact error of the rounded result (f64);
// f32 is rounded once on integers (integer_fma.h). One place for every guest ISA (SM5x and SM86 lowerings).
#include <cstdint>

#include "translator/ir/builder.h"

namespace kiln::ir {

enum class Rounding : uint8_t { nearest, minus_infinity, plus_infinity, zero };

/// `rounded` (F32 or F64) moved one ulp as `mode` says, given the sign of (exact - rounded) in `error`.
ValueId round_towards(Builder& b, ValueId rounded, ValueId error, Rounding mode);

/// a + b, a × b and a × b + c (F32 or F64 operands of one type) under `mode`. F32 is exact on integers
/// (integer_fma.h, no FP64); the f64 FMA's direction is exact unless the difference is below about 2^-50 ulp of
/// the result.
ValueId rounded_add(Builder& b, ValueId a, ValueId bv, Rounding mode);
ValueId rounded_mul(Builder& b, ValueId a, ValueId bv, Rounding mode);
ValueId rounded_fma(Builder& b, ValueId a, ValueId bv, ValueId c, Rounding mode);

} // namespace kiln::ir
