#pragma once
// The list of Gekko (PowerPC 750CL + paired singles) instructions that have semantics in
// runtime/core/ppc/ops.h, one row each: X(name) where `name` is the semantics function (kiln::ppc::name) and the
// recompiler's Opcode. One row covers an instruction's OE and Rc variants (addo., fadd.) and its AA/LK forms
// (bla): the semantics read those bits from the word. C++ keywords carry a trailing underscore; the record-only
// instructions (andi., andis., addic., stwcx.) end in _dot. The encodings live in
// recompiler/isa/ppc/encoding_table.cpp.

#define KILN_PPC_INSTRUCTIONS(X)                                                                                \
  /* integer arithmetic */ X(addi) X(addis) X(addic) X(addic_dot) X(subfic) X(mulli) X(add) X(addc) X(adde)     \
  X(addme) X(addze) X(subf) X(subfc) X(subfe) X(subfme) X(subfze) X(neg) X(mullw) X(mulhw) X(mulhwu) X(divw)    \
  X(divwu)                                                                                                      \
  /* compares */ X(cmp) X(cmpl) X(cmpi) X(cmpli)                                                                \
  /* logical */ X(andi_dot) X(andis_dot) X(ori) X(oris) X(xori) X(xoris) X(and_) X(andc) X(or_) X(orc) X(xor_)  \
  X(nand) X(nor) X(eqv) X(extsb) X(extsh) X(cntlzw)                                                             \
  /* rotates and shifts */ X(rlwinm) X(rlwnm) X(rlwimi) X(slw) X(srw) X(sraw) X(srawi)                         \
  /* condition register */ X(crand) X(crandc) X(creqv) X(crnand) X(crnor) X(cror) X(crorc) X(crxor) X(mcrf)    \
  X(mcrxr) X(mtcrf) X(mfcr)                                                                                     \
  /* loads */ X(lbz) X(lbzu) X(lbzx) X(lbzux) X(lhz) X(lhzu) X(lhzx) X(lhzux) X(lha) X(lhau) X(lhax) X(lhaux)   \
  X(lwz) X(lwzu) X(lwzx) X(lwzux) X(lhbrx) X(lwbrx) X(lmw) X(lswi) X(lswx) X(lwarx)                             \
  /* stores */ X(stb) X(stbu) X(stbx) X(stbux) X(sth) X(sthu) X(sthx) X(sthux) X(stw) X(stwu) X(stwx) X(stwux)  \
  X(sthbrx) X(stwbrx) X(stmw) X(stswi) X(stswx) X(stwcx_dot)                                                    \
  /* branches */ X(b) X(bc) X(bclr) X(bcctr)                                                                    \
  /* system */ X(sc) X(rfi) X(tw) X(twi) X(mfspr) X(mtspr) X(mftb) X(mfmsr) X(mtmsr) X(mfsr) X(mtsr) X(mfsrin)   \
  X(mtsrin) X(sync) X(isync) X(eieio) X(tlbie) X(tlbsync) X(eciwx) X(ecowx)                                     \
  /* cache */ X(dcbf) X(dcbi) X(dcbst) X(dcbt) X(dcbtst) X(dcbz) X(icbi) X(dcbz_l)                              \
  /* FP loads and stores */ X(lfs) X(lfsu) X(lfsx) X(lfsux) X(lfd) X(lfdu) X(lfdx) X(lfdux) X(stfs) X(stfsu)    \
  X(stfsx) X(stfsux) X(stfd) X(stfdu) X(stfdx) X(stfdux) X(stfiwx)                                              \
  /* FP arithmetic (fpu_ops.h) */ X(fadd) X(fadds) X(fsub) X(fsubs) X(fmul) X(fmuls) X(fdiv) X(fdivs) X(fmadd)   \
  X(fmadds) X(fmsub) X(fmsubs) X(fnmadd) X(fnmadds) X(fnmsub) X(fnmsubs) X(fres) X(frsqrte) X(frsp) X(fctiw)    \
  X(fctiwz) X(fsel) X(fabs) X(fnabs) X(fneg) X(fmr) X(fcmpu) X(fcmpo)                                           \
  /* FPSCR */ X(mffs) X(mtfsf) X(mtfsfi) X(mtfsb0) X(mtfsb1) X(mcrfs)                                           \
  /* paired-single loads and stores (paired_ops.h) */ X(psq_l) X(psq_lu) X(psq_lx) X(psq_lux) X(psq_st)         \
  X(psq_stu) X(psq_stx) X(psq_stux)                                                                             \
  /* paired-single arithmetic */ X(ps_add) X(ps_sub) X(ps_mul) X(ps_div) X(ps_madd) X(ps_msub) X(ps_nmadd)      \
  X(ps_nmsub) X(ps_muls0) X(ps_muls1) X(ps_madds0) X(ps_madds1) X(ps_sum0) X(ps_sum1) X(ps_merge00)             \
  X(ps_merge01) X(ps_merge10) X(ps_merge11) X(ps_neg) X(ps_abs) X(ps_nabs) X(ps_mr) X(ps_sel) X(ps_res)         \
  X(ps_rsqrte) X(ps_cmpu0) X(ps_cmpu1) X(ps_cmpo0) X(ps_cmpo1)

#include <cstdint>

namespace kiln::ppc {

enum class Opcode : uint16_t {
#define KILN_PPC_OPCODE_ENUM(name) name,
  KILN_PPC_INSTRUCTIONS(KILN_PPC_OPCODE_ENUM)
#undef KILN_PPC_OPCODE_ENUM
  count
};

} // namespace kiln::ppc
