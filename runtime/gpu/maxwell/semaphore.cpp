#include "runtime/gpu/maxwell/semaphore.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/address_space.h"

namespace kiln::maxwell {

bool acquire_met(AcquireCompare compare, uint64_t value, uint64_t payload, unsigned bits) {
  if (bits == 32) {
    value &= 0xffffffffu;
    payload &= 0xffffffffu;
  }
  switch (compare) {
  case AcquireCompare::equal: return value == payload;
  case AcquireCompare::circular_greater_equal:
    return bits == 64 ? static_cast<int64_t>(value - payload) >= 0
                      : static_cast<int32_t>(static_cast<uint32_t>(value) - static_cast<uint32_t>(payload)) >= 0;
  case AcquireCompare::greater_equal: return value >= payload;
  case AcquireCompare::and_nonzero: return (value & payload) != 0;
  }
  return false;
}

std::string describe_acquire(AcquireCompare compare, uint64_t payload) {
  switch (compare) {
  case AcquireCompare::equal: return fmt::format("value == 0x{:x}", payload);
  case AcquireCompare::circular_greater_equal: return fmt::format("value >= 0x{:x} (circular)", payload);
  case AcquireCompare::greater_equal: return fmt::format("value >= 0x{:x}", payload);
  case AcquireCompare::and_nonzero: return fmt::format("value & 0x{:x} != 0", payload);
  }
  return "?";
}

uint32_t reduce(Reduction op, bool is_signed, uint32_t memory, uint32_t operand) {
  switch (op) {
  case Reduction::add: return memory + operand;
  case Reduction::min:
    return is_signed ? static_cast<uint32_t>(std::min(static_cast<int32_t>(memory), static_cast<int32_t>(operand)))
                     : std::min(memory, operand);
  case Reduction::max:
    return is_signed ? static_cast<uint32_t>(std::max(static_cast<int32_t>(memory), static_cast<int32_t>(operand)))
                     : std::max(memory, operand);
  // INC/DEC wrap at the operand like CUDA's atomicInc/atomicDec.
  case Reduction::inc: return memory >= operand ? 0 : memory + 1;
  case Reduction::dec: return (memory == 0 || memory > operand) ? operand : memory - 1;
  case Reduction::bit_and: return memory & operand;
  case Reduction::bit_or: return memory | operand;
  case Reduction::bit_xor: return memory ^ operand;
  }
  return memory;
}

void write_four_word_release(AddressSpace& memory, uint64_t address, uint32_t value, uint64_t timestamp) {
  memory.write_u32(address, value);
  memory.write_u32(address + 4, 0);
  memory.write_u64(address + 8, timestamp);
}

void write_release(AddressSpace& memory, const SemaphoreRelease& release, uint64_t timestamp) {
  uint64_t payload = release.payload_64 ? release.payload : release.payload & 0xffffffffu;
  if (release.reduction) {
    if (release.payload_64 || release.size == SemaphoreRelease::Size::two_words) {
      throw Error(fmt::format("release to {:#x}: 64-bit semaphore reductions are not implemented", release.address));
    }
    payload = reduce(release.op, release.is_signed, memory.read_u32(release.address), static_cast<uint32_t>(payload));
  }
  switch (release.size) {
  case SemaphoreRelease::Size::one_word: memory.write_u32(release.address, static_cast<uint32_t>(payload)); return;
  case SemaphoreRelease::Size::two_words: memory.write_u64(release.address, payload); return;
  case SemaphoreRelease::Size::four_words:
    if (release.payload_64) write_report(memory, release.address, payload, timestamp);
    else write_four_word_release(memory, release.address, static_cast<uint32_t>(payload), timestamp);
    return;
  }
}

void write_report(AddressSpace& memory, uint64_t address, uint64_t counter, uint64_t timestamp) {
  memory.write_u64(address, counter);
  memory.write_u64(address + 8, timestamp);
}

} // namespace kiln::maxwell
