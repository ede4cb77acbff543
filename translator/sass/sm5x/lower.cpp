// The SM5x lowering's control flow: reachable blocks, the SSY/PBK/PCNT stacks resolved statically, EXIT, and the
// structurizer; registers and operands (LowerContext).
#include <map>
#include <optional>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/ir/passes.h"
#include "translator/ir/structurize.h"
#include "translator/sass/sm5x/lower_context.h"

namespace kiln::sass::sm5x {

void LowerContext::fail(const std::string& what) const {
  if (current == nullptr) throw Error(fmt::format("{}: {}", program.name, what));
  throw Error(fmt::format("{}: code address {:#x} (file offset {:#x}): {}: {}", program.name, current->address,
                          program.code_offset + current->address, disassemble(*current), what));
}

ir::ValueId LowerContext::reg(uint8_t index) {
  if (index == kRZ) return b.u32(0);
  if (!has_reg_[index]) {
    reg_locals_[index] = b.add_local(ir::Type::U32);
    has_reg_[index] = true;
  }
  return b.load_local(reg_locals_[index]);
}

void LowerContext::set_reg(uint8_t index, ir::ValueId value) {
  if (index == kRZ) return;
  if (!has_reg_[index]) {
    reg_locals_[index] = b.add_local(ir::Type::U32);
    has_reg_[index] = true;
  }
  b.store_local(reg_locals_[index], value);
}

ir::ValueId LowerContext::pred(uint8_t index, bool invert) {
  ir::ValueId value;
  if (index == kPT) {
    value = b.boolean(true);
  } else {
    if (!has_pred_[index]) {
      pred_locals_[index] = b.add_local(ir::Type::Bool);
      has_pred_[index] = true;
    }
    value = b.load_local(pred_locals_[index]);
  }
  return invert ? b.op(ir::Op::LNot, value) : value;
}

void LowerContext::set_pred(uint8_t index, ir::ValueId value) {
  if (index == kPT) return;
  if (!has_pred_[index]) {
    pred_locals_[index] = b.add_local(ir::Type::Bool);
    has_pred_[index] = true;
  }
  b.store_local(pred_locals_[index], value);
}

ir::ValueId LowerContext::const_bank(uint32_t bank, ir::ValueId offset) {
  return b.emit(ir::Op::LoadConstBank, ir::Type::U32, {offset}, bank);
}

ir::ValueId LowerContext::bits(const Operand& operand) {
  switch (operand.kind) {
  case OperandKind::gpr: return reg(static_cast<uint8_t>(operand.index));
  case OperandKind::integer:
  case OperandKind::float32: return b.u32(static_cast<uint32_t>(operand.value));
  case OperandKind::constant_buffer: {
    ir::ValueId offset = b.u32(static_cast<uint32_t>(operand.value));
    if (operand.base != kRZ) offset = b.op(ir::Op::IAdd, reg(operand.base), offset);
    return const_bank(operand.index, offset);
  }
  default: fail("operand kind not supported as a source");
  }
}

ir::ValueId LowerContext::float_source(const Operand& operand, bool flush) {
  ir::ValueId value = to_float(bits(operand));
  if (operand.absolute) value = b.op(ir::Op::FAbs, value);
  if (operand.negate) value = b.op(ir::Op::FNeg, value);
  if (flush) value = b.op(ir::Op::FFlushDenormal, value);
  return value;
}

namespace {

enum class StackKind : uint8_t { ssy, pbk, pcnt };
struct StackEntry {
  StackKind kind;
  size_t target;
  friend bool operator==(const StackEntry&, const StackEntry&) = default;
};
using Stack = std::vector<StackEntry>;

bool is_control(Opcode opcode) {
  switch (opcode) {
  case Opcode::bra: case Opcode::brx: case Opcode::sync: case Opcode::brk: case Opcode::cont: case Opcode::exit: return true;
  default: return false;
  }
}

class CfgBuilder {
public:
  CfgBuilder(ir::Function& function, const Program& program, const LowerOptions& options)
      : function_(function), program_(program), context_(function, program, options) {
    for (size_t i = 0; i < program.instructions.size(); ++i) index_of_[program.instructions[i].address] = i;
  }

