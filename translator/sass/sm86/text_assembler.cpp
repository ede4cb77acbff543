#include "translator/sass/sm86/text_assembler.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "translator/sass/sm86/encoding_table.h"

namespace kiln::sass::sm86 {
namespace {

std::string collapse_spaces(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return out;
}

/// Operands split at the commas outside brackets, and at spaces (RET prints its target after a space).
std::vector<std::string> split_operands(std::string_view text) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  auto finish = [&] {
    if (!current.empty()) parts.push_back(current);
    current.clear();
  };
  for (char c : text) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if ((c == ',' || c == ' ') && depth == 0) {
      finish();
      continue;
    }
    current += c;
  }
  finish();
  return parts;
}

/// The binary16 pattern of a value nvdisasm printed from one (exact), or nullopt.
std::optional<uint16_t> exact_half(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return static_cast<uint16_t>(sign | 0x7e00);
  if (std::isinf(value)) return static_cast<uint16_t>(sign | 0x7c00);
  value = std::fabs(value);
  if (value == 0) return sign;
  int exponent = 0;
  const double mantissa = std::frexp(value, &exponent); // value = mantissa * 2^exponent, mantissa in [0.5, 1)
  const int field = exponent - 1 + 15;
  if (field >= 31) return std::nullopt;
  if (field <= 0) { // subnormal: a multiple of 2^-24
    const double units = std::ldexp(value, 24);
    if (units != std::floor(units)) return std::nullopt;
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(units));
  }
  const double fraction = (mantissa * 2 - 1) * 1024;
  if (fraction != std::floor(fraction)) return std::nullopt;
  return static_cast<uint16_t>(sign | (field << 10) | static_cast<uint16_t>(fraction));
}

/// nvdisasm's float text ("1.5", "+INF", "-QNAN", "4.29494272000000000000e+09") as a double; QNAN as the quiet NaN.
std::optional<double> float_value(std::string_view text) {
  if (text == "+INF" || text == "-INF") return text[0] == '-' ? -INFINITY : INFINITY;
  if (text == "+QNAN" || text == "-QNAN") return text[0] == '-' ? -std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::quiet_NaN();
  if (text.empty() || text.starts_with("0x") || text.starts_with("-0x")) return std::nullopt;
  const std::string number(text);
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return value;
}

std::optional<int64_t> integer(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string s(text);
  char* end = nullptr;
  const bool negative = s[0] == '-';
  const unsigned long long magnitude = std::strtoull(s.c_str() + (negative ? 1 : 0), &end, 0);
  if (end == nullptr || *end != '\0' || end == s.c_str() + (negative ? 1 : 0)) return std::nullopt;
  return negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
}

/// "R12"/"RZ" style register names: the number, `zero` for the zero register.
std::optional<uint16_t> register_number(std::string_view text, std::string_view prefix, std::string_view zero_name, uint16_t zero) {
  if (text == zero_name) return zero;
  if (!text.starts_with(prefix) || text.size() == prefix.size()) return std::nullopt;
  const auto number = integer(text.substr(prefix.size()));
  if (!number || *number < 0 || *number >= zero) return std::nullopt;
  return static_cast<uint16_t>(*number);
}

std::optional<size_t> name_index(const std::vector<std::string>& names, std::string_view text) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text && names[i] != "?") return i;
  }
  return std::nullopt;
}

/// A sum inside brackets ("R2.64+UR4+0x10", "R3+-0x4", "0x10") as its register parts and literal offset.
struct AddressSum {
  std::vector<std::string> registers;
  int64_t offset = 0;
};
std::optional<AddressSum> address_sum(std::string_view text) {
  AddressSum sum;
  size_t start = 0;
  while (start <= text.size()) {
    size_t plus = text.find('+', start);
    // "-0x10" after a register is written "+-0x10"? nvdisasm writes "R1-0x10": split before a '-' too.
    size_t minus = text.find('-', start + 1);
    size_t end = std::min(plus == std::string_view::npos ? text.size() : plus, minus == std::string_view::npos ? text.size() : minus);
    const std::string_view part = text.substr(start, end - start);
    if (part.empty()) return std::nullopt;
    if (const auto literal = integer(part)) sum.offset += *literal;
    else sum.registers.emplace_back(part);
    if (end == text.size()) break;
    start = text[end] == '+' ? end + 1 : end;
  }
  return sum;
}

