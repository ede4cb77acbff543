#pragma once
// The f32 fused multiply-add without f64 or the host's Fma, correctly rounded on every Vulkan host whatever its
// FP64 support and however its Fma rounds: the default lowering of FFma on f32 (spirv::FmaMode::exact_f32, a short
// f32 path where it is exact, the 32-bit integer code elsewhere), and the one place f32 directed rounding
// (.RZ/.RM/.RP) is computed.
#include <optional>

#include "translator/ir/builder.h"
#include "translator/ir/rounding.h"

namespace kiln::ir {

/// a × b + c (F32 values) rounded once as `mode` says; without `c`, the product a × b alone (its zero keeps the
/// product's sign under every mode, which a + (-0) would not under rounding down). Subnormal inputs and results
/// are kept (the guest's .FTZ flushes around the call); about 300 integer instructions. NaN rules: a NaN operand gives the first NaN of a, b, c
/// with its quiet bit set; an invalid operation (0 × inf, inf - inf) gives NVIDIA's canonical NaN 0x7fffffff.
ValueId integer_fma_f32(Builder& b, ValueId a, ValueId bv, std::optional<ValueId> c, Rounding mode);

/// x + y (F32) rounded to odd: TwoSum gives the exact error, and an inexact sum with an even last bit moves one
/// unit towards the exact value. Exact for finite x, y whose sum does not overflow (on hosts that flush f32
/// subnormals, only where no subnormal occurs).
ValueId add_round_to_odd_f32(Builder& b, ValueId x, ValueId y);

/// The fast path of the FP64-free FFma: a × b + c (F32) rounded to nearest with a few f32 operations, and a Bool
/// saying whether the operands lie where that result is exact. Dekker's product (Veltkamp's split) and TwoSum are
/// error-free there, and a round-to-odd sum of the low parts makes the last addition round once (Boldo &
/// Melquiond, "Emulation of FMA and correctly rounded sums", IEEE TC 2008). The ranges (|a|, |b| in [2^-100,
/// 2^100], |a*b| in [2^-78, 2^126), c zero or |c| in [2^-100, 2^126)) keep every intermediate value zero or normal,
/// so the result is exact on hosts that flush f32 subnormals too. Elsewhere integer_fma_f32 takes over.
std::pair<ValueId, ValueId> float_fma_f32(Builder& b, ValueId a, ValueId bv, ValueId c);

/// The NaN rule above on the CPU, for the reference: `result` of the host's fma, or the NaN integer_fma_f32 gives.
uint32_t fma_f32_nan_rule(uint32_t a, uint32_t b, uint32_t c, uint32_t result);

} // namespace kiln::ir
