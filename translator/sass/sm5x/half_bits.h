#pragma once
// Float to half-precision bits in IR integer operations, for the .F16 result forms of TEXS/TLDS/TLD4S.
#include "translator/ir/builder.h"

namespace kiln::sass::sm5x {

/// The IEEE half-precision bits of the float bits `value` (U32) in the low 16 bits: round to nearest even,
/// subnormal halves kept, overflow to infinity, NaN stays a (quiet) NaN. How the hardware rounds .F16 texture
/// results is not documented; this is the IEEE conversion.
ir::ValueId half_bits(ir::Builder& b, ir::ValueId value);

} // namespace kiln::sass::sm5x
