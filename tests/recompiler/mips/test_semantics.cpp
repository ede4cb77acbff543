// Short hand-assembled programs through the decoder and the step interpreter, with expectations derived by
// hand from the R3000A rules (psx-spx "CPU Specifications"): load and branch delays, division results,
// exceptions, unaligned word access, COP0 and COP2.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "recompiler/isa/mips/decoder.h"
#include "runtime/core/mips/step.h"
#include "runtime/platform/psx/gte/gte.h"

using namespace kiln;
using mips::assemble;
using r3000::Opcode;
using r3000::Variant;

namespace {

template <Variant V>
struct RamBus {
  static constexpr Variant variant = V;
  std::array<uint8_t, 0x1000> ram{};
  psx::Gte cop2;
  uint8_t read8(uint32_t a) { return ram.at(a); }
  uint16_t read16(uint32_t a) { return static_cast<uint16_t>(ram.at(a) | ram.at(a + 1) << 8); }
  uint32_t read32(uint32_t a) { return read16(a) | uint32_t{read16(a + 2)} << 16; }
  void write8(uint32_t a, uint8_t v) { ram.at(a) = v; }
  void write16(uint32_t a, uint16_t v) { write8(a, static_cast<uint8_t>(v)); write8(a + 1, static_cast<uint8_t>(v >> 8)); }
  void write32(uint32_t a, uint32_t v) { write16(a, static_cast<uint16_t>(v)); write16(a + 2, static_cast<uint16_t>(v >> 16)); }
  psx::Gte& gte() { return cop2; }
};

/// Runs `program` (placed at 0x1000) until PC leaves it; returns the CPU.
template <class Bus>
void run(r3000::Cpu& c, Bus& bus, const std::vector<uint32_t>& program, size_t max_steps = 64) {
  const mips::Decoder decoder(Bus::variant);
  c.pc = 0x1000;
  for (size_t i = 0; i < max_steps && c.pc >= 0x1000 && c.pc < 0x1000 + 4 * program.size(); ++i) {
    const uint32_t word = program[(c.pc - 0x1000) / 4];
    const mips::Instruction instruction = decoder.decode_or_throw(word, c.pc, "test");
    r3000::step(c, bus, instruction.opcode, word);
  }
}

constexpr uint32_t nop = 0;

} // namespace

TEST_CASE("r3000: a load is not visible to the next instruction, MIPS32r2 interlocks", "[mips][semantics]") {
  const std::vector<uint32_t> program = {
      assemble(Opcode::lw, {.rs = 0, .rt = 1, .imm = 0x100}),
      assemble(Opcode::addu, {.rs = 1, .rt = 0, .rd = 2}), // sees the old $1
      assemble(Opcode::addu, {.rs = 1, .rt = 0, .rd = 3}), // sees the loaded $1
  };
  {
    r3000::Cpu c;
    RamBus<Variant::r3000> bus;
    bus.write32(0x100, 0x12345678);
    c.gpr[1] = 0xAAAA;
    run(c, bus, program);
    CHECK(c.gpr[2] == 0xAAAA);
    CHECK(c.gpr[3] == 0x12345678);
  }
  {
    r3000::Cpu c;
    RamBus<Variant::mips32r2> bus;
    bus.write32(0x100, 0x12345678);
    c.gpr[1] = 0xAAAA;
    run(c, bus, program);
    CHECK(c.gpr[2] == 0x12345678);
  }
}

TEST_CASE("r3000: a write in the load delay slot wins over the load", "[mips][semantics]") {
  r3000::Cpu c;
  RamBus<Variant::r3000> bus;
  bus.write32(0x100, 0x12345678);
  run(c, bus, {assemble(Opcode::lw, {.rt = 1, .imm = 0x100}), assemble(Opcode::addiu, {.rt = 1, .imm = 5}), nop});
  CHECK(c.gpr[1] == 5);
}

