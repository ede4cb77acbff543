// The FPU's FPSCR behaviour against the PEM (3.3 "Floating-Point Execution Models", 3.3.6 exceptions, the FPSCR
// bit definitions in 2.1.4) and the 750CL UM, for what the qemu differential cannot check: FR, the FX
// transition rule, enabled exceptions, NI, the 750CL's estimates and conversions, the Gekko's multiplier
// rounding, and what single-precision results do to ps1.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>

#include "tests/ppc/test_bus.h"

using namespace kiln::ppc;
using test::dbl;
using test::run;

namespace {

struct Machine {
  Cpu c = test::gekko();
  test::Bus bus;
  void exec(uint32_t word) {
    c.pc = 0x8000;
    run(c, bus, word);
  }
  void set(unsigned f, double v) { c.fpr[f].ps0 = dbl(v); }
  double get(unsigned f) const { return test::as_double(c.fpr[f].ps0); }
  uint32_t fprf() const { return (c.fpscr & fpu::fprf_bits) >> fpu::fprf_shift; }
};

} // namespace

TEST_CASE("ppc fpu: FI, FR and XX from the exact result (PEM 2.1.4)", "[ppc][semantics]") {
  Machine m;
  m.set(2, 1.0);
  m.set(3, 3.0);
  m.exec(assemble(Opcode::fdiv, {1, 2, 3}));
  // 1/3 = 0x3FD5555555555555 rounded to nearest: 0x...5 is below the exact value, so not rounded up.
  CHECK(m.c.fpr[1].ps0 == 0x3FD5555555555555ull);
  CHECK((m.c.fpscr & fpu::fi) != 0);
  CHECK((m.c.fpscr & fpu::fr) == 0);
  CHECK((m.c.fpscr & fpu::xx) != 0);
  CHECK((m.c.fpscr & fpu::fx) != 0); // XX went 0 -> 1
  CHECK(m.fprf() == fpu::class_pos_normal);
  m.c.fpscr = (m.c.fpscr & ~3u) | 2; // round toward +infinity
  m.exec(assemble(Opcode::fdiv, {1, 2, 3}));
  CHECK(m.c.fpr[1].ps0 == 0x3FD5555555555556ull);
  CHECK((m.c.fpscr & fpu::fr) != 0);
  // An exact result clears FI and FR but XX is sticky; FX is not set again by an XX already set, and stays
  // as it was (FX itself is sticky).
  m.c.fpscr &= ~fpu::fx;
  m.set(3, 4.0);
  m.exec(assemble(Opcode::fdiv, {1, 2, 3}));
  CHECK(m.get(1) == 0.25);
  CHECK((m.c.fpscr & (fpu::fi | fpu::fr)) == 0);
  CHECK((m.c.fpscr & fpu::xx) != 0);
  CHECK((m.c.fpscr & fpu::fx) == 0);
}

TEST_CASE("ppc fpu: invalid operations, their VX bits and the default QNaN (PEM 3.3.6.1)", "[ppc][semantics]") {
  Machine m;
  m.set(2, INFINITY);
  m.set(3, INFINITY);
  m.exec(assemble(Opcode::fsub, {1, 2, 3}, {.rc = true}));
  CHECK(m.c.fpr[1].ps0 == 0x7FF8000000000000ull);
  CHECK((m.c.fpscr & fpu::vxisi) != 0);
  CHECK((m.c.fpscr & fpu::vx) != 0);
  CHECK(m.fprf() == fpu::class_qnan);
  CHECK(m.c.cr[1] == (m.c.fpscr >> 28)); // CR1 = FX FEX VX OX
  m.c.fpscr = 0;
  m.set(4, 0.0);
  m.exec(assemble(Opcode::fmul, {1, 2, 4}));
  CHECK(m.c.fpscr == (fpu::fx | fpu::vx | fpu::vximz | fpu::class_qnan << fpu::fprf_shift));
  m.c.fpscr = 0;
  m.exec(assemble(Opcode::fdiv, {1, 4, 4}));
  CHECK((m.c.fpscr & fpu::vxzdz) != 0);
  // A signaling NaN operand: VXSNAN, and the result is that NaN quieted (frA first, then frB, then frC).
  m.c.fpscr = 0;
  m.c.fpr[5].ps0 = 0x7FF0000000000123ull;
  m.c.fpr[6].ps0 = 0x7FF8000000000456ull;
  m.exec(assemble(Opcode::fmadd, {1, 6, 4, 5})); // frA = f6 (quiet), frC = f4, frB = f5 (signaling)
  CHECK(m.c.fpr[1].ps0 == 0x7FF8000000000456ull);
  CHECK((m.c.fpscr & fpu::vxsnan) != 0);
  m.exec(assemble(Opcode::fadds, {1, 5, 6}));
  CHECK(m.c.fpr[1].ps0 == 0x7FF8000000000000ull); // quieted, fraction truncated to single
  // Division by zero: ZX and a signed infinity.
  m.c.fpscr = 0;
  m.set(2, -3.0);
  m.exec(assemble(Opcode::fdiv, {1, 2, 4}));
  CHECK(m.get(1) == -INFINITY);
  CHECK((m.c.fpscr & fpu::zx) != 0);
  CHECK(m.fprf() == fpu::class_neg_inf);
}

