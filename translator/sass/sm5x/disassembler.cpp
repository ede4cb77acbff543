// Instruction text in the style NVIDIA's cuobjdump/nvdisasm printed for Maxwell: "@!P0 FFMA.FTZ R0, R1, c[0x0][0x20], R2".
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "translator/sass/nvdisasm_text.h"
#include "translator/sass/sm5x/encoding_table.h"

namespace kiln::sass::sm5x {
namespace {

std::string hex(int64_t value) {
  return value < 0 ? fmt::format("-{:#x}", -static_cast<uint64_t>(value)) : fmt::format("{:#x}", value);
}

/// "[R2+0x10]", "[R2]", "[0x10]"; also the inside of a[...] and indexed c[..][...]. `zero_as_rz`: memory
/// addresses print [RZ] for RZ + 0 (LDS.U.32 R0, [RZ] in the listings).
std::string address(uint8_t base, int64_t offset, bool zero_as_rz = false) {
  if (base == kRZ && offset == 0 && zero_as_rz) return "RZ";
  if (base == kRZ) return hex(offset);
  std::string text = fmt::format("R{}", base);
  if (offset > 0) text += "+" + hex(offset);
  if (offset < 0) text += hex(offset);
  return text;
}

/// The control word's reuse flags: bit 0 for the register at bit 8, bit 1 at bit 20, bit 2 at bit 39, unless the
/// row names the operand's slot (XMAD with a constant third source reads its bit-39 register as the second).
bool reused(const OperandSpec& spec, uint8_t reuse) {
  if (spec.form != OperandForm::gpr || spec.field.ranges.empty()) return false;
  if (spec.reuse_slot >= 0) return ((reuse >> spec.reuse_slot) & 1) != 0;
  const unsigned lsb = spec.field.ranges[0].lsb;
  return (lsb == 8 && (reuse & 1)) || (lsb == 20 && (reuse & 2)) || (lsb == 39 && (reuse & 4));
}

/// Texture instructions: nvdisasm prints the control word's first two reuse flags as .T and .P after the
/// modifiers, never as .reuse on a register (every TEXS/TLDS/TLD4 of the CUDA 11.8 listings).
bool is_texture(Opcode opcode) {
  switch (opcode) {
  case Opcode::tex: case Opcode::texs: case Opcode::tld: case Opcode::tlds: case Opcode::tld4: case Opcode::tld4s:
  case Opcode::txq: case Opcode::tmml: return true;
  default: return false;
  }
}

/// "{1}", "{0,3}": the scoreboards a DEPBAR waits for (the listings show single ones; the separator is kiln's).
std::string bit_set_text(uint64_t bits) {
  std::string text;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if ((bits >> bit) & 1) text += (text.empty() ? "" : ",") + std::to_string(bit);
  }
  return "{" + text + "}";
}

std::string operand_text(const OperandSpec& spec, const Operand& operand, bool reuse, bool one_register) {
  std::string text;
  switch (operand.kind) {
  case OperandKind::gpr: text = operand.index == kRZ ? "RZ" : fmt::format("R{}", operand.index); break;
  case OperandKind::predicate:
    text = std::string(operand.invert ? "!" : "") + (operand.index == kPT ? "PT" : fmt::format("P{}", operand.index));
    break;
  case OperandKind::integer:
    if (spec.component_mask) text = std::string(component_mask_name(operand.value, one_register));
    else if (spec.bit_set) text = bit_set_text(static_cast<uint64_t>(operand.value));
    else text = hex(operand.value);
    break;
  case OperandKind::float32: text = nvdisasm_float_text(std::bit_cast<float>(static_cast<uint32_t>(operand.value))); break;
  case OperandKind::float64: text = nvdisasm_float_text(std::bit_cast<double>(static_cast<uint64_t>(operand.value))); break;
  case OperandKind::constant_buffer:
    // nvdisasm separates bank and offset by a space where the operand has a part selector (XMAD, I2F, I2I).
    text = fmt::format("c[{:#x}]{}[{}]", operand.index, spec.selector_names.empty() ? "" : " ", address(operand.base, operand.value));
    break;
  case OperandKind::memory: text = "[" + address(operand.base, operand.value, true) + "]"; break;
  case OperandKind::attribute: text = "a[" + address(operand.base, operand.value) + "]"; break;
  case OperandKind::special_register: text = special_register_name(operand.index); break;
  // A target on a control word's slot means the instruction after it, which is what nvdisasm prints.
  case OperandKind::branch_target: text = hex(operand.value % 32 == 0 ? operand.value + 8 : operand.value); break;
  case OperandKind::enumerant:
    text = spec.names[static_cast<size_t>(operand.value)];
    if (spec.suffix_to_mnemonic) text = text.substr(0, text.find('.'));
    break;
  }
  if (!spec.selector_names.empty() && !spec.selector_names[operand.selector].empty()) {
    text += "." + spec.selector_names[operand.selector];
  }
  if (operand.absolute) text = "|" + text + "|";
  if (reuse) text += ".reuse";
  if (operand.negate) text = "-" + text;
  if (operand.invert && operand.kind != OperandKind::predicate) text = "~" + text;
  return text;
}

bool omitted(const OperandSpec& spec, const Operand& operand) {
  if (!spec.optional || operand.negate || operand.absolute || operand.invert || operand.selector != 0) return false;
  const int64_t value = operand.kind == OperandKind::gpr || operand.kind == OperandKind::predicate ? operand.index : operand.value;
  return value == spec.default_value;
}

} // namespace

