#include "translator/sass/sm5x/text_assembler.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/sass/sm5x/encoding_table.h"
#include "translator/sass/sm5x/instruction.h"

namespace kiln::sass::sm5x {
namespace {

std::string trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == ';' || text.back() == '\t')) text.remove_suffix(1);
  return std::string(text);
}

std::vector<std::string> split_operands(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) parts.push_back(trim(current));
  return parts;
}

int64_t number(std::string_view text) {
  return static_cast<int64_t>(std::strtoll(std::string(text).c_str(), nullptr, 0));
}

/// What the rest of the line tells an operand's reading: the mnemonic's suffixes (an 'm' enumerant's tail is printed
/// there: TEXS.LL ... 2D) and whether the first operand is RZ (a 'c' component mask's letters depend on it).
struct LineContext {
  const std::vector<std::string>& mnemonic_suffixes;
  bool one_register = false;
};

/// An 'm' enumerant: the name whose part before its first '.' is `text` and whose remaining parts are the last
/// suffixes of the mnemonic, the longest such name (2D with .LZ.DC -> 2D.LZ.DC, not 2D).
bool parse_suffixed_enumerant(const OperandSpec& spec, std::string_view text, const LineContext& line, Operand& out) {
  size_t best_parts = 0;
  bool found = false;
  for (size_t i = 0; i < spec.names.size(); ++i) {
    const std::string& name = spec.names[i];
    if (name == "?" || name.substr(0, name.find('.')) != text) continue;
    std::vector<std::string> tail;
    for (size_t dot = name.find('.'); dot != std::string::npos;) {
      const size_t next = name.find('.', dot + 1);
      tail.push_back(name.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1));
      dot = next;
    }
    const auto& suffixes = line.mnemonic_suffixes;
    if (tail.size() > suffixes.size() || !std::equal(tail.begin(), tail.end(), suffixes.end() - static_cast<ptrdiff_t>(tail.size()))) continue;
    if (found && tail.size() <= best_parts) continue;
    found = true;
    best_parts = tail.size();
    out.kind = OperandKind::enumerant;
    out.value = static_cast<int64_t>(i);
  }
  return found;
}

/// Operand text -> Operand for the spec's form; false when the text cannot be that form.
bool parse_operand(const OperandSpec& spec, std::string text, const LineContext& line, Operand& out) {
  out = Operand{};
  if (spec.component_mask) {
    for (int64_t value = 0; value < 8; ++value) {
      if (text != "?" && component_mask_name(value, line.one_register) == text) {
        out.kind = OperandKind::integer;
        out.value = value;
        return true;
      }
    }
    return false;
  }
  if (spec.suffix_to_mnemonic) return parse_suffixed_enumerant(spec, text, line, out);
  if (!text.empty() && text[0] == '-') { out.negate = true; text.erase(0, 1); }
  if (!text.empty() && text[0] == '!') { out.invert = true; text.erase(0, 1); }
  switch (spec.form) {
  case OperandForm::gpr:
    out.kind = OperandKind::gpr;
    if (text == "RZ") { out.index = kRZ; return true; }
    if (text.size() < 2 || text[0] != 'R') return false;
    out.index = static_cast<uint16_t>(number(text.substr(1)));
    return true;
  case OperandForm::predicate:
    out.kind = OperandKind::predicate;
    if (text == "PT") { out.index = kPT; return true; }
    if (text.size() != 2 || text[0] != 'P') return false;
    out.index = static_cast<uint16_t>(text[1] - '0');
    return true;
  case OperandForm::cbuf: {
    if (text.rfind("c[", 0) != 0) return false;
    out.kind = OperandKind::constant_buffer;
    const size_t close = text.find(']');
    out.index = static_cast<uint16_t>(number(text.substr(2, close - 2)));
    out.value = number(text.substr(close + 2, text.size() - close - 3));
    return true;
  }
  case OperandForm::attribute:
    if (text.rfind("a[", 0) != 0) return false;
    out.kind = OperandKind::attribute;
    out.value = number(text.substr(2, text.size() - 3));
    return true;
  case OperandForm::int20: case OperandForm::int32: case OperandForm::uint32: case OperandForm::unsigned_literal:
  case OperandForm::signed_literal:
    if (text.empty() || !(isdigit(static_cast<unsigned char>(text[0])))) return false;
    out.kind = OperandKind::integer;
    out.value = number(text);
    return true;
  case OperandForm::float32: case OperandForm::float20: {
    if (text.empty()) return false;
    out.kind = OperandKind::float32;
    const float value = std::strtof(text.c_str(), nullptr);
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    out.value = bits;
    return true;
  }
  case OperandForm::special_register:
    if (text.rfind("SR", 0) != 0) return false;
    for (unsigned index = 0; index < 256; ++index) {
      if (special_register_name(index) == text) {
        out.kind = OperandKind::special_register;
        out.index = static_cast<uint16_t>(index);
        return true;
      }
    }
    return false;
  case OperandForm::enumerant:
    for (size_t i = 0; i < spec.names.size(); ++i) {
      if (spec.names[i] == text) {
        out.kind = OperandKind::enumerant;
        out.value = static_cast<int64_t>(i);
        return true;
      }
    }
    return false;
  default: return false;
  }
}

} // namespace

