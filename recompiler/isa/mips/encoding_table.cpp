// The MIPS I (R3000A) encodings, from the MIPS R3000 instruction set as psx-spx "CPU Opcode Encoding" and the
// MIPS32 manuals lay them out. One row per instruction; see encoding_table.h for the columns.
#include "recompiler/isa/mips/encoding_table.h"

#include <capstone/capstone.h>
#include <fmt/format.h>

#include <array>

#include "runtime/base/error.h"

namespace kiln::mips {
namespace {

constexpr uint32_t special(uint32_t funct) { return funct; }
constexpr uint32_t primary(uint32_t op) { return op << 26; }
constexpr uint32_t cop(uint32_t z, uint32_t rs) { return primary(0x10 | z) | rs << 21; }

constexpr uint32_t special_loose = 0xFC00003F; // the R3000A looks at opcode and funct only
constexpr uint32_t primary_only = 0xFC000000;
constexpr uint32_t cop_move = 0xFFE00000;      // COPz opcode + rs sub-opcode
constexpr uint32_t fp_sd = 0xFFC0003F;         // COP1 opcode, fmt S or D (bit 21 free), funct
constexpr uint32_t fp_sd_unary = 0xFFDF003F;   // ... and ft zero

using F = Form;
using L = Flow;

// clang-format off
constexpr Encoding table[] = {
  {Opcode::sll,   "sll",   special(0x00), special_loose, 0xFFE0003F, in_both, F::rd_rt_sa, L::none, {MIPS_INS_SLL, MIPS_INS_NOP, MIPS_INS_SSNOP, MIPS_INS_EHB}, false},
  {Opcode::srl,   "srl",   special(0x02), special_loose, 0xFFE0003F, in_both, F::rd_rt_sa, L::none, {MIPS_INS_SRL}, false},
  {Opcode::sra,   "sra",   special(0x03), special_loose, 0xFFE0003F, in_both, F::rd_rt_sa, L::none, {MIPS_INS_SRA}, false},
  {Opcode::sllv,  "sllv",  special(0x04), special_loose, 0xFC0007FF, in_both, F::rd_rt_rs, L::none, {MIPS_INS_SLLV}, false},
  {Opcode::srlv,  "srlv",  special(0x06), special_loose, 0xFC0007FF, in_both, F::rd_rt_rs, L::none, {MIPS_INS_SRLV}, false},
  {Opcode::srav,  "srav",  special(0x07), special_loose, 0xFC0007FF, in_both, F::rd_rt_rs, L::none, {MIPS_INS_SRAV}, false},
  {Opcode::jr,    "jr",    special(0x08), special_loose, 0xFC1FF83F, in_both, F::rs, L::jump_register, {MIPS_INS_JR, MIPS_INS_JR_HB}, false},
  {Opcode::jalr,  "jalr",  special(0x09), special_loose, 0xFC1F003F, in_both, F::rd_rs, L::call_register, {MIPS_INS_JALR, MIPS_INS_JALR_HB}, false},
  {Opcode::j,     "j",     primary(0x02), primary_only, primary_only, in_both, F::jump, L::jump, {MIPS_INS_J, MIPS_INS_B}, false},
  {Opcode::jal,   "jal",   primary(0x03), primary_only, primary_only, in_both, F::jump, L::call, {MIPS_INS_JAL}, false},
  {Opcode::beq,   "beq",   primary(0x04), primary_only, primary_only, in_both, F::rs_rt_offset, L::branch, {MIPS_INS_BEQ, MIPS_INS_B, MIPS_INS_BEQZ}, false},
  {Opcode::bne,   "bne",   primary(0x05), primary_only, primary_only, in_both, F::rs_rt_offset, L::branch, {MIPS_INS_BNE, MIPS_INS_BNEZ}, false},
  {Opcode::blez,  "blez",  primary(0x06), primary_only, 0xFC1F0000, in_both, F::rs_offset, L::branch, {MIPS_INS_BLEZ}, false},
  {Opcode::bgtz,  "bgtz",  primary(0x07), primary_only, 0xFC1F0000, in_both, F::rs_offset, L::branch, {MIPS_INS_BGTZ}, false},
  // REGIMM: MIPS32 has rt = 0 bltz, 1 bgez, 16 bltzal, 17 bgezal; the R3000A decodes any rt (bit 0, bits 1-4).
  {Opcode::bcondz, "bcondz", primary(0x01), primary_only, 0xFC0E0000, in_both, F::rs_offset, L::branch, {MIPS_INS_BLTZ, MIPS_INS_BGEZ, MIPS_INS_BLTZAL, MIPS_INS_BGEZAL, MIPS_INS_BAL}, false},
  {Opcode::syscall, "syscall", special(0x0C), special_loose, special_loose, in_both, F::code, L::trap, {MIPS_INS_SYSCALL}, false},
  {Opcode::break_,  "break",   special(0x0D), special_loose, special_loose, in_both, F::code, L::trap, {MIPS_INS_BREAK}, false},
  {Opcode::mfhi,  "mfhi",  special(0x10), special_loose, 0xFFFF07FF, in_both, F::rd, L::none, {MIPS_INS_MFHI}, false},
  {Opcode::mthi,  "mthi",  special(0x11), special_loose, 0xFC1FFFFF, in_both, F::rs, L::none, {MIPS_INS_MTHI}, false},
  {Opcode::mflo,  "mflo",  special(0x12), special_loose, 0xFFFF07FF, in_both, F::rd, L::none, {MIPS_INS_MFLO}, false},
  {Opcode::mtlo,  "mtlo",  special(0x13), special_loose, 0xFC1FFFFF, in_both, F::rs, L::none, {MIPS_INS_MTLO}, false},
  {Opcode::mult,  "mult",  special(0x18), special_loose, 0xFC00FFFF, in_both, F::rs_rt, L::none, {MIPS_INS_MULT}, false},
  {Opcode::multu, "multu", special(0x19), special_loose, 0xFC00FFFF, in_both, F::rs_rt, L::none, {MIPS_INS_MULTU}, false},
  {Opcode::div,   "div",   special(0x1A), special_loose, 0xFC00FFFF, in_both, F::rs_rt, L::none, {MIPS_INS_DIV}, false},
  {Opcode::divu,  "divu",  special(0x1B), special_loose, 0xFC00FFFF, in_both, F::rs_rt, L::none, {MIPS_INS_DIVU}, false},
  {Opcode::add,   "add",   special(0x20), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_ADD}, false},
  {Opcode::addu,  "addu",  special(0x21), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_ADDU, MIPS_INS_MOVE}, false},
  {Opcode::sub,   "sub",   special(0x22), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_SUB, MIPS_INS_NEG}, false},
  {Opcode::subu,  "subu",  special(0x23), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_SUBU, MIPS_INS_NEGU}, false},
  {Opcode::and_,  "and",   special(0x24), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_AND}, false},
  {Opcode::or_,   "or",    special(0x25), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_OR, MIPS_INS_MOVE}, false},
  {Opcode::xor_,  "xor",   special(0x26), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_XOR}, false},
  {Opcode::nor,   "nor",   special(0x27), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_NOR, MIPS_INS_NOT}, false},
  {Opcode::slt,   "slt",   special(0x2A), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_SLT}, false},
  {Opcode::sltu,  "sltu",  special(0x2B), special_loose, 0xFC0007FF, in_both, F::rd_rs_rt, L::none, {MIPS_INS_SLTU}, false},
  {Opcode::addi,  "addi",  primary(0x08), primary_only, primary_only, in_both, F::rt_rs_imm, L::none, {MIPS_INS_ADDI}, false},
  {Opcode::addiu, "addiu", primary(0x09), primary_only, primary_only, in_both, F::rt_rs_imm, L::none, {MIPS_INS_ADDIU, MIPS_INS_LI}, false},
  {Opcode::slti,  "slti",  primary(0x0A), primary_only, primary_only, in_both, F::rt_rs_imm, L::none, {MIPS_INS_SLTI}, false},
  {Opcode::sltiu, "sltiu", primary(0x0B), primary_only, primary_only, in_both, F::rt_rs_imm, L::none, {MIPS_INS_SLTIU}, false},
  {Opcode::andi,  "andi",  primary(0x0C), primary_only, primary_only, in_both, F::rt_rs_imm, L::none, {MIPS_INS_ANDI}, false},
  {Opcode::ori,   "ori",   primary(0x0D), primary_only, primary_only, in_both, F::rt_rs_imm, L::none, {MIPS_INS_ORI, MIPS_INS_LI}, false},
  {Opcode::xori,  "xori",  primary(0x0E), primary_only, primary_only, in_both, F::rt_rs_imm, L::none, {MIPS_INS_XORI}, false},
  {Opcode::lui,   "lui",   primary(0x0F), primary_only, 0xFFE00000, in_both, F::rt_imm, L::none, {MIPS_INS_LUI}, false},
  {Opcode::lb,    "lb",    primary(0x20), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_LB}, false},
  {Opcode::lh,    "lh",    primary(0x21), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_LH}, false},
  {Opcode::lwl,   "lwl",   primary(0x22), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_LWL}, false},
  {Opcode::lw,    "lw",    primary(0x23), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_LW}, false},
  {Opcode::lbu,   "lbu",   primary(0x24), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_LBU}, false},
  {Opcode::lhu,   "lhu",   primary(0x25), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_LHU}, false},
  {Opcode::lwr,   "lwr",   primary(0x26), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_LWR}, false},
  {Opcode::sb,    "sb",    primary(0x28), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_SB}, false},
  {Opcode::sh,    "sh",    primary(0x29), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_SH}, false},
  {Opcode::swl,   "swl",   primary(0x2A), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_SWL}, false},
  {Opcode::sw,    "sw",    primary(0x2B), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_SW}, false},
  {Opcode::swr,   "swr",   primary(0x2E), primary_only, primary_only, in_both, F::rt_mem, L::none, {MIPS_INS_SWR}, false},
  {Opcode::mfc0,  "mfc0",  cop(0, 0x00), cop_move, 0xFFE007FF, in_r3000, F::rt_cop_rd, L::none, {MIPS_INS_MFC0}, false},
  {Opcode::mtc0,  "mtc0",  cop(0, 0x04), cop_move, 0xFFE007FF, in_r3000, F::rt_cop_rd, L::none, {MIPS_INS_MTC0}, false},
  {Opcode::rfe,   "rfe",   cop(0, 0x10) | 0x10, 0xFE00003F, 0xFFFFFFFF, in_r3000, F::none, L::none, {}, true},
  {Opcode::mfc2,  "mfc2",  cop(2, 0x00), cop_move, 0xFFE007FF, in_r3000, F::rt_cop_rd, L::none, {MIPS_INS_MFC2}, false},
  {Opcode::cfc2,  "cfc2",  cop(2, 0x02), cop_move, 0xFFE007FF, in_r3000, F::rt_cop_rd, L::none, {}, true},
  {Opcode::mtc2,  "mtc2",  cop(2, 0x04), cop_move, 0xFFE007FF, in_r3000, F::rt_cop_rd, L::none, {MIPS_INS_MTC2}, false},
  {Opcode::ctc2,  "ctc2",  cop(2, 0x06), cop_move, 0xFFE007FF, in_r3000, F::rt_cop_rd, L::none, {}, true},
  {Opcode::cop2,  "cop2",  primary(0x12) | 1u << 25, 0xFE000000, 0xFE000000, in_r3000, F::cop2_command, L::none, {}, true},
  {Opcode::lwc2,  "lwc2",  primary(0x32), primary_only, primary_only, in_r3000, F::rt_mem, L::none, {MIPS_INS_LWC2}, false},
  {Opcode::swc2,  "swc2",  primary(0x3A), primary_only, primary_only, in_r3000, F::rt_mem, L::none, {MIPS_INS_SWC2}, false},
  // MIPS32r2 (mipsel linux-user): SPECIAL2 = 1Ch, SPECIAL3 = 1Fh (BSHFL funct 20h selects by the sa field).
  {Opcode::mul,   "mul",   primary(0x1C) | 0x02, 0xFC0007FF, 0xFC0007FF, in_mips32r2, F::rd_rs_rt, L::none, {MIPS_INS_MUL}, false},
  {Opcode::movz,  "movz",  special(0x0A), 0xFC0007FF, 0xFC0007FF, in_mips32r2, F::rd_rs_rt, L::none, {MIPS_INS_MOVZ}, false},
  {Opcode::movn,  "movn",  special(0x0B), 0xFC0007FF, 0xFC0007FF, in_mips32r2, F::rd_rs_rt, L::none, {MIPS_INS_MOVN}, false},
  {Opcode::clz,   "clz",   primary(0x1C) | 0x20, 0xFC0007FF, 0xFC0007FF, in_mips32r2, F::rd_rs, L::none, {MIPS_INS_CLZ}, false},
  {Opcode::clo,   "clo",   primary(0x1C) | 0x21, 0xFC0007FF, 0xFC0007FF, in_mips32r2, F::rd_rs, L::none, {MIPS_INS_CLO}, false},
  {Opcode::seb,   "seb",   primary(0x1F) | 0x10 << 6 | 0x20, 0xFFE007FF, 0xFFE007FF, in_mips32r2, F::rd_rt, L::none, {MIPS_INS_SEB}, false},
  {Opcode::seh,   "seh",   primary(0x1F) | 0x18 << 6 | 0x20, 0xFFE007FF, 0xFFE007FF, in_mips32r2, F::rd_rt, L::none, {MIPS_INS_SEH}, false},
  {Opcode::wsbh,  "wsbh",  primary(0x1F) | 0x02 << 6 | 0x20, 0xFFE007FF, 0xFFE007FF, in_mips32r2, F::rd_rt, L::none, {MIPS_INS_WSBH}, false},
  {Opcode::ext,   "ext",   primary(0x1F) | 0x00, 0xFC00003F, 0xFC00003F, in_mips32r2, F::bit_field, L::none, {MIPS_INS_EXT}, false},
  {Opcode::ins,   "ins",   primary(0x1F) | 0x04, 0xFC00003F, 0xFC00003F, in_mips32r2, F::bit_field, L::none, {MIPS_INS_INS}, false},
  {Opcode::rotr,  "rotr",  special(0x02) | 1u << 21, 0xFFE0003F, 0xFFE0003F, in_mips32r2, F::rd_rt_sa, L::none, {MIPS_INS_ROTR}, false},
  {Opcode::rotrv, "rotrv", special(0x06) | 1u << 6, 0xFC0007FF, 0xFC0007FF, in_mips32r2, F::rd_rt_rs, L::none, {MIPS_INS_ROTRV}, false},
  {Opcode::teq,   "teq",   special(0x34), 0xFC00003F, 0xFC00003F, in_mips32r2, F::rs_rt, L::none, {MIPS_INS_TEQ}, false},
  {Opcode::tne,   "tne",   special(0x36), 0xFC00003F, 0xFC00003F, in_mips32r2, F::rs_rt, L::none, {MIPS_INS_TNE}, false},
  {Opcode::sync,  "sync",  special(0x0F), 0xFFFFF83F, 0xFFFFF83F, in_mips32r2, F::none, L::none, {MIPS_INS_SYNC}, false},
  {Opcode::madd,  "madd",  primary(0x1C) | 0x00, 0xFC00FFFF, 0xFC00FFFF, in_mips32r2, F::rs_rt, L::none, {MIPS_INS_MADD}, false},
  {Opcode::maddu, "maddu", primary(0x1C) | 0x01, 0xFC00FFFF, 0xFC00FFFF, in_mips32r2, F::rs_rt, L::none, {MIPS_INS_MADDU}, false},
  {Opcode::msub,  "msub",  primary(0x1C) | 0x04, 0xFC00FFFF, 0xFC00FFFF, in_mips32r2, F::rs_rt, L::none, {MIPS_INS_MSUB}, false},
  {Opcode::msubu, "msubu", primary(0x1C) | 0x05, 0xFC00FFFF, 0xFC00FFFF, in_mips32r2, F::rs_rt, L::none, {MIPS_INS_MSUBU}, false},
  {Opcode::ll,    "ll",    primary(0x30), primary_only, primary_only, in_mips32r2, F::rt_mem, L::none, {MIPS_INS_LL}, false},
  {Opcode::sc,    "sc",    primary(0x38), primary_only, primary_only, in_mips32r2, F::rt_mem, L::none, {MIPS_INS_SC}, false},
  {Opcode::pref,  "pref",  primary(0x33), primary_only, primary_only, in_mips32r2, F::rt_mem, L::none, {MIPS_INS_PREF}, false},
  {Opcode::rdhwr, "rdhwr", primary(0x1F) | 0x3B, 0xFFE007FF, 0xFFE007FF, in_mips32r2, F::rt_cop_rd, L::none, {MIPS_INS_RDHWR}, false},
  {Opcode::lwc1,  "lwc1",  primary(0x31), primary_only, primary_only, in_mips32r2, F::rt_mem, L::none, {MIPS_INS_LWC1}, false},
  {Opcode::swc1,  "swc1",  primary(0x39), primary_only, primary_only, in_mips32r2, F::rt_mem, L::none, {MIPS_INS_SWC1}, false},
  {Opcode::ldc1,  "ldc1",  primary(0x35), primary_only, primary_only, in_mips32r2, F::rt_mem, L::none, {MIPS_INS_LDC1}, false},
  {Opcode::sdc1,  "sdc1",  primary(0x3D), primary_only, primary_only, in_mips32r2, F::rt_mem, L::none, {MIPS_INS_SDC1}, false},
  {Opcode::mfc1,  "mfc1",  cop(1, 0x00), cop_move, 0xFFE007FF, in_mips32r2, F::rt_cop_rd, L::none, {MIPS_INS_MFC1}, false},
  {Opcode::mtc1,  "mtc1",  cop(1, 0x04), cop_move, 0xFFE007FF, in_mips32r2, F::rt_cop_rd, L::none, {MIPS_INS_MTC1}, false},
  {Opcode::cfc1,  "cfc1",  cop(1, 0x02), cop_move, 0xFFE007FF, in_mips32r2, F::rt_cop_rd, L::none, {MIPS_INS_CFC1}, false},
  {Opcode::ctc1,  "ctc1",  cop(1, 0x06), cop_move, 0xFFE007FF, in_mips32r2, F::rt_cop_rd, L::none, {MIPS_INS_CTC1}, false},
  // COP1 arithmetic (MIPS32 Volume II): fmt in the rs field, S = 10h, D = 11h, W = 14h. A row covers S and D
  // where the mask leaves bit 21 out; the semantics read fmt from the word.
  {Opcode::fadd,  "add.fmt",  cop(1, 0x10) | 0x00, fp_sd, fp_sd, in_mips32r2, F::fp_three, L::none, {MIPS_INS_ADD}, false},
  {Opcode::fsub,  "sub.fmt",  cop(1, 0x10) | 0x01, fp_sd, fp_sd, in_mips32r2, F::fp_three, L::none, {MIPS_INS_SUB}, false},
  {Opcode::fmul,  "mul.fmt",  cop(1, 0x10) | 0x02, fp_sd, fp_sd, in_mips32r2, F::fp_three, L::none, {MIPS_INS_MUL}, false},
  {Opcode::fdiv,  "div.fmt",  cop(1, 0x10) | 0x03, fp_sd, fp_sd, in_mips32r2, F::fp_three, L::none, {MIPS_INS_DIV}, false},
  {Opcode::fsqrt, "sqrt.fmt", cop(1, 0x10) | 0x04, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_SQRT}, false},
  {Opcode::fabs,  "abs.fmt",  cop(1, 0x10) | 0x05, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_ABS}, false},
  {Opcode::fmov,  "mov.fmt",  cop(1, 0x10) | 0x06, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_MOV}, false},
  {Opcode::fneg,  "neg.fmt",  cop(1, 0x10) | 0x07, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_NEG}, false},
  {Opcode::round_w, "round.w.fmt", cop(1, 0x10) | 0x0C, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_ROUND}, false},
  {Opcode::trunc_w, "trunc.w.fmt", cop(1, 0x10) | 0x0D, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_TRUNC}, false},
  {Opcode::ceil_w,  "ceil.w.fmt",  cop(1, 0x10) | 0x0E, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_CEIL}, false},
  {Opcode::floor_w, "floor.w.fmt", cop(1, 0x10) | 0x0F, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_FLOOR}, false},
  {Opcode::cvt_w, "cvt.w.fmt", cop(1, 0x10) | 0x24, fp_sd_unary, fp_sd_unary, in_mips32r2, F::fp_two, L::none, {MIPS_INS_CVT}, false},
  // CVT.S from D or W, CVT.D from S or W (bit 23 tells S from W).
  {Opcode::cvt_s, "cvt.s.d", cop(1, 0x11) | 0x20, 0xFFFF003F, 0xFFFF003F, in_mips32r2, F::fp_two, L::none, {MIPS_INS_CVT}, false},
  {Opcode::cvt_s_w, "cvt.s.w", cop(1, 0x14) | 0x20, 0xFFFF003F, 0xFFFF003F, in_mips32r2, F::fp_two, L::none, {MIPS_INS_CVT}, false},
  {Opcode::cvt_d, "cvt.d.fmt", cop(1, 0x10) | 0x21, 0xFF7F003F, 0xFF7F003F, in_mips32r2, F::fp_two, L::none, {MIPS_INS_CVT}, false},
  // C.cond.fmt: funct 3xh (cond in bits 0-3), cc in bits 8-10, bits 6-7 zero.
  {Opcode::c_cond, "c.cond.fmt", cop(1, 0x10) | 0x30, 0xFFC000F0, 0xFFC000F0, in_mips32r2, F::fp_compare, L::none, {MIPS_INS_C}, false},
  // BC1F/BC1T (rt = cc << 2 | nd << 1 | tf): the branch-likely forms (nd = 1) are not offered.
  {Opcode::bc1,   "bc1",   cop(1, 0x08), 0xFFE20000, 0xFFE20000, in_mips32r2, F::fp_branch, L::branch, {MIPS_INS_BC1F, MIPS_INS_BC1T}, false},
  {Opcode::movcf, "movcf", special(0x01), 0xFC0207FF, 0xFC0207FF, in_mips32r2, F::rd_rs_cc, L::none, {MIPS_INS_MOVF, MIPS_INS_MOVT}, false},
  {Opcode::movcf_fmt, "movcf.fmt", cop(1, 0x10) | 0x11, 0xFFC2003F, 0xFFC2003F, in_mips32r2, F::fp_cc, L::none, {MIPS_INS_MOVF, MIPS_INS_MOVT}, false},
  {Opcode::movz_fmt, "movz.fmt", cop(1, 0x10) | 0x12, fp_sd, fp_sd, in_mips32r2, F::fp_rt, L::none, {MIPS_INS_MOVZ}, false},
  {Opcode::movn_fmt, "movn.fmt", cop(1, 0x10) | 0x13, fp_sd, fp_sd, in_mips32r2, F::fp_rt, L::none, {MIPS_INS_MOVN}, false},
  {Opcode::mfhc1, "mfhc1", cop(1, 0x03), cop_move, 0xFFE007FF, in_mips32r2, F::rt_cop_rd, L::none, {MIPS_INS_MFHC1}, false},
  {Opcode::mthc1, "mthc1", cop(1, 0x07), cop_move, 0xFFE007FF, in_mips32r2, F::rt_cop_rd, L::none, {MIPS_INS_MTHC1}, false},
};
// clang-format on

