// disassemble(): nvdisasm's syntax for a decoded instruction.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "runtime/base/half_float.h"
#include "translator/sass/nvdisasm_text.h"
#include "translator/sass/sm86/encoding_table.h"
#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86 {
namespace {

std::string hex(int64_t value) {
  return value < 0 ? fmt::format("-0x{:x}", -static_cast<uint64_t>(value)) : fmt::format("0x{:x}", value);
}

using kiln::sass::nvdisasm_float_text;
constexpr auto float_text = [](double value) { return nvdisasm_float_text(value); };

std::string immediate_text(const Operand& operand) {
  const auto bits = static_cast<uint64_t>(operand.value);
  switch (operand.immediate_type) {
  case ImmediateType::integer: return hex(operand.value);
  case ImmediateType::float32: return float_text(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  case ImmediateType::float64_high: return float_text(std::bit_cast<double>(bits << 32));
  case ImmediateType::float16x2:  // nvdisasm writes the high half (bits 48-63 of the word) first
    return float_text(half_to_float(static_cast<uint16_t>(bits >> 16))) + ", " +
           float_text(half_to_float(static_cast<uint16_t>(bits)));
  }
  return hex(operand.value);
}

std::string gpr_name(uint16_t index) { return index == kRZ ? "RZ" : fmt::format("R{}", index); }
std::string ugpr_name(uint16_t index) { return index == kURZ ? "URZ" : fmt::format("UR{}", index); }

// "R2.64+UR4+0x10" style sums, leaving out absent parts.
std::string address_sum(std::vector<std::string> parts, int64_t offset) {
  if (offset != 0 || parts.empty()) parts.push_back(hex(offset));
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool negative_literal = i > 0 && parts[i].starts_with('-');
    text += (i == 0 || negative_literal) ? parts[i] : "+" + parts[i];
  }
  return text;
}

std::string operand_core(const Operand& operand) {
  switch (operand.kind) {
  case OperandKind::gpr: return gpr_name(operand.index);
  case OperandKind::uniform_gpr: return ugpr_name(operand.index);
  case OperandKind::predicate: return operand.index == kPT ? "PT" : fmt::format("P{}", operand.index);
  case OperandKind::uniform_predicate: return operand.index == kPT ? "UPT" : fmt::format("UP{}", operand.index);
  case OperandKind::barrier: return fmt::format("B{}", operand.index);
  case OperandKind::immediate: return immediate_text(operand);
  case OperandKind::constant_buffer: {
    const std::string bank = operand.uniform_bank ? ugpr_name(operand.uniform_base) : hex(operand.index);
    std::vector<std::string> index;
    if (operand.base != kRZ) index.push_back(gpr_name(operand.base));
    return fmt::format("{}[{}][{}]", operand.uniform_bank ? "cx" : "c", bank, address_sum(index, operand.value));
  }
  case OperandKind::memory: {
    std::vector<std::string> parts;
    const bool has_uniform = operand.has_uniform_base || operand.uniform_base != kURZ;
    // "[RZ]" is how nvdisasm writes a zero address; otherwise an RZ base is left out
    if (operand.base != kRZ || (!has_uniform && operand.value == 0)) {
      parts.push_back(gpr_name(operand.base) + (operand.base_is_64 ? ".64" : "") +
                      (operand.suffix.empty() ? "" : "." + std::string(operand.suffix)));
    }
    if (has_uniform) parts.push_back(ugpr_name(operand.uniform_base));
    return "[" + address_sum(parts, operand.value) + "]";
  }
  case OperandKind::special_register: return std::string(operand.text);
  case OperandKind::attribute: return fmt::format("a[{}]", hex(operand.value));
  case OperandKind::branch_target: return hex(operand.value);
  case OperandKind::enumerant: return std::string(operand.text);
  }
  return "?";
}

std::string operand_text(const Operand& operand) {
  std::string text = operand_core(operand);
  // Bars, then the reuse flag, then the half or matrix selector: "|R4|.H0_H0", "R0.reuse.H1_H1".
  if (operand.absolute) text = "|" + text + "|";
  if (operand.reuse) text += ".reuse";
  if (!operand.suffix.empty() && operand.kind != OperandKind::memory) text += "." + std::string(operand.suffix);
  if (operand.negate) text = "-" + text;
  if (operand.invert) {
    const bool predicate = operand.kind == OperandKind::predicate || operand.kind == OperandKind::uniform_predicate;
    text = (predicate ? "!" : "~") + text;
  }
  return text;
}

bool is_rz(const Operand& operand) { return operand.kind == OperandKind::gpr && operand.index == kRZ && !operand.negate && !operand.invert; }

// nvdisasm names some plain IMADs by what they compute: IMAD.MOV (RZ*RZ + c), IMAD.SHL (a * 2^n + RZ, unsigned)
// and IMAD.IADD (a * 1 + c, signed). A printing convention only: the encoding and the decoded form are plain IMAD.
std::string_view imad_alias(const Instruction& instruction) {
  if (instruction.opcode != Opcode::IMAD || instruction.operands.size() != 4) return {};
  if (instruction.has(Modifier::WIDE) || instruction.has(Modifier::HI) || instruction.has(Modifier::X)) return {};
  const unsigned form = static_cast<unsigned>(instruction.word.field(9, 3));
  const Operand& a = instruction.operands[1];
  const Operand& b = instruction.operands[2];
  const Operand& c = instruction.operands[3];
  const bool is_unsigned = instruction.has(Modifier::U32);
  if (form <= 3 && is_rz(a) && is_rz(b)) return "MOV";
  if (form == 4 && b.kind == OperandKind::immediate) {
    const auto value = static_cast<uint64_t>(b.value);
    if (!is_unsigned && value == 1) return "IADD";
    if (is_unsigned && is_rz(c) && value != 0 && (value & (value - 1)) == 0) return "SHL";
  }
  return {};
}

} // namespace

std::string disassemble(const Instruction& instruction) {
  std::string text;
  if (instruction.is_predicated()) {
    const std::string_view file = instruction.guard_uniform ? "UP" : "P";
    text = fmt::format("@{}{} ", instruction.guard_negated ? "!" : "",
                       instruction.guard == kPT ? fmt::format("{}T", file) : fmt::format("{}{}", file, instruction.guard));
  }
  text += opcode_name(instruction.opcode);
  if (const auto alias = imad_alias(instruction); !alias.empty()) text += "." + std::string(alias);
  for (Modifier modifier : instruction.modifiers) text += "." + std::string(modifier_text(modifier));
  const auto& forms = encoding_forms();
  const Form* form = instruction.form < forms.size() ? &forms[instruction.form] : nullptr;
  bool first = true;
  for (size_t i = 0; i < instruction.operands.size(); ++i) {
    const Operand& operand = instruction.operands[i];
    if (operand.omitted) continue;
    const bool space = form && i < form->operands.size() && form->operands[i].space_separated;
    text += (first || space ? " " : ", ") + operand_text(operand);
    first = false;
  }
  return text;
}

} // namespace kiln::sass::sm86