/// Reads operand text as `spec` describes it; false when it is not that operand.
bool parse_operand(const OperandSpec& spec, std::string text, Operand& out) {
  out = Operand{};
  // ".reuse" is a control bit (Control::reuse_mask): the text may show it, the control given decides it.
  if (const size_t reuse = text.find(".reuse"); reuse != std::string::npos) text.erase(reuse, 6);
  if (spec.kind != OperandSpecKind::immediate && !text.empty() && text[0] == '-') {
    out.negate = true;
    text.erase(0, 1);
  }
  if (!text.empty() && (text[0] == '!' || text[0] == '~')) {
    out.invert = true;
    text.erase(0, 1);
  }
  if (text.size() > 2 && text.front() == '|') {
    const size_t close = text.find('|', 1);
    if (close == std::string::npos) return false;
    out.absolute = true;
    text = text.substr(1, close - 1) + text.substr(close + 1);
  }
  // A selector after the operand (".H1", ".64", ".X"); memory operands keep theirs inside the brackets.
  if (spec.kind != OperandSpecKind::memory && spec.kind != OperandSpecKind::special_register && spec.kind != OperandSpecKind::immediate &&
      spec.kind != OperandSpecKind::constant_buffer) {
    if (const size_t dot = text.find('.'); dot != std::string::npos) {
      const std::string suffix = text.substr(dot + 1);
      text.resize(dot);
      if (!spec.fixed_suffix.empty() && suffix == spec.fixed_suffix) {
        out.suffix = spec.fixed_suffix;
      } else if (const auto index = name_index(spec.suffix.names, suffix); index && spec.suffix.bits.present()) {
        out.suffix = spec.suffix.names[*index];
      } else {
        return false;
      }
    } else if (spec.suffix.bits.present()) {
      const auto index = name_index(spec.suffix.names, "");
      if (!index) return false;
      out.suffix = spec.suffix.names[*index];
    }
  }
  switch (spec.kind) {
  case OperandSpecKind::gpr: {
    out.kind = OperandKind::gpr;
    const auto number = register_number(text, "R", "RZ", kRZ);
    if (!number) return false;
    out.index = *number;
    return true;
  }
  case OperandSpecKind::uniform_gpr: {
    out.kind = OperandKind::uniform_gpr;
    const auto number = register_number(text, "UR", "URZ", kURZ);
    if (!number) return false;
    out.index = *number;
    return true;
  }
  case OperandSpecKind::predicate:
  case OperandSpecKind::uniform_predicate: {
    const bool uniform = spec.kind == OperandSpecKind::uniform_predicate;
    out.kind = uniform ? OperandKind::uniform_predicate : OperandKind::predicate;
    const auto number = register_number(text, uniform ? "UP" : "P", uniform ? "UPT" : "PT", kPT);
    if (!number) return false;
    out.index = *number;
    return true;
  }
  case OperandSpecKind::barrier: {
    out.kind = OperandKind::barrier;
    const auto number = register_number(text, "B", "", 16);
    if (!number) return false;
    out.index = *number;
    return true;
  }
  case OperandSpecKind::immediate: {
    out.kind = OperandKind::immediate;
    out.immediate_type = spec.immediate_type;
    switch (spec.immediate_type) {
    case ImmediateType::integer: {
      const auto value = integer(text);
      if (!value) return false;
      out.value = *value;
      return true;
    }
    case ImmediateType::float32:
    case ImmediateType::float64_high: {
      const auto value = float_value(text);
      if (!value) return false;
      if (spec.immediate_type == ImmediateType::float32) {
        const float single = static_cast<float>(*value);
        out.value = std::isnan(single) ? (std::signbit(single) ? 0xffc00000 : 0x7fc00000) : std::bit_cast<uint32_t>(single);
      } else {
        const uint64_t bits = std::isnan(*value) ? (std::signbit(*value) ? 0xfff8000000000000 : 0x7ff8000000000000) : std::bit_cast<uint64_t>(*value);
        out.value = static_cast<int64_t>(bits >> 32);
      }
      return true;
    }
    case ImmediateType::float16x2: { // "HIGH, LOW" (two printed halves, the high one first), joined by the caller
      const size_t comma = text.find(',');
      if (comma == std::string::npos) return false;
      const auto high = float_value(collapse_spaces(text.substr(0, comma)));
      const auto low = float_value(collapse_spaces(text.substr(comma + 1)));
      if (!high || !low) return false;
      const auto high_bits = exact_half(*high), low_bits = exact_half(*low);
      if (!high_bits || !low_bits) return false;
      out.value = (int64_t{*high_bits} << 16) | *low_bits;
      return true;
    }
    }
    return false;
  }
  case OperandSpecKind::constant_buffer: {
    // c[BANK][SUM] or cx[URn][SUM]
    out.kind = OperandKind::constant_buffer;
    const bool uniform = text.starts_with("cx[");
    if (!uniform && !text.starts_with("c[")) return false;
    const size_t bank_start = uniform ? 3 : 2;
    const size_t bank_end = text.find(']', bank_start);
    if (bank_end == std::string::npos || bank_end + 1 >= text.size() || text[bank_end + 1] != '[' || text.back() != ']') return false;
    const std::string bank = text.substr(bank_start, bank_end - bank_start);
    if (uniform) {
      const auto number = register_number(bank, "UR", "URZ", kURZ);
      if (!number) return false;
      out.uniform_bank = true;
      out.uniform_base = static_cast<uint8_t>(*number);
    } else {
      const auto number = integer(bank);
      if (!number || *number < 0) return false;
      out.index = static_cast<uint16_t>(*number);
    }
    const auto sum = address_sum(std::string_view(text).substr(bank_end + 2, text.size() - bank_end - 3));
    if (!sum || sum->registers.size() > 1) return false;
    out.base = kRZ;
    if (!sum->registers.empty()) {
      const auto base = register_number(sum->registers[0], "R", "RZ", kRZ);
      if (!base) return false;
      out.base = static_cast<uint8_t>(*base);
    }
    out.value = sum->offset;
    return true;
  }
  case OperandSpecKind::memory: {
    out.kind = OperandKind::memory;
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') return false;
    const auto sum = address_sum(std::string_view(text).substr(1, text.size() - 2));
    if (!sum) return false;
    out.base = kRZ;
    out.uniform_base = kURZ;
    out.has_uniform_base = spec.uniform_base.present();
    for (const std::string& part : sum->registers) {
      if (part.starts_with("UR")) {
        const auto number = register_number(part, "UR", "URZ", kURZ);
        if (!number) return false;
        out.uniform_base = static_cast<uint8_t>(*number);
        continue;
      }
      std::string name = part;
      if (const size_t dot = name.find('.'); dot != std::string::npos && spec.suffix.bits.present()) { // "R4.X4": a scale
        const auto index = name_index(spec.suffix.names, name.substr(dot + 1));
        if (index) {
          out.suffix = spec.suffix.names[*index];
          name.resize(dot);
        }
      }
      if (name.ends_with(".64")) {
        out.base_is_64 = true;
        name.resize(name.size() - 3);
      }
      const auto number = register_number(name, "R", "RZ", kRZ);
      if (!number) return false;
      out.base = static_cast<uint8_t>(*number);
    }
    // With no GPR base the .64 flag prints nothing; ptxas sets it when a uniform register holds the address.
    if (out.base == kRZ && out.uniform_base != kURZ && spec.wide_bit >= 0) out.base_is_64 = true;
    out.value = sum->offset;
    return true;
  }
  case OperandSpecKind::special_register: {
    out.kind = OperandKind::special_register;
    const auto& names = special_register_names();
    const auto index = name_index(names, text);
    if (!index || names[*index].empty()) return false;
    out.index = static_cast<uint16_t>(*index);
    out.text = names[*index];
    return true;
  }
  case OperandSpecKind::attribute: {
    out.kind = OperandKind::attribute;
    if (!text.starts_with("a[") || text.back() != ']') return false;
    const auto value = integer(std::string_view(text).substr(2, text.size() - 3));
    if (!value || *value < 0) return false;
    out.value = *value;
    return true;
  }
  case OperandSpecKind::branch_target: {
    out.kind = OperandKind::branch_target;
    const auto value = integer(text);
    if (!value) return false;
    out.value = *value;
    return true;
  }
  case OperandSpecKind::enumerant: {
    out.kind = OperandKind::enumerant;
    const auto index = name_index(spec.names, text);
    if (!index) return false;
    out.index = static_cast<uint16_t>(*index);
    out.text = spec.names[*index];
    return true;
  }
  }
  return false;
}

