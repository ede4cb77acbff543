// The GameCube machine (runtime/platform/gamecube) on its own: MEM1 and its mirrors, hardware registers, interrupt
// and exception delivery to handlers run by the fallback interpreter, the gather pipe, the locked cache, reports of
// unknown accesses. Expected values come from the register layouts (YAGCD chapter 5), the PEM and the 750CL UM.
#include <catch2/catch.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recompiler/isa/ppc/decoder.h"
#include "runtime/base/error.h"
#include "runtime/core/ppc/ops.h"
#include "runtime/platform/gamecube/recompiled.h"

namespace gc = kiln::gamecube;
namespace ppc = kiln::ppc;
using Catch::Contains;
using ppc::Opcode;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const kiln::Error& e) {
    return e.what();
  }
  return "(no error)";
}

/// Guest code placed in MEM1 and decoded for the fallback interpreter, as a program's text would be.
struct TestProgram {
  std::vector<uint16_t> opcodes;
  gc::RecompiledProgram program{};

  TestProgram(gc::Machine& m, uint32_t base, const std::vector<uint32_t>& words) {
    const ppc::Decoder decoder;
    for (size_t i = 0; i < words.size(); ++i) {
      const uint32_t address = base + static_cast<uint32_t>(4 * i);
      gc::Bus{m}.write32(address, words[i]);
      const ppc::Instruction instruction = decoder.decode(words[i], address);
      opcodes.push_back(static_cast<uint16_t>(instruction.decoded ? instruction.opcode : Opcode::count));
    }
    program.fallback = ppc::FallbackCode{base, opcodes};
    program.disc_image = "";
    gc::install(program);
  }
};

uint32_t rfi() { return 0x4C000064u; }
uint32_t nop() { return ppc::assemble(Opcode::ori, {0, 0, 0}); }

/// Fills the words from `vector` (a multiple of 0x100 past 0x80000100) in a code image starting at 0x80000500.
void put(std::vector<uint32_t>& code, uint32_t vector, const std::vector<uint32_t>& handler) {
  const size_t at = (vector - 0x500) / 4;
  if (code.size() < at + handler.size()) code.resize(at + handler.size(), nop());
  for (size_t i = 0; i < handler.size(); ++i) code[at + i] = handler[i];
}

/// A machine whose stores to 0x0C008000 go to the gather pipe (HID2[WPE], WPAR at the pipe's address).
std::unique_ptr<gc::Machine> machine_with_gather_pipe() {
  auto m = std::make_unique<gc::Machine>();
  m->cpu.spr[ppc::spr::hid2] = ppc::hid2::wpe;
  m->cpu.spr[ppc::spr::wpar] = 0x0C008000u;
  return m;
}

} // namespace

TEST_CASE("gamecube memory: MEM1 at 0 and in both mirrors, big-endian") {
  auto m = std::make_unique<gc::Machine>();
  gc::Bus bus{*m};
  bus.write32(0x80001000u, 0x11223344u);
  CHECK(bus.read32(0xC0001000u) == 0x11223344u);
  CHECK(bus.read32(0x00001000u) == 0x11223344u);
  CHECK(m->mem1[0x1000] == 0x11);
  CHECK(m->mem1[0x1003] == 0x44);
  CHECK(bus.read16(0xC0001002u) == 0x3344u);
  bus.write64(0x817FFFF8u, 0x0102030405060708ull); // the last bytes of the 24 MiB
  CHECK(bus.read8(0xC17FFFFFu) == 0x08);
  m->cpu.pc = 0x80003124u;
  const std::string past = error_of([&] { (void)bus.read32(0x81800000u); });
  CHECK_THAT(past, Contains("read of 0x81800000") && Contains("guest PC 0x80003124"));
  CHECK_THAT(error_of([&] { bus.write32(0x817FFFFEu, 0); }), Contains("write to 0x817ffffe"));
}

