// The Gekko encoding table: decoding, what Capstone 4.0.2 names, and the register effects and control flow
// the pipeline reads as data. (Text against objdump: test_objdump.cpp.)
#include <catch2/catch.hpp>

#include "recompiler/isa/ppc/decoder.h"
#include "runtime/base/error.h"
#include "runtime/core/ppc/cpu.h"

using namespace kiln;
using ppc::Opcode;

namespace {

/// A valid instance of `row` with ordinary operands (the values each operand kind takes below).
uint32_t sample(const ppc::Encoding& row) {
  using O = ppc::Operand;
  std::vector<int64_t> values;
  for (O op : row.operands) {
    switch (op) {
      case O::none: break;
      case O::rd: case O::rs: values.push_back(3); break;
      case O::ra: case O::ra0: case O::ra0_named: case O::ra_w: case O::ra_rw: values.push_back(row.opcode == Opcode::lswi ? 9 : 4); break;
      case O::rb: values.push_back(5); break;
      case O::frd: case O::frs: values.push_back(1); break;
      case O::fra: values.push_back(2); break;
      case O::frb: values.push_back(3); break;
      case O::frc: values.push_back(4); break;
      case O::crfd: values.push_back(1); break;
      case O::crfs: case O::fpscr_crfs: values.push_back(2); break;
      case O::crbd: values.push_back(1); break;
      case O::crba: values.push_back(2); break;
      case O::crbb: values.push_back(7); break;
      case O::simm: values.push_back(-8); break;
      case O::uimm: values.push_back(0x10); break;
      case O::d_ra0: case O::d_ra_update: values.push_back(8); values.push_back(1); break;
      case O::psq_d_ra0: case O::psq_d_ra_update: values.push_back(8); values.push_back(4); break;
      case O::psq_w: case O::psq_wx: values.push_back(0); break;
      case O::psq_i: case O::psq_ix: values.push_back(2); break;
      case O::sh: values.push_back(5); break;
      case O::mb: values.push_back(3); break;
      case O::me: values.push_back(20); break;
      case O::nb: values.push_back(8); break;
      case O::to: values.push_back(4); break;
      case O::bo: values.push_back(12); break;
      case O::bi: values.push_back(2); break;
      case O::bd: values.push_back(8); break;
      case O::li: values.push_back(0x100); break;
      case O::spr: values.push_back(8); break;
      case O::tbr: values.push_back(268); break;
      case O::sr: values.push_back(5); break;
      case O::crm: values.push_back(0x80); break;
      case O::fm: values.push_back(0xFF); break;
      case O::fpscr_imm: values.push_back(5); break;
      case O::fpscr_field: values.push_back(7); break;
      case O::fpscr_bit: values.push_back(3); break;
    }
  }
  // assemble() takes an initializer list: rebuild one from the (at most 7) values.
  auto v = [&](size_t i) { return i < values.size() ? values[i] : 0; };
  switch (values.size()) {
    case 0: return ppc::assemble(row.opcode, {});
    case 1: return ppc::assemble(row.opcode, {v(0)});
    case 2: return ppc::assemble(row.opcode, {v(0), v(1)});
    case 3: return ppc::assemble(row.opcode, {v(0), v(1), v(2)});
    case 4: return ppc::assemble(row.opcode, {v(0), v(1), v(2), v(3)});
    case 5: return ppc::assemble(row.opcode, {v(0), v(1), v(2), v(3), v(4)});
    default: return ppc::assemble(row.opcode, {v(0), v(1), v(2), v(3), v(4), v(5)});
  }
}

ppc::Instruction decode(uint32_t word, uint32_t address = 0x80003000) {
  static const ppc::Decoder decoder;
  ppc::Instruction insn = decoder.decode(word, address);
  INFO(std::hex << word << ": " << insn.text);
  REQUIRE(insn.decoded);
  return insn;
}

constexpr uint32_t r(unsigned n) { return 1u << n; }

} // namespace

