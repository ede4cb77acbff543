#pragma once
// The one Maxwell/Pascal encoding table. Each row names an opcode, the bits that identify it (match/mask over
// the 64-bit word) and, in a small text notation, where every operand and modifier lives. decode(), assemble()
// and the disassembly text all read these rows; nothing else knows a bit position.
//
// Operand notation (comma-separated, printed in this order; options after spaces):
//   R<lsb>        register (8 bits; 255 = RZ)         P<lsb>   predicate (3 bits; 7 = PT)
//   C             c[bank 34:5][offset 20:14 * 4]      CX       c[bank 36:5][R8 + signed 20:16] (LDC)
//   I20 F20 D20   20-bit integer/float/double literal: 19 bits at 20, sign at 56 (float: top bits of the value)
//   I32 U32 F32   32-bit literal at 20                 U<w>@<lsb> / S<w>@<lsb>  unsigned / signed literal
//   T             branch target: signed 24 bits at 20, relative to the next instruction
//   SR            special register at 20 (8 bits)     M<w>     [R8 + signed w bits at 20]
//   M<w>@<lsb>    [R8 + signed w bits at lsb] (RED, ATOM)
//   A             a[R8 + 10 bits at 20]                A28      a[R8 + 10 bits at 28] (IPA)
//   E<lsb>:<w>[+<lsb>:<w>]=<names>   enumerant printed as a word ('/'-separated names, '?' = invalid, or %LIST)
//   E=<text>      fixed text, no bits (CSETP's "CC")    TA       absolute call target: 32 bits at 20 (JCAL)
//   HF<lsb>       half literal: its top 10 bits at lsb   [R8]     [R8] with no offset (SULD/SUST)
//         R<lsb>+<k>  the register k above the one at lsb, no bits of
//                                                                 its own (ATOM.CAS's implied swap value; RZ stays RZ)
// Options: n<bit> negate, a<bit> absolute, i<bit> invert (~R, !P), s<lsb>:<w>=/<names> part selector
// (R1.H1), ?<value> omitted from the text when it holds that value and no option bit is set, x<k> the field
// counts units of k bytes (ATOMS addresses), u<slot> the control word's reuse flag of this operand when it is not
// the one its bit position implies (0 = bit 8, 1 = bit 20, 2 = bit 39), m the enumerant's name after its first
// '.' prints after the mnemonic ("2D.LL" -> TEXS.LL ... 2D), c a TEXS/TLDS component mask printed as letters
// (which components a value names depends on whether the first operand is RZ), b a set of scoreboards printed as
// {0,3} (DEPBAR).
// Modifier notation (';'-separated, printed after the mnemonic in this order):
//   NAME@<bit>                  one-bit flag printed as .NAME
//   name@<lsb>:<w>[+<lsb>:<w>]=v0,v1,...   enumeration: value i prints .v_i ("" prints nothing, ? invalid)
//   %LIST in place of the values uses a shared list (%CC: the 32 condition codes)
//   NAME                        fixed text, no bits (.LUT)
//   &name@...                   printed as the first operand instead of a suffix (BRA CC.EQ, 0x40), only when not empty
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "translator/sass/sm5x/instruction.h"

namespace kiln::sass::sm5x {

struct BitRange {
  uint8_t lsb = 0;
  uint8_t width = 0;
};

/// A value spread over one or more bit ranges, low range first (the first range holds the low bits).
struct BitField {
  std::vector<BitRange> ranges;
  unsigned width() const;
  uint64_t mask() const;
  uint64_t read(uint64_t word) const;
  /// Writes `value`; false when it does not fit.
  bool write(uint64_t& word, uint64_t value) const;
};

enum class OperandForm : uint8_t {
  gpr, predicate, cbuf, cbuf_indexed, int20, float20, double20, int32, uint32, float32, unsigned_literal,
  signed_literal, half10, branch_target, absolute_target, special_register, memory, attribute, enumerant, implied_register,
};

struct OperandSpec {
  OperandForm form = OperandForm::gpr;
  BitField field;                  ///< the main field (register number, literal, enumerant)
  std::vector<std::string> names;  ///< enumerant names
  int8_t negate_bit = -1;
  int8_t absolute_bit = -1;
  int8_t invert_bit = -1;
  BitField selector;               ///< part selector (.H1 / .B2), empty when none
  std::vector<std::string> selector_names;
  bool optional = false;           ///< omitted from the text when equal to `default_value` with no option set
  int64_t default_value = 0;
  uint8_t scale = 1;               ///< memory: the field counts units of this many bytes
  uint8_t register_offset = 0;     ///< implied_register: added to the register in `field`
  int8_t reuse_slot = -1;          ///< control-word reuse flag when not implied by the field's position
  bool suffix_to_mnemonic = false; ///< enumerant: the name's part after its first '.' prints after the mnemonic
  bool component_mask = false;     ///< printed as the components a TEXS/TLDS mask selects
  bool bit_set = false;            ///< printed as the set of its one bits ("{1}")
  /// Every bit this operand owns.
  uint64_t mask() const;
};

struct ModifierSpec {
  std::string name;                ///< field name used by Instruction::modifier() ("rnd", "FTZ")
  BitField field;                  ///< empty for fixed text
  std::vector<std::string> values; ///< printed suffix per value; "?" = invalid encoding
  bool as_operand = false;         ///< printed before the operands ("BRA CC.EQ, 0x40"), not after the mnemonic
};

struct Encoding {
  Opcode opcode{};
  uint64_t match = 0;
  uint64_t mask = 0;
  bool guarded = true;             ///< has the @P guard at 16:3 with negation at 19
  std::vector<OperandSpec> operands;
  std::vector<ModifierSpec> modifiers;
  uint64_t covered = 0;            ///< mask | guard | every operand and modifier bit
  std::string_view source_operands;///< the row's notation, for messages
};

/// What a TEXS/TLDS component-mask value (3 bits) names, as the disassembly prints it and the text assembler reads
/// it: with one destination register (the first operand RZ) one or two components, with two three or four; "?"
/// where a value names none.
std::string_view component_mask_name(int64_t value, bool one_register);

/// All rows, most specific first (decode takes the first row whose mask matches).
const std::vector<Encoding>& encodings();

/// The rows as written in encoding_table.cpp, before parsing.
struct EncodingRow {
  Opcode opcode;
  uint64_t match;
  uint64_t mask;
  const char* operands;
  const char* modifiers;
  bool guarded = true;
};
std::vector<EncodingRow> encoding_rows();
/// Parses one row's notation (throws kiln::Error on a malformed row: a table bug).
Encoding parse_encoding_row(const EncodingRow& row);

} // namespace kiln::sass::sm5x
