// The command FIFO ring: pointers, inclusive end, distance, watermarks, breakpoint and interrupts, and commands
// straddling bursts.
#include <array>

#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "runtime/gpu/gx/fifo.h"
#include "tests/gx/gx_stream.h"

using namespace kiln::gx;
using namespace kiln::gx::test;

namespace {
struct Ring {
  Ring() : ram(0x10000), processor(ram), fifo(ram, processor) { fifo.set_ring(0x1000, 0x1060); } // 4 bursts
  void burst(const GxStream& s, size_t index) {
    std::array<uint8_t, burst_bytes> b{};
    for (size_t i = 0; i < burst_bytes && index * burst_bytes + i < s.bytes.size(); ++i) b[i] = s.bytes[index * burst_bytes + i];
    fifo.write_burst(b);
  }
  std::vector<uint8_t> ram;
  CommandProcessor processor;
  CommandFifo fifo;
};
} // namespace

TEST_CASE("GX FIFO pointers advance by bursts and wrap after the inclusive end", "[gx]") {
  Ring r;
  GxStream s;
  s.pad_to_burst();
  CHECK(r.fifo.capacity() == 0x80);
  for (int i = 0; i < 4; ++i) r.burst(s, 0);
  CHECK(r.fifo.registers().write_pointer == 0x1000); // 0x1060 is the last burst: the pointer wrapped
  CHECK(r.fifo.registers().distance == 0x80);
  r.fifo.run();
  CHECK(r.fifo.registers().read_pointer == 0x1000);
  CHECK(r.fifo.registers().distance == 0);
  r.burst(s, 0);
  CHECK(r.fifo.registers().write_pointer == 0x1020);
  CHECK(r.fifo.errors().empty());
}

TEST_CASE("GX FIFO reports a burst written over unread bytes", "[gx]") {
  Ring r;
  GxStream s;
  s.pad_to_burst();
  for (int i = 0; i < 5; ++i) r.burst(s, 0);
  REQUIRE(r.fifo.errors().size() == 1);
  CHECK(r.fifo.errors()[0].find("overrun") != std::string::npos);
  CHECK(r.fifo.registers().distance == 0x80);
}

TEST_CASE("GX FIFO keeps a command straddling a burst until it is whole", "[gx]") {
  Ring r;
  GxStream s;
  for (int i = 0; i < 30; ++i) s.nop();
  s.bp(0x42, 0x654321); // bytes 30-34: three of them in the second burst
  s.pad_to_burst();
  r.burst(s, 0);
  r.fifo.run();
  CHECK(r.fifo.pending_bytes() == 2);
  CHECK(r.processor.bp().reg(0x42) == 0);
  r.burst(s, 1);
  r.fifo.run();
  CHECK(r.processor.bp().reg(0x42) == 0x654321);
  CHECK(r.fifo.pending_bytes() == 0);
}

TEST_CASE("GX FIFO watermarks raise overflow and underflow interrupts when enabled", "[gx]") {
  Ring r;
  GxStream s;
  s.pad_to_burst();
  FifoRegisters& regs = r.fifo.registers();
  regs.high_watermark = 0x40;
  regs.low_watermark = 0x20;
  CHECK(r.fifo.status().underflow);
  CHECK_FALSE(r.fifo.status().interrupt); // not enabled
  regs.underflow_interrupt_enable = true;
  CHECK(r.fifo.status().interrupt);
  regs.read_enable = false;
  CHECK_FALSE(r.fifo.status().interrupt); // every cause is gated by GP read enable
  regs.read_enable = true;
  for (int i = 0; i < 3; ++i) r.burst(s, 0);
  CHECK_FALSE(r.fifo.status().underflow);
  CHECK(r.fifo.status().overflow);
  CHECK_FALSE(r.fifo.status().interrupt);
  regs.overflow_interrupt_enable = true;
  CHECK(r.fifo.status().interrupt);
}

TEST_CASE("GX FIFO stops reading at the enabled breakpoint", "[gx]") {
  Ring r;
  GxStream s;
  s.bp(0x42, 1).pad_to_burst().bp(0x43, 2).pad_to_burst();
  FifoRegisters& regs = r.fifo.registers();
  regs.breakpoint = 0x1020;
  regs.breakpoint_enable = true;
  r.burst(s, 0);
  r.burst(s, 1);
  r.fifo.run();
  CHECK(r.processor.bp().reg(0x42) == 1);
  CHECK(r.processor.bp().reg(0x43) == 0);
  CHECK(r.fifo.status().breakpoint);
  CHECK_FALSE(r.fifo.status().interrupt);
  regs.breakpoint_interrupt_enable = true;
  CHECK(r.fifo.status().interrupt);
  regs.breakpoint_enable = false;
  r.fifo.run();
  CHECK(r.processor.bp().reg(0x43) == 2);
}

TEST_CASE("GX FIFO refuses a ring outside RAM or unaligned", "[gx]") {
  std::vector<uint8_t> ram(0x1000);
  CommandProcessor processor(ram);
  CommandFifo fifo(ram, processor);
  CHECK_THROWS_AS(fifo.set_ring(0x10, 0x100), kiln::Error);
  CHECK_THROWS_AS(fifo.set_ring(0x0, 0x1000), kiln::Error);
  CHECK_NOTHROW(fifo.set_ring(0x0, 0xFE0));
}