/// The operand an omitted (optional or hidden) field holds: its default value.
Operand default_operand(const OperandSpec& spec) {
  Operand operand;
  operand.omitted = true;
  operand.index = static_cast<uint16_t>(spec.default_value);
  operand.value = static_cast<int64_t>(spec.default_value << spec.shift);
  switch (spec.kind) {
  case OperandSpecKind::gpr: operand.kind = OperandKind::gpr; break;
  case OperandSpecKind::uniform_gpr: operand.kind = OperandKind::uniform_gpr; break;
  case OperandSpecKind::predicate: operand.kind = OperandKind::predicate; break;
  case OperandSpecKind::uniform_predicate: operand.kind = OperandKind::uniform_predicate; break;
  case OperandSpecKind::barrier: operand.kind = OperandKind::barrier; break;
  case OperandSpecKind::immediate: operand.kind = OperandKind::immediate; operand.immediate_type = spec.immediate_type; break;
  case OperandSpecKind::enumerant:
    operand.kind = OperandKind::enumerant;
    if (spec.default_value < spec.names.size()) operand.text = spec.names[spec.default_value];
    break;
  default: operand.kind = OperandKind::immediate; break;
  }
  if (spec.suffix.bits.present()) {
    if (const auto index = name_index(spec.suffix.names, "")) operand.suffix = spec.suffix.names[*index];
  }
  return operand;
}

