// decode(): finds the table form that accounts for every set bit of a word and reads its fields.
#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "translator/sass/sm86/encoding_table.h"
#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86 {
namespace {

bool bit_set(const Word128& word, int16_t bit) { return bit >= 0 && word.bit(static_cast<unsigned>(bit)); }

uint64_t read(const Word128& word, BitField field) { return field.present() ? word.field(field.lsb, field.width) : 0; }

uint64_t read(const Word128& word, const NamedField& field) {
  return read(word, field.bits) | (read(word, field.high_bits) << field.bits.width);
}

bool name_valid(const std::vector<std::string>& names, uint64_t value) {
  return value < names.size() && names[value] != "?";
}

// Reads one operand; false when the bits are not a valid value for it (the form then does not match).
bool read_operand(const Word128& word, const OperandSpec& spec, uint64_t offset, const Control& control, Operand& out) {
  const uint64_t value = read(word, spec.field) | (read(word, spec.field_high) << spec.field.width);
  out.omitted = spec.hidden || (spec.optional && value == spec.default_value && !bit_set(word, spec.invert_bit));
  out.negate = bit_set(word, spec.negate_bit);
  out.absolute = bit_set(word, spec.absolute_bit);
  out.invert = bit_set(word, spec.invert_bit);
  if (!spec.fixed_suffix.empty()) out.suffix = spec.fixed_suffix;
  if (spec.suffix.bits.present()) {
    const uint64_t suffix = read(word, spec.suffix);
    if (!name_valid(spec.suffix.names, suffix)) return false;
    out.suffix = spec.suffix.names[suffix];
  }
  switch (spec.kind) {
  case OperandSpecKind::gpr:
    out.kind = OperandKind::gpr;
    out.index = static_cast<uint16_t>(value);
    // The reuse flags (control bits 122-124) belong to the register fields at bits 24, 32 and 64 unless the
    // form names another (FADD flags its second source with bit 124).
    if (spec.reuse_bit == 0) out.reuse = false;  // texture operands: the flags mean something else
    else if (spec.reuse_bit >= 122) out.reuse = (control.reuse_mask >> (spec.reuse_bit - 122)) & 1;
    else if (spec.field.lsb == 24) out.reuse = control.reuse_mask & 1;
    else if (spec.field.lsb == 32) out.reuse = control.reuse_mask & 2;
    else if (spec.field.lsb == 64) out.reuse = control.reuse_mask & 4;
    return true;
  case OperandSpecKind::uniform_gpr:
    out.kind = OperandKind::uniform_gpr;
    out.index = static_cast<uint16_t>(value);
    return value <= kURZ;
  case OperandSpecKind::predicate:
  case OperandSpecKind::uniform_predicate:
    out.kind = spec.kind == OperandSpecKind::predicate ? OperandKind::predicate : OperandKind::uniform_predicate;
    out.index = static_cast<uint16_t>(value);
    return true;
  case OperandSpecKind::barrier:
    out.kind = OperandKind::barrier;
    out.index = static_cast<uint16_t>(value);
    return true;
  case OperandSpecKind::immediate:
    out.kind = OperandKind::immediate;
    out.immediate_type = spec.immediate_type;
    out.value = spec.is_signed ? sign_extend(value, spec.field.width) : static_cast<int64_t>(value << spec.shift);
    return true;
  case OperandSpecKind::constant_buffer: {
    out.kind = OperandKind::constant_buffer;
    out.value = spec.is_signed ? sign_extend(value, spec.field.width) : static_cast<int64_t>(value);
    out.base = spec.index_register.present() ? static_cast<uint8_t>(read(word, spec.index_register)) : kRZ;
    out.uniform_bank = bit_set(word, spec.uniform_bank_bit);
    const uint64_t bank = read(word, spec.bank);
    const uint64_t bank_register = read(word, spec.uniform_base);
    if (out.uniform_bank) {
      if (bank != 0 || bank_register > kURZ) return false;
      out.uniform_base = static_cast<uint8_t>(bank_register);
    } else {
      if (bank_register != 0) return false;
      out.index = static_cast<uint16_t>(bank);
    }
    return true;
  }
  case OperandSpecKind::memory:
    out.kind = OperandKind::memory;
    out.base = spec.base.present() ? static_cast<uint8_t>(read(word, spec.base)) : kRZ;
    out.base_is_64 = bit_set(word, spec.wide_bit);
    out.uniform_base = spec.uniform_base.present() ? static_cast<uint8_t>(read(word, spec.uniform_base)) : kURZ;
    out.has_uniform_base = spec.uniform_base.present();
    out.value = spec.is_signed ? sign_extend(value, spec.field.width) : static_cast<int64_t>(value);
    return out.uniform_base <= kURZ;
  case OperandSpecKind::special_register: {
    out.kind = OperandKind::special_register;
    out.index = static_cast<uint16_t>(value);
    const auto& names = special_register_names();
    if (names[value].empty()) return false;
    out.text = names[value];
    return true;
  }
  case OperandSpecKind::attribute:
    out.kind = OperandKind::attribute;
    out.value = static_cast<int64_t>(value << spec.shift);
    return true;
  case OperandSpecKind::branch_target:
    out.kind = OperandKind::branch_target;
    out.value = static_cast<int64_t>(offset) + 16 + sign_extend(value, spec.field.width) * (int64_t{1} << spec.shift);
    return true;
  case OperandSpecKind::enumerant:
    out.kind = OperandKind::enumerant;
    if (!name_valid(spec.names, value)) return false;
    out.text = spec.names[value];
    out.index = static_cast<uint16_t>(value);
    return true;
  }
  return false;
}

Control read_control(const Word128& word) {
  Control control;
  control.stall = static_cast<uint8_t>(word.field(105, 4));
  control.yield = word.bit(109);
  control.write_barrier = static_cast<uint8_t>(word.field(110, 3));
  control.read_barrier = static_cast<uint8_t>(word.field(113, 3));
  control.wait_mask = static_cast<uint8_t>(word.field(116, 6));
  control.reuse_mask = static_cast<uint8_t>(word.field(122, 4));
  return control;
}

bool try_form(const Word128& word, uint16_t form_index, uint64_t offset, Instruction& out) {
  const Form& form = encoding_forms()[form_index];
  if ((word.low & ~form.claimed.low) != 0 || (word.high & ~form.claimed.high) != 0) return false;
  for (const auto& fixed : form.fixed) {
    if (word.field(fixed.bits.lsb, fixed.bits.width) != fixed.value) return false;
  }
  Instruction instruction;
  instruction.offset = offset;
  instruction.word = word;
  instruction.opcode = form.opcode;
  instruction.form = form_index;
  instruction.guard = static_cast<uint8_t>(word.field(12, 3));
  instruction.guard_negated = word.bit(15);
  instruction.guard_uniform = form.uniform_guard;
  instruction.control = read_control(word);
  for (const auto& modifier : form.modifiers) {
    const uint64_t value = read(word, modifier);
    if (!name_valid(modifier.names, value)) return false;
    const auto& tokens = modifier.modifiers[value];
    instruction.modifiers.insert(instruction.modifiers.end(), tokens.begin(), tokens.end());
  }
  for (const auto& spec : form.operands) {
    Operand operand;
    if (!read_operand(word, spec, offset, instruction.control, operand)) return false;
    instruction.operands.push_back(operand);
  }
  out = std::move(instruction);
  return true;
}

} // namespace

