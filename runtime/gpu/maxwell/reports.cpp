#include "runtime/gpu/maxwell/reports.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes/methods_b197.h"
#include "runtime/gpu/maxwell/classes/methods_c797.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/semaphore.h"

namespace kiln::maxwell {

namespace {

// The report numbers (SET_REPORT_SEMAPHORE_D_REPORT and REPORT_SEMAPHORE_EXECUTE_REPORT share them).
namespace report_value = class_c797::value;
static_assert(class_b197::value::set_report_semaphore_d_report_zpass_pixel_cnt64 ==
              report_value::report_semaphore_execute_report_zpass_pixel_cnt64);

/// One report semaphore operation, decoded from either method.
struct ReportOperation {
  enum class Kind { release, acquire, report_only } kind = Kind::release;
  SemaphoreRelease release;          ///< address, payload, structure size, reduction
  AcquireCompare compare = AcquireCompare::equal;
  uint32_t report = 0;               ///< REPORT_ONLY: what to count
};

void run(Gpu& gpu, const ReportOperation& operation) {
  AddressSpace& memory = gpu.memory();
  const SemaphoreRelease& release = operation.release;
  switch (operation.kind) {
  case ReportOperation::Kind::release:
    write_release(memory, release, gpu.timestamp());
    gpu.signal();
    return;
  case ReportOperation::Kind::acquire: {
    const uint32_t current = memory.read_u32(release.address);
    if (!acquire_met(operation.compare, current, release.payload)) {
      throw AcquireNotMet{release.address, describe_acquire(operation.compare, release.payload), current};
    }
    return;
  }
  case ReportOperation::Kind::report_only: {
    uint64_t counter = 0;
    switch (operation.report) {
    // NONE reports the payload: NVN's TIMESTAMP sets payload 0, so its counter field reads 0 (seed 002 §1.4/§4.2).
    case report_value::report_semaphore_execute_report_none: counter = release.payload; break;
    case report_value::report_semaphore_execute_report_zpass_pixel_cnt:
    case report_value::report_semaphore_execute_report_zpass_pixel_cnt64: counter = gpu.backend().samples_passed(); break;
    default: counter = 0; break; // pipeline statistics kiln does not count
    }
    // A report is {64-bit counter, timestamp}; the one-word form keeps the counter's low word.
    SemaphoreRelease written = release;
    written.payload = counter;
    written.payload_64 = true;
    written.reduction = false;
    if (written.size == SemaphoreRelease::Size::one_word) written.payload_64 = false;
    write_release(memory, written, gpu.timestamp());
    gpu.signal();
    return;
  }
  }
}

} // namespace

void report_semaphore(Gpu& gpu, const Engine& engine, uint32_t value) {
  // SET_REPORT_SEMAPHORE_A..D sit at the same offsets in the 3D and compute classes.
  namespace m = class_b197;
  ReportOperation operation;
  operation.release.address = (uint64_t{engine.reg(m::set_report_semaphore_a) & 0xff} << 32) | engine.reg(m::set_report_semaphore_b);
  operation.release.payload = engine.reg(m::set_report_semaphore_c);
  operation.release.size = extract_bits(value, 28, 1) != 0 ? SemaphoreRelease::Size::one_word : SemaphoreRelease::Size::four_words;
  operation.release.reduction = extract_bits(value, 3, 1) != 0; // REDUCTION_ENABLE
  operation.release.op = static_cast<Reduction>(extract_bits(value, 9, 3));
  operation.release.is_signed = extract_bits(value, 17, 2) == 1; // REDUCTION_FORMAT 0 unsigned / 1 signed
  switch (extract_bits(value, 0, 2)) {
  case 0: operation.kind = ReportOperation::Kind::release; break;
  case 1: // ACQUIRE: COMPARISON 0 EQ, 1 GE
    operation.kind = ReportOperation::Kind::acquire;
    operation.compare = extract_bits(value, 16, 1) != 0 ? AcquireCompare::circular_greater_equal : AcquireCompare::equal;
    break;
  case 2:
    operation.kind = ReportOperation::Kind::report_only;
    operation.report = extract_bits(value, 23, 5);
    break;
  default: throw Error("SET_REPORT_SEMAPHORE_D OPERATION_TRAP");
  }
  run(gpu, operation);
}

void report_semaphore_execute(Gpu& gpu, const Engine& engine, uint32_t value) {
  namespace m = class_c797;
  namespace f = class_c797::field;
  namespace v = class_c797::value;
  ReportOperation operation;
  operation.release.address =
      (uint64_t{f::set_report_semaphore_address_upper_upper(engine.reg(m::set_report_semaphore_address_upper))} << 32) |
      engine.reg(m::set_report_semaphore_address_lower);
  operation.release.payload_64 = f::report_semaphore_execute_payload_size64(value) == v::report_semaphore_execute_payload_size64_true;
  operation.release.payload = (uint64_t{engine.reg(m::set_report_semaphore_payload_upper)} << 32) |
                              engine.reg(m::set_report_semaphore_payload_lower);
  switch (f::report_semaphore_execute_structure_size(value)) {
  case v::report_semaphore_execute_structure_size_semaphore_one_word: operation.release.size = SemaphoreRelease::Size::one_word; break;
  case v::report_semaphore_execute_structure_size_semaphore_two_words: operation.release.size = SemaphoreRelease::Size::two_words; break;
  case v::report_semaphore_execute_structure_size_semaphore_four_words: operation.release.size = SemaphoreRelease::Size::four_words; break;
  default: throw Error("REPORT_SEMAPHORE_EXECUTE: structure size 3 is reserved");
  }
  operation.release.reduction = f::report_semaphore_execute_reduction_enable(value) == v::report_semaphore_execute_reduction_enable_true;
  operation.release.op = static_cast<Reduction>(f::report_semaphore_execute_reduction_op(value)); // RED_ADD .. RED_XOR
  operation.release.is_signed = f::report_semaphore_execute_reduction_format(value) == v::report_semaphore_execute_reduction_format_signed;
  switch (f::report_semaphore_execute_operation(value)) {
  case v::report_semaphore_execute_operation_release: operation.kind = ReportOperation::Kind::release; break;
  case v::report_semaphore_execute_operation_report_only:
    operation.kind = ReportOperation::Kind::report_only;
    operation.report = f::report_semaphore_execute_report(value);
    break;
  case v::report_semaphore_execute_operation_acquire:
    // The method has no COMPARISON field and open-gpu-doc does not say which one it makes: refused, not guessed.
    throw Error("REPORT_SEMAPHORE_EXECUTE OPERATION_ACQUIRE is not implemented");
  default: throw Error("REPORT_SEMAPHORE_EXECUTE OPERATION_TRAP");
  }
  run(gpu, operation);
}

} // namespace kiln::maxwell
