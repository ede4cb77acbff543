// disassemble(): nvdisasm's syntax for a decoded instruction.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86 {
namespace {

std::string hex(int64_t value) {
  return value < 0 ? fmt::format("-0x{:x}", -static_cast<uint64_t>(value)) : fmt::format("0x{:x}", value);
}

// nvdisasm prints floats with up to 20 significant digits, trailing zeros dropped, and names the specials.
std::string float_text(double value) {
  if (std::isnan(value)) return std::signbit(value) ? "-QNAN" : "+QNAN";
  if (std::isinf(value)) return value < 0 ? "-INF" : "+INF";
  std::string text = fmt::format("{:.20g}", value);
  const size_t exponent = text.find('e');
  std::string mantissa = text.substr(0, exponent);
  const std::string tail = exponent == std::string::npos ? "" : text.substr(exponent);
  if (mantissa.find('.') != std::string::npos) {
    while (mantissa.back() == '0') mantissa.pop_back();
    if (mantissa.back() == '.') mantissa.pop_back();
  }
  return mantissa + tail;
}

float half_to_float(uint16_t half) {
  const uint32_t sign = (half >> 15) & 1, exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
  float magnitude;
  if (exponent == 0) magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31) magnitude = mantissa ? NAN : INFINITY;
  else magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

std::string immediate_text(const Operand& operand) {
  const auto bits = static_cast<uint64_t>(operand.value);
  switch (operand.immediate_type) {
  case ImmediateType::integer: return hex(operand.value);
  case ImmediateType::float32: return float_text(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  case ImmediateType::float64_high: return float_text(std::bit_cast<double>(bits << 32));
  case ImmediateType::float16x2:
    return float_text(half_to_float(static_cast<uint16_t>(bits))) + ", " +
           float_text(half_to_float(static_cast<uint16_t>(bits >> 16)));
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
    if (operand.base != kRZ) parts.push_back(gpr_name(operand.base) + (operand.base_is_64 ? ".64" : ""));
    if (operand.uniform_base != kURZ) parts.push_back(ugpr_name(operand.uniform_base));
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
  if (!operand.suffix.empty()) text += "." + std::string(operand.suffix);
  if (operand.absolute) text = "|" + text + "|";
  if (operand.negate) text = "-" + text;
  if (operand.invert) {
    const bool predicate = operand.kind == OperandKind::predicate || operand.kind == OperandKind::uniform_predicate;
    text = (predicate ? "!" : "~") + text;
  }
  if (operand.reuse) text += ".reuse";
  return text;
}

} // namespace

std::string disassemble(const Instruction& instruction) {
  std::string text;
  if (instruction.is_predicated()) {
    text = fmt::format("@{}{} ", instruction.guard_negated ? "!" : "",
                       instruction.guard == kPT ? "PT" : fmt::format("P{}", instruction.guard));
  }
  text += opcode_name(instruction.opcode);
  for (Modifier modifier : instruction.modifiers) text += "." + std::string(modifier_text(modifier));
  bool first = true;
  for (const auto& operand : instruction.operands) {
    if (operand.omitted) continue;
    text += (first ? " " : ", ") + operand_text(operand);
    first = false;
  }
  return text;
}

} // namespace kiln::sass::sm86
