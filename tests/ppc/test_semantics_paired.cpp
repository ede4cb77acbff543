// Paired singles against the 750CL UM (chapter "Paired-Single Instructions", the GQR layout in "GQRn", HID2)
// and, where the manual is silent, Dolphin's documented hardware behaviour (read for behaviour only): both
// halves at single precision, GQR dequantization and quantization with the 6-bit signed scale and clamping,
// ps1 = 1.0 for a one-element load, the sums and merges.
#include <catch2/catch.hpp>

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
  void set(unsigned f, double a, double b) { c.fpr[f] = Fpr{dbl(a), dbl(b)}; }
  double ps0(unsigned f) const { return test::as_double(c.fpr[f].ps0); }
  double ps1(unsigned f) const { return test::as_double(c.fpr[f].ps1); }
};

/// A GQR with load type/scale and store type/scale (750CL UM "GQRn": LD_SCALE bits 24-29, LD_TYPE 16-18,
/// ST_SCALE 8-13, ST_TYPE 0-2).
constexpr uint32_t gqr(unsigned load_type, unsigned load_scale, unsigned store_type, unsigned store_scale) {
  return (load_scale & 63) << 24 | (load_type & 7) << 16 | (store_scale & 63) << 8 | (store_type & 7);
}

} // namespace

TEST_CASE("ppc paired: HID2 PSE and LSQE gate the instructions (750CL UM HID2)", "[ppc][semantics]") {
  Machine m;
  m.c.spr[spr::hid2] = 0;
  m.exec(assemble(Opcode::ps_add, {1, 2, 3}));
  CHECK(m.c.exception_taken);
  CHECK(m.c.pc == 0x700u);
  CHECK((m.c.spr[spr::srr1] & srr1::illegal) != 0);
  m.c.spr[spr::hid2] = hid2::pse; // paired singles, but not the quantized loads and stores
  m.c.msr |= msr::fp;
  m.c.gpr[3] = 0x100;
  m.exec(assemble(Opcode::psq_l, {1, 0, 3, 0, 0}));
  CHECK((m.c.spr[spr::srr1] & srr1::illegal) != 0);
  m.c.msr |= msr::fp; // the exception entry cleared it
  m.exec(assemble(Opcode::psq_lx, {1, 0, 3, 0, 0})); // the indexed forms are opcode-4 paired singles
  CHECK_FALSE(m.c.exception_taken);
  m.c.msr &= ~msr::fp; // and all need the FPU
  m.exec(assemble(Opcode::ps_mr, {1, 2}));
  CHECK(m.c.pc == 0x800u);
}

TEST_CASE("ppc paired: psq_l dequantizes every type with the signed scale, W = 1 loads 1.0 into ps1", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[3] = 0x200;
  m.bus.write16(0x200, 0xFE10); // u8 254, 16 / s8 -2, 16
  m.bus.write32(0x204, 0x8000FFFF); // u16 32768, 65535 / s16 -32768, -1
  m.c.spr[spr::gqr0 + 1] = gqr(4, 1, 0, 0); // u8, scale 1: value / 2
  m.exec(assemble(Opcode::psq_l, {1, 0, 3, 0, 1}));
  CHECK(m.ps0(1) == 127.0);
  CHECK(m.ps1(1) == 8.0);
  m.c.spr[spr::gqr0 + 2] = gqr(6, 63, 0, 0); // s8, scale -1: value * 2
  m.exec(assemble(Opcode::psq_l, {1, 0, 3, 0, 2}));
  CHECK(m.ps0(1) == -4.0);
  CHECK(m.ps1(1) == 32.0);
  m.c.spr[spr::gqr0 + 3] = gqr(5, 16, 0, 0); // u16, scale 16
  m.exec(assemble(Opcode::psq_l, {1, 4, 3, 0, 3}));
  CHECK(m.ps0(1) == 0.5);
  CHECK(m.ps1(1) == 65535.0 / 65536.0);
  m.c.spr[spr::gqr0 + 4] = gqr(7, 0, 0, 0); // s16, one element
  m.exec(assemble(Opcode::psq_l, {1, 4, 3, 1, 4}));
  CHECK(m.ps0(1) == -32768.0);
  CHECK(m.ps1(1) == 1.0);
  // Float type: two singles, converted exactly (a denormal single becomes a normal double).
  m.bus.write32(0x208, 0x3FC00000); // 1.5
  m.bus.write32(0x20C, 0x00000001); // 2^-149
  m.c.spr[spr::gqr0 + 0] = 0;
  m.exec(assemble(Opcode::psq_l, {2, 8, 3, 0, 0}));
  CHECK(m.ps0(2) == 1.5);
  CHECK(m.ps1(2) == std::ldexp(1.0, -149));
  // psq_lu updates rA; psq_lux with the indexed W and I fields.
  m.exec(assemble(Opcode::psq_lu, {2, 8, 3, 1, 0}));
  CHECK(m.c.gpr[3] == 0x208u);
  m.c.gpr[4] = 4;
  m.exec(assemble(Opcode::psq_lux, {5, 3, 4, 0, 1}));
  CHECK(m.c.gpr[3] == 0x20Cu);
  CHECK(m.ps0(5) == 0.0); // u8 0x00, 0x00 at 0x20C / 2
}

