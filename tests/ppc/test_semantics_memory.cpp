// Loads, stores and cache instructions against the PEM's definitions (big-endian memory, update forms,
// byte-reversed, multiple and string forms, the reservation) and the 750CL UM (alignment, dcbz_l).
#include <catch2/catch.hpp>

#include "tests/ppc/test_bus.h"

using namespace kiln::ppc;
using test::run;

namespace {

struct Machine {
  Cpu c = test::gekko();
  test::Bus bus;
  void exec(uint32_t word) {
    c.pc = 0x8000;
    run(c, bus, word);
  }
};

} // namespace

TEST_CASE("ppc memory: big-endian loads and stores, sign extension, update forms", "[ppc][semantics]") {
  Machine m;
  m.bus.write32(0x100, 0x8081F2F3);
  m.c.gpr[4] = 0x100;
  m.exec(assemble(Opcode::lbz, {3, 1, 4}));
  CHECK(m.c.gpr[3] == 0x81);
  m.exec(assemble(Opcode::lha, {3, 0, 4}));
  CHECK(m.c.gpr[3] == 0xFFFF8081u);
  m.exec(assemble(Opcode::lhz, {3, 2, 4}));
  CHECK(m.c.gpr[3] == 0xF2F3u);
  m.exec(assemble(Opcode::lwz, {3, 0, 4}));
  CHECK(m.c.gpr[3] == 0x8081F2F3u);
  m.c.gpr[5] = 2;
  m.exec(assemble(Opcode::lhzx, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 0xF2F3u);
  m.exec(assemble(Opcode::lwz, {3, 0x100, 0})); // rA = 0 is the value 0, not r0
  CHECK(m.c.gpr[3] == 0x8081F2F3u);
  // Update forms leave the effective address in rA.
  m.exec(assemble(Opcode::lhau, {3, 2, 4}));
  CHECK(m.c.gpr[3] == 0xFFFFF2F3u);
  CHECK(m.c.gpr[4] == 0x102u);
  m.exec(assemble(Opcode::lbzux, {3, 4, 5}));
  CHECK(m.c.gpr[3] == 0x00u); // 0x104 is zero
  CHECK(m.c.gpr[4] == 0x104u);
  // stwu r1,-16(r1): the old r1 is stored, then r1 moves (the ABI's stack frame idiom).
  m.c.gpr[1] = 0x200;
  m.exec(assemble(Opcode::stwu, {1, -16, 1}));
  CHECK(m.c.gpr[1] == 0x1F0u);
  CHECK(m.bus.read32(0x1F0) == 0x200u);
  m.c.gpr[3] = 0xCAFEBABE;
  m.exec(assemble(Opcode::sth, {3, 4, 1}));
  m.exec(assemble(Opcode::stb, {3, 7, 1}));
  CHECK(m.bus.read32(0x1F4) == 0xBABE00BEu);
  // Byte-reversed forms.
  m.c.gpr[5] = 0;
  m.c.gpr[6] = 0x100;
  m.exec(assemble(Opcode::lwbrx, {3, 5, 6}));
  CHECK(m.c.gpr[3] == 0xF3F28180u);
  m.exec(assemble(Opcode::lhbrx, {3, 5, 6}));
  CHECK(m.c.gpr[3] == 0x8180u);
  m.c.gpr[3] = 0x11223344;
  m.exec(assemble(Opcode::stwbrx, {3, 0, 6}));
  CHECK(m.bus.read32(0x100) == 0x44332211u);
  m.exec(assemble(Opcode::sthbrx, {3, 0, 6}));
  CHECK(m.bus.read16(0x100) == 0x4433u);
  // The 750CL handles a misaligned integer access in hardware.
  m.bus.write32(0x301, 0xA1B2C3D4);
  m.c.gpr[4] = 0x300;
  m.exec(assemble(Opcode::lwz, {3, 1, 4}));
  CHECK(m.c.gpr[3] == 0xA1B2C3D4u);
  CHECK_FALSE(m.c.exception_taken);
}

TEST_CASE("ppc memory: lmw/stmw and the alignment exception they raise (750CL UM 4.5.6)", "[ppc][semantics]") {
  Machine m;
  for (unsigned r = 29; r < 32; ++r) m.c.gpr[r] = 0x1000 + r;
  m.c.gpr[1] = 0x400;
  m.exec(assemble(Opcode::stmw, {29, 8, 1}));
  CHECK(m.bus.read32(0x408) == 0x101Du);
  CHECK(m.bus.read32(0x410) == 0x101Fu);
  for (unsigned r = 29; r < 32; ++r) m.c.gpr[r] = 0;
  m.exec(assemble(Opcode::lmw, {29, 8, 1}));
  CHECK(m.c.gpr[29] == 0x101Du);
  CHECK(m.c.gpr[31] == 0x101Fu);
  m.exec(assemble(Opcode::lmw, {29, 10, 1}));
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x600u);
  CHECK(m.c.spr[spr::srr0] == 0x8000u);
  CHECK(m.c.spr[spr::dar] == 0x40Au);
  // DSISR for a D-form: bits 17-21 (MSB-0) from opcode bits 5 and 1-4 (lmw = 46 = 0b101110), rD, rA.
  CHECK(m.c.spr[spr::dsisr] == (0u << 14 | 0b0111u << 10 | 29u << 5 | 1u));
}