std::optional<Modifier> modifier_named(std::string_view text) {
  for (uint16_t i = 0;; ++i) {
    const std::string_view name = modifier_text(static_cast<Modifier>(i));
    if (name == "?") return std::nullopt;
    if (name == text) return static_cast<Modifier>(i);
  }
}

/// Opcodes whose results arrive after a variable number of cycles: their results go to scoreboard 0.
bool variable_latency(Opcode opcode) {
  switch (opcode) {
  case Opcode::ALD: case Opcode::AST: case Opcode::IPA: case Opcode::MUFU: case Opcode::TEX:
  case Opcode::TXQ: case Opcode::LDC: case Opcode::S2R: case Opcode::LDG: case Opcode::LDS: case Opcode::LDL: case Opcode::LD:
  case Opcode::SHFL: case Opcode::I2F: case Opcode::F2I: case Opcode::F2F: return true;
  default: return false;
  }
}

} // namespace

Word128 assemble_sass(std::string_view line, uint64_t offset, const Control& control, Architecture architecture) {
  const std::string text = collapse_spaces(line);
  std::string rest = text;
  Instruction instruction;
  instruction.offset = offset;
  instruction.control = control;
  if (rest.starts_with("@")) {
    const size_t space = rest.find(' ');
    std::string guard = rest.substr(1, space - 1);
    if (guard.starts_with("!")) {
      instruction.guard_negated = true;
      guard.erase(0, 1);
    }
    const bool uniform = guard.starts_with("UP");
    const auto number = register_number(guard, uniform ? "UP" : "P", uniform ? "UPT" : "PT", kPT);
    if (!number || space == std::string::npos) throw Error(fmt::format("cannot assemble '{}': guard '{}'", text, guard));
    instruction.guard = static_cast<uint8_t>(*number);
    instruction.guard_uniform = uniform;
    rest = rest.substr(space + 1);
  }
  const size_t space = rest.find(' ');
  const std::string mnemonic = rest.substr(0, space);
  const std::vector<std::string> operand_text = space == std::string::npos ? std::vector<std::string>{} : split_operands(rest.substr(space + 1));
  std::vector<std::string> tokens;
  for (size_t start = 0; start <= mnemonic.size();) {
    const size_t dot = mnemonic.find('.', start);
    tokens.push_back(mnemonic.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (size_t i = 1; i < tokens.size(); ++i) {
    // nvdisasm's IMAD aliases (IMAD.MOV, IMAD.SHL, IMAD.IADD) are printing conventions of a plain IMAD.
    if (tokens[0] == "IMAD" && i == 1 && (tokens[i] == "MOV" || tokens[i] == "SHL" || tokens[i] == "IADD")) continue;
    const auto modifier = modifier_named(tokens[i]);
    if (!modifier) throw Error(fmt::format("cannot assemble '{}': '{}' is no modifier", text, tokens[i]));
    instruction.modifiers.push_back(*modifier);
  }
  std::string nearest;
  const auto& forms = encoding_forms();
  std::vector<std::pair<uint16_t, Word128>> candidates; // forms whose encoding prints the text, in table order
  for (uint16_t index = 0; index < forms.size(); ++index) {
    const Form& form = forms[index];
    if (opcode_name(form.opcode) != tokens[0] || !form_applies(form, architecture)) continue;
    if (instruction.guard_uniform != form.uniform_guard && instruction.is_predicated()) continue;
    Instruction candidate = instruction;
    candidate.opcode = form.opcode;
    candidate.form = index;
    candidate.guard_uniform = form.uniform_guard;
    size_t next = 0;
    bool fits = true;
    for (const OperandSpec& spec : form.operands) {
      Operand operand;
      const bool halves = spec.kind == OperandSpecKind::immediate && spec.immediate_type == ImmediateType::float16x2;
      if (!spec.hidden && halves && next + 1 < operand_text.size() &&
          parse_operand(spec, operand_text[next] + ", " + operand_text[next + 1], operand)) {
        next += 2;
      } else if (!spec.hidden && !halves && next < operand_text.size() && parse_operand(spec, operand_text[next], operand)) {
        ++next;
      } else if (spec.hidden || spec.optional) {
        operand = default_operand(spec);
      } else {
        fits = false;
        break;
      }
      candidate.operands.push_back(operand);
    }
    if (!fits || next != operand_text.size()) continue;
    try {
      const Word128 word = sm86::assemble(candidate);
      // The decoder takes the first form that fits a word: the word must decode with this form to be its encoding.
      const Instruction back = decode(word, offset, {"assembler", "", 0}, architecture);
      const std::string back_text = disassemble(back);
      if (back_text == text) candidates.emplace_back(index, word);
      else nearest = back_text;
    } catch (const Error& error) {
      if (nearest.empty()) nearest = error.message();
    }
  }
  if (!candidates.empty()) {
    // Several forms can print the same text; kiln takes the one ptxas writes (tests/translator/sm86/
    // test_text_assembler.cpp checks every instruction of the corpora's nvdisasm listings): for the conversions
    // I2F/F2I/F2F the 0x11x opcodes when the text names a 64-bit type and the 0x10x ones otherwise; for the rest
    // the last form in table order (FADD's immediate and constant operands in the third-source slot).
    const Opcode opcode = forms[candidates.front().first].opcode;
    if (opcode == Opcode::I2F || opcode == Opcode::F2I || opcode == Opcode::F2F) {
      const bool wide = mnemonic.find("64") != std::string::npos;
      for (const auto& [index, word] : candidates) {
        if (((forms[index].opcode_bits & 0x010) != 0) == wide) return word;
      }
    }
    return candidates.back().second;
  }
  throw Error(fmt::format("cannot assemble '{}' (nearest: '{}')", text, nearest.empty() ? "no form of " + tokens[0] + " takes these operands" : nearest));
}

std::vector<Word128> assemble_program(const std::vector<std::string_view>& lines, Architecture architecture) {
  std::vector<Word128> code;
  auto schedule = [](Opcode opcode) {
    Control control;
    control.stall = 15;
    control.write_barrier = variable_latency(opcode) ? 0 : 7;
    control.wait_mask = 1; // scoreboard 0: the previous variable-latency result
    return control;
  };
  for (std::string_view line : lines) {
    const uint64_t offset = code.size() * 16;
    // The opcode decides the schedule: assemble once to learn it, then with its control bits.
    const Word128 plain = assemble_sass(line, offset, {}, architecture);
    const Opcode opcode = decode(plain, offset, {"assembler", "", 0}, architecture).opcode;
    code.push_back(assemble_sass(line, offset, schedule(opcode), architecture));
  }
  const uint64_t end = code.size() * 16;
  code.push_back(assemble_sass(fmt::format("BRA 0x{:x}", end), end, schedule(Opcode::BRA), architecture));
  while (code.size() % 8 != 0) code.push_back(assemble_sass("NOP", code.size() * 16, {}, architecture));
  return code;
}

std::vector<uint8_t> code_bytes(const std::vector<Word128>& code) {
  std::vector<uint8_t> bytes(code.size() * 16);
  for (size_t i = 0; i < code.size(); ++i) {
    store<uint64_t>(bytes.data() + i * 16, code[i].low, Endian::little);
    store<uint64_t>(bytes.data() + i * 16 + 8, code[i].high, Endian::little);
  }
  return bytes;
}

} // namespace kiln::sass::sm86
