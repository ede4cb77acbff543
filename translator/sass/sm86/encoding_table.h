#pragma once
// The one encoding table of the Volta-family 128-bit SASS encoding. Each form says which bits hold which
// operand or modifier; decode(), disassemble() and assemble() all walk the same forms, so they cannot
// disagree. The forms are written in a small text notation (table_*.inc, described in docs/translator-sm86.md)
// that is parsed once, on first use.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86 {

/// A bit field of the instruction word.
struct BitField {
  uint8_t lsb = 0;
  uint8_t width = 0;
  bool present() const { return width != 0; }
};

/// A field whose values map to names ("" prints nothing; an unlisted value is not a valid encoding).
struct NamedField {
  BitField bits;
  BitField high_bits;                  ///< optional second range: value = bits | high_bits << bits.width
  std::vector<std::string> names;      ///< by value; "?" marks a value the form does not accept
  std::vector<std::vector<Modifier>> modifiers;  ///< per value, its name as Modifiers ("STRONG.GPU" is two)
};

enum class OperandSpecKind : uint8_t {
  gpr, uniform_gpr, predicate, uniform_predicate, barrier,
  immediate, constant_buffer, memory, special_register, attribute, branch_target, enumerant,
};

struct OperandSpec {
  OperandSpecKind kind = OperandSpecKind::gpr;
  BitField field;                      ///< register number, immediate bits, enumerant value, constant offset
  BitField field_high;                 ///< immediates split over two ranges: value = field | field_high << width
  ImmediateType immediate_type = ImmediateType::integer;
  bool is_signed = false;              ///< immediate / offset is two's complement
  int16_t negate_bit = -1, absolute_bit = -1, invert_bit = -1;
  int16_t reuse_bit = -1;              ///< control bit 122-125 flagging reuse; -1: by field (24->122, 32->123, 64->124)
  std::string fixed_suffix;            ///< always printed after the operand ("64" for R2.64 when implied)
  NamedField suffix;                   ///< a suffix chosen by a field (".H1", ".64")
  // Constant buffers: bank number field, uniform-bank flag (bank then names a UR), index register field.
  BitField bank;
  int16_t uniform_bank_bit = -1;
  BitField index_register;
  // Memory operands: base GPR, its .64 flag, uniform base register, offset (field), scale (unused yet).
  BitField base;
  int16_t wide_bit = -1;
  BitField uniform_base;               ///< memory: uniform base register; constant: the bank's uniform register
  std::vector<std::string> names;      ///< enumerant and special-register names by value
  uint8_t shift = 0;                   ///< value = field << shift (attribute offsets, word-scaled immediates)
  bool space_separated = false;        ///< printed after a space instead of ", " (RET's target)
  bool hidden = false;                 ///< never printed (nvdisasm does not show it), still decoded and assembled
  bool optional = false;               ///< omitted from the text when the field holds `default_value`
  uint64_t default_value = 0;
};

struct FixedBits {
  BitField bits;
  uint64_t value = 0;
};

struct Form {
  uint16_t opcode_bits = 0;            ///< bits 0-11
  Opcode opcode{};
  std::vector<NamedField> modifiers;   ///< printed in this order
  std::vector<OperandSpec> operands;   ///< printed in this order
  std::vector<FixedBits> fixed;        ///< bits that must hold a given value
  bool uniform_guard = false;          ///< the guard (bits 12-15) names a uniform predicate (UP0-UP6, UPT)
  uint8_t architectures = 0b11;        ///< one bit per Architecture the form belongs to (arch= in the table)
  Word128 claimed;                     ///< every bit some part of the form accounts for
  std::string source;                  ///< the table line, for error messages
};

/// All forms, parsed on first use. Throws kiln::Error naming the table line if the table itself is malformed.
const std::vector<Form>& encoding_forms();

/// Whether `form` belongs to `architecture` (a line without arch= belongs to every architecture).
inline bool form_applies(const Form& form, Architecture architecture) {
  return (form.architectures >> static_cast<unsigned>(architecture)) & 1;
}

/// Indices (into encoding_forms()) of the forms whose opcode bits are `opcode_bits`, in table order.
std::span<const uint16_t> forms_with_opcode(uint16_t opcode_bits);

/// The names of special registers (S2R/CS2R/S2UR) by number; "" where unknown.
const std::vector<std::string>& special_register_names();

} // namespace kiln::sass::sm86
