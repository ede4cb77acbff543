// Integer, CR, branch and system semantics against the PEM's definitions (chapter 8, each instruction; chapter
// 6 for exceptions) and the 750CL UM where the 750CL decides what the architecture leaves open. The qemu
// differential (test_differential.cpp) covers the integer instructions on random operands; these pin the
// documented corner cases and everything qemu cannot see (exceptions, SPRs, branches).
#include <catch2/catch.hpp>

#include "tests/ppc/test_bus.h"

using namespace kiln::ppc;
using test::run;

namespace {

struct Machine {
  Cpu c = test::gekko();
  test::Bus bus;
  Machine() { c.pc = 0x1000; }
  void exec(uint32_t word) {
    c.pc = c.pc ? c.pc : 0x1000;
    run(c, bus, word);
  }
};

} // namespace

TEST_CASE("ppc semantics: every opcode runs from a reset state", "[ppc][semantics]") {
  for (const Encoding& row : encodings()) {
    Cpu c = test::gekko();
    test::Bus bus;
    c.pc = 0x100;
    for (auto& r : c.gpr) r = 0x200;
    INFO(row.mnemonic);
    uint32_t word = row.match;
    if (row.opcode == Opcode::lmw || row.opcode == Opcode::stmw) word |= 5u << 21 | 1u << 16;
    if (valid_form(row, word)) CHECK_NOTHROW(step(c, bus, row.opcode, word));
  }
}