TEST_CASE("r3000: the branch delay slot runs before the branch lands", "[mips][semantics]") {
  r3000::Cpu c;
  RamBus<Variant::r3000> bus;
  run(c, bus, {assemble(Opcode::beq, {.imm = 2}), assemble(Opcode::addiu, {.rt = 4, .imm = 1}),
               assemble(Opcode::addiu, {.rt = 5, .imm = 1}), assemble(Opcode::addiu, {.rt = 6, .imm = 1})});
  CHECK(c.gpr[4] == 1); // delay slot
  CHECK(c.gpr[5] == 0); // skipped
  CHECK(c.gpr[6] == 1); // target 0x100C
  // jal links the address after the delay slot
  r3000::Cpu d;
  run(d, bus, {assemble(Opcode::jal, {.imm = 0x1010 >> 2}), nop});
  CHECK(d.gpr[31] == 0x1008);
  CHECK(d.pc == 0x1010);
}

TEST_CASE("r3000: division never traps and gives the documented results", "[mips][semantics]") {
  struct Case { Opcode op; uint32_t n, d, lo, hi; };
  const Case cases[] = {
      {Opcode::div, static_cast<uint32_t>(-7), 2, static_cast<uint32_t>(-3), static_cast<uint32_t>(-1)},
      {Opcode::div, 5, 0, 0xFFFFFFFF, 5},
      {Opcode::div, static_cast<uint32_t>(-5), 0, 1, static_cast<uint32_t>(-5)},
      {Opcode::div, 0x80000000, 0xFFFFFFFF, 0x80000000, 0},
      {Opcode::divu, 5, 0, 0xFFFFFFFF, 5},
      {Opcode::divu, 0xFFFFFFFF, 16, 0x0FFFFFFF, 15},
  };
  for (const Case& k : cases) {
    r3000::Cpu c;
    RamBus<Variant::r3000> bus;
    c.gpr[1] = k.n;
    c.gpr[2] = k.d;
    run(c, bus, {assemble(k.op, {.rs = 1, .rt = 2})});
    CHECK(c.lo == k.lo);
    CHECK(c.hi == k.hi);
  }
  r3000::Cpu c;
  RamBus<Variant::r3000> bus;
  c.gpr[1] = 0x80000000;
  c.gpr[2] = 0xFFFFFFFF;
  run(c, bus, {assemble(Opcode::mult, {.rs = 1, .rt = 2})});
  CHECK(c.lo == 0x80000000); // -2^31 * -1 = 2^31
  CHECK(c.hi == 0);
}

TEST_CASE("r3000: overflow, syscall and RFE go through COP0", "[mips][semantics]") {
  r3000::Cpu c;
  RamBus<Variant::r3000> bus;
  c.gpr[1] = 0x7FFFFFFF;
  c.gpr[3] = 77;
  c.cop0[r3000::cop0::status] = 0x1; // IEc
  run(c, bus, {assemble(Opcode::add, {.rs = 1, .rt = 1, .rd = 3})}, 1);
  CHECK(c.gpr[3] == 77); // no write on overflow
  CHECK(c.pc == 0x80000080);
  CHECK(c.cop0[r3000::cop0::epc] == 0x1000);
  CHECK(((c.cop0[r3000::cop0::cause] >> 2) & 31) == 12);
  CHECK(c.cop0[r3000::cop0::status] == 0x4); // IEc pushed to IEp

  // syscall in a taken branch's delay slot: EPC is the branch, BD and BT set, TAR the target; BEV vectors to ROM.
  r3000::Cpu d;
  d.cop0[r3000::cop0::status] = r3000::cop0::status_bev;
  run(d, bus, {assemble(Opcode::beq, {.imm = 4}), assemble(Opcode::syscall, {})}, 2);
  CHECK(d.pc == 0xBFC00180);
  CHECK(d.cop0[r3000::cop0::epc] == 0x1000);
  CHECK(d.cop0[r3000::cop0::cause] == (r3000::cop0::cause_bd | r3000::cop0::cause_bt | 8u << 2));
  CHECK(d.cop0[r3000::cop0::tar] == 0x1014);

  r3000::Cpu e;
  e.cop0[r3000::cop0::status] = 0x2C; // KUo IEp KUp... stack 10 11 00
  run(e, bus, {assemble(Opcode::rfe, {})});
  CHECK(e.cop0[r3000::cop0::status] == 0x2B); // pop: old pair stays, 10 10 11
}

