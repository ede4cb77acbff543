#include <catch2/catch.hpp>

#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/isa/aarch64/semantics/semantics.h"

using kiln::a64::RegKind;

// Encodings assembled by hand from the Arm ARM field layouts (noted per case).
TEST_CASE("decoder produces kiln's instruction form", "[a64]") {
  const kiln::a64::Decoder decoder;
  // ADD (shifted register), 64-bit: sf=1 0 0 01011 00 0 Rm=2 imm6=0 Rn=1 Rd=0
  auto add = decoder.decode(0x8b020020, 0x1000);
  REQUIRE(add.decoded);
  CHECK(add.opcode == "ADDXrs");
  REQUIRE(add.operands.size() == 4);
  CHECK(add.reg(0).kind == RegKind::x);
  CHECK(add.reg(0).index == 0);
  CHECK(add.reg(2).index == 2);
  CHECK(add.text == "add x0, x1, x2");
  // BL +8: 100101 imm26=2
  auto bl = decoder.decode(0x94000002, 0x2000);
  CHECK(bl.opcode == "BL");
  const auto flow = kiln::a64::control_flow(bl);
  CHECK(flow.kind == kiln::a64::ControlFlow::call);
  CHECK(flow.target == 0x2008);
  // CASAL w0, w1, [x2]: LSE, decoded thanks to +lse (Capstone 4 cannot)
  auto cas = decoder.decode(0x88e0fc41, 0);
  CHECK(cas.decoded);
  CHECK(cas.opcode == "CASALW");
  CHECK(kiln::a64::has_semantics(cas.opcode));
  // An unallocated encoding is reported, not guessed.
  auto bad = decoder.decode(0xffffffff, 0x3000); // unallocated: reported, not guessed
  CHECK_FALSE(bad.decoded);
}

TEST_CASE("logical immediates decode as the Arm ARM's DecodeBitMasks", "[a64]") {
  using kiln::a64::decode_bit_masks;
  CHECK(decode_bit_masks(0b0'000000'000011, 32) == 0xf);                   // 4 ones, esize 32
  CHECK(decode_bit_masks(0b1'000000'000000, 64) == 1);                     // 1 one, esize 64
  CHECK(decode_bit_masks(0b0'000000'111100, 64) == 0x5555555555555555ull); // esize 2, pattern 01
  CHECK(decode_bit_masks(0b1'000001'000000, 64) == 0x8000000000000000ull); // 1 one rotated right by 1
  CHECK(decode_bit_masks(0b0'000000'110001, 32) == 0x03030303);            // esize 8, two ones
}