TEST_CASE("ppc fpu: enabled exceptions suppress the result and raise the program exception with FE0/FE1", "[ppc][semantics]") {
  Machine m;
  m.c.fpscr = fpu::ve;
  m.set(1, 7.0);
  m.set(2, INFINITY);
  m.set(3, INFINITY);
  m.exec(assemble(Opcode::fsub, {1, 2, 3}));
  CHECK(m.get(1) == 7.0); // frD untouched
  CHECK((m.c.fpscr & fpu::fex) != 0);
  CHECK_FALSE(m.c.exception_taken); // MSR[FE0] = MSR[FE1] = 0: ignore exceptions mode
  m.c.fpscr = fpu::ze;
  m.c.msr |= msr::fe0 | msr::fe1;
  m.set(4, 0.0);
  m.exec(assemble(Opcode::fdiv, {1, 2 - 1, 4})); // 7 / 0
  CHECK(m.get(1) == 7.0);
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x700u);
  CHECK((m.c.spr[spr::srr1] & srr1::fp_enabled) != 0);
  CHECK(m.c.spr[spr::srr0] == 0x8000u);
  // An enabled inexact exception still writes the result.
  m.c = test::gekko();
  m.c.fpscr = fpu::xe;
  m.set(2, 1.0);
  m.set(3, 3.0);
  m.exec(assemble(Opcode::fdiv, {1, 2, 3}));
  CHECK(m.c.fpr[1].ps0 == 0x3FD5555555555555ull);
  CHECK((m.c.fpscr & fpu::fex) != 0);
}

TEST_CASE("ppc fpu: overflow, underflow with tininess before rounding, NI", "[ppc][semantics]") {
  Machine m;
  m.set(2, DBL_MAX);
  m.set(3, 2.0);
  m.exec(assemble(Opcode::fmul, {1, 2, 3}));
  CHECK(m.get(1) == INFINITY);
  CHECK((m.c.fpscr & (fpu::ox | fpu::xx | fpu::fi)) == (fpu::ox | fpu::xx | fpu::fi));
  m.c.fpscr = 1; // round toward zero: the largest finite number
  m.exec(assemble(Opcode::fmul, {1, 2, 3}));
  CHECK(m.get(1) == DBL_MAX);
  // DBL_MIN * (1 - 2^-53) rounds (to nearest) up to DBL_MIN: tiny before rounding, so UX on the PowerPC.
  m.c.fpscr = 0;
  m.set(2, DBL_MIN);
  m.set(3, 1.0 - DBL_EPSILON / 2);
  m.exec(assemble(Opcode::fmul, {1, 2, 3}));
  CHECK(m.get(1) == DBL_MIN);
  CHECK((m.c.fpscr & fpu::ux) != 0);
  // A denormal result: UX, FPRF denormal; with NI set it becomes zero.
  m.c.fpscr = 0;
  m.set(3, 0.25);
  m.exec(assemble(Opcode::fmul, {1, 2, 3}));
  CHECK(m.get(1) == DBL_MIN / 4);
  CHECK(m.fprf() == fpu::class_pos_denormal);
  m.c.fpscr = fpu::ni;
  m.exec(assemble(Opcode::fmul, {1, 2, 3}));
  CHECK(m.c.fpr[1].ps0 == 0);
  // Single precision: 2^-130 is a single denormal (FPRF), though a normal double.
  m.c.fpscr = 0;
  m.set(2, std::ldexp(1.0, -100));
  m.set(3, std::ldexp(1.0, -30));
  m.exec(assemble(Opcode::fmuls, {1, 2, 3}));
  CHECK(m.get(1) == std::ldexp(1.0, -130));
  CHECK(m.fprf() == fpu::class_pos_denormal);
}

