#pragma once
// The f32 fused multiply-add computed on 32-bit integers only: no f64, no host Fma, so it is correctly rounded on
// every Vulkan host whatever its FP64 support and however its Fma rounds. The default lowering of FFma on f32
// (FmaMode::exact_f32), and the one place f32 directed rounding (.RZ/.RM/.RP) is computed.
#include <optional>

#include "translator/ir/builder.h"
#include "translator/ir/rounding.h"

namespace kiln::ir {

/// a × b + c (F32 values) rounded once as `mode` says; without `c`, the product a × b alone (its zero keeps the
/// product's sign under every mode, which a + (-0) would not under rounding down). Subnormal inputs and results
/// are kept (the guest's .FTZ flushes around the call). NaN rules: a NaN operand gives the first NaN of a, b, c
/// with its quiet bit set; an invalid operation (0 × inf, inf - inf) gives NVIDIA's canonical NaN 0x7fffffff.
ValueId integer_fma_f32(Builder& b, ValueId a, ValueId bv, std::optional<ValueId> c, Rounding mode);

/// The NaN rule above on the CPU, for the reference: `result` of the host's fma, or the NaN integer_fma_f32 gives.
uint32_t fma_f32_nan_rule(uint32_t a, uint32_t b, uint32_t c, uint32_t result);

} // namespace kiln::ir