TEST_CASE("ppc memory: string loads and stores (PEM lswi, lswx, stswi, stswx)", "[ppc][semantics]") {
  Machine m;
  for (uint32_t i = 0; i < 16; ++i) m.bus.write8(0x500 + i, static_cast<uint8_t>(0xA0 + i));
  m.c.gpr[4] = 0x500;
  m.c.gpr[5] = 0x55555555;
  m.c.gpr[6] = 0x66666666;
  m.exec(assemble(Opcode::lswi, {5, 4, 7})); // 7 bytes: r5 full, r6 three bytes then zero
  CHECK(m.c.gpr[5] == 0xA0A1A2A3u);
  CHECK(m.c.gpr[6] == 0xA4A5A600u);
  m.exec(assemble(Opcode::lswi, {30, 4, 12})); // wraps from r31 to r0
  CHECK(m.c.gpr[30] == 0xA0A1A2A3u);
  CHECK(m.c.gpr[0] == 0xA8A9AAABu);
  m.c.xer_byte_count = 5;
  m.c.gpr[7] = 1;
  m.exec(assemble(Opcode::lswx, {10, 4, 7}));
  CHECK(m.c.gpr[10] == 0xA1A2A3A4u);
  CHECK(m.c.gpr[11] == 0xA5000000u);
  m.c.gpr[8] = 0x600;
  m.exec(assemble(Opcode::stswi, {10, 8, 6}));
  CHECK(m.bus.read32(0x600) == 0xA1A2A3A4u);
  CHECK(m.bus.read16(0x604) == 0xA500u);
  CHECK(m.bus.read8(0x606) == 0);
  m.c.xer_byte_count = 3;
  m.c.gpr[9] = 0x10;
  m.exec(assemble(Opcode::stswx, {5, 8, 9}));
  CHECK(m.bus.read32(0x610) == 0xA0A1A200u);
}

TEST_CASE("ppc memory: lwarx/stwcx. reservations (750CL UM 3.3.5: a 32-byte granule)", "[ppc][semantics]") {
  Machine m;
  m.bus.write32(0x700, 41);
  m.c.gpr[4] = 0x700;
  m.c.xer_so = true;
  m.exec(assemble(Opcode::stwcx_dot, {3, 0, 4})); // no reservation: nothing stored, CR0 = SO only
  CHECK(m.c.cr[0] == cr::so);
  CHECK(m.bus.read32(0x700) == 41u);
  m.exec(assemble(Opcode::lwarx, {3, 0, 4}));
  m.c.gpr[3] += 1;
  m.c.gpr[5] = 0x71C; // another word of the same granule
  m.exec(assemble(Opcode::stwcx_dot, {3, 0, 5}));
  CHECK(m.c.cr[0] == (cr::eq | cr::so));
  CHECK(m.bus.read32(0x71C) == 42u);
  m.exec(assemble(Opcode::stwcx_dot, {3, 0, 4})); // the reservation is gone
  CHECK(m.c.cr[0] == cr::so);
  m.exec(assemble(Opcode::lwarx, {3, 0, 4}));
  m.c.gpr[5] = 0x720; // the next granule
  m.exec(assemble(Opcode::stwcx_dot, {3, 0, 5}));
  CHECK(m.c.cr[0] == cr::so);
  m.c.gpr[5] = 0x702;
  m.exec(assemble(Opcode::lwarx, {3, 0, 5})); // misaligned: alignment exception
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x600u);
}

TEST_CASE("ppc memory: dcbz, dcbz_l and HID2.LCE, icbi reaches the platform", "[ppc][semantics]") {
  Machine m;
  for (uint32_t i = 0; i < 64; ++i) m.bus.write8(0x800 + i, 0xFF);
  m.c.gpr[4] = 0x800;
  m.c.gpr[5] = 0x27; // inside the second 32-byte block
  m.exec(assemble(Opcode::dcbz, {4, 5}));
  CHECK(m.bus.read8(0x81F) == 0xFF);
  CHECK(m.bus.read64(0x820) == 0);
  CHECK(m.bus.read64(0x838) == 0);
  CHECK(m.bus.read8(0x840) == 0);
  // dcbz_l is illegal until HID2[LCE] is set; then the platform's locked cache takes the block.
  m.exec(assemble(Opcode::dcbz_l, {4, 5}));
  CHECK(m.c.exception_taken);
  CHECK((m.c.spr[spr::srr1] & srr1::illegal) != 0);
  m.c = test::gekko();
  m.c.spr[spr::hid2] |= hid2::lce;
  m.c.gpr[4] = 0xE0000000u;
  m.c.gpr[5] = 0x45;
  m.exec(assemble(Opcode::dcbz_l, {4, 5}));
  CHECK_FALSE(m.c.exception_taken);
  CHECK(m.bus.locked_blocks == std::vector<uint32_t>{0xE0000040u});
}

TEST_CASE("ppc memory: eciwx/ecowx need EAR.E (PEM eciwx: a DSI otherwise)", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[4] = 0x900;
  m.exec(assemble(Opcode::eciwx, {3, 0, 4}));
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x300u);
  CHECK(m.c.spr[spr::dar] == 0x900u);
  m.c = test::gekko();
  m.c.spr[spr::ear] = 0x80000000u;
  m.c.gpr[4] = 0x900;
  m.c.gpr[3] = 0x12345678;
  m.exec(assemble(Opcode::ecowx, {3, 0, 4}));
  CHECK(m.bus.read32(0x900) == 0x12345678u);
}