TEST_CASE("ppc fpu: single-precision results fill ps1, double results keep it, lfs fills, lfd does not", "[ppc][semantics]") {
  Machine m;
  m.c.fpr[1] = Fpr{dbl(5.0), dbl(9.0)};
  m.set(2, 1.0);
  m.set(3, 2.0);
  m.exec(assemble(Opcode::fadd, {1, 2, 3}));
  CHECK(m.c.fpr[1] == Fpr{dbl(3.0), dbl(9.0)});
  m.exec(assemble(Opcode::fadds, {1, 2, 3}));
  CHECK(m.c.fpr[1] == Fpr{dbl(3.0), dbl(3.0)});
  m.bus.write32(0x100, 0x40490FDB); // pi as a single
  m.bus.write64(0x108, dbl(-2.5));
  m.c.gpr[4] = 0x100;
  m.exec(assemble(Opcode::lfs, {6, 0, 4}));
  CHECK(m.c.fpr[6].ps0 == m.c.fpr[6].ps1);
  CHECK(m.get(6) == static_cast<double>(std::bit_cast<float>(0x40490FDBu)));
  m.exec(assemble(Opcode::lfd, {6, 8, 4}));
  CHECK(m.get(6) == -2.5);
  CHECK(m.c.fpr[6].ps1 == dbl(static_cast<double>(std::bit_cast<float>(0x40490FDBu))));
}

TEST_CASE("ppc fpu: the Gekko rounds a single multiply's frC to 24 fraction bits first", "[ppc][semantics]") {
  // Dolphin's hardware-tested Force25Bit: frC keeps 24 fraction bits, rounded half up at 2^-25 whatever RN says.
  CHECK(fpu::round_multiplier(dbl(1.0 + std::ldexp(1.0, -25))) == dbl(1.0 + std::ldexp(1.0, -24)));
  CHECK(fpu::round_multiplier(dbl(-(1.0 + std::ldexp(1.0, -25)))) == dbl(-(1.0 + std::ldexp(1.0, -24))));
  CHECK(fpu::round_multiplier(dbl(1.0 + std::ldexp(1.0, -26))) == dbl(1.0));
  CHECK(fpu::round_multiplier(0x7FF0000000000001ull) == 0x7FF0000000000001ull); // NaNs untouched
  Machine m;
  m.set(2, 1.0);
  // frC = 1 + 2^-24 + 2^-26. IEEE single rounding of the exact product would go up to 1 + 2^-23 (it is above
  // the halfway point 1 + 2^-24); the Gekko first cuts frC to 1 + 2^-24, a tie, which rounds to even: 1.
  m.set(4, 1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -26));
  m.exec(assemble(Opcode::fmuls, {1, 2, 4}));
  CHECK(m.get(1) == 1.0);
  m.exec(assemble(Opcode::fmadds, {1, 2, 4, 3})); // the same for the fused forms (f3 = 0)
  CHECK(m.get(1) == 1.0);
  m.exec(assemble(Opcode::fmul, {1, 2, 4})); // double precision: no rounding of frC
  CHECK(m.get(1) == 1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -26));
  m.exec(assemble(Opcode::fadds, {1, 4, 3})); // nor for an add: the single rounding goes up
  CHECK(m.get(1) == 1.0 + std::ldexp(1.0, -23));
}