  void run() {
    if (program_.instructions.empty()) throw Error(fmt::format("{}: no instructions", program_.name));
    find_leaders();
    block_for(0, {}); // block 0 is the structurizer's entry
    exit_block_ = new_block(SIZE_MAX);
    while (!pending_.empty()) {
      auto [start, stack] = pending_.back();
      pending_.pop_back();
      lower_block(start, stack);
    }
    // The shared exit: the fragment outputs leave their registers.
    context_.current = nullptr;
    ir::Block body;
    context_.b.set_block(&body);
    context_.store_fragment_outputs();
    blocks_[exit_block_].body = std::move(body.nodes);
    blocks_[exit_block_].exit = ir::CfgBlock::Exit::Return;
    ir::structurize(function_, std::move(blocks_), program_.name);
  }

private:
  size_t target_index(const Instruction& instruction, const Operand& operand) {
    uint64_t address = static_cast<uint64_t>(operand.value);
    if (address % 32 == 0) address += 8; // a control word: the instruction after it
    const auto it = index_of_.find(address);
    if (it == index_of_.end()) {
      context_.current = &instruction;
      context_.fail(fmt::format("branch target {:#x} is not an instruction", operand.value));
    }
    return it->second;
  }

  void find_leaders() {
    leader_.assign(program_.instructions.size() + 1, false);
    leader_[0] = true;
    for (size_t i = 0; i < program_.instructions.size(); ++i) {
      const Instruction& instruction = program_.instructions[i];
      for (const Operand& operand : instruction.operands) {
        if (operand.kind == OperandKind::branch_target) leader_[target_index(instruction, operand)] = true;
      }
      if (instruction.opcode == Opcode::brx) {
        jump_tables_[i] = jump_table(i);
        for (const auto& [entry, target] : jump_tables_[i]) leader_[target] = true;
      }
      if (is_control(instruction.opcode)) leader_[i + 1] = true;
    }
  }

  /// BRX Rt, imm jumps to Rt + (its address + 8) + imm, with Rt loaded by LDC from a table in a constant bank
  /// (c[bank][Ri + offset]). The table's words, read through the constant-bank accessor from `offset` on while
  /// they name instructions (at most index-clamp + 1 of them when an IMNMX.U32 clamps the index, as compilers
  /// emit for a switch), are the branch's possible targets: (entry, instruction index) pairs.
  std::vector<std::pair<uint32_t, size_t>> jump_table(size_t brx_index) {
    const Instruction& brx = program_.instructions[brx_index];
    context_.current = &brx;
    if (!context_.options.constant_bank_word) {
      context_.fail("indirect branch: its jump table (constant bank data) is not known to the translator");
    }
    const auto target_reg = brx.operands.at(0).index;
    const auto writes = [](const Instruction& in, uint16_t reg) {
      return !in.operands.empty() && in.operands[0].kind == OperandKind::gpr && in.operands[0].index == reg;
    };
    size_t ldc = brx_index;
    while (ldc > 0 && !is_control(program_.instructions[ldc - 1].opcode) && !writes(program_.instructions[ldc - 1], target_reg)) --ldc;
    if (ldc == 0 || program_.instructions[ldc - 1].opcode != Opcode::ldc) context_.fail("BRX target does not come from an LDC of a constant-bank table");
    const Operand& table = program_.instructions[ldc - 1].operands.at(1);
    size_t max_entries = 256;
    for (size_t i = ldc - 1; i > 0 && !is_control(program_.instructions[i - 1].opcode); --i) {
      const Instruction& clamp = program_.instructions[i - 1];
      if (clamp.opcode == Opcode::imnmx && clamp.modifier("type") == 0 && clamp.operands.at(2).kind == OperandKind::integer) {
        max_entries = static_cast<size_t>(clamp.operands.at(2).value) + 1;
        break;
      }
    }
    const uint64_t next = brx.address + 8; // the hardware adds the raw next address (it may be a control word)
    std::vector<std::pair<uint32_t, size_t>> entries;
    for (size_t k = 0; k < max_entries; ++k) {
      const auto word = context_.options.constant_bank_word(table.index, static_cast<uint32_t>(table.value + 4 * static_cast<int64_t>(k)));
      if (!word) break;
      uint64_t address = static_cast<uint64_t>(static_cast<int64_t>(*word) + static_cast<int64_t>(next) + brx.operands.at(1).value) & 0xffffffffu;
      if (address % 32 == 0) address += 8; // a control word: the instruction after it
      const auto it = index_of_.find(address);
      if (it == index_of_.end()) break;
      entries.emplace_back(*word, it->second);
    }
    context_.current = &brx;
    if (entries.empty()) context_.fail(fmt::format("the jump table at c[{}][{:#x}] names no instruction", table.index, table.value));
    return entries;
  }