/// Special register names by hardware number (envydis gm107.c sys_sr list, named the way nvdisasm spells them).
std::string special_register_name(unsigned index) {
  static const std::pair<unsigned, const char*> names[] = {
      {0x00, "SR_LANEID"}, {0x01, "SR_CLOCK"}, {0x02, "SR_VIRTCFG"}, {0x03, "SR_VIRTID"},
      {0x10, "SR_PRIM_TYPE"}, {0x11, "SR_INVOCATION_ID"}, {0x12, "SR_Y_DIRECTION"}, {0x13, "SR_THREAD_KILL"},
      {0x14, "SR_SHADER_TYPE"}, {0x1d, "SR_INVOCATION_INFO"}, {0x20, "SR_TID"}, {0x21, "SR_TID.X"},
      {0x22, "SR_TID.Y"}, {0x23, "SR_TID.Z"}, {0x25, "SR_CTAID.X"}, {0x26, "SR_CTAID.Y"}, {0x27, "SR_CTAID.Z"},
      {0x28, "SR_NTID"}, {0x38, "SR_EQMASK"}, {0x39, "SR_LTMASK"}, {0x3a, "SR_LEMASK"}, {0x3b, "SR_GTMASK"},
      {0x37, "SR_LMEMHIOFF"}, {0x3c, "SR_GEMASK"}, {0x50, "SR_CLOCKLO"}, {0x51, "SR_CLOCKHI"}, {0x52, "SR_GLOBALTIMERLO"},
      {0x53, "SR_GLOBALTIMERHI"},
  };
  for (const auto& [number, name] : names) {
    if (number == index) return name;
  }
  return fmt::format("SR{:#x}", index);
}

std::string disassemble(const Instruction& instruction, uint8_t reuse) {
  std::string text;
  if (instruction.guard != kPT || instruction.guard_negated) {
    text = fmt::format("@{}{} ", instruction.guard_negated ? "!" : "",
                       instruction.guard == kPT ? "PT" : fmt::format("P{}", instruction.guard));
  }
  text += opcode_name(instruction.opcode);
  const Encoding* encoding = instruction.encoding;
  if (encoding == nullptr) return text;
  bool sets_condition_code = false;
  std::vector<std::string> leading;  // modifiers printed as operands
  for (size_t i = 0; i < encoding->modifiers.size() && i < instruction.modifiers.size(); ++i) {
    const std::string& suffix = encoding->modifiers[i].values[instruction.modifiers[i]];
    // nvdisasm writes the condition-code write on the destination ("IADD R2.CC, ..."), not on the mnemonic.
    if (encoding->modifiers[i].name == kConditionCodeWrite && !suffix.empty()) sets_condition_code = true;
    else if (encoding->modifiers[i].as_operand && !suffix.empty()) leading.push_back(suffix);
    else if (!suffix.empty()) text += "." + suffix;
  }
  for (size_t i = 0; i < encoding->operands.size() && i < instruction.operands.size(); ++i) {
    const OperandSpec& spec = encoding->operands[i];
    if (!spec.suffix_to_mnemonic) continue;
    const std::string& name = spec.names[static_cast<size_t>(instruction.operands[i].value)];
    if (const size_t dot = name.find('.'); dot != std::string::npos) text += name.substr(dot);
  }
  const bool texture = is_texture(instruction.opcode);
  if (texture && (reuse & 1)) text += ".T";
  if (texture && (reuse & 2)) text += ".P";
  const bool one_register = !instruction.operands.empty() && instruction.operands[0].kind == OperandKind::gpr &&
                            instruction.operands[0].index == kRZ;
  bool first = true;
  for (const std::string& operand : leading) {
    text += (first ? " " : ", ") + operand;
    first = false;
  }
  for (size_t i = 0; i < encoding->operands.size() && i < instruction.operands.size(); ++i) {
    if (omitted(encoding->operands[i], instruction.operands[i])) continue;
    text += first ? " " : ", ";
    text += operand_text(encoding->operands[i], instruction.operands[i], !texture && reused(encoding->operands[i], reuse),
                         one_register);
    // The first register printed is the destination (LEA and LOP print an omitted PT predicate before it).
    if (sets_condition_code && instruction.operands[i].kind == OperandKind::gpr) {
      text += "." + std::string(kConditionCodeWrite);
      sets_condition_code = false;
    }
    first = false;
  }
  return text;
}

} // namespace kiln::sass::sm5x
