#include "tests/translator/graphics/jump_tables.h"

#include <bit>
#include <map>

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::test {
namespace {

using namespace sass::sm5x;

constexpr uint32_t kBank = 1;

/// The instruction an address means: a control word's address means the instruction after it.
uint64_t instruction_at(uint64_t address) { return address % 32 == 0 ? address + 8 : address; }

bool writes(const Instruction& instruction, uint16_t reg) {
  return !instruction.operands.empty() && instruction.operands[0].kind == OperandKind::gpr && instruction.operands[0].index == reg;
}

} // namespace

std::vector<uint32_t> derive_compiler_constants(const Program& program) {
  const auto& code = program.instructions;
  std::map<uint64_t, size_t> index_of;
  for (size_t i = 0; i < code.size(); ++i) index_of[code[i].address] = i;
  const auto fail = [&](const Instruction& at, const std::string& what) -> std::vector<uint32_t> {
    throw Error(fmt::format("{}: code address {:#x}: {}: {}", program.name, at.address, disassemble(at), what));
  };
  /// The first unconditional BRA at or after instruction index `from`.
  const auto next_jump = [&](size_t from) -> const Instruction& {
    for (size_t i = from; i < code.size(); ++i) {
      if (code[i].opcode == Opcode::bra && code[i].guard == kPT && !code[i].guard_negated) return code[i];
    }
    throw Error(fmt::format("{}: no BRA ends a switch case after code index {}", program.name, from));
  };

  std::map<uint32_t, uint32_t> words; // byte offset -> value
  for (size_t b = 0; b < code.size(); ++b) {
    const Instruction& brx = code[b];
    if (brx.opcode != Opcode::brx) continue;
    const auto target_reg = brx.operands.at(0).index;
    size_t l = b;
    while (l > 0 && !writes(code[l - 1], target_reg)) --l;
    if (l == 0 || code[l - 1].opcode != Opcode::ldc) fail(brx, "its target does not come from LDC");
    const Instruction& ldc = code[l - 1];
    const Operand& table = ldc.operands.at(1);
    if (table.kind != OperandKind::constant_buffer || table.index != kBank) fail(ldc, "not a c[1] table read");
    size_t c = l - 1;
    while (c > 0 && code[c - 1].opcode != Opcode::imnmx) --c;
    if (c == 0 || code[c - 1].operands.at(2).kind != OperandKind::integer) fail(ldc, "no IMNMX clamps the table index");
    const auto last_index = static_cast<uint32_t>(code[c - 1].operands.at(2).value);

    // Addresses are the byte after an instruction, as the hardware adds them (possibly a control word).
    const uint64_t next = brx.address + 8;
    const int64_t relative = brx.operands.at(1).value;
    std::vector<uint64_t> targets{next};
    const Instruction& first_jump = next_jump(index_of.at(instruction_at(next)));
    for (uint32_t k = 1; k < last_index; ++k) targets.push_back(next_jump(index_of.at(instruction_at(targets.back()))).address + 8);
    targets.push_back(static_cast<uint64_t>(first_jump.operands.at(0).value));
    for (uint32_t k = 0; k <= last_index; ++k) {
      if (!index_of.count(instruction_at(targets[k]))) fail(brx, fmt::format("derived target {:#x} is not an instruction", targets[k]));
      const auto offset = static_cast<uint32_t>(table.value) + 4 * k;
      const auto entry = static_cast<uint32_t>(static_cast<int64_t>(targets[k]) - static_cast<int64_t>(next) - relative);
      if (words.count(offset) && words[offset] != entry) fail(brx, fmt::format("two tables claim c[1][{:#x}]", offset));
      words[offset] = entry;
    }
  }
  // Non-indexed reads of c[1]: the bell-shaped kernel's 3/4.
  for (const Instruction& instruction : code) {
    for (const Operand& operand : instruction.operands) {
      if (operand.kind != OperandKind::constant_buffer || operand.index != kBank || operand.base != kRZ) continue;
      const auto offset = static_cast<uint32_t>(operand.value);
      if (words.count(offset) && words[offset] != std::bit_cast<uint32_t>(0.75f)) fail(instruction, "reads a jump-table word as data");
      words[offset] = std::bit_cast<uint32_t>(0.75f);
    }
  }
  if (words.empty()) return {};
  std::vector<uint32_t> bank(words.rbegin()->first / 4 + 1, 0);
  for (const auto& [offset, value] : words) bank[offset / 4] = value;
  return bank;
}

} // namespace kiln::test
