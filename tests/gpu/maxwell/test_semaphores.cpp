// Host semaphores and syncpoints: compare operations, releases, reductions, ordering across channels and waits
// that time out with a diagnostic. Expected values follow the rules in clb06f.h / dev_pbdma.ref.txt.
#include <catch2/catch.hpp>

#include "runtime/gpu/maxwell/semaphore.h"
#include "tests/gpu/maxwell/maxwell_test_support.h"

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;

TEST_CASE("acquire compares", "[maxwell][semaphore]") {
  CHECK(acquire_met(AcquireCompare::equal, 5, 5));
  CHECK_FALSE(acquire_met(AcquireCompare::equal, 6, 5));
  CHECK(acquire_met(AcquireCompare::circular_greater_equal, 6, 5));
  CHECK(acquire_met(AcquireCompare::circular_greater_equal, 2, 0xfffffff0u)); // wrapped past the payload
  CHECK_FALSE(acquire_met(AcquireCompare::circular_greater_equal, 0xfffffff0u, 2));
  CHECK(acquire_met(AcquireCompare::greater_equal, 0xfffffff0u, 2));
  CHECK(acquire_met(AcquireCompare::and_nonzero, 0b1010, 0b0010));
  CHECK_FALSE(acquire_met(AcquireCompare::and_nonzero, 0b1010, 0b0101));
  CHECK(reduce(Reduction::min, true, 0xffffffffu, 1) == 0xffffffffu); // -1 < 1 signed
  CHECK(reduce(Reduction::min, false, 0xffffffffu, 1) == 1);
  CHECK(reduce(Reduction::inc, false, 7, 7) == 0);
  CHECK(reduce(Reduction::inc, false, 3, 7) == 4);
  CHECK(reduce(Reduction::dec, false, 0, 7) == 7);
}

TEST_CASE("a release on one channel lets an acquire on another through, in order", "[maxwell][semaphore]") {
  TestGpu t;
  const uint64_t semaphore = data;
  const uint64_t marker = data + 0x100;
  // Channel 0 waits for the semaphore to reach 2, then writes 0xaa to the marker.
  StreamBuilder waiter;
  waiter.semaphore_acquire(semaphore, 2, AcquireCompare::circular_greater_equal);
  waiter.semaphore_release(marker, 0xaa);
  // Channel 1 writes the marker first (0x11), then releases 1, then 2.
  StreamBuilder releaser;
  releaser.semaphore_release(marker, 0x11);
  releaser.semaphore_release(semaphore, 1);
  releaser.semaphore_release(semaphore, 2);
  t.submit(waiter, 0);
  t.submit(releaser, 1);
  // Channel 0 runs first and blocks; channel 1 then releases; channel 0 resumes and writes last.
  REQUIRE(t.run().idle);
  CHECK(t.gpu.memory().read_u32(semaphore) == 2);
  CHECK(t.gpu.memory().read_u32(marker) == 0xaa);
  CHECK(t.gpu.diagnostics().empty());
}

TEST_CASE("four-word releases carry a timestamp, reductions combine with memory", "[maxwell][semaphore]") {
  TestGpu t;
  StreamBuilder s;
  s.semaphore_release(data, 0x1234, true);
  // REDUCTION ADD (5) unsigned, 4-byte: SEMAPHORED = 0x10 | size 4BYTE (bit 24) | reduction (30:27) | unsigned (31)
  t.gpu.memory().write_u32(data + 0x40, 10);
  const uint32_t add[] = {static_cast<uint32_t>((data + 0x40) >> 32), static_cast<uint32_t>(data + 0x40), 5, 0x10u | (1u << 24) | (5u << 27) | (1u << 31)};
  s.header(HeaderKind::increasing, 0, host_method::semaphore_a, 4).words(add);
  t.submit(s);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.memory().read_u32(data) == 0x1234);
  CHECK(t.gpu.memory().read_u32(data + 4) == 0);
  CHECK(t.gpu.memory().read_u64(data + 8) != 0); // the GPU clock had advanced
  CHECK(t.gpu.memory().read_u32(data + 0x40) == 15);
  CHECK(t.gpu.diagnostics().empty());
}

TEST_CASE("a semaphore that is never released times out with a diagnostic and keeps the channel's state",
          "[maxwell][semaphore]") {
  TestGpu t;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.semaphore_acquire(data, 7);
  s.immediate(0, "SET_STENCIL_CLEAR_VALUE", 9);
  const GpfifoEntry entry = t.submit(s);
  const RunResult result = t.run(10);
  CHECK(result.timed_out);
  CHECK_FALSE(result.idle);
  REQUIRE(t.gpu.diagnostics().size() == 1);
  const Diagnostic& d = t.gpu.diagnostics()[0];
  CHECK(d.channel == 0);
  CHECK(d.gpu_address == entry.address + 6 * 4); // SET_OBJECT (2 words), header, A, B, C, then D
  CHECK(d.method == host_method::semaphore_d);
  CHECK(d.message.find("timed out") != std::string::npos);
  CHECK(d.describe().find("SEMAPHORED") != std::string::npos);
  CHECK(t.gpu.channel(0).state() == Channel::State::blocked);
  CHECK(t.engine(0, ClassId::threed)->reg(0x0da0) == 0); // nothing after the acquire ran
  // Another agent releases it: the channel resumes where it stopped.
  t.gpu.memory().write_u32(data, 7);
  t.gpu.signal();
  CHECK(t.run().idle);
  CHECK(t.engine(0, ClassId::threed)->reg(0x0da0) == 9);
}

TEST_CASE("syncpoints: increments from the host class and the 3D class, waits", "[maxwell][semaphore]") {
  TestGpu t;
  StreamBuilder waiter;
  waiter.syncpoint_wait(5, 2);
  waiter.semaphore_release(data, 1);
  StreamBuilder incrementer;
  incrementer.bind(0, ClassId::threed);
  incrementer.syncpoint_increment(5);
  incrementer.method(0, "INCREMENT_SYNC_POINT", 5); // INDEX 11:0
  t.submit(waiter, 0);
  t.submit(incrementer, 1);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.syncpoint(5) == 2);
  CHECK(t.gpu.memory().read_u32(data) == 1);
}
