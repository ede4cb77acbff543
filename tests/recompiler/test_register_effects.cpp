// The registers an AArch64 instruction reads and writes, as the front end gives them (a64::Instruction::reads
// and writes): a spill stores only registers that may differ from Cpu, so a missed write would lose a guest
// register. Words from aarch64-linux-gnu-as; the expected sets from each instruction's definition in the Arm ARM
// (write-back forms write their base, flag-setting forms and MSR NZCV write NZCV, BL/BLR write x30).
#include <catch2/catch.hpp>

#include "recompiler/isa/aarch64/decoder.h"

using kiln::a64::flags_bit;
using kiln::a64::RegisterMask;
using kiln::a64::sp_bit;

namespace {

RegisterMask x(std::initializer_list<int> indices) {
  RegisterMask mask = 0;
  for (int i : indices) mask |= RegisterMask{1} << i;
  return mask;
}

struct Effects {
  RegisterMask reads, writes;
};

Effects effects(uint32_t word) {
  static const kiln::a64::Decoder decoder;
  const kiln::a64::Instruction i = decoder.decode(word, 0x1000);
  REQUIRE(i.decoded);
  return {i.reads, i.writes};
}

} // namespace

TEST_CASE("register effects: general registers, w views and the zero register") {
  CHECK(effects(0x91000465).writes == x({5}));                    // add x5, x3, #1
  CHECK(effects(0x91000465).reads == x({3}));
  CHECK(effects(0xaa1f03e0).writes == x({0}));                    // mov x0, xzr: xzr is no register
  CHECK(effects(0xaa1f03e0).reads == 0);
  CHECK(effects(0xf9000420).writes == 0);                         // str x0, [x1, #8]
  CHECK(effects(0xf9000420).reads == x({0, 1}));
  CHECK(effects(0x48207c82).writes == x({0, 1}));                 // casp x0, x1, x2, x3, [x4]: the compared pair
  CHECK(effects(0x48207c82).reads == x({0, 1, 2, 3, 4}));
}

TEST_CASE("register effects: write-back bases and sp") {
  CHECK(effects(0xf8410ff3).writes == (x({19}) | sp_bit));        // ldr x19, [sp, #16]!
  CHECK(effects(0xf8410ff3).reads == sp_bit);
  CHECK(effects(0xa8c27bfd).writes == (x({29, 30}) | sp_bit));    // ldp x29, x30, [sp], #32
}

TEST_CASE("register effects: flags") {
  CHECK(effects(0x2b030041).writes == (x({1}) | flags_bit));      // adds w1, w2, w3
  CHECK(effects(0x2b030041).reads == x({2, 3}));
  CHECK(effects(0xeb02003f).writes == flags_bit);                 // cmp x1, x2
  CHECK(effects(0x1e612000).writes == flags_bit);                 // fcmp d0, d1
  CHECK(effects(0x9a820020).reads == (x({1, 2}) | flags_bit));    // csel x0, x1, x2, eq
  CHECK(effects(0x54000040).reads == flags_bit);                  // b.eq
  CHECK(effects(0xd51b4203).writes == flags_bit);                 // msr nzcv, x3
  CHECK(effects(0xd53b4203).writes == x({3}));                    // mrs x3, nzcv
  CHECK(effects(0xd53b4203).reads == flags_bit);
}

TEST_CASE("register effects: calls write the link register, vector registers are not tracked") {
  CHECK(effects(0x94000002).writes == x({30}));                   // bl
  CHECK(effects(0xd63f0100).writes == x({30}));                   // blr x8
  CHECK(effects(0xd63f0100).reads == x({8}));
  CHECK(effects(0x4ea28420).writes == 0);                         // add v0.4s, v1.4s, v2.4s
}