TEST_CASE("r3000: LWR/LWL and SWR/SWL move an unaligned word", "[mips][semantics]") {
  r3000::Cpu c;
  RamBus<Variant::r3000> bus;
  bus.write32(0x200, 0x332211FF);
  bus.write32(0x204, 0xEEEEEE44);
  c.gpr[6] = 0xA1B2C3D4;
  run(c, bus, {assemble(Opcode::lwr, {.rt = 5, .imm = 0x201}), assemble(Opcode::lwl, {.rt = 5, .imm = 0x204}), nop,
               assemble(Opcode::swr, {.rt = 6, .imm = 0x301}), assemble(Opcode::swl, {.rt = 6, .imm = 0x304})});
  CHECK(c.gpr[5] == 0x44332211); // LWL merged with the LWR value still in flight
  CHECK(bus.read32(0x300) == 0xB2C3D400);
  CHECK(bus.read32(0x304) == 0x000000A1);
}

TEST_CASE("r3000: COP2 moves, commands and the coprocessor-usable bit", "[mips][semantics]") {
  r3000::Cpu c;
  RamBus<Variant::r3000> bus;
  c.cop0[r3000::cop0::status] = r3000::cop0::status_cu2;
  c.gpr[1] = 0x00010000; // SXY1 = (0, 1) ... as (x low, y high)
  c.gpr[2] = 0x00000001; // (1, 0)
  // NCLIP over SXY0 = (0,0), SXY1 = (1,0), SXY2 = (0,1): MAC0 = x0*y1 + x1*y2 + x2*y0 - x0*y2 - x1*y0 - x2*y1 = 1.
  run(c, bus, {assemble(Opcode::mtc2, {.rt = 0, .rd = 12}), assemble(Opcode::mtc2, {.rt = 2, .rd = 13}),
               assemble(Opcode::mtc2, {.rt = 1, .rd = 14}), assemble(Opcode::cop2, {.imm = 0x1400006}),
               assemble(Opcode::mfc2, {.rt = 3, .rd = 24}), nop, assemble(Opcode::ctc2, {.rt = 2, .rd = 0}),
               assemble(Opcode::cfc2, {.rt = 4, .rd = 0}), nop});
  CHECK(c.gpr[3] == 1);
  CHECK(c.gpr[4] == 1);

  r3000::Cpu d; // CU2 clear
  run(d, bus, {assemble(Opcode::mfc2, {.rt = 3, .rd = 24})}, 1);
  CHECK(d.pc == 0x80000080);
  CHECK(((d.cop0[r3000::cop0::cause] >> 2) & 31) == 11);
  CHECK(((d.cop0[r3000::cop0::cause] >> 28) & 3) == 2);
}

TEST_CASE("mips32r2: the additions glibc code uses, results derived from the MIPS32 manual", "[mips][semantics]") {
  r3000::Cpu c;
  RamBus<Variant::mips32r2> bus;
  c.gpr[1] = 0x12345678;
  c.gpr[2] = 0xFFFFFF80; // -128
  c.gpr[3] = 0;
  c.hi = 0xAAAA;
  c.lo = 0xBBBB;
  c.gpr[20] = 0xFFFF0000;
  const std::vector<uint32_t> program = {
      assemble(Opcode::mul, {.rs = 1, .rt = 2, .rd = 4}),      // 0x12345678 * -128 = -0x91A2B3C00: low word
      assemble(Opcode::movz, {.rs = 1, .rt = 3, .rd = 5}),     // $3 == 0: $5 = $1
      assemble(Opcode::movn, {.rs = 1, .rt = 3, .rd = 6}),     // $3 == 0: $6 unchanged (0)
      assemble(Opcode::clz, {.rs = 1, .rt = 7, .rd = 7}),      // 0x12345678: 3 leading zeros
      assemble(Opcode::clo, {.rs = 2, .rt = 8, .rd = 8}),      // 0xFFFFFF80: 25 leading ones
      assemble(Opcode::seb, {.rt = 1, .rd = 9}),               // 0x78 -> 0x78
      assemble(Opcode::seh, {.rt = 2, .rd = 10}),              // 0xFF80 -> 0xFFFFFF80
      assemble(Opcode::wsbh, {.rt = 1, .rd = 11}),             // 12 34 56 78 -> 34 12 78 56
      assemble(Opcode::ext, {.rs = 1, .rt = 12, .rd = 7, .sa = 4}),  // bits 4..11 of 0x12345678 = 0x67
      assemble(Opcode::ins, {.rs = 1, .rt = 20, .rd = 11, .sa = 4}), // bits 4..11 of $20 := low 8 bits of $1 (0x78)
      assemble(Opcode::rotr, {.rt = 1, .rd = 13, .sa = 8}),    // 0x78123456
      assemble(Opcode::clz, {.rs = 3, .rt = 14, .rd = 14}),    // 0: 32
  };
  run(c, bus, program);
  CHECK(c.gpr[4] == 0xE5D4C400u); // -(0x12345678 << 7) mod 2^32
  CHECK(c.hi == 0xAAAAu); // MUL leaves HI/LO alone here (UNPREDICTABLE in the manual; QEMU keeps them)
  CHECK(c.lo == 0xBBBBu);
  CHECK(c.gpr[5] == 0x12345678u);
  CHECK(c.gpr[6] == 0u);
  CHECK(c.gpr[7] == 3u);
  CHECK(c.gpr[8] == 25u);
  CHECK(c.gpr[9] == 0x78u);
  CHECK(c.gpr[10] == 0xFFFFFF80u);
  CHECK(c.gpr[11] == 0x34127856u);
  CHECK(c.gpr[12] == 0x67u);
  CHECK(c.gpr[20] == 0xFFFF0780u);
  CHECK(c.gpr[13] == 0x78123456u);
  CHECK(c.gpr[14] == 32u);
}

