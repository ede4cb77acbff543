// decode() and assemble(): both walk the same table row, field by field, so they are inverses by construction.
#include <bit>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "translator/sass/sm5x/encoding_table.h"

namespace kiln::sass::sm5x {
namespace {

constexpr BitRange kGuard{16, 3};
constexpr unsigned kGuardNegateBit = 19;
const BitField kCbufBank{{{34, 5}}};
const BitField kCbufOffset{{{20, 14}}};  // in 32-bit words
const BitField kCbufIndexedBank{{{36, 5}}};
const BitField kCbufIndexedOffset{{{20, 16}}};  // signed bytes
const BitField kBaseRegister{{{8, 8}}};

OperandKind kind_of(OperandForm form) {
  switch (form) {
  case OperandForm::gpr: return OperandKind::gpr;
  case OperandForm::predicate: return OperandKind::predicate;
  case OperandForm::cbuf:
  case OperandForm::cbuf_indexed: return OperandKind::constant_buffer;
  case OperandForm::float20:
  case OperandForm::half10:
  case OperandForm::float32: return OperandKind::float32;
  case OperandForm::double20: return OperandKind::float64;
  case OperandForm::implied_register: return OperandKind::gpr;
  case OperandForm::branch_target:
  case OperandForm::absolute_target: return OperandKind::branch_target;
  case OperandForm::special_register: return OperandKind::special_register;
  case OperandForm::memory: return OperandKind::memory;
  case OperandForm::attribute: return OperandKind::attribute;
  case OperandForm::enumerant: return OperandKind::enumerant;
  default: return OperandKind::integer;
  }
}

/// The f32 bits of an IEEE half (exact: every half is a float).
int64_t half_to_float_bits(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half >> 15) << 31;
  const uint32_t exponent = (half >> 10) & 31, significand = half & 1023;
  if (exponent == 31) return sign | 0x7f800000u | (significand << 13);
  if (exponent != 0) return sign | ((exponent + 112) << 23) | (significand << 13);
  if (significand == 0) return sign;
  const float value = std::ldexp(static_cast<float>(significand), -24);  // subnormal: exact in f32
  return sign | std::bit_cast<uint32_t>(value);
}

/// The half whose value the f32 bits hold, if one does.
std::optional<uint16_t> float_bits_to_half(uint32_t bits) {
  for (uint32_t half = 0; half < 0x10000; half += 0x40) {  // only halves a 10-bit field can hold
    if (static_cast<uint32_t>(half_to_float_bits(static_cast<uint16_t>(half))) == bits) return static_cast<uint16_t>(half);
  }
  return std::nullopt;
}

bool bit_set(uint64_t word, int8_t bit) { return bit >= 0 && ((word >> bit) & 1) != 0; }

Operand read_operand(const OperandSpec& spec, uint64_t word, uint64_t address) {
  Operand operand;
  operand.kind = kind_of(spec.form);
  const uint64_t raw = spec.field.read(word);
  const unsigned width = spec.field.width();
  switch (spec.form) {
  case OperandForm::gpr:
  case OperandForm::predicate:
  case OperandForm::special_register: operand.index = static_cast<uint16_t>(raw); break;
  case OperandForm::implied_register:
    operand.index = static_cast<uint16_t>(raw == kRZ ? kRZ : raw + spec.register_offset);
    break;
  case OperandForm::cbuf:
    operand.index = static_cast<uint16_t>(kCbufBank.read(word));
    operand.value = static_cast<int64_t>(kCbufOffset.read(word) * 4);
    break;
  case OperandForm::cbuf_indexed:
    operand.index = static_cast<uint16_t>(kCbufIndexedBank.read(word));
    operand.base = static_cast<uint8_t>(kBaseRegister.read(word));
    operand.value = sign_extend(kCbufIndexedOffset.read(word), 16);
    break;
  case OperandForm::int20:
  case OperandForm::int32:
  case OperandForm::signed_literal: operand.value = sign_extend(raw, width); break;
  case OperandForm::memory: operand.value = sign_extend(raw, width) * spec.scale; break;
  case OperandForm::float20: operand.value = static_cast<int64_t>(raw << 12); break;
  case OperandForm::half10: operand.value = half_to_float_bits(static_cast<uint16_t>(raw << 6)); break;
  case OperandForm::double20: operand.value = static_cast<int64_t>(raw << 44); break;
  case OperandForm::branch_target:
    operand.value = static_cast<int64_t>(address + 8) + sign_extend(raw, width);
    break;
  default: operand.value = static_cast<int64_t>(raw); break;
  }
  if (spec.form == OperandForm::memory || spec.form == OperandForm::attribute) {
    operand.base = static_cast<uint8_t>(kBaseRegister.read(word));
  }
  operand.negate = bit_set(word, spec.negate_bit);
  operand.absolute = bit_set(word, spec.absolute_bit);
  operand.invert = bit_set(word, spec.invert_bit);
  operand.selector = static_cast<uint8_t>(spec.selector.read(word));
  return operand;
}

[[noreturn]] void assembly_error(const Instruction& instruction, const std::string& what) {
  throw Error(fmt::format("cannot assemble {} at {:#x}: {}", opcode_name(instruction.opcode), instruction.address, what));
}

/// Writes `value` into `field`; a field already written by an earlier operand must receive the same value.
void put(uint64_t& word, uint64_t& written, const BitField& field, uint64_t value, const Instruction& instruction,
         std::string_view what) {
  if ((written & field.mask()) != 0 && field.read(word) != value) {
    assembly_error(instruction, fmt::format("{} must repeat the earlier operand in the same field", what));
  }
  if (!field.write(word, value)) assembly_error(instruction, fmt::format("{} {:#x} does not fit", what, value));
  written |= field.mask();
}

bool fits_signed(int64_t value, unsigned width) { return sign_extend(static_cast<uint64_t>(value), width) == value; }

void write_operand(uint64_t& word, uint64_t& written, const OperandSpec& spec, const Operand& operand,
                   const Instruction& instruction, size_t position) {
  const std::string what = fmt::format("operand {}", position + 1);
  if (operand.kind != kind_of(spec.form)) assembly_error(instruction, what + " has the wrong kind for this encoding");
  const unsigned width = spec.field.width();
  auto put_signed = [&](const BitField& field, int64_t value, unsigned bits) {
    if (!fits_signed(value, bits)) assembly_error(instruction, fmt::format("{} value {} does not fit {} bits", what, value, bits));
    put(word, written, field, static_cast<uint64_t>(value) & low_mask(bits), instruction, what);
  };
  switch (spec.form) {
  case OperandForm::gpr:
  case OperandForm::predicate:
  case OperandForm::special_register: put(word, written, spec.field, operand.index, instruction, what); break;
  case OperandForm::implied_register: {
    // No bits of its own: it must be the register its field's operand implies.
    const uint64_t named = spec.field.read(word);
    const uint64_t implied = named == kRZ ? kRZ : named + spec.register_offset;
    if ((written & spec.field.mask()) != spec.field.mask() || operand.index != implied) {
      assembly_error(instruction, fmt::format("{} must be R{} + {}", what, named, spec.register_offset));
    }
    break;
  }
  case OperandForm::cbuf:
    if (operand.value % 4 != 0 || operand.value < 0) assembly_error(instruction, what + " offset must be a word multiple");
    if (operand.base != kRZ) assembly_error(instruction, what + " cannot be register-indexed in this encoding");
    put(word, written, kCbufBank, operand.index, instruction, what);
    put(word, written, kCbufOffset, static_cast<uint64_t>(operand.value / 4), instruction, what);
    break;
  case OperandForm::cbuf_indexed:
    put(word, written, kCbufIndexedBank, operand.index, instruction, what);
    put(word, written, kBaseRegister, operand.base, instruction, what);
    put_signed(kCbufIndexedOffset, operand.value, 16);
    break;
  case OperandForm::int20:
  case OperandForm::int32:
  case OperandForm::signed_literal: put_signed(spec.field, operand.value, width); break;
  case OperandForm::memory:
    if (operand.value % spec.scale != 0) assembly_error(instruction, fmt::format("{} offset must be a multiple of {}", what, spec.scale));
    if (width == 0 && operand.value != 0) assembly_error(instruction, what + " takes no offset in this encoding");
    if (width != 0) put_signed(spec.field, operand.value / spec.scale, width);
    break;
  case OperandForm::float20:
  case OperandForm::double20: {
    const unsigned dropped = spec.form == OperandForm::float20 ? 12 : 44;
    const uint64_t bits = static_cast<uint64_t>(operand.value);
    // A double's 20 kept bits are its top bits: nothing lies above them (and a shift by 64 is undefined).
    if ((bits & low_mask(dropped)) != 0 || (dropped + 20 < 64 && (bits >> (dropped + 20)) != 0)) {
      assembly_error(instruction, what + " literal needs more than the 20 bits this encoding keeps");
    }
    put(word, written, spec.field, bits >> dropped, instruction, what);
    break;
  }
  case OperandForm::half10: {
    const auto half = float_bits_to_half(static_cast<uint32_t>(operand.value));
    if (!half || (*half & 0x3f) != 0) assembly_error(instruction, what + " is not a half with 4 significand bits");
    put(word, written, spec.field, *half >> 6, instruction, what);
    break;
  }
  case OperandForm::branch_target:
    put_signed(spec.field, operand.value - static_cast<int64_t>(instruction.address + 8), width);
    break;
  default:
    if (operand.value < 0) assembly_error(instruction, what + " must not be negative");
    put(word, written, spec.field, static_cast<uint64_t>(operand.value), instruction, what);
    break;
  }
  if (spec.form == OperandForm::memory || spec.form == OperandForm::attribute) {
    put(word, written, kBaseRegister, operand.base, instruction, what);
  }
  const std::pair<int8_t, bool> flags[] = {
      {spec.negate_bit, operand.negate}, {spec.absolute_bit, operand.absolute}, {spec.invert_bit, operand.invert}};
  for (const auto& [bit, set] : flags) {
    if (bit >= 0) word = insert_bits<uint64_t>(word, static_cast<unsigned>(bit), 1, set ? 1 : 0);
    else if (set) assembly_error(instruction, what + " has a negate/absolute/invert flag this encoding lacks");
  }
  if (spec.selector.ranges.empty()) {
    if (operand.selector != 0) assembly_error(instruction, what + " has a part selector this encoding lacks");
  } else {
    put(word, written, spec.selector, operand.selector, instruction, what);
  }
}

} // namespace