TEST_CASE("ppc decoder: every row decodes, Capstone names the base ISA and kiln the rest", "[ppc][decoder]") {
  const ppc::Decoder decoder;
  for (const ppc::Encoding& row : ppc::encodings()) {
    const uint32_t word = sample(row);
    const ppc::Instruction insn = decoder.decode(word, 0x80003000);
    INFO(row.mnemonic << " " << std::hex << word << ": " << insn.text);
    CHECK(insn.decoded);
    CHECK(insn.opcode == row.opcode);
    CHECK(insn.decoded_by_capstone == !row.beyond_capstone);
    // Capstone 4.0.2 decodes no OE = 1 form (addo, subfeo., ...): the table does.
    if (row.has(ppc::trait::has_oe)) {
      const ppc::Instruction with_oe = decoder.decode(word | 0x400, 0x80003000);
      CHECK(with_oe.opcode == row.opcode);
      CHECK_FALSE(with_oe.decoded_by_capstone);
    }
  }
}

TEST_CASE("ppc decoder: opcode 4 is paired singles, not AltiVec", "[ppc][decoder]") {
  // 10 22 18 2a: Capstone reads AltiVec vsel; on the Gekko it is ps_add f1,f2,f3.
  const ppc::Instruction insn = decode(0x1022182A);
  CHECK(insn.opcode == Opcode::ps_add);
  CHECK_FALSE(insn.decoded_by_capstone);
  CHECK(insn.text == "ps_add f1,f2,f3");
  // f0 23 b7 ff: Capstone reads VSX xxsel; it is psq_st f1,2047(r3),1,3.
  CHECK(decode(0xF023B7FF).opcode == Opcode::psq_st);
}

TEST_CASE("ppc decoder: unknown words and invalid forms are reported with address and encoding", "[ppc][decoder]") {
  const ppc::Decoder decoder;
  const ppc::Instruction zero = decoder.decode(0x00000000, 0x80003100);
  CHECK_FALSE(zero.decoded);
  CHECK(zero.text.find("0x00000000") != std::string::npos);
  try {
    (void)decoder.decode_or_throw(0xFC00002C, 0x80003104, "main.dol"); // fsqrt f0,f0: not on the 750CL
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("main.dol") != std::string::npos);
    CHECK(std::string(e.what()).find("80003104") != std::string::npos);
    CHECK(std::string(e.what()).find("0xfc00002c") != std::string::npos);
  }
  CHECK_FALSE(decoder.decode(0x84630004, 0).decoded); // lwzu r3,4(r3): rA = rD is invalid
  CHECK_FALSE(decoder.decode(0x94600004, 0).decoded); // stwu r3,4(0): rA = 0 is invalid
  CHECK_FALSE(decoder.decode(0xBBA1FFF0 | 0x1E << 16, 0).decoded); // lmw r29,-16(r30): rA among the registers
  CHECK(decoder.decode(0x42C00008, 0).control_flow().kind == ppc::FlowKind::jump); // bc 22: z bits ignored, always
  CHECK_FALSE(decoder.decode(0x42C00008, 0).control_flow().conditional);
  CHECK_FALSE(decoder.decode(0x4E000420, 0).decoded); // bcctr 16,0: bcctr may not decrement CTR
  CHECK_FALSE(decoder.decode(0x2C230000, 0).decoded); // cmpdi (L = 1): 64-bit
}