TEST_CASE("mips32r2: MADD/MSUB accumulate into HI:LO, SC stores and reports success", "[mips][semantics]") {
  r3000::Cpu c;
  RamBus<Variant::mips32r2> bus;
  c.gpr[1] = 0x80000000; // -2^31
  c.gpr[2] = 2;
  c.gpr[3] = 0x11223344;
  c.hi = 0;
  c.lo = 5;
  const std::vector<uint32_t> program = {
      assemble(Opcode::madd, {.rs = 1, .rt = 2}),               // 5 + (-2^32) = 0xFFFFFFFF:00000005
      assemble(Opcode::maddu, {.rs = 1, .rt = 2}),              // + 2^32 = 0x00000000:00000005
      assemble(Opcode::msub, {.rs = 2, .rt = 2}),               // - 4 = 1
      assemble(Opcode::ll, {.rs = 0, .rt = 4, .imm = 0x100}),   // $4 = word at 0x100
      assemble(Opcode::sc, {.rs = 0, .rt = 3, .imm = 0x100}),   // stores $3, $3 = 1
  };
  bus.write32(0x100, 0xCAFEF00D);
  run(c, bus, program);
  CHECK(c.hi == 0u);
  CHECK(c.lo == 1u);
  CHECK(c.gpr[4] == 0xCAFEF00Du);
  CHECK(bus.read32(0x100) == 0x11223344u);
  CHECK(c.gpr[3] == 1u);
}

namespace {
void set_double(r3000::Cpu& c, unsigned f, uint64_t bits) {
  c.fpr[f] = static_cast<uint32_t>(bits);
  c.fpr[f + 1] = static_cast<uint32_t>(bits >> 32);
}
uint64_t double_bits(const r3000::Cpu& c, unsigned f) { return uint64_t{c.fpr[f + 1]} << 32 | c.fpr[f]; }
constexpr uint32_t fmt_d = 1u << 21; // fmt D (11h) instead of the row's S (10h)
} // namespace

