#pragma once
// Instruction meanings the Maxwell/Pascal (translator/sass/sm5x) and the Turing/Ampere (translator/sass/sm86)
// lowerings share, as IR built with the caller's builder. Each lowering decodes its own operands and modifiers
// and calls these for the semantics.
#include <array>
#include <functional>

#include "translator/ir/builder.h"
#include "translator/ir/rounding.h"

namespace kiln::sass {

/// PRMT's default mode: bytes 0-3 of `low`, 4-7 of `high`; each selector nibble picks one for its result byte,
/// bit 3 of the nibble replicates that byte's sign bit.
ir::ValueId byte_permute(ir::Builder& b, ir::ValueId low, ir::ValueId high, ir::ValueId selector);

enum class ShuffleMode : uint8_t { index, up, down, butterfly };
struct ShuffleLane {
  ir::ValueId source; ///< the lane read (the own lane when out of range)
  ir::ValueId valid;  ///< Bool: the source lane is inside the segment (SHFL's predicate result)
};
/// SHFL (PTX shfl.sync): `lane_operand` the lane, delta or mask; `clamp_segment` holds the clamp value (bits 0-4)
/// and the segment mask (bits 8-12).
ShuffleLane shuffle_lane(ir::Builder& b, ShuffleMode mode, ir::ValueId lane_operand, ir::ValueId clamp_segment);

/// SR_LANEMASK_EQ/LT/LE/GT/GE of the current lane.
enum class LaneMask : uint8_t { eq, lt, le, gt, ge };
ir::ValueId lane_mask(ir::Builder& b, LaneMask which);

/// A clock or timer read: a per-invocation counter (in `counter_local`, U32) that grows by one per read, so
/// elapsed times are positive and deterministic (Vulkan 1.2 core has no clock).
ir::ValueId clock_read(ir::Builder& b, uint32_t counter_local);

/// FCHK.DIVIDE: true when a / b (float bits) needs the exact slow path. Flags more than the hardware does
/// (a safe range of exponents), which only takes the slow path more often.
ir::ValueId divide_needs_slow_path(ir::Builder& b, ir::ValueId dividend_bits, ir::ValueId divisor_bits);

/// The float (exact) of the IEEE half whose bits are the low 16 of `bits16`.
ir::ValueId half_to_float(ir::Builder& b, ir::ValueId bits16);

/// A 32-bit atomic read-modify-write as a compare-and-swap loop: `update` builds the new value from the old one.
/// Returns the old value. `shared` selects workgroup memory (address U32) over global (U64).
ir::ValueId atomic_update_loop(ir::Builder& b, bool shared, ir::ValueId address, const std::function<ir::ValueId(ir::ValueId old)>& update);

/// CUDA's atomicInc / atomicDec (ATOM.INC/.DEC): old >= limit ? 0 : old + 1, and (old == 0 || old > limit) ? limit :
/// old - 1, unsigned; through atomic_update_loop. Returns the old value.
ir::ValueId atomic_wrapping_step(ir::Builder& b, bool shared, ir::ValueId address, ir::ValueId limit, bool increment);

/// A float atomic add (32-bit) as a compare-and-swap loop, as Vulkan 1.2 has no float atomics without an
/// extension; returns the old value's bits. `shared` selects workgroup memory (address U32) over global (U64).
ir::ValueId float_atomic_add(ir::Builder& b, bool shared, ir::ValueId address, ir::ValueId value_bits);

/// VOTE over the warp's lanes present (all of them take part, as with a full member mask): the ballot and the
/// ALL / ANY / EQ result.
enum class VoteMode : uint8_t { all, any, eq };
std::array<ir::ValueId, 2> vote(ir::Builder& b, VoteMode mode, ir::ValueId predicate);

/// I2F: `value` (U32, or U64 when `wide`; narrow guest types already extended) to F32 or F64, rounded as `mode`
/// says (directed modes exactly: the rounded integer converted back tells the error's sign).
ir::ValueId integer_to_float(ir::Builder& b, ir::ValueId value, bool is_unsigned, bool wide, bool to_double, ir::Rounding mode);

/// F2I's saturation of a 32-bit result to a narrow destination type (8 or 16 bits).
ir::ValueId saturate_narrow(ir::Builder& b, ir::ValueId value, unsigned bits, bool is_signed);

} // namespace kiln::sass