TEST_CASE("ppc paired: psq_st quantizes with the scale, clamps, and truncates toward zero", "[ppc][semantics]") {
  Machine m;
  m.c.gpr[3] = 0x300;
  m.set(1, 300.0, -5.7);
  m.c.spr[spr::gqr0 + 1] = gqr(0, 0, 4, 0); // u8: 300 clamps to 255, -5.7 to 0
  m.exec(assemble(Opcode::psq_st, {1, 0, 3, 0, 1}));
  CHECK(m.bus.read16(0x300) == 0xFF00u);
  m.c.spr[spr::gqr0 + 2] = gqr(0, 0, 6, 0); // s8: -5.7 truncates to -5, 300 clamps to 127
  m.exec(assemble(Opcode::psq_st, {1, 2, 3, 0, 2}));
  CHECK(m.bus.read16(0x302) == 0x7FFBu);
  m.set(2, 1.25, -0.75);
  m.c.spr[spr::gqr0 + 3] = gqr(0, 0, 7, 8); // s16, scale 8: * 256
  m.exec(assemble(Opcode::psq_st, {2, 4, 3, 0, 3}));
  CHECK(m.bus.read32(0x304) == 0x0140FF40u);
  m.c.spr[spr::gqr0 + 4] = gqr(0, 0, 5, 62); // u16, scale -2: / 4
  m.exec(assemble(Opcode::psq_st, {2, 8, 3, 1, 4})); // W = 1: ps0 only
  CHECK(m.bus.read16(0x308) == 0u); // 1.25 / 4 truncates to 0
  CHECK(m.bus.read16(0x30A) == 0u);
  m.set(3, 3.0, -70000.0);
  m.exec(assemble(Opcode::psq_st, {3, 12, 3, 0, 3}));
  CHECK(m.bus.read32(0x30C) == 0x03008000u); // 768, and -17920000 clamped to -32768
  // Float type: singles, the single denormal range flushed to zero (Dolphin's ConvertToSingleFTZ).
  m.set(4, 2.0, std::ldexp(1.0, -140));
  m.c.spr[spr::gqr0] = 0;
  m.exec(assemble(Opcode::psq_stx, {4, 3, 0, 0, 0}));
  CHECK(m.bus.read32(0x300) == 0x40000000u);
  CHECK(m.bus.read32(0x304) == 0u);
  // The indexed update form.
  m.c.gpr[5] = 0x20;
  m.exec(assemble(Opcode::psq_stux, {4, 3, 5, 1, 0}));
  CHECK(m.c.gpr[3] == 0x320u);
  CHECK(m.bus.read32(0x320) == 0x40000000u);
}

