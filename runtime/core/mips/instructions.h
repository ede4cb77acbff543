#pragma once
// The list of R3000A / MIPS32 instructions that have semantics in runtime/core/mips/ops.h, one row each:
// X(name) where `name` is the semantics function (kiln::r3000::name) and the recompiler's Opcode. Names that
// are C++ keywords carry a trailing underscore. The encodings live in recompiler/isa/mips/encoding_table.cpp.

#define KILN_R3000_INSTRUCTIONS(X)                                                                              \
  /* shifts */ X(sll) X(srl) X(sra) X(sllv) X(srlv) X(srav)                                                      \
  /* jumps and branches */ X(jr) X(jalr) X(j) X(jal) X(beq) X(bne) X(blez) X(bgtz) X(bcondz)                     \
  /* traps */ X(syscall) X(break_)                                                                               \
  /* HI/LO */ X(mfhi) X(mthi) X(mflo) X(mtlo) X(mult) X(multu) X(div) X(divu)                                    \
  /* ALU */ X(add) X(addu) X(sub) X(subu) X(and_) X(or_) X(xor_) X(nor) X(slt) X(sltu)                           \
  /* immediates */ X(addi) X(addiu) X(slti) X(sltiu) X(andi) X(ori) X(xori) X(lui)                               \
  /* loads */ X(lb) X(lh) X(lwl) X(lw) X(lbu) X(lhu) X(lwr)                                                      \
  /* stores */ X(sb) X(sh) X(swl) X(sw) X(swr)                                                                   \
  /* COP0 */ X(mfc0) X(mtc0) X(rfe)                                                                              \
  /* COP2 = GTE */ X(mfc2) X(cfc2) X(mtc2) X(ctc2) X(cop2) X(lwc2) X(swc2)                                                     \
  /* MIPS32r2 (r3000_mips32r2_ops.h) */ X(mul) X(movz) X(movn) X(clz) X(clo) X(seb) X(seh) X(wsbh) X(ext) X(ins)      \
  X(rotr) X(rotrv) X(teq) X(tne) X(sync) X(madd) X(maddu) X(msub) X(msubu) X(ll) X(sc) X(pref) X(rdhwr)  \
  X(lwc1) X(swc1) X(ldc1) X(sdc1) X(mfc1) X(mtc1) X(cfc1) X(ctc1)                                                \
  /* COP1 arithmetic (r3000_fpu_ops.h) */ X(fadd) X(fsub) X(fmul) X(fdiv) X(fsqrt) X(fabs) X(fmov) X(fneg)         \
  X(round_w) X(trunc_w) X(ceil_w) X(floor_w) X(cvt_w) X(cvt_s) X(cvt_s_w) X(cvt_d) X(c_cond) X(bc1) X(movcf) X(movcf_fmt)      \
  X(movz_fmt) X(movn_fmt) X(mfhc1) X(mthc1)

#include <cstdint>

namespace kiln::r3000 {

enum class Opcode : uint16_t {
#define KILN_R3000_OPCODE_ENUM(name) name,
  KILN_R3000_INSTRUCTIONS(KILN_R3000_OPCODE_ENUM)
#undef KILN_R3000_OPCODE_ENUM
  count
};

} // namespace kiln::r3000