TEST_CASE("gamecube memory: the locked cache at 0xE0000000 only with HID2[LCE]") {
  auto m = std::make_unique<gc::Machine>();
  gc::Bus bus{*m};
  CHECK_THAT(error_of([&] { (void)bus.read32(0xE0000000u); }), Contains("no memory or hardware register"));
  m->cpu.spr[ppc::spr::hid2] = ppc::hid2::lce;
  bus.write32(0xE0000010u, 0xCAFEF00Du);
  CHECK(m->locked_cache[0x10] == 0xCA);
  // DMA_U: memory address 0x2000, length high 0; DMA_L: cache 0xE0000000, LD = 0 (store), length low 1, T.
  // 750CL UM "DMA_L": one 32-byte block from the cache to memory.
  for (uint32_t i = 0; i < 32; ++i) m->locked_cache[i] = static_cast<uint8_t>(i + 1);
  m->cpu.spr[ppc::spr::dma_u] = 0x80002000u;
  m->cpu.spr[ppc::spr::dma_l] = 0xE0000000u | (1u << 2) | 2u;
  bus.spr_written(m->cpu, ppc::spr::dma_l, 0);
  CHECK(m->mem1[0x2000] == 1);
  CHECK(m->mem1[0x201F] == 32);
  CHECK(m->mem1[0x2020] == 0);
  CHECK((m->cpu.spr[ppc::spr::dma_l] & 2u) == 0);
  // LD = 1, length 0 = 128 blocks: 4 KiB from memory into the cache.
  m->mem1[0x3000 + 4095] = 0x5A;
  m->cpu.spr[ppc::spr::dma_u] = 0x80003000u;
  m->cpu.spr[ppc::spr::dma_l] = 0xE0000000u | 0x10u | 2u;
  bus.spr_written(m->cpu, ppc::spr::dma_l, 0);
  CHECK(m->locked_cache[4095] == 0x5A);
}

TEST_CASE("gamecube registers: an unknown one is reported with the PC and its address") {
  auto m = std::make_unique<gc::Machine>();
  gc::Bus bus{*m};
  m->cpu.pc = 0x80004000u;
  CHECK_THAT(error_of([&] { (void)bus.read32(0xCC007000u); }),
             Contains("unknown hardware register access: 32-bit read of 0x0c007000") && Contains("guest PC 0x80004000"));
  CHECK_THAT(error_of([&] { bus.write32(0xCC003030u, 5); }), Contains("32-bit write to 0x0c003030 (value 0x5)"));
  CHECK_THAT(error_of([&] { bus.write16(0xCC003004u, 1); }), Contains("take 32-bit writes"));
  CHECK_THAT(error_of([&] { (void)bus.read16(0xCC005100u); }), Contains("16-bit read of 0x0c005100"));
}

TEST_CASE("gamecube registers: PI, VI beam and retrace, SI pads") {
  auto m = std::make_unique<gc::Machine>();
  gc::Bus bus{*m};
  // PI INTSR: bit 16 is the reset switch's state (set: not pressed); nothing else is asserted at power-on.
  CHECK(bus.read32(0xCC003000u) == 0x00010000u);
  CHECK(bus.read32(0xCC00302Cu) == 0x246500B1u);
  // VI DI0 for line 3: the beam reaches it after two lines (1285 ticks each at 60 Hz x 525 lines).
  bus.write32(0xCC002030u, (1u << 28) | (3u << 16) | 1u);
  gc::advance_time(*m, 2 * 1285 - 600); // each register access above and below also moves the beam by 64 ticks
  CHECK((bus.read32(0xCC002030u) >> 31) == 0);
  gc::advance_time(*m, 600);
  CHECK(bus.read16(0xCC00202Cu) == 3);
  CHECK((bus.read32(0xCC002030u) >> 31) == 1);
  CHECK((bus.read32(0xCC003000u) & gc::hw::pi_irq::vi) != 0);
  CHECK(gc::pending_external(*m) == 0); // masked
  bus.write32(0xCC003004u, gc::hw::pi_irq::vi);
  CHECK(gc::pending_external(*m) == gc::hw::pi_irq::vi);
  bus.write32(0xCC002030u, (1u << 28) | (3u << 16) | 1u); // status written 0: acknowledged
  CHECK(gc::pending_external(*m) == 0);
  // SI channel 0 in mode 3 (YAGCD 5.8): buttons in bits 16-28 with bit 23 always set, stick X, stick Y; then
  // C stick X, Y, triggers L, R.
  m->hw.pads[0].buttons = gc::pad::a | gc::pad::start;
  m->hw.pads[0].stick_x = 0x20;
  m->hw.pads[0].trigger_r = 0xFF;
  CHECK(bus.read32(0xCC006404u) == 0x11802080u);
  CHECK(bus.read32(0xCC006408u) == 0x808000FFu);
  CHECK(bus.read32(0xCC006410u) == 0x80000000u); // channel 1: ERRSTAT, no controller
  CHECK(bus.read16(0xCC006404u) == 0x1180u);     // the high half of the word
}