  uint32_t new_block(size_t start) {
    blocks_.push_back({});
    starts_.push_back(start);
    return static_cast<uint32_t>(blocks_.size() - 1);
  }

  /// The block that starts at instruction `start` with `stack`, queued for lowering when new.
  uint32_t block_for(size_t start, Stack stack) {
    // Reaching a reconvergence point (SSY/PBK target) consumes its entry, however the code got there.
    while (!stack.empty() && stack.back().kind != StackKind::pcnt && stack.back().target == start) stack.pop_back();
    if (start >= program_.instructions.size()) throw Error(fmt::format("{}: control flows past the end of the code", program_.name));
    if (const auto it = block_at_.find(start); it != block_at_.end()) {
      if (stacks_.at(start) != stack) {
        context_.current = &program_.instructions[start];
        context_.fail("reached with two different SSY/PBK/PCNT stacks");
      }
      return it->second;
    }
    const uint32_t block = new_block(start);
    block_at_[start] = block;
    stacks_[start] = stack;
    pending_.emplace_back(start, std::move(stack));
    return block;
  }

  size_t pop_to(Stack& stack, StackKind kind, const Instruction& instruction) {
    while (!stack.empty() && stack.back().kind != kind) stack.pop_back();
    if (stack.empty()) {
      context_.current = &instruction;
      context_.fail("no matching SSY/PBK/PCNT on the stack");
    }
    const size_t target = stack.back().target;
    if (kind != StackKind::pcnt) stack.pop_back();
    return target;
  }

  void lower_block(size_t start, Stack stack) {
    const uint32_t block_index = block_at_.at(start);
    ir::Block body;
    context_.b.set_block(&body);
    ir::CfgBlock cfg;
    cfg.guest_address = program_.instructions[start].address;
    size_t i = start;
    for (;; ++i) {
      if (i >= program_.instructions.size()) throw Error(fmt::format("{}: control flows past the end of the code", program_.name));
      if (i != start && leader_[i]) {
        cfg.exit = ir::CfgBlock::Exit::Jump;
        cfg.target = block_for(i, stack);
        break;
      }
      const Instruction& instruction = program_.instructions[i];
      context_.current = &instruction;
      context_.b.set_guest_address(instruction.address);
      const bool guarded = instruction.guard != kPT;
      if (instruction.opcode == Opcode::ssy || instruction.opcode == Opcode::pbk || instruction.opcode == Opcode::pcnt) {
        const StackKind kind = instruction.opcode == Opcode::ssy ? StackKind::ssy : instruction.opcode == Opcode::pbk ? StackKind::pbk : StackKind::pcnt;
        stack.push_back({kind, target_index(instruction, instruction.operands.at(0))});
        continue;
      }
      if (!is_control(instruction.opcode)) {
        lower_instruction(instruction);
        continue;
      }
      if (instruction.modifier("cc") != 15) context_.fail("condition-code branches are not supported");
      if (instruction.opcode == Opcode::brx) {
        lower_brx(instruction, i, stack, cfg, body);
        break;
      }
      std::optional<uint32_t> taken;
      Stack taken_stack = stack;
      switch (instruction.opcode) {
      case Opcode::bra: taken = block_for(target_index(instruction, instruction.operands.at(0)), stack); break;
      case Opcode::sync: taken = block_for(pop_to(taken_stack, StackKind::ssy, instruction), taken_stack); break;
      case Opcode::brk: taken = block_for(pop_to(taken_stack, StackKind::pbk, instruction), taken_stack); break;
      case Opcode::cont: taken = block_for(pop_to(taken_stack, StackKind::pcnt, instruction), taken_stack); break;
      case Opcode::exit: taken = exit_block_; break;
      default: break;
      }
      if (guarded) {
        cfg.exit = ir::CfgBlock::Exit::Branch;
        cfg.condition = context_.pred(instruction.guard, instruction.guard_negated);
        cfg.target = *taken;
        cfg.fallthrough = block_for(i + 1, stack);
      } else {
        cfg.exit = ir::CfgBlock::Exit::Jump;
        cfg.target = *taken;
      }
      break;
    }
    cfg.body = std::move(body.nodes);
    blocks_[block_index] = std::move(cfg);
  }