std::string_view opcode_name(Opcode opcode) {
  static constexpr std::string_view names[] = {
#define KILN_SM5X_OPCODE(name, text) text,
#include "translator/sass/sm5x/opcodes.def"
#undef KILN_SM5X_OPCODE
  };
  return names[static_cast<size_t>(opcode)];
}

uint32_t Instruction::modifier(std::string_view name) const {
  if (encoding == nullptr) return 0;
  for (size_t i = 0; i < encoding->modifiers.size() && i < modifiers.size(); ++i) {
    if (encoding->modifiers[i].name == name) return modifiers[i];
  }
  return 0;
}

std::string_view Instruction::modifier_text(std::string_view name) const {
  if (encoding == nullptr) return {};
  for (size_t i = 0; i < encoding->modifiers.size() && i < modifiers.size(); ++i) {
    if (encoding->modifiers[i].name == name) return encoding->modifiers[i].values[modifiers[i]];
  }
  return {};
}

Instruction decode(uint64_t word, uint64_t address, std::string_view program) {
  const Encoding* encoding = nullptr;
  for (const Encoding& candidate : encodings()) {
    if ((word & candidate.mask) == candidate.match) {
      encoding = &candidate;
      break;
    }
  }
  const auto location = at_offset(std::string(program), address);
  if (encoding == nullptr) throw Error(location, fmt::format("unknown SM5x instruction {:#018x}", word));
  const std::string_view name = opcode_name(encoding->opcode);
  if (const uint64_t stray = word & ~encoding->covered; stray != 0) {
    throw Error(location, fmt::format("unknown SM5x encoding {:#018x}: {} with bits {:#x} outside its fields", word,
                                      name, stray));
  }
  Instruction instruction;
  instruction.opcode = encoding->opcode;
  instruction.encoding = encoding;
  instruction.address = address;
  if (encoding->guarded) {
    instruction.guard = static_cast<uint8_t>(extract_bits(word, kGuard.lsb, kGuard.width));
    instruction.guard_negated = ((word >> kGuardNegateBit) & 1) != 0;
  }
  for (const OperandSpec& spec : encoding->operands) {
    Operand operand = read_operand(spec, word, address);
    const bool bad_name = (spec.form == OperandForm::enumerant && spec.names[operand.value] == "?") ||
                          (!spec.selector_names.empty() && spec.selector_names[operand.selector] == "?");
    if (bad_name) throw Error(location, fmt::format("unknown SM5x encoding {:#018x}: invalid {} operand value", word, name));
    instruction.operands.push_back(operand);
  }
  for (const ModifierSpec& spec : encoding->modifiers) {
    const auto value = static_cast<uint32_t>(spec.field.read(word));
    if (spec.values[value] == "?") {
      throw Error(location, fmt::format("unknown SM5x encoding {:#018x}: invalid {} value {} for {}", word, spec.name,
                                        value, name));
    }
    instruction.modifiers.push_back(value);
  }
  return instruction;
}