TEST_CASE("ppc fpu: fres and frsqrte give the 750CL's estimates", "[ppc][semantics]") {
  // The table's first entries as the segment formula defines them: fres(1.0) = 0x7FF800 / 2^23 (PEM-style
  // single), frsqrte(1.0) = 0x3FFA000 / 2^26 with exponent -1.
  CHECK(estimate::reciprocal(dbl(1.0)) == 0x3FEFFF0000000000ull);
  CHECK(estimate::reciprocal_sqrt(dbl(1.0)) == 0x3FEFFE8000000000ull);
  CHECK(estimate::reciprocal_sqrt(dbl(4.0)) == 0x3FDFFE8000000000ull); // 1/sqrt(4) = 0.5: same significand
  CHECK(estimate::reciprocal_sqrt(dbl(2.0)) == (0x3FE0000000000000ull | uint64_t{0x1a7e800} << 26));
  // Both estimates within 1/4096 of the exact value over a sweep of significands and exponents: tighter
  // than the PEM requires (1/256 for fres, 1/32 for frsqrte), as a 12-bit table should be.
  for (int i = 0; i < 4096; ++i) {
    const double x = 1.0 + i / 4096.0;
    for (double scale : {1.0, 0.001, 1e20}) {
      const double v = x * scale;
      const double r = test::as_double(estimate::reciprocal(dbl(v)));
      CHECK(std::fabs(r * v - 1.0) < 1.0 / 4096);
      const double s = test::as_double(estimate::reciprocal_sqrt(dbl(v)));
      CHECK(std::fabs(s * std::sqrt(v) - 1.0) < 1.0 / 4096);
    }
  }
  // Special operands (750CL UM fres/frsqrte tables) and their FPSCR bits.
  Machine m;
  m.set(2, -0.0);
  m.exec(assemble(Opcode::fres, {1, 2}));
  CHECK(m.get(1) == -INFINITY);
  CHECK((m.c.fpscr & fpu::zx) != 0);
  CHECK(m.c.fpr[1].ps1 == m.c.fpr[1].ps0); // fres is single precision: both halves
  m.c.fpscr = 0;
  m.set(2, INFINITY);
  m.exec(assemble(Opcode::fres, {1, 2}));
  CHECK(m.c.fpr[1].ps0 == 0);
  m.set(2, 1e-39); // below 2^-128: the largest single
  m.exec(assemble(Opcode::fres, {1, 2}));
  CHECK(m.get(1) == FLT_MAX);
  m.set(2, -4.0);
  m.exec(assemble(Opcode::frsqrte, {1, 2}));
  CHECK(m.c.fpr[1].ps0 == 0x7FF8000000000000ull);
  CHECK((m.c.fpscr & fpu::vxsqrt) != 0);
  m.c.fpscr = 0;
  m.set(2, INFINITY);
  m.exec(assemble(Opcode::frsqrte, {1, 2}));
  CHECK(m.c.fpr[1].ps0 == 0);
  m.set(2, DBL_TRUE_MIN); // a denormal operand is normalized: 1/sqrt(2^-1074) = 2^537
  m.exec(assemble(Opcode::frsqrte, {1, 2}));
  CHECK(std::fabs(m.get(1) / std::ldexp(1.0, 537) - 1.0) < 1.0 / 4096);
}

TEST_CASE("ppc fpu: fctiw's 750CL result word and rounding modes, frsp, stfs's store conversion", "[ppc][semantics]") {
  Machine m;
  m.set(2, -2.5);
  m.exec(assemble(Opcode::fctiw, {1, 2})); // nearest even: -2
  CHECK(m.c.fpr[1].ps0 == 0xFFF80000FFFFFFFEull);
  CHECK((m.c.fpscr & (fpu::fi | fpu::xx)) == (fpu::fi | fpu::xx));
  m.exec(assemble(Opcode::fctiwz, {1, 2}));
  CHECK(static_cast<uint32_t>(m.c.fpr[1].ps0) == 0xFFFFFFFEu);
  m.c.fpscr = 3; // toward -infinity
  m.exec(assemble(Opcode::fctiw, {1, 2}));
  CHECK(static_cast<uint32_t>(m.c.fpr[1].ps0) == 0xFFFFFFFDu);
  m.set(2, -0.25);
  m.c.fpscr = 1;
  m.exec(assemble(Opcode::fctiw, {1, 2})); // -0 from a negative operand: 0xFFF80001 in the high word
  CHECK(m.c.fpr[1].ps0 == 0xFFF8000100000000ull);
  m.set(2, 3e9);
  m.c.fpscr = 0;
  m.exec(assemble(Opcode::fctiwz, {1, 2}));
  CHECK(static_cast<uint32_t>(m.c.fpr[1].ps0) == 0x7FFFFFFFu);
  CHECK((m.c.fpscr & fpu::vxcvi) != 0);
  const uint32_t fprf_before = m.c.fpscr & fpu::fprf_bits;
  m.exec(assemble(Opcode::fctiw, {1, 2}));
  CHECK((m.c.fpscr & fpu::fprf_bits) == fprf_before); // FPRF untouched
  // frsp rounds to single (nearest) and fills both halves.
  m.c.fpscr = 0;
  m.set(2, 1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -40));
  m.exec(assemble(Opcode::frsp, {1, 2}));
  CHECK(m.get(1) == 1.0 + std::ldexp(1.0, -23));
  CHECK(m.c.fpr[1].ps1 == m.c.fpr[1].ps0);
  // stfs truncates (PEM "Store Conversion"), it does not round; in the single denormal range it shifts.
  m.c.gpr[4] = 0x100;
  m.exec(assemble(Opcode::stfs, {2, 0, 4}));
  CHECK(m.bus.read32(0x100) == 0x3F800000u);
  m.set(3, std::ldexp(1.5, -130));
  m.exec(assemble(Opcode::stfs, {3, 4, 4}));
  CHECK(m.bus.read32(0x104) == 0x000C0000u); // 1.5 * 2^-130 = 0xC0000 * 2^-149
  m.c.fpr[3].ps0 = 0x7FF0000000000001ull; // an SNaN is stored as a single SNaN bit pattern, not quieted
  m.exec(assemble(Opcode::stfs, {3, 8, 4}));
  CHECK(m.bus.read32(0x108) == 0x7F800000u);
  m.bus.write32(0x10C, 0x7F800001);
  m.exec(assemble(Opcode::lfs, {5, 12, 4}));
  CHECK(m.c.fpr[5].ps0 == 0x7FF0000020000000ull); // and loaded back as an SNaN
  m.c.fpr[5].ps0 = 0x123456789ABCDEF0ull;
  m.exec(assemble(Opcode::stfiwx, {5, 0, 4}));
  CHECK(m.bus.read32(0x100) == 0x9ABCDEF0u);
  // FP accesses need a word-aligned address on the 750CL.
  m.exec(assemble(Opcode::lfd, {5, 2, 4}));
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x600u);
}