TEST_CASE("gamecube registers: EXI UART output, SRAM checksum, DI without a disc, ARAM DMA") {
  auto m = std::make_unique<gc::Machine>();
  gc::Bus bus{*m};
  std::FILE* out = std::tmpfile();
  REQUIRE(out);
  m->uart = out;
  auto exi_send = [&](uint32_t data, unsigned bytes) {
    bus.write32(0xCC006810u, data);
    bus.write32(0xCC00680Cu, ((bytes - 1) << 4) | (1u << 2) | 1u);
    CHECK((bus.read32(0xCC00680Cu) & 1u) == 0);
  };
  bus.write32(0xCC006800u, 2u << 7); // channel 0, device 1
  exi_send(0xA0010000u, 4);
  exi_send('h' << 24 | 'i' << 16 | '\n' << 8, 3);
  bus.write32(0xCC006800u, 0);
  std::rewind(out);
  char text[8] = {};
  CHECK(std::fread(text, 1, sizeof text, out) == 3);
  CHECK(std::string(text) == "hi\n");
  std::fclose(out);
  m->uart = stdout;
  // SRAM: read its first word (the checksum over four zero words is 0, that of their complements 4 x 0xFFFF).
  bus.write32(0xCC006800u, 2u << 7);
  exi_send(0x20000100u, 4);
  bus.write32(0xCC00680Cu, (3u << 4) | 1u); // read 4 bytes
  CHECK(bus.read32(0xCC006810u) == 0x0000FFFCu);
  bus.write32(0xCC006800u, 0);
  // The IPL ROM (fonts) is not available: reported.
  bus.write32(0xCC006800u, 2u << 7);
  exi_send(0x1AFF00u << 6, 4);
  CHECK_THAT(error_of([&] { bus.write32(0xCC00680Cu, (3u << 4) | 1u); }), Contains("IPL ROM at offset 0x1aff00"));
  // DI read with no disc: DEINT (DISR bit 2), the transfer ends.
  bus.write32(0xCC006008u, 0xA8000000u);
  bus.write32(0xCC006010u, 0x20);
  bus.write32(0xCC006014u, 0x1000);
  bus.write32(0xCC006018u, 0x20);
  bus.write32(0xCC00601Cu, 3);
  CHECK((bus.read32(0xCC006000u) & 4u) != 0);
  CHECK((bus.read32(0xCC00601Cu) & 1u) == 0);
  // ARAM DMA there and back (YAGCD 5.11: count bit 31 = ARAM to main memory), ARINT (CSR bit 5) set.
  bus.write32(0x80001000u, 0x12345678u);
  bus.write32(0xCC005020u, 0x1000);
  bus.write32(0xCC005024u, 0x8000);
  bus.write32(0xCC005028u, 32);
  CHECK(m->aram[0x8000] == 0x12);
  CHECK((bus.read16(0xCC00500Au) & 0x20u) != 0);
  bus.write16(0xCC00500Au, 0x20);
  CHECK((bus.read16(0xCC00500Au) & 0x20u) == 0);
  bus.write32(0xCC005020u, 0x2000);
  bus.write32(0xCC005028u, 0x80000000u | 32);
  CHECK(bus.read32(0x80002000u) == 0x12345678u);
  bus.write32(0xCC005024u, 0x00FFFFE0u);
  CHECK_THAT(error_of([&] { bus.write32(0xCC005028u, 64); }), Contains("runs past the memory"));
}

TEST_CASE("gamecube gather pipe: 32-byte bursts into the FIFO at PI's write pointer") {
  auto m = machine_with_gather_pipe();
  gc::Bus bus{*m};
  bus.write32(0xCC00300Cu, 0x10000);
  bus.write32(0xCC003010u, 0x10040);
  bus.write32(0xCC003014u, 0x10000);
  bus.write8(0xCC008000u, 0x61);
  for (uint32_t i = 0; i < 7; ++i) bus.write32(0xCC008000u, 0x01010101u * (i + 1));
  CHECK(m->hw.gx_stream.empty()); // 29 bytes: no burst yet
  m->cpu.spr[ppc::spr::wpar] = 0x0C008000u;
  bus.spr_read(m->cpu, ppc::spr::wpar);
  CHECK((m->cpu.spr[ppc::spr::wpar] & 1u) == 1u); // BNE
  bus.write16(0xCC008000u, 0xABCD);
  bus.write8(0xCC008000u, 0xEF);
  REQUIRE(m->hw.gx_stream.size() == 32);
  CHECK(m->hw.gx_stream[0] == 0x61);
  CHECK(m->hw.gx_stream[1] == 0x01);
  CHECK(m->hw.gx_stream[28] == 0x07);
  CHECK(m->hw.gx_stream[29] == 0xAB);
  CHECK(m->hw.gx_stream[31] == 0xEF);
  CHECK(m->mem1[0x10000] == 0x61);
  CHECK(m->mem1[0x1001F] == 0xEF);
  CHECK(bus.read32(0xCC003014u) == 0x10020u);
  for (int i = 0; i < 8; ++i) bus.write32(0xCC008000u, 0xFFFFFFFFu);
  CHECK(bus.read32(0xCC003014u) == (0x10000u | (1u << 29))); // wrapped at the end to the base
  CHECK(m->hw.gx_stream.size() == 64);
}

