// assemble(): writes a decoded instruction back through the same table form that decoded it.
#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/sass/sm86/encoding_table.h"
#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86 {
namespace {

void write(Word128& word, BitField field, uint64_t value) {
  if (field.present()) word.set_field(field.lsb, field.width, value);
}
void write(Word128& word, const NamedField& field, uint64_t value) {
  write(word, field.bits, value);
  write(word, field.high_bits, value >> field.bits.width);
}
void write_bit(Word128& word, int16_t bit, bool value) {
  if (bit >= 0) word.set_field(static_cast<unsigned>(bit), 1, value ? 1 : 0);
}

size_t name_index(const std::vector<std::string>& names, std::string_view name, const Form& form) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  throw Error(fmt::format("assemble: '{}' is not a value of its field in form: {}", name, form.source));
}

void write_operand(Word128& word, const OperandSpec& spec, const Operand& operand, uint64_t offset, const Form& form) {
  write_bit(word, spec.negate_bit, operand.negate);
  write_bit(word, spec.absolute_bit, operand.absolute);
  write_bit(word, spec.invert_bit, operand.invert);
  if (spec.suffix.bits.present()) write(word, spec.suffix, name_index(spec.suffix.names, operand.suffix, form));
  switch (spec.kind) {
  case OperandSpecKind::gpr:
  case OperandSpecKind::uniform_gpr:
  case OperandSpecKind::predicate:
  case OperandSpecKind::uniform_predicate:
  case OperandSpecKind::barrier:
  case OperandSpecKind::special_register:
    write(word, spec.field, operand.index);
    return;
  case OperandSpecKind::enumerant:
    write(word, spec.field, name_index(spec.names, operand.text, form));
    return;
  case OperandSpecKind::immediate:
  case OperandSpecKind::attribute:
    write(word, spec.field, static_cast<uint64_t>(operand.value) >> spec.shift);
    write(word, spec.field_high, (static_cast<uint64_t>(operand.value) >> spec.shift) >> spec.field.width);
    return;
  case OperandSpecKind::constant_buffer:
    write(word, spec.field, static_cast<uint64_t>(operand.value));
    write(word, spec.index_register, operand.base);
    write_bit(word, spec.uniform_bank_bit, operand.uniform_bank);
    if (operand.uniform_bank) write(word, spec.uniform_base, operand.uniform_base);
    else write(word, spec.bank, operand.index);
    return;
  case OperandSpecKind::memory:
    write(word, spec.field, static_cast<uint64_t>(operand.value));
    write(word, spec.base, operand.base);
    write_bit(word, spec.wide_bit, operand.base_is_64);
    write(word, spec.uniform_base, operand.uniform_base);
    return;
  case OperandSpecKind::branch_target:
    write(word, spec.field, static_cast<uint64_t>((operand.value - static_cast<int64_t>(offset) - 16) >> spec.shift));
    return;
  }
}

} // namespace

Word128 assemble(const Instruction& instruction) {
  const auto& forms = encoding_forms();
  if (instruction.form >= forms.size() || forms[instruction.form].opcode != instruction.opcode) {
    throw Error(fmt::format("assemble: form {} does not encode {}", instruction.form, opcode_name(instruction.opcode)));
  }
  const Form& form = forms[instruction.form];
  if (instruction.operands.size() != form.operands.size()) {
    throw Error(fmt::format("assemble: {} operands given, form has {}: {}", instruction.operands.size(),
                            form.operands.size(), form.source));
  }
  Word128 word;
  word.set_field(0, 12, form.opcode_bits);
  word.set_field(12, 3, instruction.guard);
  word.set_field(15, 1, instruction.guard_negated);
  const Control& control = instruction.control;
  word.set_field(105, 4, control.stall);
  word.set_field(109, 1, control.yield);
  word.set_field(110, 3, control.write_barrier);
  word.set_field(113, 3, control.read_barrier);
  word.set_field(116, 6, control.wait_mask);
  word.set_field(122, 4, control.reuse_mask);
  for (const auto& fixed : form.fixed) write(word, fixed.bits, fixed.value);

  // Each modifier field takes the value whose tokens come next; fields printing nothing match without tokens.
  size_t next = 0;
  for (const auto& field : form.modifiers) {
    std::optional<size_t> chosen;
    for (size_t value = 0; value < field.modifiers.size(); ++value) {
      const auto& tokens = field.modifiers[value];
      if (field.names[value] == "?") continue;
      if (tokens.empty()) {
        if (!chosen) chosen = value;
        continue;
      }
      if (next + tokens.size() > instruction.modifiers.size()) continue;
      if (std::equal(tokens.begin(), tokens.end(), instruction.modifiers.begin() + static_cast<ptrdiff_t>(next))) {
        if (!chosen || field.modifiers[*chosen].size() < tokens.size()) chosen = value;
      }
    }
    if (!chosen) throw Error(fmt::format("assemble: modifiers do not fit form: {}", form.source));
    next += field.modifiers[*chosen].size();
    write(word, field, *chosen);
  }
  if (next != instruction.modifiers.size()) throw Error(fmt::format("assemble: extra modifiers for form: {}", form.source));
  for (size_t i = 0; i < form.operands.size(); ++i) {
    write_operand(word, form.operands[i], instruction.operands[i], instruction.offset, form);
  }
  return word;
}

} // namespace kiln::sass::sm86
