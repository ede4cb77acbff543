#pragma once
// kiln's one Gekko encoding table: for every instruction with semantics (runtime/core/ppc/instructions.h), its
// bit pattern, operands (in the order the assembler writes them, each with its field and whether it is read or
// written), control-flow kind, traits and the Capstone ids that name it. It drives decoding (with Capstone for
// the base ISA), disassembly text (text.cpp, GNU objdump -M750cl style), the register effects and control
// flow the pipeline reads as data (effects.cpp), and assembly in the tests.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "runtime/core/ppc/instructions.h"

namespace kiln::ppc {

/// One operand: which field holds it and what the instruction does with it. Field positions are LSB-0.
enum class Operand : uint8_t {
  none,
  rd,          ///< GPR, bits 21-25, written
  rs,          ///< GPR, bits 21-25, read
  ra,          ///< GPR, bits 16-20, read
  ra0,         ///< GPR, bits 16-20, read; r0 there means the value 0 (rA|0)
  ra0_named,   ///< as ra0, written "r0" rather than "0" (the Gekko instructions' operand style)
  ra_w,        ///< GPR, bits 16-20, written
  ra_rw,       ///< GPR, bits 16-20, read and written (indexed update forms, rlwimi)
  rb,          ///< GPR, bits 11-15, read
  frd,         ///< FPR, bits 21-25, written
  frs,         ///< FPR, bits 21-25, read
  fra, frb, frc, ///< FPR, bits 16-20 / 11-15 / 6-10, read
  crfd,        ///< CR field, bits 23-25, written
  crfs,        ///< CR field, bits 18-20, read
  crbd,        ///< CR bit, bits 21-25, written
  crba, crbb,  ///< CR bits, bits 16-20 / 11-15, read
  simm,        ///< signed 16 bits
  uimm,        ///< unsigned 16 bits
  d_ra0,       ///< d(rA|0): signed 16-bit displacement, base in bits 16-20 (two assembly values: d, rA)
  d_ra_update, ///< d(rA) of an update form: rA read and written
  psq_d_ra0,   ///< d(rA|0) with a 12-bit displacement (psq_l, psq_st)
  psq_d_ra_update,
  psq_w, psq_i,   ///< W bit 15, GQR index bits 12-14 (psq_l, psq_st)
  psq_wx, psq_ix, ///< W bit 10, GQR index bits 7-9 (psq_lx, psq_stx)
  sh,          ///< shift amount, bits 11-15
  mb, me,      ///< mask begin bits 6-10, mask end bits 1-5
  nb,          ///< string byte count, bits 11-15 (0 means 32)
  to,          ///< trap conditions, bits 21-25
  bo, bi,      ///< branch options bits 21-25, condition bit bits 16-20
  bd,          ///< 14-bit branch displacement (bits 2-15, in bytes)
  li,          ///< 24-bit branch displacement (bits 2-25, in bytes)
  spr,         ///< SPR number, split field bits 11-20
  tbr,         ///< time base register number, split field bits 11-20
  sr,          ///< segment register, bits 16-19
  crm,         ///< CR field mask, bits 12-19
  fm,          ///< FPSCR field mask, bits 17-24
  fpscr_imm,   ///< mtfsfi immediate, bits 12-15
  fpscr_field, ///< mtfsfi's FPSCR field, bits 23-25 (written as a number)
  fpscr_crfs,  ///< mcrfs's FPSCR field, bits 18-20 (written "crN", as objdump does)
  fpscr_bit,   ///< mtfsb0/mtfsb1's FPSCR bit, bits 21-25
};

/// How an instruction can move control; control_flow() resolves it for one word.
enum class Flow : uint8_t {
  none,
  branch,             ///< b/ba/bl/bla
  branch_conditional, ///< bc (BO may make it unconditional)
  branch_to_lr,       ///< bclr
  branch_to_ctr,      ///< bcctr
  system_call,        ///< sc
  trap,               ///< tw/twi
  exception_return,   ///< rfi
};

/// What an instruction needs or touches beyond its operands (Encoding::traits bits).
namespace trait {
enum : uint32_t {
  has_oe = 1u << 0,       ///< bit 10 is OE: XER OV and SO are written when set
  has_rc = 1u << 1,       ///< bit 0 is Rc: CR0 (integer) or CR1 (FP) is written when set
  always_rc = 1u << 2,    ///< a record-only instruction (andi., addic., stwcx.): CR0 is always written
  reads_ca = 1u << 3,
  writes_ca = 1u << 4,
  floating = 1u << 5,     ///< needs MSR[FP] (FP unavailable exception otherwise)
  fpscr_rw = 1u << 6,     ///< reads the rounding mode and writes FPSCR status bits
  paired = 1u << 7,       ///< needs HID2[PSE] (illegal instruction otherwise)
  quantized = 1u << 8,    ///< reads a GQR; psq_l/psq_st need HID2[LSQE], the indexed forms HID2[PSE]
  locked_cache = 1u << 9, ///< needs HID2[LCE]
  privileged = 1u << 10,  ///< supervisor only (privileged instruction exception with MSR[PR] set)
  loads = 1u << 11,
  stores = 1u << 12,
  writes_ps1 = 1u << 13,  ///< writes both halves of frD (single-precision results, ps_*)
};
} // namespace trait

struct Encoding {
  Opcode opcode;
  std::string_view mnemonic;
  uint32_t match;
  uint32_t mask;      ///< bits the instruction fixes: opcode, extended opcode and fields that must be zero
  Operand operands[5];
  Flow flow;
  uint32_t traits;    ///< trait:: bits
  unsigned capstone_ids[4]; ///< Capstone 4 PPC_INS_* ids (aliases included) naming this row; 0 = unused
  bool beyond_capstone = false; ///< Capstone 4.0.2 (CS_ARCH_PPC, 32-bit big endian) does not decode this row
  std::span<const uint16_t> capstone_family = {}; ///< more ids, for rows Capstone names by many mnemonics