  /// A chain of tests of the loaded table entry against each known entry; an entry the table did not hold when
  /// translated ends the program (the hardware would jump to an address nobody can know).
  void lower_brx(const Instruction& brx, size_t index, const Stack& stack, ir::CfgBlock& cfg, ir::Block& body) {
    if (brx.guard != kPT || brx.guard_negated) context_.fail("predicated BRX is not supported");
    const auto& table = jump_tables_.at(index);
    const auto reg = static_cast<uint8_t>(brx.operands.at(0).index);
    uint32_t otherwise = exit_block_;
    for (size_t k = table.size(); k-- > 1;) {
      ir::Block test;
      context_.b.set_block(&test);
      ir::CfgBlock chain;
      chain.guest_address = brx.address;
      chain.exit = ir::CfgBlock::Exit::Branch;
      chain.condition = context_.b.op(ir::Op::IEq, context_.reg(reg), context_.b.u32(table[k].first));
      chain.target = block_for(table[k].second, stack);
      chain.fallthrough = otherwise;
      chain.body = std::move(test.nodes);
      otherwise = new_block(SIZE_MAX);
      blocks_[otherwise] = std::move(chain);
    }
    context_.b.set_block(&body);
    cfg.exit = ir::CfgBlock::Exit::Branch;
    cfg.condition = context_.b.op(ir::Op::IEq, context_.reg(reg), context_.b.u32(table[0].first));
    cfg.target = block_for(table[0].second, stack);
    cfg.fallthrough = otherwise;
  }

  void lower_instruction(const Instruction& instruction) {
    const auto lower = [&] {
      if (instruction.opcode == Opcode::nop || instruction.opcode == Opcode::depbar) return;
      if (!context_.lower_alu(instruction) && !context_.lower_io(instruction) && !context_.lower_texture(instruction) &&
          !context_.lower_quad(instruction)) context_.fail("instruction not supported by the lowering");
    };
    if (instruction.guard == kPT && !instruction.guard_negated) {
      lower();
      return;
    }
    context_.b.if_then(context_.pred(instruction.guard, instruction.guard_negated), lower);
  }

  ir::Function& function_;
  const Program& program_;
  LowerContext context_;
  std::map<uint64_t, size_t> index_of_;
  std::vector<bool> leader_;
  std::vector<ir::CfgBlock> blocks_;
  std::vector<size_t> starts_;
  std::map<size_t, uint32_t> block_at_;
  std::map<size_t, Stack> stacks_;
  std::map<size_t, std::vector<std::pair<uint32_t, size_t>>> jump_tables_; ///< BRX index -> (entry, target)
  std::vector<std::pair<size_t, Stack>> pending_;
  uint32_t exit_block_ = 0;
};

} // namespace

ir::Function lower_graphics(const Program& program, const LowerOptions& options) {
  if (!program.header) throw Error(fmt::format("{}: a graphics program needs its SPH", program.name));
  ir::Function function;
  function.kernel.name = "main";
  CfgBuilder(function, program, options).run();
  ir::run_passes(function);
  return function;
}

} // namespace kiln::sass::sm5x