uint64_t assemble(const Instruction& instruction) {
  const Encoding* encoding = instruction.encoding;
  if (encoding == nullptr) assembly_error(instruction, "no encoding chosen");
  if (encoding->opcode != instruction.opcode) assembly_error(instruction, "encoding is for another opcode");
  if (instruction.operands.size() != encoding->operands.size() || instruction.modifiers.size() != encoding->modifiers.size()) {
    assembly_error(instruction, fmt::format("expects {} operands and {} modifier values", encoding->operands.size(),
                                            encoding->modifiers.size()));
  }
  uint64_t word = encoding->match;
  uint64_t written = encoding->mask;
  if (encoding->guarded) {
    if (instruction.guard > kPT) assembly_error(instruction, "guard predicate out of range");
    word = insert_bits<uint64_t>(word, kGuard.lsb, kGuard.width, instruction.guard);
    word = insert_bits<uint64_t>(word, kGuardNegateBit, 1, instruction.guard_negated ? 1 : 0);
  } else if (instruction.guard != kPT || instruction.guard_negated) {
    assembly_error(instruction, "this instruction cannot be predicated");
  }
  for (size_t i = 0; i < encoding->operands.size(); ++i) {
    write_operand(word, written, encoding->operands[i], instruction.operands[i], instruction, i);
  }
  for (size_t i = 0; i < encoding->modifiers.size(); ++i) {
    const ModifierSpec& spec = encoding->modifiers[i];
    const uint32_t value = instruction.modifiers[i];
    if (value >= spec.values.size() || spec.values[value] == "?") {
      assembly_error(instruction, fmt::format("invalid value {} for modifier {}", value, spec.name));
    }
    if (!spec.field.ranges.empty()) spec.field.write(word, value);
  }
  return word;
}