TEST_CASE("ppc fpu: compares set CR and FPCC, the FPSCR moves (PEM fcmpo, mtfsf, mcrfs)", "[ppc][semantics]") {
  Machine m;
  m.set(1, 1.0);
  m.set(2, 2.0);
  m.exec(assemble(Opcode::fcmpu, {3, 1, 2}));
  CHECK(m.c.cr[3] == fpu::fpcc_less);
  CHECK(m.fprf() == fpu::fpcc_less);
  m.c.fpr[2].ps0 = 0x7FF8000000000000ull;
  m.exec(assemble(Opcode::fcmpu, {3, 1, 2}));
  CHECK(m.c.cr[3] == fpu::fpcc_unordered);
  CHECK((m.c.fpscr & fpu::vxvc) == 0); // unordered compare: a QNaN is no exception
  m.exec(assemble(Opcode::fcmpo, {3, 1, 2}));
  CHECK((m.c.fpscr & fpu::vxvc) != 0);
  // mffs reads 0xFFF80000 above the FPSCR; mtfsf cannot set FEX or VX directly.
  m.c.fpscr = 0x00000002;
  m.exec(assemble(Opcode::mffs, {4}));
  CHECK(m.c.fpr[4].ps0 == 0xFFF8000000000002ull);
  m.c.fpr[5].ps0 = 0x60000000; // FEX and VX
  m.exec(assemble(Opcode::mtfsf, {0xFF, 5}));
  CHECK(m.c.fpscr == 0);
  m.c.fpr[5].ps0 = 0x82000000; // FX and XX
  m.exec(assemble(Opcode::mtfsf, {0x80, 5}));
  CHECK(m.c.fpscr == 0x80000000u); // only field 0 (FX FEX VX OX) was written
  m.exec(assemble(Opcode::mtfsb1, {6})); // XX: an exception bit, so FX too
  CHECK(m.c.fpscr == (fpu::fx | fpu::xx));
  m.exec(assemble(Opcode::mtfsfi, {7, 3}));
  CHECK((m.c.fpscr & 3) == 3);
  m.exec(assemble(Opcode::mcrfs, {2, 1})); // field 1: UX ZX XX VXSNAN -> CR2, and those bits clear
  CHECK(m.c.cr[2] == 0b0010);
  CHECK((m.c.fpscr & fpu::xx) == 0);
  m.exec(assemble(Opcode::mtfsb0, {30}));
  CHECK((m.c.fpscr & 3) == 1);
}

TEST_CASE("ppc fpu: MSR.FP clear raises the FP unavailable exception (750CL UM 4.5.8)", "[ppc][semantics]") {
  Machine m;
  m.c.msr &= ~msr::fp;
  m.set(2, 1.0);
  m.exec(assemble(Opcode::fadd, {1, 2, 2}));
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x800u);
  CHECK(m.c.spr[spr::srr0] == 0x8000u);
  CHECK(m.c.fpr[1].ps0 == 0);
  m.c.msr &= ~msr::fp;
  m.c.gpr[4] = 0x100;
  m.exec(assemble(Opcode::lfd, {1, 0, 4}));
  CHECK(m.c.pc == 0x800u);
}