TEST_CASE("gamecube PE: a token and draw done sent through the gather pipe raise PI causes 9 and 10") {
  auto m = machine_with_gather_pipe();
  gc::Bus bus{*m};
  bus.write16(0xCC00100Au, 0x3); // PE: token and finish interrupts enabled
  // LOAD_BP 0x48 (token 0xABCD with its interrupt), LOAD_BP 0x45 (draw done, 0x02), NOPs to the burst's end.
  const std::vector<uint8_t> burst{0x61, 0x48, 0x00, 0xAB, 0xCD, 0x61, 0x45, 0x00, 0x00, 0x02};
  for (uint8_t b : burst) bus.write8(0xCC008000u, b);
  CHECK((bus.read32(0xCC003000u) & ((1u << 9) | (1u << 10))) == 0); // not run before the burst is whole
  for (size_t i = burst.size(); i < 32; ++i) bus.write8(0xCC008000u, 0x00);
  CHECK(bus.read16(0xCC00100Eu) == 0xABCD);
  CHECK(bus.read16(0xCC00100Au) == 0xF);
  CHECK((bus.read32(0xCC003000u) & ((1u << 9) | (1u << 10))) == ((1u << 9) | (1u << 10)));
  bus.write16(0xCC00100Au, 0x3 | 0x4); // acknowledge the token
  CHECK((bus.read32(0xCC003000u) & ((1u << 9) | (1u << 10))) == (1u << 10));
  bus.write16(0xCC00100Au, 0x3 | 0x8); // and the finish
  CHECK((bus.read32(0xCC003000u) & ((1u << 9) | (1u << 10))) == 0);
  CHECK(m->pe.finishes() == 1);
}

TEST_CASE("gamecube gather pipe: a GX command the processor does not know is reported once with its offset") {
  auto m = machine_with_gather_pipe();
  gc::Bus bus{*m};
  // 0x01 is no GX opcode (the documented set: NOP 0x00, LOAD_CP 0x08, LOAD_XF 0x10, LOAD_INDX 0x20-0x38,
  // CALL_DL 0x40, INVALIDATE 0x48, LOAD_BP 0x61, primitives 0x80-0xBF); the rest of the burst is NOPs.
  bus.write8(0xCC008000u, 0x01);
  for (size_t i = 1; i < 32; ++i) bus.write8(0xCC008000u, 0x00);
  REQUIRE(m->gx->diagnostic_count() >= 1);
  CHECK(m->gx->diagnostics()[0].offset == 0);
  CHECK(m->gx_diagnostics_reported == m->gx->diagnostics().size());
  // A second clean burst adds nothing to report.
  const size_t reported = m->gx_diagnostics_reported;
  for (size_t i = 0; i < 32; ++i) bus.write8(0xCC008000u, 0x00);
  CHECK(m->gx_diagnostics_reported == reported);
}