std::vector<Scheduling> decode_control_word(uint64_t word) {
  if ((word >> 63) != 0) throw Error(fmt::format("control word {:#018x} has bit 63 set", word));
  std::vector<Scheduling> slots;
  for (unsigned slot = 0; slot < 3; ++slot) {
    const uint64_t bits = extract_bits(word, slot * 21, 21);
    slots.push_back(Scheduling{static_cast<uint8_t>(extract_bits(bits, 0, 4)), extract_bits(bits, 4, 1) != 0,
                               static_cast<uint8_t>(extract_bits(bits, 5, 3)), static_cast<uint8_t>(extract_bits(bits, 8, 3)),
                               static_cast<uint8_t>(extract_bits(bits, 11, 6)), static_cast<uint8_t>(extract_bits(bits, 17, 4))});
  }
  return slots;
}

uint64_t encode_control_word(const Scheduling& first, const Scheduling& second, const Scheduling& third) {
  uint64_t word = 0;
  unsigned slot = 0;
  for (const Scheduling* scheduling : {&first, &second, &third}) {
    uint64_t bits = 0;
    bits = insert_bits<uint64_t>(bits, 0, 4, scheduling->stall);
    bits = insert_bits<uint64_t>(bits, 4, 1, scheduling->yield ? 1 : 0);
    bits = insert_bits<uint64_t>(bits, 5, 3, scheduling->write_barrier);
    bits = insert_bits<uint64_t>(bits, 8, 3, scheduling->read_barrier);
    bits = insert_bits<uint64_t>(bits, 11, 6, scheduling->wait_mask);
    bits = insert_bits<uint64_t>(bits, 17, 4, scheduling->reuse);
    word |= bits << (slot++ * 21);
  }
  return word;
}

} // namespace kiln::sass::sm5x