constexpr bool table_in_opcode_order() {
  for (size_t i = 0; i < std::size(table); ++i)
    if (static_cast<size_t>(table[i].opcode) != i) return false;
  return std::size(table) == static_cast<size_t>(Opcode::count);
}
static_assert(table_in_opcode_order(), "one row per Opcode, in runtime/core/mips/instructions.h order");

constexpr std::array<const char*, 32> register_names = {
    "$zero", "$at", "$v0", "$v1", "$a0", "$a1", "$a2", "$a3", "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7",
    "$s0",   "$s1", "$s2", "$s3", "$s4", "$s5", "$s6", "$s7", "$t8", "$t9", "$k0", "$k1", "$gp", "$sp", "$fp", "$ra"};

} // namespace

std::span<const Encoding> encodings() { return table; }

const Encoding& encoding(Opcode opcode) {
  const auto index = static_cast<size_t>(opcode);
  if (index >= std::size(table)) throw Error(fmt::format("MIPS: no encoding for opcode {}", index));
  return table[index];
}

const Encoding* match_encoding(uint32_t word, Variant variant) {
  for (const Encoding& row : table)
    if (row.matches(word, variant)) return &row;
  return nullptr;
}

std::string format_instruction(const Encoding& row, uint32_t word, uint32_t address) {
  const char* rs = register_names[(word >> 21) & 31];
  const char* rt = register_names[(word >> 16) & 31];
  const char* rd = register_names[(word >> 11) & 31];
  const unsigned sa = (word >> 6) & 31;
  const auto simm = static_cast<int16_t>(word & 0xFFFF);
  const uint32_t branch = address + 4 + (static_cast<uint32_t>(static_cast<int32_t>(simm)) << 2);
  const std::string_view m = row.mnemonic;
  switch (row.form) {
    case Form::rd_rt_sa: return fmt::format("{} {}, {}, {}", m, rd, rt, sa);
    case Form::rd_rt_rs: return fmt::format("{} {}, {}, {}", m, rd, rt, rs);
    case Form::rs: return fmt::format("{} {}", m, rs);
    case Form::rd_rs: return fmt::format("{} {}, {}", m, rd, rs);
    case Form::code: return fmt::format("{} {:#x}", m, (word >> 6) & 0xFFFFF);
    case Form::rd: return fmt::format("{} {}", m, rd);
    case Form::rs_rt: return fmt::format("{} {}, {}", m, rs, rt);
    case Form::rd_rs_rt: return fmt::format("{} {}, {}, {}", m, rd, rs, rt);
    case Form::rt_rs_imm: return fmt::format("{} {}, {}, {}", m, rt, rs, simm);
    case Form::rt_imm: return fmt::format("{} {}, {:#x}", m, rt, word & 0xFFFF);
    case Form::rs_rt_offset: return fmt::format("{} {}, {}, {:#x}", m, rs, rt, branch);
    case Form::rs_offset: return fmt::format("{} {}, {:#x}", m, rs, branch);
    case Form::jump: return fmt::format("{} {:#x}", m, ((address + 4) & 0xF0000000u) | (word & 0x03FFFFFFu) << 2);
    case Form::rt_mem: return fmt::format("{} {}, {}({})", m, (row.opcode == Opcode::lwc2 || row.opcode == Opcode::swc2 || row.opcode == Opcode::lwc1 || row.opcode == Opcode::swc1 || row.opcode == Opcode::ldc1 || row.opcode == Opcode::sdc1) ? fmt::format("${}", (word >> 16) & 31) : std::string(rt), simm, rs);
    case Form::rt_cop_rd: return fmt::format("{} {}, ${}", m, rt, (word >> 11) & 31);
    case Form::none: return std::string(m);
    case Form::cop2_command: return fmt::format("{} {:#x}", m, word & 0x01FFFFFF);
    case Form::rd_rt: return fmt::format("{} {}, {}", m, rd, rt);
    case Form::fp_three: return fmt::format("{} $f{}, $f{}, $f{}", m, sa, (word >> 11) & 31, (word >> 16) & 31);
    case Form::fp_two: return fmt::format("{} $f{}, $f{}", m, sa, (word >> 11) & 31);
    case Form::fp_compare: return fmt::format("{} $fcc{}, $f{}, $f{}", m, (word >> 8) & 7, (word >> 11) & 31, (word >> 16) & 31);
    case Form::fp_branch: return fmt::format("{} $fcc{}, {:#x}", m, (word >> 18) & 7, branch);
    case Form::rd_rs_cc: return fmt::format("{} {}, {}, $fcc{}", m, rd, rs, (word >> 18) & 7);
    case Form::fp_cc: return fmt::format("{} $f{}, $f{}, $fcc{}", m, sa, (word >> 11) & 31, (word >> 18) & 7);
    case Form::fp_rt: return fmt::format("{} $f{}, $f{}, {}", m, sa, (word >> 11) & 31, rt);
    case Form::bit_field: {
      const unsigned field_size = row.opcode == Opcode::ext ? ((word >> 11) & 31) + 1 : ((word >> 11) & 31) - sa + 1;
      return fmt::format("{} {}, {}, {}, {}", m, rt, rs, sa, field_size);
    }
  }
  return std::string(m);
}

uint32_t assemble(Opcode opcode, const Fields& f) {
  const Encoding& row = encoding(opcode);
  uint32_t word = row.match;
  word |= (f.rs & 31) << 21 | (f.rt & 31) << 16 | (f.rd & 31) << 11 | (f.sa & 31) << 6;
  switch (row.form) {
    case Form::code: word |= (f.imm & 0xFFFFF) << 6; break;
    case Form::jump: word |= f.imm & 0x03FFFFFF; break;
    case Form::cop2_command: word |= f.imm & 0x01FFFFFF; break;
    case Form::rt_rs_imm: case Form::rt_imm: case Form::rs_rt_offset: case Form::rs_offset: case Form::rt_mem: case Form::fp_branch:
      word |= f.imm & 0xFFFF;
      break;
    default: break;
  }
  return word;
}

} // namespace kiln::mips