TEST_CASE("ppc paired: arithmetic on both halves at single precision", "[ppc][semantics]") {
  Machine m;
  m.set(2, 1.0, 10.0);
  m.set(3, 2.0, 0.1);
  m.set(4, 3.0, 4.0);
  m.exec(assemble(Opcode::ps_add, {1, 2, 3}));
  CHECK(m.ps0(1) == 3.0);
  CHECK(m.ps1(1) == static_cast<double>(10.0f + static_cast<float>(0.1))); // rounded to single
  m.exec(assemble(Opcode::ps_sub, {1, 2, 3}));
  CHECK(m.ps0(1) == -1.0);
  m.exec(assemble(Opcode::ps_mul, {1, 2, 4}));
  CHECK(m.ps0(1) == 3.0);
  CHECK(m.ps1(1) == 40.0);
  m.exec(assemble(Opcode::ps_div, {1, 4, 2}));
  CHECK(m.ps0(1) == 3.0);
  CHECK(m.ps1(1) == 0.4f);
  m.exec(assemble(Opcode::ps_madd, {1, 2, 4, 3})); // a * c + b per half
  CHECK(m.ps0(1) == 5.0);
  CHECK(m.ps1(1) == static_cast<double>(40.0f + static_cast<float>(0.1)));
  m.exec(assemble(Opcode::ps_nmsub, {1, 2, 4, 3})); // -(a * c - b)
  CHECK(m.ps0(1) == -1.0);
  m.exec(assemble(Opcode::ps_muls0, {1, 2, 4})); // both halves times frC.ps0
  CHECK(m.ps0(1) == 3.0);
  CHECK(m.ps1(1) == 30.0);
  m.exec(assemble(Opcode::ps_muls1, {1, 2, 4})); // both halves times frC.ps1
  CHECK(m.ps0(1) == 4.0);
  CHECK(m.ps1(1) == 40.0);
  m.exec(assemble(Opcode::ps_madds0, {1, 2, 4, 4})); // a * c.ps0 + b
  CHECK(m.ps0(1) == 6.0);
  CHECK(m.ps1(1) == 34.0);
  m.exec(assemble(Opcode::ps_madds1, {1, 2, 4, 4}));
  CHECK(m.ps0(1) == 7.0);
  CHECK(m.ps1(1) == 44.0);
  // ps_sum0: ps0 = a.ps0 + b.ps1, ps1 = c.ps1; ps_sum1: ps0 = c.ps0, ps1 = a.ps0 + b.ps1.
  m.exec(assemble(Opcode::ps_sum0, {1, 2, 4, 3}));
  CHECK(m.ps0(1) == static_cast<double>(1.0f + static_cast<float>(0.1)));
  CHECK(m.ps1(1) == 4.0);
  m.exec(assemble(Opcode::ps_sum1, {1, 2, 4, 3}));
  CHECK(m.ps0(1) == 3.0);
  CHECK(m.ps1(1) == static_cast<double>(1.0f + static_cast<float>(0.1)));
  CHECK((m.c.fpscr & fpu::fprf_bits) >> fpu::fprf_shift == fpu::class_pos_normal);
  // An invalid operation in either half: VX bits and the default NaN in that half only.
  m.set(5, INFINITY, 1.0);
  m.set(6, INFINITY, 2.0);
  m.c.fpscr = 0;
  m.exec(assemble(Opcode::ps_sub, {1, 5, 6}));
  CHECK(m.c.fpr[1].ps0 == 0x7FF8000000000000ull);
  CHECK(m.ps1(1) == -1.0);
  CHECK((m.c.fpscr & fpu::vxisi) != 0);
}

TEST_CASE("ppc paired: merges, sign moves, select, estimates and compares", "[ppc][semantics]") {
  Machine m;
  m.set(2, 1.0, 2.0);
  m.set(3, -3.0, -4.0);
  m.exec(assemble(Opcode::ps_merge00, {1, 2, 3}));
  CHECK((m.ps0(1) == 1.0 && m.ps1(1) == -3.0));
  m.exec(assemble(Opcode::ps_merge01, {1, 2, 3}));
  CHECK((m.ps0(1) == 1.0 && m.ps1(1) == -4.0));
  m.exec(assemble(Opcode::ps_merge10, {1, 2, 3}));
  CHECK((m.ps0(1) == 2.0 && m.ps1(1) == -3.0));
  m.exec(assemble(Opcode::ps_merge11, {1, 2, 3}));
  CHECK((m.ps0(1) == 2.0 && m.ps1(1) == -4.0));
  m.exec(assemble(Opcode::ps_neg, {1, 2}));
  CHECK((m.ps0(1) == -1.0 && m.ps1(1) == -2.0));
  m.exec(assemble(Opcode::ps_abs, {1, 3}));
  CHECK((m.ps0(1) == 3.0 && m.ps1(1) == 4.0));
  m.exec(assemble(Opcode::ps_nabs, {1, 2}));
  CHECK((m.ps0(1) == -1.0 && m.ps1(1) == -2.0));
  m.exec(assemble(Opcode::ps_mr, {1, 3}));
  CHECK(m.c.fpr[1] == m.c.fpr[3]);
  m.set(4, -0.0, -1.0); // ps_sel: -0 >= 0 picks frC, -1 picks frB
  m.exec(assemble(Opcode::ps_sel, {1, 4, 2, 3}));
  CHECK((m.ps0(1) == 1.0 && m.ps1(1) == -4.0));
  m.set(5, 1.0, 4.0);
  m.exec(assemble(Opcode::ps_res, {1, 5}));
  CHECK(m.c.fpr[1].ps0 == estimate::reciprocal(dbl(1.0)));
  CHECK(m.c.fpr[1].ps1 == estimate::reciprocal(dbl(4.0)));
  m.exec(assemble(Opcode::ps_rsqrte, {1, 5}));
  CHECK(std::fabs(m.ps0(1) - 1.0) < 1.0 / 4096);
  CHECK(std::fabs(m.ps1(1) - 0.5) < 1.0 / 4096);
  CHECK(m.ps1(1) == static_cast<double>(static_cast<float>(m.ps1(1)))); // rounded to single
  m.exec(assemble(Opcode::ps_cmpu0, {2, 2, 3}));
  CHECK(m.c.cr[2] == fpu::fpcc_greater);
  m.set(6, 1.0, NAN);
  m.exec(assemble(Opcode::ps_cmpo1, {3, 6, 2}));
  CHECK(m.c.cr[3] == fpu::fpcc_unordered);
  CHECK((m.c.fpscr & fpu::vxvc) != 0);
}
