#pragma once
// Semaphore operations shared by the host class, the engines' report semaphores and QMD releases:
// acquire compares, releases (one word or four words with a timestamp) and reductions.
#include <cstdint>
#include <string>

namespace kiln::maxwell {

class AddressSpace;

enum class AcquireCompare { equal, circular_greater_equal, greater_equal, and_nonzero };

/// Whether `value` meets an acquire of `payload` with `compare`.
bool acquire_met(AcquireCompare compare, uint32_t value, uint32_t payload);
std::string describe_acquire(AcquireCompare compare, uint32_t payload);

/// Reduction operations as the 3D/compute classes number them (REDUCTION_OP_RED_*); the host and copy classes
/// use their own numbering and translate to this one.
enum class Reduction { add, min, max, inc, dec, bit_and, bit_or, bit_xor };

/// The new value of a reduction of `memory` by `operand` (`is_signed` for min/max).
uint32_t reduce(Reduction op, bool is_signed, uint32_t memory, uint32_t operand);

/// Writes a four-word semaphore structure: {value, 0, 64-bit timestamp}.
void write_four_word_release(AddressSpace& memory, uint64_t address, uint32_t value, uint64_t timestamp);
/// Same with a 64-bit counter (reports: {counter, timestamp}).
void write_report(AddressSpace& memory, uint64_t address, uint64_t counter, uint64_t timestamp);

} // namespace kiln::maxwell