TEST_CASE("ppc semantics: carries and overflow of the add and subtract forms (PEM 3.3.10 XER)", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[4] = 0xFFFFFFFF;
  m.c.gpr[5] = 1;
  m.exec(assemble(Opcode::addc, {3, 4, 5}, {.rc = true})); // -1 + 1 = 0 with a carry out, no signed overflow
  CHECK(m.c.gpr[3] == 0);
  CHECK(m.c.xer_ca);
  CHECK(m.c.cr[0] == cr::eq);
  m.c.gpr[4] = 0x7FFFFFFF;
  m.exec(assemble(Opcode::add, {3, 4, 5}, {.oe = true, .rc = true})); // 0x7FFFFFFF + 1 overflows
  CHECK(m.c.gpr[3] == 0x80000000u);
  CHECK(m.c.xer_ov);
  CHECK(m.c.xer_so);
  CHECK(m.c.cr[0] == (cr::lt | cr::so)); // CR0[SO] copies the new SO
  m.c.gpr[4] = 1;
  m.exec(assemble(Opcode::add, {3, 4, 5}, {.oe = true})); // no overflow: OV clears, SO is sticky
  CHECK_FALSE(m.c.xer_ov);
  CHECK(m.c.xer_so);
  // subfc: rB - rA as ~rA + rB + 1; CA is "no borrow": set when rB >= rA unsigned.
  m.c.gpr[4] = 5;
  m.c.gpr[5] = 3;
  m.exec(assemble(Opcode::subfc, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 0xFFFFFFFEu);
  CHECK_FALSE(m.c.xer_ca);
  m.exec(assemble(Opcode::subfc, {3, 5, 4}));
  CHECK(m.c.gpr[3] == 2);
  CHECK(m.c.xer_ca);
  // adde with CA = 1, addze, addme, subfe, subfze, subfme.
  m.c.xer_ca = true;
  m.c.gpr[4] = 10;
  m.c.gpr[5] = 20;
  m.exec(assemble(Opcode::adde, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 31);
  CHECK_FALSE(m.c.xer_ca);
  m.c.xer_ca = true;
  m.exec(assemble(Opcode::addme, {3, 4})); // 10 + CA - 1 = 10, carry out
  CHECK(m.c.gpr[3] == 10);
  CHECK(m.c.xer_ca);
  m.c.xer_ca = false;
  m.exec(assemble(Opcode::subfze, {3, 4})); // ~10 + 0 = -11, no carry
  CHECK(m.c.gpr[3] == static_cast<uint32_t>(-11));
  CHECK_FALSE(m.c.xer_ca);
  // neg of 0x80000000 overflows (PEM neg) and gives 0x80000000.
  m.c.gpr[4] = 0x80000000u;
  m.c.xer_so = false;
  m.exec(assemble(Opcode::neg, {3, 4}, {.oe = true}));
  CHECK(m.c.gpr[3] == 0x80000000u);
  CHECK(m.c.xer_ov);
  // addic. records; subfic sets CA on 0 - 0.
  m.c.gpr[4] = 0;
  m.exec(assemble(Opcode::subfic, {3, 4, 0}));
  CHECK(m.c.gpr[3] == 0);
  CHECK(m.c.xer_ca);
}

TEST_CASE("ppc semantics: multiply and divide, with the 750CL's undefined-case results", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[4] = 0x80000000u;
  m.c.gpr[5] = 2;
  m.exec(assemble(Opcode::mullw, {3, 4, 5}, {.oe = true}));
  CHECK(m.c.gpr[3] == 0);
  CHECK(m.c.xer_ov);
  m.exec(assemble(Opcode::mulhw, {3, 4, 5})); // -2^31 * 2 = -2^32: high word -1
  CHECK(m.c.gpr[3] == 0xFFFFFFFFu);
  m.exec(assemble(Opcode::mulhwu, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 1);
  m.c.gpr[4] = static_cast<uint32_t>(-7);
  m.c.gpr[5] = 2;
  m.exec(assemble(Opcode::divw, {3, 4, 5}));
  CHECK(m.c.gpr[3] == static_cast<uint32_t>(-3)); // truncates toward zero
  // PEM divw: by zero the result is undefined; the 750CL gives -1 for a negative dividend, 0 otherwise.
  m.c.gpr[5] = 0;
  m.c.xer_so = false;
  m.exec(assemble(Opcode::divw, {3, 4, 5}, {.oe = true, .rc = true}));
  CHECK(m.c.gpr[3] == 0xFFFFFFFFu);
  CHECK(m.c.xer_ov);
  CHECK(m.c.cr[0] == (cr::lt | cr::so));
  m.c.gpr[4] = 0x80000000u;
  m.c.gpr[5] = 0xFFFFFFFFu;
  m.exec(assemble(Opcode::divw, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 0xFFFFFFFFu);
  m.c.gpr[5] = 0;
  m.exec(assemble(Opcode::divwu, {3, 4, 5}, {.oe = true}));
  CHECK(m.c.gpr[3] == 0);
  CHECK(m.c.xer_ov);
}

TEST_CASE("ppc semantics: rotates, masks and shifts (PEM rlwinm, rlwimi, sraw)", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[4] = 0x12345678;
  m.exec(assemble(Opcode::rlwinm, {3, 4, 8, 24, 31})); // rotate left 8, keep the low byte: 0x12
  CHECK(m.c.gpr[3] == 0x12);
  m.exec(assemble(Opcode::rlwinm, {3, 4, 0, 28, 3})); // a wrapping mask: bits 28-31 and 0-3 (MSB-0)
  CHECK(m.c.gpr[3] == 0x10000008u);
  m.c.gpr[3] = 0xAAAAAAAA;
  m.exec(assemble(Opcode::rlwimi, {3, 4, 16, 8, 15})); // insert bits 8-15 of the rotated 0x56781234 (0x78)
  CHECK(m.c.gpr[3] == 0xAA78AAAAu);
  m.c.gpr[5] = 36; // rlwnm uses the low five bits of rB
  m.exec(assemble(Opcode::rlwnm, {3, 4, 5, 0, 31}));
  CHECK(m.c.gpr[3] == 0x23456781u);
  m.c.gpr[5] = 32; // slw/srw use six bits: 32 clears
  m.exec(assemble(Opcode::slw, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 0);
  m.c.gpr[4] = 0x80000001u;
  m.c.gpr[5] = 1;
  m.exec(assemble(Opcode::sraw, {3, 4, 5})); // a negative value loses a 1: CA
  CHECK(m.c.gpr[3] == 0xC0000000u);
  CHECK(m.c.xer_ca);
  m.c.gpr[5] = 40;
  m.exec(assemble(Opcode::sraw, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 0xFFFFFFFFu);
  CHECK(m.c.xer_ca);
  m.c.gpr[4] = 0x80000000u;
  m.exec(assemble(Opcode::srawi, {3, 4, 4})); // only zeros shifted out: no CA
  CHECK(m.c.gpr[3] == 0xF8000000u);
  CHECK_FALSE(m.c.xer_ca);
  m.c.gpr[4] = 0x00010000;
  m.exec(assemble(Opcode::cntlzw, {3, 4}, {.rc = true}));
  CHECK(m.c.gpr[3] == 15);
  CHECK(m.c.cr[0] == cr::gt);
  m.c.gpr[4] = 0x80;
  m.exec(assemble(Opcode::extsb, {3, 4}));
  CHECK(m.c.gpr[3] == 0xFFFFFF80u);
}

TEST_CASE("ppc semantics: compares and the CR instructions", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[4] = 0xFFFFFFFFu;
  m.c.gpr[5] = 1;
  m.c.xer_so = true;
  m.exec(assemble(Opcode::cmp, {7, 4, 5}));
  CHECK(m.c.cr[7] == (cr::lt | cr::so)); // -1 < 1 signed, SO copied
  m.exec(assemble(Opcode::cmpl, {6, 4, 5}));
  CHECK(m.c.cr[6] == (cr::gt | cr::so)); // unsigned: 0xFFFFFFFF > 1
  m.exec(assemble(Opcode::cmpi, {1, 4, -1}));
  CHECK(m.c.cr[1] == (cr::eq | cr::so));
  m.exec(assemble(Opcode::cmpli, {2, 5, 0xFFFF}));
  CHECK(m.c.cr[2] == (cr::lt | cr::so));
  set_cr_word(m.c, 0x80000000u); // CR0[LT] only
  m.exec(assemble(Opcode::crxor, {5, 0, 1}));  // CR1[GT] = LT ^ GT = 1
  m.exec(assemble(Opcode::crnand, {31, 0, 0})); // CR7[SO] = !(1 & 1) = 0
  m.exec(assemble(Opcode::crorc, {2, 1, 3}));  // CR0[EQ] = GT | !SO = 1
  CHECK(cr_word(m.c) == 0xA4000000u);
  m.exec(assemble(Opcode::mcrf, {4, 1}));
  CHECK(m.c.cr[4] == cr::gt);
  m.c.xer_so = m.c.xer_ca = true;
  m.c.xer_ov = false;
  m.exec(assemble(Opcode::mcrxr, {3}));
  CHECK(m.c.cr[3] == 0b1010); // SO OV CA 0
  CHECK_FALSE(m.c.xer_so);
  CHECK_FALSE(m.c.xer_ca);
  m.c.gpr[3] = 0x12345678;
  m.exec(assemble(Opcode::mtcrf, {0x81, 3})); // CR0 and CR7 only
  CHECK(m.c.cr[0] == 1);
  CHECK(m.c.cr[7] == 8);
  CHECK(m.c.cr[4] == cr::gt);
  m.exec(assemble(Opcode::mfcr, {6}));
  CHECK(m.c.gpr[6] == cr_word(m.c));
}

TEST_CASE("ppc semantics: branches with every kind of BO, LK and AA (PEM bc, bclr, bcctr)", "[ppc][semantics]") {
  Machine m;
  m.c.pc = 0x2000;
  m.exec(assemble(Opcode::b, {-0x100}, {.lk = true}));
  CHECK(m.c.pc == 0x1F00u);
  CHECK(m.c.lr == 0x2004u);
  m.exec(assemble(Opcode::b, {0x40}, {.aa = true}));
  CHECK(m.c.pc == 0x40u);
  // bdnz: CTR decremented first, taken while it is not zero.
  m.c.pc = 0x3000;
  m.c.ctr = 2;
  m.exec(assemble(Opcode::bc, {16, 0, -8}));
  CHECK(m.c.ctr == 1);
  CHECK(m.c.pc == 0x2FF8u);
  m.exec(assemble(Opcode::bc, {16, 0, -8}));
  CHECK(m.c.ctr == 0);
  CHECK(m.c.pc == 0x2FFCu); // fell through
  // bdz with CTR = 1: decrements to 0 and branches.
  m.c.ctr = 1;
  m.c.pc = 0x3000;
  m.exec(assemble(Opcode::bc, {18, 0, 0x20}));
  CHECK(m.c.pc == 0x3020u);
  // bdnzt: both CTR != 0 and the CR bit.
  m.c.ctr = 5;
  m.c.pc = 0x3000;
  set_cr_word(m.c, 0x02000000u); // CR1[EQ]
  m.exec(assemble(Opcode::bc, {8, 6, 0x20}));
  CHECK(m.c.pc == 0x3020u);
  CHECK(m.c.ctr == 4);
  m.c.pc = 0x3000;
  m.exec(assemble(Opcode::bc, {0, 6, 0x20})); // bdnzf: the bit is set, so not taken
  CHECK(m.c.pc == 0x3004u);
  // beq cr1 / bne cr1 with LK: LR is written whether or not the branch is taken.
  m.c.pc = 0x3000;
  m.c.lr = 0;
  m.exec(assemble(Opcode::bc, {4, 6, 0x20}, {.lk = true}));
  CHECK(m.c.pc == 0x3004u);
  CHECK(m.c.lr == 0x3004u);
  CHECK(m.c.ctr == 3); // BO = 4 does not touch CTR
  // blrl: the target is the old LR, the new LR the next instruction.
  m.c.pc = 0x3000;
  m.c.lr = 0x4003; // the low two bits are ignored
  m.exec(assemble(Opcode::bclr, {20, 0}, {.lk = true}));
  CHECK(m.c.pc == 0x4000u);
  CHECK(m.c.lr == 0x3004u);
  // bdnzlr with CTR reaching zero falls through.
  m.c.ctr = 1;
  m.exec(assemble(Opcode::bclr, {16, 0}));
  CHECK(m.c.pc == 0x4004u);
  // z bits of BO are ignored (PEM "BO Operand Encodings"): BO = 6 is BO = 4, BO = 22 branches always.
  set_cr_word(m.c, 0);
  m.c.pc = 0x3000;
  m.c.ctr = 9;
  m.exec(assemble(Opcode::bc, {6, 2, 0x40}));
  CHECK(m.c.pc == 0x3040u);
  CHECK(m.c.ctr == 9);
  m.exec(assemble(Opcode::bc, {22, 7, 0x40}));
  CHECK(m.c.pc == 0x3080u);
  // bctr, and bgtctr not taken.
  m.c.ctr = 0x5000;
  m.exec(assemble(Opcode::bcctr, {20, 0}));
  CHECK(m.c.pc == 0x5000u);
  set_cr_word(m.c, 0);
  m.exec(assemble(Opcode::bcctr, {12, 1}));
  CHECK(m.c.pc == 0x5004u);
}

TEST_CASE("ppc semantics: sc, traps and rfi enter and leave exceptions (PEM 6.4)", "[ppc][semantics]") {
  Machine m;
  m.c.msr = msr::ee | msr::fp | msr::me | msr::ir | msr::dr | msr::ri;
  m.c.pc = 0x80003000;
  // Without a platform system-call handler: the system call exception, resuming after the sc.
  m.exec(assemble(Opcode::sc, {}));
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0xC00u);
  CHECK(m.c.spr[spr::srr0] == 0x80003004u);
  CHECK(m.c.spr[spr::srr1] == (msr::ee | msr::fp | msr::me | msr::ir | msr::dr | msr::ri));
  CHECK(m.c.msr == msr::me); // translation and interrupts off in the handler
  CHECK(m.bus.system_calls == 1);
  // rfi restores MSR from SRR1 and returns to SRR0.
  m.exec(assemble(Opcode::rfi, {}));
  CHECK(m.c.pc == 0x80003004u);
  CHECK(m.c.msr == (msr::ee | msr::fp | msr::me | msr::ir | msr::dr | msr::ri));
  // A platform that handles sc (linux-user) continues after it.
  m.bus.handles_system_calls = true;
  m.exec(assemble(Opcode::sc, {}));
  CHECK_FALSE(m.c.exception_taken);
  CHECK(m.c.pc == 0x80003008u);
  // tw: the trap program exception at the instruction itself, SRR1[14] (MSB-0) set.
  m.c.gpr[3] = 5;
  m.c.gpr[4] = 5;
  m.exec(assemble(Opcode::tw, {4, 3, 4})); // tweq
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x700u);
  CHECK(m.c.spr[spr::srr0] == 0x80003008u);
  CHECK((m.c.spr[spr::srr1] & srr1::trap) != 0);
  m.c.pc = 0x1000;
  m.exec(assemble(Opcode::twi, {16, 3, 5})); // twlti 5 < 5: no trap
  CHECK_FALSE(m.c.exception_taken);
  m.exec(assemble(Opcode::twi, {2, 3, -1})); // twllti: 5 < 0xFFFFFFFF unsigned
  CHECK(m.c.exception_taken);
  // MSR[IP] puts the vectors at FFFn_nnnn.
  m.c.msr = msr::ip;
  m.c.pc = 0x1000;
  m.exec(assemble(Opcode::twi, {31, 0, 0}));
  CHECK(m.c.pc == 0xFFF00700u);
}

TEST_CASE("ppc semantics: SPRs, the time base and supervisor-only instructions", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[3] = 0xE000007Fu | 0x1234500;
  m.exec(assemble(Opcode::mtspr, {spr::xer, 3}));
  CHECK(m.c.xer_so);
  CHECK(m.c.xer_ov);
  CHECK(m.c.xer_ca);
  CHECK(m.c.xer_byte_count == 0x7F);
  m.exec(assemble(Opcode::mfspr, {4, spr::xer}));
  CHECK(m.c.gpr[4] == 0xE000007Fu); // the 750CL implements only these XER bits
  m.c.gpr[3] = 0x00070007;
  m.exec(assemble(Opcode::mtspr, {spr::gqr0 + 5, 3}));
  CHECK(m.c.spr[spr::gqr0 + 5] == 0x00070007u);
  m.exec(assemble(Opcode::mtspr, {spr::dec, 3}));
  CHECK(m.bus.sprs_written == std::vector<unsigned>{spr::xer, spr::gqr0 + 5, spr::dec});
  m.c.timebase = 0x0000000123456789ull;
  m.exec(assemble(Opcode::mftb, {5, 268}));
  m.exec(assemble(Opcode::mftb, {6, 269}));
  CHECK(m.c.gpr[5] == 0x23456789u);
  CHECK(m.c.gpr[6] == 1);
  m.c.gpr[3] = 7;
  m.exec(assemble(Opcode::mtspr, {spr::tbu_write, 3}));
  CHECK(m.c.timebase == 0x0000000723456789ull);
  m.exec(assemble(Opcode::mfspr, {7, spr::pvr}));
  CHECK(m.c.gpr[7] == spr::gekko_pvr);
  // An SPR the 750CL lacks, and a write to a read-only one: illegal instruction.
  m.exec(assemble(Opcode::mfspr, {7, 20}));
  CHECK(m.c.exception_taken);
  CHECK((m.c.spr[spr::srr1] & srr1::illegal) != 0);
  m.c = test::gekko();
  m.c.pc = 0x1000;
  m.exec(assemble(Opcode::mtspr, {spr::pvr, 3}));
  CHECK((m.c.spr[spr::srr1] & srr1::illegal) != 0);
  // User mode: supervisor SPRs and mtmsr are privileged, LR is not.
  m.c = test::gekko();
  m.c.msr |= msr::pr;
  m.c.pc = 0x1000;
  m.exec(assemble(Opcode::mtspr, {spr::lr, 3}));
  CHECK_FALSE(m.c.exception_taken);
  m.exec(assemble(Opcode::mfspr, {4, spr::hid2}));
  CHECK(m.c.exception_taken);
  CHECK((m.c.spr[spr::srr1] & srr1::privileged) != 0);
  m.c.msr |= msr::pr;
  m.c.pc = 0x1000;
  m.exec(assemble(Opcode::mtmsr, {3}));
  CHECK((m.c.spr[spr::srr1] & srr1::privileged) != 0);
  // Supervisor: segment registers by number and by address.
  m.c = test::gekko();
  m.c.pc = 0x1000;
  m.c.gpr[3] = 0x12345678;
  m.c.gpr[4] = 0xB0000000u;
  m.exec(assemble(Opcode::mtsrin, {3, 4}));
  CHECK(m.c.sr[11] == 0x12345678u);
  m.exec(assemble(Opcode::mfsr, {5, 11}));
  CHECK(m.c.gpr[5] == 0x12345678u);
}
