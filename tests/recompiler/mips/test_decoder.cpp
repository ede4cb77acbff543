// The encoding table against Capstone, and the variant rules of the decoder.
#include <catch2/catch.hpp>

#include "recompiler/isa/mips/decoder.h"
#include "runtime/base/error.h"

using namespace kiln;
using mips::Form;
using r3000::Opcode;
using r3000::Variant;

namespace {

/// Fields that satisfy the strict (MIPS32) form of `row`: unused fields stay zero.
mips::Fields sample_fields(const mips::Encoding& row) {
  switch (row.form) {
    case Form::rd_rt_sa: return {.rt = 2, .rd = 3, .sa = 4};
    case Form::rd_rt_rs: case Form::rd_rs_rt: return {.rs = 1, .rt = 2, .rd = 3};
    case Form::rs: return {.rs = 5};
    case Form::rd_rs: return {.rs = 5, .rd = 31};
    case Form::code: return {};
    case Form::rd: return {.rd = 3};
    case Form::rs_rt: return {.rs = 1, .rt = 2};
    case Form::rt_rs_imm: return {.rs = 1, .rt = 2, .imm = 0x1234};
    case Form::rt_imm: return {.rt = 2, .imm = 0x1234};
    case Form::rs_rt_offset: return {.rs = 1, .rt = 2, .imm = 4};
    case Form::rs_offset: return {.rs = 1, .imm = 4};
    case Form::jump: return {.imm = 0x100};
    case Form::rt_mem: return {.rs = 29, .rt = 2, .imm = 8};
    case Form::rt_cop_rd: return {.rt = 2, .rd = 12};
    case Form::none: return {};
    case Form::cop2_command: return {.imm = 0x0180001}; // RTPS
    case Form::rd_rt: return {.rt = 2, .rd = 3};
    case Form::bit_field: return {.rs = 1, .rt = 2, .rd = 7, .sa = 4};
    // COP1: fmt is part of the row's pattern (rs stays zero); fs = rd field, ft = rt field, fd = sa field.
    case Form::fp_three: return {.rt = 4, .rd = 2, .sa = 6};
    case Form::fp_two: return {.rd = 2, .sa = 6};
    case Form::fp_compare: return {.rt = 4, .rd = 2}; // cc 0: Capstone 4 decodes no other (the table does)
    case Form::fp_branch: return {.rt = 1 << 2 | 1, .imm = 4};        // bc1t $fcc1
    case Form::rd_rs_cc: return {.rs = 5, .rt = 2 << 2 | 1, .rd = 3}; // movt rd, rs, $fcc2
    case Form::fp_cc: return {.rt = 2 << 2 | 1, .rd = 2, .sa = 6};
    case Form::fp_rt: return {.rt = 5, .rd = 2, .sa = 6};
  }
  return {};
}

} // namespace

TEST_CASE("mips decoder: Capstone names every row it can decode, the table decodes the rest", "[mips][decoder]") {
  const mips::Decoder r3000(Variant::r3000), mips32(Variant::mips32r2);
  for (const mips::Encoding& row : mips::encodings()) {
    mips::Fields fields = sample_fields(row);
    if (row.opcode == Opcode::rdhwr) fields.rd = 29; // UserLocal: Capstone 4 decodes RDHWR only for the registers it knows
    const uint32_t word = mips::assemble(row.opcode, fields);
    const mips::Instruction instruction = (row.in(Variant::r3000) ? r3000 : mips32).decode(word, 0x80010000);
    INFO(row.mnemonic << " " << std::hex << word << ": " << instruction.text);
    CHECK(instruction.decoded);
    CHECK(instruction.opcode == row.opcode);
    CHECK(instruction.decoded_by_capstone == !row.beyond_capstone);
  }
}

TEST_CASE("mips decoder: aliases resolve to the instruction the bits say", "[mips][decoder]") {
  const mips::Decoder decoder(Variant::r3000);
  CHECK(decoder.decode(0x00801021, 0).opcode == Opcode::addu); // move $v0, $a0 as addu
  CHECK(decoder.decode(0x00801025, 0).opcode == Opcode::or_);  // move $v0, $a0 as or
  CHECK(decoder.decode(0x00000000, 0).opcode == Opcode::sll);  // nop
  CHECK(decoder.decode(0x10000003, 0).opcode == Opcode::beq);  // b
  CHECK(decoder.decode(0x04110003, 0).opcode == Opcode::bcondz); // bal
}

TEST_CASE("mips decoder: the R3000A variant accepts what the R3000A decodes", "[mips][decoder]") {
  const mips::Decoder r3000(Variant::r3000);
  const mips::Decoder mips32(Variant::mips32r2);
  // add $a2, $ra, $t1 with a non-zero shift field: the R3000A ignores it.
  const uint32_t add_with_sa = 0x03E93460;
  CHECK(r3000.decode(add_with_sa, 0).opcode == Opcode::add);
  CHECK_FALSE(mips32.decode(add_with_sa, 0).decoded);
  // REGIMM with rt = 2 (MIPS II bltzl) is a plain bltz on the R3000A.
  CHECK(r3000.decode(0x04420003, 0).opcode == Opcode::bcondz);
  CHECK_FALSE(mips32.decode(0x04420003, 0).decoded);
  // GTE forms exist only on the PS1.
  CHECK(r3000.decode(0x4A180001, 0).opcode == Opcode::cop2);
  CHECK(r3000.decode(0x48C21000, 0).opcode == Opcode::ctc2);
  CHECK(r3000.decode(0x42000010, 0).text == "rfe");
  CHECK_FALSE(mips32.decode(0xC8410004, 0).decoded); // lwc2
  // MIPS32 mul is not an R3000 instruction; Capstone's reading is reported.
  const mips::Instruction mul = r3000.decode(0x70A42002, 0);
  CHECK_FALSE(mul.decoded);
  CHECK(mul.text.find("mul") != std::string::npos);
  // ... and is one in MIPS32r2 (mul $a0, $a1, $a0), as are the SPECIAL3 forms GCC emits for -march=mips32r2.
  CHECK(mips32.decode(0x70A42002, 0).opcode == Opcode::mul);
  CHECK(mips32.decode(0x7C021C20, 0).opcode == Opcode::seb); // seb $v1, $v0
  CHECK(mips32.decode(0x7C4229C0, 0).text == "ext $v0, $v0, 7, 6");
}

TEST_CASE("mips decoder: an unknown word is an error naming the address and the encoding", "[mips][decoder]") {
  const mips::Decoder decoder(Variant::r3000);
  try {
    decoder.decode_or_throw(0xFC000000, 0x80012344, "GAME.EXE");
    FAIL("no error");
  } catch (const kiln::Error& e) {
    const std::string what = e.what();
    CHECK(what.find("GAME.EXE") != std::string::npos);
    CHECK(what.find("0x80012344") != std::string::npos);
    CHECK(what.find("0xfc000000") != std::string::npos);
  }
}