TEST_CASE("ppc effects: integer results, XER and CR0 from the word", "[ppc][decoder]") {
  ppc::Effects e = decode(ppc::assemble(Opcode::add, {3, 4, 5}, {.rc = true})).effects();
  CHECK(e.gpr_read == (r(4) | r(5)));
  CHECK(e.gpr_write == r(3));
  CHECK(e.cr_write == 1);
  CHECK(e.special_read == ppc::special_xer_so);
  CHECK(e.special_write == 0);
  e = decode(ppc::assemble(Opcode::add, {3, 4, 5}, {.oe = true})).effects();
  CHECK(e.cr_write == 0);
  CHECK(e.special_write == (ppc::special_xer_ov | ppc::special_xer_so));
  e = decode(ppc::assemble(Opcode::adde, {3, 4, 5})).effects();
  CHECK(e.special_read == ppc::special_xer_ca);
  CHECK(e.special_write == ppc::special_xer_ca);
  e = decode(ppc::assemble(Opcode::andi_dot, {3, 4, 1})).effects(); // andi. rA,rS: reads r4, writes r3 and CR0
  CHECK(e.gpr_read == r(4));
  CHECK(e.gpr_write == r(3));
  CHECK(e.cr_write == 1);
  e = decode(ppc::assemble(Opcode::rlwimi, {3, 4, 8, 16, 23})).effects(); // inserts into rA: reads it too
  CHECK(e.gpr_read == (r(3) | r(4)));
  CHECK(e.gpr_write == r(3));
  e = decode(ppc::assemble(Opcode::addi, {3, 0, 5})).effects(); // li: rA = 0 is the value 0
  CHECK(e.gpr_read == 0);
}

TEST_CASE("ppc effects: loads and stores", "[ppc][decoder]") {
  ppc::Effects e = decode(ppc::assemble(Opcode::lwzu, {3, 4, 1})).effects();
  CHECK(e.gpr_read == r(1));
  CHECK(e.gpr_write == (r(1) | r(3)));
  CHECK(e.special_read == ppc::special_memory);
  CHECK_FALSE(e.may_raise); // misaligned integer loads and stores are done by the 750CL
  e = decode(ppc::assemble(Opcode::lmw, {29, 8, 1})).effects();
  CHECK(e.gpr_write == (r(29) | r(30) | r(31)));
  CHECK(e.may_raise); // the alignment exception
  e = decode(ppc::assemble(Opcode::stmw, {29, 8, 1})).effects();
  CHECK(e.gpr_read == (r(1) | r(29) | r(30) | r(31)));
  CHECK(e.special_write == ppc::special_memory);
  CHECK(e.may_raise);
  e = decode(ppc::assemble(Opcode::lswi, {30, 4, 12})).effects(); // 12 bytes into r30, r31, r0
  CHECK(e.gpr_write == (r(30) | r(31) | r(0)));
  e = decode(ppc::assemble(Opcode::psq_l, {1, 8, 3, 0, 2})).effects();
  CHECK(e.fpr_write == r(1));
  CHECK(e.gpr_read == r(3));
  REQUIRE(e.spr.has_value());
  CHECK(*e.spr == ppc::spr::gqr0 + 2);
  CHECK(e.may_raise);
  e = decode(ppc::assemble(Opcode::stwcx_dot, {3, 4, 5})).effects();
  CHECK(e.cr_write == 1);
  CHECK((e.special_read & ppc::special_reservation) != 0);
  CHECK(e.may_raise);
  CHECK(decode(ppc::assemble(Opcode::lwarx, {3, 4, 5})).effects().may_raise);
}