// Expectations from IEEE 754 and the MIPS32 manual (FCSR: Cause bits 12-17, Flags bits 2-6, each I U O Z V from
// the low bit; FCC0 = bit 23; legacy NaN: default NaN 7FF7FFFF_FFFFFFFF; conversions of NaN/overflow give 7FFFFFFFh).
TEST_CASE("mips32r2: COP1 arithmetic, compares, conversions and FCSR", "[mips][semantics]") {
  RamBus<Variant::mips32r2> bus;
  r3000::Cpu c;
  set_double(c, 2, 0x3FF8000000000000ull); // 1.5
  set_double(c, 4, 0x4002000000000000ull); // 2.25
  set_double(c, 14, 0x4202A05F20000000ull); // 1e10
  run(c, bus, {
      assemble(Opcode::fadd, {.rt = 4, .rd = 2, .sa = 6}) | fmt_d,  // f6 = 1.5 + 2.25 = 3.75 (exact)
  });
  CHECK(double_bits(c, 6) == 0x400E000000000000ull);
  CHECK(c.fcsr == 0);
  run(c, bus, {assemble(Opcode::fdiv, {.rt = 4, .rd = 2, .sa = 8}) | fmt_d}); // 1.5 / 2.25 = 2/3: inexact
  CHECK(double_bits(c, 8) == 0x3FE5555555555555ull);
  CHECK(c.fcsr == (1u << 12 | 1u << 2));
  run(c, bus, {
      assemble(Opcode::fsub, {.rt = 2, .rd = 2, .sa = 10}) | fmt_d, // f10 = 0; Cause cleared, Flags kept
      assemble(Opcode::fdiv, {.rt = 10, .rd = 10, .sa = 12}) | fmt_d, // 0 / 0: invalid, the default NaN
  });
  CHECK(double_bits(c, 10) == 0);
  CHECK(double_bits(c, 12) == 0x7FF7FFFFFFFFFFFFull);
  CHECK(c.fcsr == (1u << 16 | 1u << 6 | 1u << 2));
  // Compares: C.EQ (cond 2) is quiet on a quiet NaN, C.LT (cond 12) signals; C.UN (cond 1) sets FCC0.
  c.fcsr = 0;
  run(c, bus, {assemble(Opcode::c_cond, {.rt = 2, .rd = 12}) | fmt_d | 2});
  CHECK(c.fcsr == 0);
  run(c, bus, {assemble(Opcode::c_cond, {.rt = 2, .rd = 12}) | fmt_d | 12});
  CHECK(c.fcsr == (1u << 16 | 1u << 6));
  run(c, bus, {assemble(Opcode::c_cond, {.rt = 2, .rd = 12}) | fmt_d | 1});
  CHECK(c.fcsr == (1u << 23 | 1u << 6));
  // MOVT $3, $4, $fcc0 moves (FCC0 = 1); BC1F is not taken, BC1T is.
  c.gpr[4] = 0xABCD;
  run(c, bus, {assemble(Opcode::movcf, {.rs = 4, .rt = 1, .rd = 3})});
  CHECK(c.gpr[3] == 0xABCD);
  // TRUNC.W.D of 1e10 overflows: invalid, 7FFFFFFFh; of 2/3: 0, inexact. CVT.D.W of -7 is exact.
  c.fcsr = 0;
  run(c, bus, {assemble(Opcode::trunc_w, {.rd = 14, .sa = 16}) | fmt_d});
  CHECK(c.fpr[16] == 0x7FFFFFFFu);
  CHECK(c.fcsr == (1u << 16 | 1u << 6));
  run(c, bus, {assemble(Opcode::trunc_w, {.rd = 8, .sa = 16}) | fmt_d});
  CHECK(c.fpr[16] == 0);
  CHECK((c.fcsr >> 12 & 0x3F) == 1);
  c.fpr[18] = static_cast<uint32_t>(-7);
  run(c, bus, {assemble(Opcode::cvt_d, {.rd = 18, .sa = 20}) | 0x00800000}); // fmt W (14h)
  CHECK(double_bits(c, 20) == 0xC01C000000000000ull);
  // Rounding mode: 1/3 in single is 3EAAAAABh to nearest, 3EAAAAAAh toward zero (RM = 1).
  c.fpr[22] = 0x3F800000u; // 1.0f
  c.fpr[24] = 0x40400000u; // 3.0f
  run(c, bus, {assemble(Opcode::fdiv, {.rt = 24, .rd = 22, .sa = 26})});
  CHECK(c.fpr[26] == 0x3EAAAAABu);
  c.gpr[5] = 1;
  run(c, bus, {assemble(Opcode::ctc1, {.rt = 5, .rd = 31}), assemble(Opcode::fdiv, {.rt = 24, .rd = 22, .sa = 26})});
  CHECK(c.fpr[26] == 0x3EAAAAAAu);
  CHECK((c.fcsr & 3) == 1);
  // MTHC1/MFHC1 with FR = 0: the odd register of the pair.
  c.gpr[6] = 0x40090000u;
  run(c, bus, {assemble(Opcode::mthc1, {.rt = 6, .rd = 28}), assemble(Opcode::mfhc1, {.rt = 7, .rd = 28})});
  CHECK(c.fpr[29] == 0x40090000u);
  CHECK(c.gpr[7] == 0x40090000u);
}