TEST_CASE("gamecube interrupts: external before the decrementer, each to its handler and back with rfi") {
  auto m = std::make_unique<gc::Machine>();
  std::vector<uint32_t> code;
  // 0x500: r9 = r5 (the decrementer's count so far), clear PI's mask through r8, count in r6, rfi.
  put(code, 0x500, {ppc::assemble(Opcode::or_, {9, 5, 5}), ppc::assemble(Opcode::addi, {7, 0, 0}),
                    ppc::assemble(Opcode::stw, {7, 0, 8}), ppc::assemble(Opcode::addi, {6, 6, 1}), rfi()});
  put(code, 0x900, {ppc::assemble(Opcode::addi, {5, 5, 1}), rfi()});
  put(code, 0xC00, {ppc::assemble(Opcode::addi, {3, 3, 1}), rfi()});
  TestProgram program(*m, 0x80000500u, code);
  ppc::Cpu& c = m->cpu;
  c.spr[ppc::spr::dec] = 0x7FFFFFFFu; // no decrementer exception until the test sets it
  c.gpr[8] = 0xCC003004u;
  c.gpr[1] = 0x80400000u;
  c.msr = ppc::msr::ee | ppc::msr::fp | ppc::msr::ir | ppc::msr::dr;
  gc::Bus bus{*m};
  bus.write32(0xCC002030u, (1u << 28) | (2u << 16));
  bus.write32(0xCC003004u, gc::hw::pi_irq::vi);
  c.msr &= ~ppc::msr::ee;
  gc::advance_time(*m, 1285);   // VI reaches line 2
  c.spr[ppc::spr::dec] = 10;
  gc::advance_time(*m, 64);     // the decrementer passes 0
  CHECK(m->decrementer_pending);
  c.pc = 0x80003000u;
  c.next_pc = 0x80003004u;
  c.msr |= ppc::msr::ee;
  gc::check_interrupts(*m, 0x80003000u);
  CHECK(c.gpr[6] == 1);
  CHECK(c.gpr[9] == 0); // the external handler ran first
  CHECK(c.gpr[5] == 1); // then, at its rfi, the decrementer's
  CHECK_FALSE(m->decrementer_pending);
  CHECK(c.spr[ppc::spr::srr0] == 0x80003000u);
  CHECK((c.spr[ppc::spr::srr1] & ppc::msr::ee) != 0);
  CHECK(c.msr == (ppc::msr::ee | ppc::msr::fp | ppc::msr::ir | ppc::msr::dr)); // rfi restored it
  CHECK(c.pc == 0x80003000u);
  CHECK(c.next_pc == 0x80003004u);
  // Interrupts wait while MSR[EE] is clear.
  c.msr &= ~ppc::msr::ee;
  m->decrementer_pending = true;
  gc::check_interrupts(*m, 0x80003000u);
  CHECK(c.gpr[5] == 1);
  // Enabling EE with mtmsr delivers it, resuming after the mtmsr.
  c.next_pc = 0x80003008u;
  c.msr |= ppc::msr::ee;
  bus.msr_written(c);
  CHECK(c.gpr[5] == 2);
  CHECK(c.spr[ppc::spr::srr0] == 0x80003008u);
}

TEST_CASE("gamecube exceptions: sc goes to the guest's handler at 0xC00 and resumes after it") {
  auto m = std::make_unique<gc::Machine>();
  std::vector<uint32_t> code;
  put(code, 0xC00, {ppc::assemble(Opcode::addi, {3, 3, 1}), rfi()});
  TestProgram program(*m, 0x80000500u, code);
  ppc::Cpu& c = m->cpu;
  c.gpr[1] = 0x80400000u;
  c.gpr[3] = 41;
  c.msr = ppc::msr::fp;
  gc::Bus bus{*m};
  const uint32_t pc = 0x80003100u;
  c.pc = pc;
  c.next_pc = pc + 4;
  ppc::sc(c, bus, 0x44000002u, pc);
  REQUIRE(c.exception_taken);
  CHECK(c.next_pc == 0xC00u);
  gc::resume_after_exception(*m, pc);
  CHECK(c.gpr[3] == 42);
  CHECK(c.next_pc == pc + 4);
  CHECK_FALSE(c.exception_taken);
  // No handler code at a vector: reported.
  c.pc = pc;
  ppc::raise_exception(c, ppc::Exception::trace, pc + 4);
  CHECK_THAT(error_of([&] { gc::resume_after_exception(*m, pc); }), Contains("no handler code at its vector 0x80000d00"));
}

TEST_CASE("gamecube boot: the low-memory globals") {
  auto m = std::make_unique<gc::Machine>();
  gc::BootInfo info;
  info.disc_header[0] = 'G';
  info.arena_lo = 0x80010000u;
  info.arena_hi = 0x81700000u;
  info.fst_address = 0x81700000u;
  info.fst_max_size = 0x1234u;
  gc::write_boot_info(*m, info);
  gc::Bus bus{*m};
  CHECK(bus.read8(0x80000000u) == 'G');
  CHECK(bus.read32(0x80000020u) == 0x0D15EA5Eu);
  CHECK(bus.read32(0x80000028u) == 24u * 1024 * 1024);
  CHECK(bus.read32(0x8000002Cu) == 3u);
  CHECK(bus.read32(0x80000030u) == 0x80010000u);
  CHECK(bus.read32(0x80000034u) == 0x81700000u);
  CHECK(bus.read32(0x80000038u) == 0x81700000u);
  CHECK(bus.read32(0x8000003Cu) == 0x1234u);
  CHECK(bus.read32(0x800000D0u) == 16u * 1024 * 1024);
  CHECK(bus.read32(0x800000F8u) == 162000000u);
  CHECK(bus.read32(0x800000FCu) == 486000000u);
}