uint64_t assemble_sass(std::string_view line) {
  const std::string text = trim(line);
  const size_t space = text.find(' ');
  const std::string mnemonic = text.substr(0, space);
  std::vector<std::string> operand_text = space == std::string::npos ? std::vector<std::string>{} : split_operands(text.substr(space + 1));
  std::vector<std::string> suffixes;
  // A condition-code write is written on the destination ("IADD R2.CC, R2, R3"): it is the CC modifier.
  const std::string condition_code_suffix = "." + std::string(kConditionCodeWrite);
  if (!operand_text.empty() && operand_text[0].ends_with(condition_code_suffix)) {
    operand_text[0].resize(operand_text[0].size() - condition_code_suffix.size());
    suffixes.emplace_back(kConditionCodeWrite);
  }
  size_t dot = mnemonic.find('.');
  const std::string name = mnemonic.substr(0, dot);
  while (dot != std::string::npos) {
    const size_t next = mnemonic.find('.', dot + 1);
    suffixes.push_back(mnemonic.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1));
    dot = next;
  }
  std::string nearest;
  for (const Encoding& encoding : encodings()) {
    if (opcode_name(encoding.opcode) != name) continue;
    Instruction instruction;
    instruction.opcode = encoding.opcode;
    instruction.encoding = &encoding;
    // Operands in order; optional operands missing from the text take their default.
    size_t next = 0;
    bool ok = true;
    const LineContext context{suffixes, !operand_text.empty() && operand_text[0] == "RZ"};
    for (const OperandSpec& spec : encoding.operands) {
      Operand operand;
      if (next < operand_text.size() && parse_operand(spec, operand_text[next], context, operand)) {
        ++next;
      } else if (spec.optional) {
        operand.kind = spec.form == OperandForm::predicate ? OperandKind::predicate : OperandKind::gpr;
        operand.index = static_cast<uint16_t>(spec.default_value);
        if (spec.form != OperandForm::gpr && spec.form != OperandForm::predicate) {
          operand.kind = OperandKind::integer;
          operand.value = spec.default_value;
        }
      } else {
        ok = false;
        break;
      }
      instruction.operands.push_back(operand);
    }
    if (!ok || next != operand_text.size()) continue;
    // Modifiers the text does not name take the value that prints nothing (EXIT's condition code: T).
    instruction.modifiers.assign(encoding.modifiers.size(), 0);
    for (size_t m = 0; m < encoding.modifiers.size(); ++m) {
      const auto& values = encoding.modifiers[m].values;
      const auto silent = std::find(values.begin(), values.end(), std::string());
      if (silent != values.end()) instruction.modifiers[m] = static_cast<uint32_t>(silent - values.begin());
    }
    for (const std::string& suffix : suffixes) {
      for (size_t m = 0; m < encoding.modifiers.size(); ++m) {
        const auto& values = encoding.modifiers[m].values;
        for (size_t v = 0; v < values.size(); ++v) {
          if (values[v] == suffix) instruction.modifiers[m] = static_cast<uint32_t>(v);
        }
      }
    }
    uint64_t word = 0;
    try {
      word = assemble(instruction);
      const std::string back = disassemble(decode(word, 0, "assembler"));
      if (back == text) return word;
      nearest = back;
    } catch (const Error& error) {
      nearest = error.what();
    }
  }
  throw Error(fmt::format("cannot assemble '{}' (nearest: '{}')", text, nearest));
}

std::vector<uint64_t> assemble_program(const std::vector<std::string_view>& lines) {
  std::vector<uint64_t> code;
  const uint64_t control = encode_control_word({}, {}, {});
  for (size_t i = 0; i < lines.size(); i += 3) {
    code.push_back(control);
    for (size_t k = 0; k < 3; ++k) code.push_back(i + k < lines.size() ? assemble_sass(lines[i + k]) : assemble_sass("NOP"));
  }
  code.insert(code.end(), {control, 0xe2400fffff87000f, assemble_sass("NOP"), assemble_sass("NOP")}); // BRA to itself
  return code;
}

} // namespace kiln::sass::sm5x
