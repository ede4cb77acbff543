#pragma once
// kiln's one MIPS encoding table: for every instruction with semantics (runtime/core/mips/instructions.h),
// its bit pattern, operand form, control flow, the variants that have it and the Capstone ids that name it.
// It drives decoding (with Capstone), disassembly text where Capstone has none, and assembly in the tests.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "runtime/core/mips/cpu.h"
#include "runtime/core/mips/instructions.h"

namespace kiln::mips {

using r3000::Opcode;
using r3000::Variant;

/// How the operands are written (and which fields an instruction uses).
enum class Form : uint8_t {
  rd_rt_sa,       ///< sll rd, rt, sa
  rd_rt_rs,       ///< sllv rd, rt, rs
  rs,             ///< jr rs / mthi rs
  rd_rs,          ///< jalr rd, rs
  code,           ///< syscall / break (20-bit code)
  rd,             ///< mfhi rd
  rs_rt,          ///< mult rs, rt
  rd_rs_rt,       ///< addu rd, rs, rt
  rt_rs_imm,      ///< addiu rt, rs, imm
  rt_imm,         ///< lui rt, imm
  rs_rt_offset,   ///< beq rs, rt, target
  rs_offset,      ///< blez rs, target
  jump,           ///< j target
  rt_mem,         ///< lw rt, offset(rs)
  rt_cop_rd,      ///< mfc0 rt, $rd
  none,           ///< rfe
  cop2_command,   ///< GTE command (imm25)
  rd_rt,          ///< seb rd, rt
  bit_field,      ///< ext/ins rt, rs, pos, size (rd field = msb(d), sa field = pos)
  fp_three,       ///< add.d fd, fs, ft (fd = sa field, fs = rd field, ft = rt field)
  fp_two,         ///< sqrt.d fd, fs / cvt.d.w fd, fs
  fp_compare,     ///< c.lt.d $fcc, fs, ft (cc = bits 8-10)
  fp_branch,      ///< bc1t $fcc, target (cc = bits 18-20)
  rd_rs_cc,       ///< movt rd, rs, $fcc
  fp_cc,          ///< movt.d fd, fs, $fcc
  fp_rt,          ///< movz.d fd, fs, rt
};

/// How an instruction moves control (analysis finds blocks, calls and returns from it).
enum class Flow : uint8_t { none, jump, branch, call, jump_register, call_register, trap };

enum VariantMask : uint8_t { in_r3000 = 1, in_mips32r2 = 2, in_both = 3 };

struct Encoding {
  Opcode opcode;
  std::string_view mnemonic;
  uint32_t match;
  uint32_t r3000_mask;  ///< the bits the R3000A decodes (it ignores unused fields)
  uint32_t strict_mask; ///< the bits MIPS32 requires (unused fields zero)
  uint8_t variants;     ///< VariantMask
  Form form;
  Flow flow;
  unsigned capstone_ids[5]; ///< Capstone 4 MIPS_INS_* ids (aliases included) naming this row; 0 = unused
  bool beyond_capstone;     ///< Capstone 4.0.2 cannot decode this row (kiln decodes it from the table)

  uint32_t mask(Variant v) const { return v == Variant::r3000 ? r3000_mask : strict_mask; }
  bool in(Variant v) const { return (variants & (v == Variant::r3000 ? in_r3000 : in_mips32r2)) != 0; }
  bool matches(uint32_t word, Variant v) const { return in(v) && (word & mask(v)) == match; }
};

/// Every row, in Opcode order.
std::span<const Encoding> encodings();
const Encoding& encoding(Opcode opcode);
/// The row `word` matches in `variant` by bit pattern alone, or nullptr.
const Encoding* match_encoding(uint32_t word, Variant variant);

/// kiln's disassembly of `word` (at `address`) as `row` (register names $0..$31 written as Capstone does).
std::string format_instruction(const Encoding& row, uint32_t word, uint32_t address);

/// Assembly for tests: the row's pattern with fields inserted (fields outside the form are left zero).
struct Fields {
  unsigned rs = 0, rt = 0, rd = 0, sa = 0;
  uint32_t imm = 0; ///< imm16 / jump index / code / command, as the form uses it
};
uint32_t assemble(Opcode opcode, const Fields& fields);

} // namespace kiln::mips