Instruction decode(const Word128& word, uint64_t offset, const DecodeLocation& location, Architecture architecture) {
  Instruction instruction;
  for (uint16_t form_index : forms_with_opcode(static_cast<uint16_t>(word.field(0, 12)))) {
    if (!form_applies(encoding_forms()[form_index], architecture)) continue;
    if (try_form(word, form_index, offset, instruction)) return instruction;
  }
  const std::string kernel = location.kernel.empty() ? std::string() : fmt::format("kernel {}: ", location.kernel);
  throw Error(at_offset(location.file, location.file_offset + offset),
              fmt::format("{}unknown instruction at code offset 0x{:04x}: 0x{:016x}{:016x} (opcode bits 0x{:03x})",
                          kernel, offset, word.high, word.low, word.field(0, 12)));
}

std::vector<Instruction> decode_all(std::span<const uint8_t> code, const DecodeLocation& location,
                                    Architecture architecture) {
  if (code.size() % 16 != 0) {
    throw Error(at_offset(location.file, location.file_offset),
                fmt::format("{}code size {} is not a multiple of 16 bytes", location.kernel.empty() ? "" : "kernel " + location.kernel + ": ", code.size()));
  }
  std::vector<Instruction> instructions;
  instructions.reserve(code.size() / 16);
  for (size_t offset = 0; offset < code.size(); offset += 16) {
    const Word128 word = Word128::from_bytes(code.subspan(offset).first<16>());
    instructions.push_back(decode(word, offset, location, architecture));
  }
  return instructions;
}

} // namespace kiln::sass::sm86