TEST_CASE("ppc effects: CR, SPRs, FPSCR and sc", "[ppc][decoder]") {
  ppc::Effects e = decode(ppc::assemble(Opcode::crand, {0, 5, 10})).effects();
  CHECK(e.cr_read == 0b111); // the target's field is read back, and the fields of bits 5 and 10
  CHECK(e.cr_write == 0b001);
  e = decode(ppc::assemble(Opcode::mtcrf, {0x81, 3})).effects();
  CHECK(e.cr_write == 0x81); // CR0 and CR7
  e = decode(ppc::assemble(Opcode::mtspr, {8, 3})).effects();
  CHECK(e.special_write == ppc::special_lr);
  e = decode(ppc::assemble(Opcode::mfspr, {3, ppc::spr::hid2})).effects();
  CHECK(e.special_read == ppc::special_spr);
  CHECK(e.spr == ppc::spr::hid2);
  e = decode(ppc::assemble(Opcode::fadd, {1, 2, 3}, {.rc = true})).effects();
  CHECK(e.fpr_read == (r(2) | r(3)));
  CHECK(e.fpr_write == r(1));
  CHECK(e.cr_write == 0b10); // CR1
  CHECK((e.special_write & ppc::special_fpscr) != 0);
  CHECK((e.special_read & ppc::special_msr) != 0); // MSR[FP]
  e = decode(ppc::assemble(Opcode::sc, {})).effects();
  CHECK(e.gpr_read == ~0u);
  CHECK(e.gpr_write == ~0u);
  CHECK(e.may_raise);
}

TEST_CASE("ppc control flow: branches, calls, returns, traps as data", "[ppc][decoder]") {
  ppc::ControlFlow f = decode(ppc::assemble(Opcode::b, {0x100}, {.lk = true}), 0x80003000).control_flow();
  CHECK(f.kind == ppc::FlowKind::call);
  CHECK(f.target == 0x80003100u);
  CHECK_FALSE(f.conditional);
  f = decode(ppc::assemble(Opcode::b, {0x100}, {.aa = true}), 0x80003000).control_flow();
  CHECK(f.kind == ppc::FlowKind::jump);
  CHECK(f.target == 0x100u);
  f = decode(ppc::assemble(Opcode::bc, {16, 0, -8}), 0x80003000).control_flow(); // bdnz
  CHECK(f.kind == ppc::FlowKind::jump);
  CHECK(f.conditional);
  CHECK(f.decrements_ctr);
  CHECK(f.target == 0x80002FF8u);
  ppc::Effects e = decode(ppc::assemble(Opcode::bc, {16, 0, -8})).effects();
  CHECK(e.special_read == ppc::special_ctr);
  CHECK(e.special_write == ppc::special_ctr);
  CHECK(e.cr_read == 0); // BO says: ignore the condition
  e = decode(ppc::assemble(Opcode::bc, {12, 6, 8})).effects(); // beq cr1
  CHECK(e.cr_read == 0b10);
  f = decode(ppc::assemble(Opcode::bclr, {20, 0})).control_flow(); // blr
  CHECK(f.kind == ppc::FlowKind::return_);
  CHECK(f.via == ppc::Via::lr);
  CHECK_FALSE(f.conditional);
  f = decode(ppc::assemble(Opcode::bclr, {12, 2})).control_flow(); // beqlr
  CHECK(f.kind == ppc::FlowKind::return_);
  CHECK(f.conditional);
  f = decode(ppc::assemble(Opcode::bcctr, {20, 0}, {.lk = true})).control_flow(); // bctrl
  CHECK(f.kind == ppc::FlowKind::indirect_call);
  CHECK(f.via == ppc::Via::ctr);
  f = decode(ppc::assemble(Opcode::bcctr, {20, 0})).control_flow(); // bctr
  CHECK(f.kind == ppc::FlowKind::indirect_jump);
  f = decode(ppc::assemble(Opcode::tw, {31, 0, 0})).control_flow(); // trap
  CHECK(f.kind == ppc::FlowKind::trap);
  CHECK_FALSE(f.conditional);
  f = decode(ppc::assemble(Opcode::twi, {4, 3, 0})).control_flow(); // tweqi
  CHECK(f.conditional);
  CHECK(decode(ppc::assemble(Opcode::sc, {})).control_flow().kind == ppc::FlowKind::system_call);
  CHECK(decode(ppc::assemble(Opcode::rfi, {})).control_flow().kind == ppc::FlowKind::exception_return);
  CHECK(decode(ppc::assemble(Opcode::addi, {3, 3, 1})).control_flow().kind == ppc::FlowKind::none);
}
