#include "runtime/gpu/maxwell/reports.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes/methods_b197.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/semaphore.h"

namespace kiln::maxwell {

namespace {
constexpr uint32_t report_none = 0x00, report_zpass_pixel_count = 0x02, report_zpass_pixel_count64 = 0x15;
} // namespace

void report_semaphore(Gpu& gpu, const Engine& engine, uint32_t value) {
  // SET_REPORT_SEMAPHORE_A..D sit at the same offsets in the 3D and compute classes.
  const uint64_t address = (uint64_t{engine.reg(class_b197::set_report_semaphore_a) & 0xff} << 32) |
                           engine.reg(class_b197::set_report_semaphore_b);
  const uint32_t payload = engine.reg(class_b197::set_report_semaphore_c);
  const uint32_t operation = extract_bits(value, 0, 2);
  const bool one_word = extract_bits(value, 28, 1) != 0; // STRUCTURE_SIZE
  AddressSpace& memory = gpu.memory();
  switch (operation) {
  case 0: { // RELEASE
    uint32_t released = payload;
    if (extract_bits(value, 3, 1) != 0) { // REDUCTION_ENABLE, REDUCTION_FORMAT 0 unsigned / 1 signed
      const auto op = static_cast<Reduction>(extract_bits(value, 9, 3));
      released = reduce(op, extract_bits(value, 17, 2) == 1, memory.read_u32(address), payload);
    }
    if (one_word) memory.write_u32(address, released);
    else write_four_word_release(memory, address, released, gpu.timestamp());
    gpu.signal();
    return;
  }
  case 1: { // ACQUIRE: COMPARISON 0 EQ, 1 GE
    const AcquireCompare compare =
        extract_bits(value, 16, 1) != 0 ? AcquireCompare::circular_greater_equal : AcquireCompare::equal;
    const uint32_t current = memory.read_u32(address);
    if (!acquire_met(compare, current, payload)) throw AcquireNotMet{address, describe_acquire(compare, payload), current};
    return;
  }
  case 2: { // REPORT_ONLY: a counter, then the timestamp
    const uint32_t report = extract_bits(value, 23, 5);
    uint64_t counter = 0;
    switch (report) {
    // NONE reports the payload: NVN's TIMESTAMP sets payload 0, so its counter field reads 0 (seed 002 §1.4/§4.2).
    case report_none: counter = payload; break;
    case report_zpass_pixel_count:
    case report_zpass_pixel_count64: counter = gpu.backend().samples_passed(); break;
    default: counter = 0; break; // pipeline statistics kiln does not count
    }
    if (one_word) memory.write_u32(address, static_cast<uint32_t>(counter));
    else write_report(memory, address, counter, gpu.timestamp());
    gpu.signal();
    return;
  }
  default: throw Error("SET_REPORT_SEMAPHORE_D OPERATION_TRAP");
  }
}

} // namespace kiln::maxwell
