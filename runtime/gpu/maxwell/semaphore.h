#pragma once
// Semaphore operations shared by the host class, the engines' report semaphores and QMD releases:
// acquire compares, releases (one word or four words with a timestamp) and reductions.
#include <cstdint>
#include <string>

namespace kiln::maxwell {

class AddressSpace;

enum class AcquireCompare { equal, circular_greater_equal, greater_equal, and_nonzero };

/// Whether `value` meets an acquire of `payload` with `compare`, both `bits` (32 or 64) wide.
bool acquire_met(AcquireCompare compare, uint64_t value, uint64_t payload, unsigned bits = 32);
std::string describe_acquire(AcquireCompare compare, uint64_t payload);

/// Reduction operations as the 3D/compute classes number them (REDUCTION_OP_RED_*); the host and copy classes
/// use their own numbering and translate to this one.
enum class Reduction { add, min, max, inc, dec, bit_and, bit_or, bit_xor };

/// The new value of a reduction of `memory` by `operand` (`is_signed` for min/max).
uint32_t reduce(Reduction op, bool is_signed, uint32_t memory, uint32_t operand);

/// A release in the form the Ampere classes describe it (QMD 03_00 releases, the 3D class's
/// REPORT_SEMAPHORE_EXECUTE): a one-, two- or four-word structure, a 32- or 64-bit payload, optionally reduced
/// into what memory holds.
struct SemaphoreRelease {
  uint64_t address = 0;
  uint64_t payload = 0;
  enum class Size { one_word, two_words, four_words } size = Size::four_words;
  bool payload_64 = false;
  bool reduction = false;
  Reduction op = Reduction::add;
  bool is_signed = false;
};
/// Writes the release: one word = the payload's low 32 bits, two words = the payload, four words = {payload,
/// timestamp} (a 32-bit payload followed by a zero word). 64-bit reductions are refused (kiln::Error).
void write_release(AddressSpace& memory, const SemaphoreRelease& release, uint64_t timestamp);

/// Writes a four-word semaphore structure: {value, 0, 64-bit timestamp}.
void write_four_word_release(AddressSpace& memory, uint64_t address, uint32_t value, uint64_t timestamp);
/// Same with a 64-bit counter (reports: {counter, timestamp}).
void write_report(AddressSpace& memory, uint64_t address, uint64_t counter, uint64_t timestamp);

} // namespace kiln::maxwell