  bool matches(uint32_t word) const { return (word & mask) == match; }
  bool has(uint32_t trait_bit) const { return (traits & trait_bit) != 0; }
};

/// Every row, in Opcode order.
std::span<const Encoding> encodings();
const Encoding& encoding(Opcode opcode);
/// The rules beyond the bit pattern: the PEM's invalid forms (update forms with rA = 0 or rA = rD, lmw/lswi/lswx
/// register overlaps, bcctr decrementing CTR).
bool valid_form(const Encoding& row, uint32_t word);
/// The row `word` matches (pattern and valid_form), or nullptr.
const Encoding* match_encoding(uint32_t word);

/// kiln's disassembly of `word` at `address` as `row`, in GNU objdump's -M750cl style (its simplified
/// mnemonics included: li, mr, blr, bdnz-, cmpwi, mtlr ...), operands separated by "," with no spaces.
std::string format_instruction(const Encoding& row, uint32_t word, uint32_t address);

/// Assembly for tests: the row's pattern with `values` inserted in operand order (a displacement operand
/// takes two values, d then rA; bd/li take the byte displacement). Modifier bits are set separately.
struct Modifiers {
  bool oe = false, rc = false, aa = false, lk = false;
};
uint32_t assemble(Opcode opcode, std::initializer_list<int64_t> values, Modifiers modifiers = {});

// ---- what the pipeline reads as data ----

/// Registers outside the GPR/FPR/CR files (Effects::special_read/special_write bits).
enum Special : uint16_t {
  special_lr = 1u << 0,
  special_ctr = 1u << 1,
  special_xer_so = 1u << 2,
  special_xer_ov = 1u << 3,
  special_xer_ca = 1u << 4,
  special_xer_count = 1u << 5,
  special_fpscr = 1u << 6,
  special_msr = 1u << 7,
  special_srr = 1u << 8,      ///< SRR0/SRR1
  special_spr = 1u << 9,      ///< another SPR (Effects::spr names it when it is one)
  special_timebase = 1u << 10,
  special_segment = 1u << 11, ///< segment registers
  special_reservation = 1u << 12,
  special_memory = 1u << 13,
};

struct Effects {
  uint32_t gpr_read = 0, gpr_write = 0;
  uint32_t fpr_read = 0, fpr_write = 0; ///< an FPR bit covers both ps0 and ps1
  uint8_t cr_read = 0, cr_write = 0;    ///< bit n = CR field n (a partial write of a field also reads it)
  uint16_t special_read = 0, special_write = 0;
  std::optional<unsigned> spr;          ///< the SPR of mfspr/mtspr/mftb, the GQR of psq_*
  bool may_raise = false;               ///< can end in an exception (Cpu::exception_taken)
};
/// The registers `word` (decoded as `row`) reads and writes. sc reads and writes every register: the system
/// call or the guest's handler may touch any of them.
Effects effects(const Encoding& row, uint32_t word);

enum class FlowKind : uint8_t {
  none,
  jump,             ///< to `target`
  call,             ///< to `target`, LR = next instruction
  return_,          ///< through LR without linking (blr and its conditional forms)
  indirect_jump,    ///< through CTR (bctr)
  indirect_call,    ///< through LR or CTR, linking (blrl, bctrl)
  trap,             ///< tw/twi: program exception when the condition holds
  system_call,
  exception_return, ///< rfi: to SRR0
};
enum class Via : uint8_t { none, lr, ctr };
struct ControlFlow {
  FlowKind kind = FlowKind::none;
  bool conditional = false;      ///< may fall through to the next instruction
  std::optional<uint32_t> target; ///< static target of b/bc
  Via via = Via::none;           ///< register an indirect transfer reads
  bool decrements_ctr = false;
};
ControlFlow control_flow(const Encoding& row, uint32_t word, uint32_t address);

} // namespace kiln::ppc
