#pragma once
// Float to half-precision bits in IR integer operations: the .F16 result forms of TEXS/TLDS/TLD4S (SM5x), the
// half arithmetic and conversions of SM86, all without FP64 or Float16 on the host.
#include "translator/ir/builder.h"

namespace kiln::ir {

/// The IEEE half-precision bits of the float bits `value` (U32) in the low 16 bits: round to nearest even,
/// subnormal halves kept, overflow to infinity, NaN stays a (quiet) NaN. How the hardware rounds .F16 texture
/// results is not documented; this is the IEEE conversion.
ValueId half_bits(Builder& b, ValueId value);

} // namespace kiln::ir
