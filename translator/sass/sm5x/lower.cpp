// The SM5x lowering's control flow: reachable blocks, the SSY/PBK/PCNT stacks resolved statically, EXIT, and the
// structurizer; registers and operands (LowerContext).
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/ir/passes.h"
#include "translator/ir/structurize.h"
#include "translator/ir/warp_schedule.h"
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
  if (!compute()) return b.emit(ir::Op::LoadConstBank, ir::Type::U32, {offset}, bank);
  const std::optional<uint32_t> bank_offset = constant_layout->offset_of(bank);
  if (!bank_offset) fail(fmt::format("constant bank {} is not defined by the cubin", bank));
  return b.load(ir::Op::LoadConst, ir::MemoryWidth::B32, b.op(ir::Op::IAdd, offset, b.u32(*bank_offset)));
}

ir::ValueId LowerContext::reg64(uint8_t index) {
  if (index == kRZ) return b.u64(0);
  return b.op(ir::Op::Pack64, reg(index), reg(static_cast<uint8_t>(index + 1)));
}

void LowerContext::set_reg64(uint8_t index, ir::ValueId value) {
  if (index == kRZ) return;
  set_reg(index, b.convert(ir::Op::Trunc, ir::Type::U32, value));
  set_reg(static_cast<uint8_t>(index + 1), b.convert(ir::Op::Trunc, ir::Type::U32, b.op(ir::Op::LShr, value, b.u32(32))));
}

ir::ValueId LowerContext::bits64(const Operand& operand) {
  switch (operand.kind) {
  case OperandKind::gpr: return reg64(static_cast<uint8_t>(operand.index));
  case OperandKind::float64:
  case OperandKind::integer: return b.u64(static_cast<uint64_t>(operand.value));
  case OperandKind::constant_buffer: {
    ir::ValueId offset = b.u32(static_cast<uint32_t>(operand.value));
    if (operand.base != kRZ) offset = b.op(ir::Op::IAdd, reg(operand.base), offset);
    return b.op(ir::Op::Pack64, const_bank(operand.index, offset), const_bank(operand.index, b.op(ir::Op::IAdd, offset, b.u32(4))));
  }
  default: fail("operand kind not supported as a 64-bit source");
  }
}

ir::ValueId LowerContext::double_source(const Operand& operand) {
  ir::ValueId value = to_double(bits64(operand));
  if (operand.absolute) value = b.op(ir::Op::FAbs, value);
  if (operand.negate) value = b.op(ir::Op::FNeg, value);
  return value;
}

ir::ValueId LowerContext::flag(Flag which) {
  auto& local = flag_locals_[static_cast<size_t>(which)];
  // A flag read before any write reads as clear (0): the hardware's value there is not documented.
  if (!local) local = b.add_local(which == Flag::carry ? ir::Type::U32 : ir::Type::Bool);
  return b.load_local(*local);
}

void LowerContext::set_flags(ir::ValueId zero, ir::ValueId sign, ir::ValueId carry, ir::ValueId overflow) {
  const ir::ValueId values[] = {zero, sign, carry, overflow};
  for (size_t i = 0; i < 4; ++i) {
    auto& local = flag_locals_[i];
    if (!local) local = b.add_local(i == static_cast<size_t>(Flag::carry) ? ir::Type::U32 : ir::Type::Bool);
    b.store_local(*local, values[i]);
  }
}

LowerContext::Sum LowerContext::add_with_carry(ir::ValueId x, ir::ValueId y, ir::ValueId carry_in) {
  using ir::Op;
  const auto wide = [&](ir::ValueId v) { return b.convert(Op::ZExt, ir::Type::U64, v); };
  const ir::ValueId sum = b.op(Op::IAdd, b.op(Op::IAdd, wide(x), wide(y)), wide(carry_in));
  const ir::ValueId value = b.convert(Op::Trunc, ir::Type::U32, sum);
  const ir::ValueId carry = b.convert(Op::Trunc, ir::Type::U32, b.op(Op::LShr, sum, b.u32(32)));
  // Signed overflow: both addends have the sign the result lacks.
  const ir::ValueId overflow = b.op(Op::SLt, b.op(Op::And, b.op(Op::Xor, x, value), b.op(Op::Xor, y, value)), b.u32(0));
  return {value, carry, overflow};
}

void LowerContext::set_result_flags(ir::ValueId result, ir::ValueId carry, ir::ValueId overflow, bool extended) {
  using ir::Op;
  ir::ValueId zero = b.op(Op::IEq, result, b.u32(0));
  // An extended (.X) result is zero only if the lower word before it was: 64-bit comparisons chain through Z.
  if (extended) zero = b.op(Op::LAnd, zero, flag(Flag::zero));
  set_flags(zero, b.op(Op::SLt, result, b.u32(0)), carry, overflow);
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

/// blockDim in the driver area of constant bank 0 (x, y, z words), as CUDA lays it out for this family.
constexpr uint32_t kBlockDimOffset = sm86::driver_constants(sm86::InstructionSet::maxwell).block_dim;

// CAL pushes its return point like SSY does (`call`); RET pops to it.
enum class StackKind : uint8_t { ssy, pbk, pcnt, call };
struct StackEntry {
  StackKind kind;
  size_t target;
  friend bool operator==(const StackEntry&, const StackEntry&) = default;
};
using Stack = std::vector<StackEntry>;

bool is_control(Opcode opcode) {
  switch (opcode) {
  case Opcode::bra: case Opcode::brx: case Opcode::sync: case Opcode::brk: case Opcode::cont: case Opcode::exit:
  case Opcode::cal: case Opcode::ret: return true;
  default: return false;
  }
}

/// A BRX edge to a block start that the branch may take without the constant bank saying so: (BRX index,
/// candidate instruction index). Such an edge is dropped again when the block cannot be entered with the BRX's
/// SSY/PBK/PCNT stack (see CfgBuilder::block_for).
using GuessedEdge = std::pair<size_t, size_t>;

/// Thrown by a lowering attempt that found guessed BRX edges the structured form cannot take; lower_graphics
/// retries without them.
struct DropGuessedEdges {
  std::set<GuessedEdge> edges;
};

class CfgBuilder {
public:
  CfgBuilder(ir::Function& function, const Program& program, const LowerOptions& options, const std::set<GuessedEdge>& dropped,
             const sm86::ConstantBufferLayout* constant_layout = nullptr)
      : function_(function), program_(program), context_(function, program, options), dropped_(dropped) {
    context_.constant_layout = constant_layout;
    for (size_t i = 0; i < program.instructions.size(); ++i) index_of_[program.instructions[i].address] = i;
  }

  void set_reads_memory_windows(bool reads) { context_.reads_memory_windows = reads; }
  void set_relocations(std::vector<sm86::CodeRelocation> relocations) { context_.relocations = std::move(relocations); }

  void run() {
    if (program_.instructions.empty()) throw Error(fmt::format("{}: no instructions", program_.name));
    find_leaders();
    find_indirect_targets();
    block_for(0, {}, std::nullopt); // block 0 is the structurizer's entry
    exit_block_ = new_block(SIZE_MAX);
    while (!pending_.empty()) {
      const BlockKey key = pending_.back();
      pending_.pop_back();
      lower_block(key);
    }
    if (!to_drop_.empty()) throw DropGuessedEdges{std::move(to_drop_)};
    // The shared exit: the fragment outputs leave their registers.
    context_.current = nullptr;
    ir::Block body;
    context_.b.set_block(&body);
    context_.store_fragment_outputs();
    blocks_[exit_block_].body = std::move(body.nodes);
    blocks_[exit_block_].exit = ir::CfgBlock::Exit::Return;
    if (context_.compute() && ir::has_warp_operations(function_, blocks_)) {
      // Warp operations run in rounds every invocation takes part in (translator/ir/warp_schedule.h).
      const uint32_t block_dim = *context_.constant_layout->offset_of(0) + kBlockDimOffset;
      ir::schedule_warp_rounds(function_, blocks_, [block_dim](ir::Builder& builder) {
        const auto dim = [&](uint32_t k) { return builder.load(ir::Op::LoadConst, ir::MemoryWidth::B32, builder.u32(block_dim + 4 * k)); };
        return builder.op(ir::Op::IMul, builder.op(ir::Op::IMul, dim(0), dim(1)), dim(2));
      }, program_.name);
    }
    ir::structurize(function_, std::move(blocks_), program_.name);
  }

private:
  using Origin = std::optional<GuessedEdge>; ///< the guessed BRX edge a block was first reached through, if any
  /// A block is its start and the return points of the calls it runs inside: a subroutine called from two
  /// places is lowered once per call site (inlined), everything else once.
  using BlockKey = std::pair<size_t, std::vector<size_t>>;
  static BlockKey key_of(size_t start, const Stack& stack) {
    BlockKey key{start, {}};
    for (const StackEntry& entry : stack) {
      if (entry.kind == StackKind::call) key.second.push_back(entry.target);
    }
    return key;
  }

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

  /// Block starts of the direct control flow (branch and stack targets, the instruction after each control
  /// instruction) and the targets a known BRX jump table names.
  void find_leaders() {
    leader_.assign(program_.instructions.size() + 1, false);
    leader_[0] = true;
    for (size_t i = 0; i < program_.instructions.size(); ++i) {
      const Instruction& instruction = program_.instructions[i];
      for (const Operand& operand : instruction.operands) {
        if (operand.kind == OperandKind::branch_target) leader_[target_index(instruction, operand)] = true;
      }
      if (instruction.opcode == Opcode::brx) {
        table_targets_[i] = jump_table(i);
        for (const size_t target : table_targets_[i]) leader_[target] = true;
      }
      if (is_control(instruction.opcode)) leader_[i + 1] = true;
    }
  }

  /// Every BRX's possible targets, in the order the dispatch tests them: the known table's targets first, then
  /// every other block start after the BRX that the structured form can enter from it: one from which an EXIT
  /// can be reached (not the trailing `BRA` to itself), and not inside a loop (an address range closed by a
  /// backward BRA or CONT) that does not hold the BRX as well (a second loop entry is irreducible).
  void find_indirect_targets() {
    const size_t count = program_.instructions.size();
    // reaches_exit[i]: an EXIT is reachable from instruction i through direct control flow; SYNC/BRK/CONT and
    // BRX count as reaching it (their targets depend on the stack or on data).
    std::vector<bool> reaches_exit(count + 1, false);
    std::vector<std::pair<size_t, size_t>> loops; // [header, last instruction of the back edge]
    size_t loop_header = SIZE_MAX;                 // the latest PCNT's target
    for (size_t i = 0; i < count; ++i) {
      const Instruction& instruction = program_.instructions[i];
      if (instruction.opcode == Opcode::pcnt) loop_header = target_index(instruction, instruction.operands.at(0));
      if (instruction.opcode == Opcode::cont && loop_header != SIZE_MAX && loop_header <= i) loops.emplace_back(loop_header, i);
      if (instruction.opcode == Opcode::bra) {
        const size_t target = target_index(instruction, instruction.operands.at(0));
        if (target <= i) loops.emplace_back(target, i);
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = count; i-- > 0;) {
        const Instruction& instruction = program_.instructions[i];
        const bool unconditional = instruction.guard == kPT && !instruction.guard_negated;
        bool reaches = false;
        switch (instruction.opcode) {
        case Opcode::exit: case Opcode::sync: case Opcode::brk: case Opcode::cont: case Opcode::brx: case Opcode::ret: reaches = true; break;
        case Opcode::bra: reaches = reaches_exit[target_index(instruction, instruction.operands.at(0))] || (!unconditional && reaches_exit[i + 1]); break;
        default: reaches = reaches_exit[i + 1]; break;
        }
        if (reaches && !reaches_exit[i]) reaches_exit[i] = changed = true;
      }
    }
    for (const auto& [branch, table] : table_targets_) {
      const size_t brx = branch; // a plain variable: lambdas may not capture structured bindings before C++20's P1091 (clang 14)
      std::vector<size_t>& targets = indirect_targets_[brx];
      std::set<size_t> listed;
      for (const size_t target : table) {
        if (listed.insert(target).second) targets.push_back(target);
      }
      for (size_t j = brx + 1; j < count; ++j) {
        if (!leader_[j] || !reaches_exit[j] || listed.count(j) || dropped_.count({brx, j})) continue;
        const bool enters_loop_side = std::any_of(loops.begin(), loops.end(), [&](const auto& loop) {
          return brx < loop.first && loop.first < j && j <= loop.second;
        });
        if (enters_loop_side) continue;
        listed.insert(j);
        targets.push_back(j);
        guessed_.insert({brx, j});
      }
    }
  }

  /// BRX Rt, imm jumps to Rt + (its address + 8) + imm, with Rt loaded by LDC from a table in a constant bank
  /// (c[bank][Ri + offset]). When the constant-bank accessor knows that bank, the table's words from `offset`
  /// on, while they name instructions (at most index-clamp + 1 of them when an IMNMX.U32 clamps the index, as
  /// compilers emit for a switch), are the branch's known targets (instruction indices). Empty when unknown.
  std::vector<size_t> jump_table(size_t brx_index) {
    const Instruction& brx = program_.instructions[brx_index];
    if (!context_.options.constant_bank_word) return {};
    const auto target_reg = brx.operands.at(0).index;
    const auto writes = [](const Instruction& in, uint16_t reg) {
      return !in.operands.empty() && in.operands[0].kind == OperandKind::gpr && in.operands[0].index == reg;
    };
    size_t ldc = brx_index;
    while (ldc > 0 && !is_control(program_.instructions[ldc - 1].opcode) && !writes(program_.instructions[ldc - 1], target_reg)) --ldc;
    if (ldc == 0 || program_.instructions[ldc - 1].opcode != Opcode::ldc) return {};
    const Operand& table = program_.instructions[ldc - 1].operands.at(1);
    size_t max_entries = 256;
    for (size_t i = ldc - 1; i > 0 && !is_control(program_.instructions[i - 1].opcode); --i) {
      const Instruction& clamp = program_.instructions[i - 1];
      if (clamp.opcode == Opcode::imnmx && clamp.modifier("type") == 0 && clamp.operands.at(2).kind == OperandKind::integer) {
        max_entries = static_cast<size_t>(clamp.operands.at(2).value) + 1;
        break;
      }
    }
    std::vector<size_t> targets;
    for (size_t k = 0; k < max_entries; ++k) {
      const auto word = context_.options.constant_bank_word(table.index, static_cast<uint32_t>(table.value + 4 * static_cast<int64_t>(k)));
      if (!word) break;
      const auto it = index_of_.find(indirect_target_address(brx, *word));
      if (it == index_of_.end()) break;
      targets.push_back(it->second);
    }
    return targets;
  }

  /// The instruction address BRX reaches with `value` in its register: the hardware adds the raw address after
  /// the BRX (it may be a control word) and the immediate; a target on a control word runs the instruction after it.
  static uint64_t indirect_target_address(const Instruction& brx, uint32_t value) {
    uint64_t address = (uint64_t{value} + brx.address + 8 + static_cast<uint64_t>(brx.operands.at(1).value)) & 0xffffffffu;
    if (address % 32 == 0) address += 8;
    return address;
  }

  uint32_t new_block(size_t start) {
    blocks_.push_back({});
    starts_.push_back(start);
    return static_cast<uint32_t>(blocks_.size() - 1);
  }

  /// Records that code reached only through a guessed BRX edge cannot be lowered as `what` says: the edge is
  /// dropped and the program lowered again. Without such an edge `what` is the program's error.
  void unreachable_through(const Origin& origin, const std::string& what) {
    if (!origin) context_.fail(what);
    to_drop_.insert(*origin);
  }

  /// Of two ways into the block at `start` with different stacks, the guessed edge to drop: the only guessed one;
  /// else a BRX edge straight into this block (its own path into the block disagrees with the BRX's stack); else
  /// the edge into the later block start (a jump into the middle of a region the earlier one opens).
  static Origin blamed_edge(size_t start, const Origin& first, const Origin& second) {
    if (!first || !second) return first ? first : second;
    if (second->second == start) return second;
    if (first->second == start) return first;
    return first->second > second->second ? first : second;
  }

  /// The block that starts at instruction `start` with `stack`, queued for lowering when new.
  uint32_t block_for(size_t start, Stack stack, const Origin& origin) {
    // Reaching a reconvergence point (SSY/PBK target) consumes its entry, however the code got there.
    while (!stack.empty() && stack.back().kind != StackKind::pcnt && stack.back().kind != StackKind::call && stack.back().target == start) {
      stack.pop_back();
    }
    if (start >= program_.instructions.size()) {
      if (!origin) throw Error(fmt::format("{}: control flows past the end of the code", program_.name));
      to_drop_.insert(*origin);
      return exit_block_;
    }
    const BlockKey key = key_of(start, stack);
    if (const auto it = block_at_.find(key); it != block_at_.end()) {
      if (stacks_.at(key) != stack) {
        context_.current = &program_.instructions[start];
        const Origin& first = origins_.at(key);
        if (!first && !origin) context_.fail("reached with two different SSY/PBK/PCNT stacks");
        to_drop_.insert(*blamed_edge(start, first, origin));
      }
      return it->second;
    }
    const uint32_t block = new_block(start);
    block_at_[key] = block;
    stacks_[key] = std::move(stack);
    origins_[key] = origin;
    pending_.push_back(key);
    return block;
  }

  std::optional<size_t> pop_to(Stack& stack, StackKind kind, const Instruction& instruction, const Origin& origin) {
    while (!stack.empty() && stack.back().kind != kind) stack.pop_back();
    if (stack.empty()) {
      context_.current = &instruction;
      unreachable_through(origin, "no matching SSY/PBK/PCNT on the stack");
      return std::nullopt;
    }
    const size_t target = stack.back().target;
    if (kind != StackKind::pcnt) stack.pop_back();
    return target;
  }

  void lower_block(const BlockKey& key) {
    const size_t start = key.first;
    Stack stack = stacks_.at(key);
    const Origin origin = origins_.at(key);
    const uint32_t block_index = block_at_.at(key);
    ir::Block body;
    context_.b.set_block(&body);
    ir::CfgBlock cfg;
    cfg.guest_address = program_.instructions[start].address;
    const auto give_up = [&](const std::string& what) {
      unreachable_through(origin, what);
      cfg = {};
      cfg.exit = ir::CfgBlock::Exit::Jump;
      cfg.target = exit_block_;
      blocks_[block_index] = std::move(cfg);
    };
    size_t i = start;
    for (;; ++i) {
      if (i >= program_.instructions.size()) {
        context_.current = nullptr;
        if (!origin) throw Error(fmt::format("{}: control flows past the end of the code", program_.name));
        return give_up("control flows past the end of the code");
      }
      if (i != start && leader_[i]) {
        cfg.exit = ir::CfgBlock::Exit::Jump;
        cfg.target = block_for(i, stack, origin);
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
        if (!origin) {
          lower_instruction(instruction);
          continue;
        }
        try {
          lower_instruction(instruction);
        } catch (const Error& error) {
          return give_up(error.what());
        }
        continue;
      }
      const uint32_t cc = instruction.opcode == Opcode::cal ? 15 : instruction.modifier("cc");
      if (cc != 15 && instruction.opcode != Opcode::bra) context_.fail("condition-code tests on this control instruction are not supported");
      if (instruction.opcode == Opcode::brx) {
        lower_brx(instruction, i, stack, origin, cfg);
        break;
      }
      std::optional<uint32_t> taken;
      Stack taken_stack = stack;
      const auto pop_target = [&](StackKind kind) -> uint32_t {
        const auto target = pop_to(taken_stack, kind, instruction, origin);
        return target ? block_for(*target, taken_stack, origin) : exit_block_;
      };
      switch (instruction.opcode) {
      case Opcode::bra: taken = block_for(target_index(instruction, instruction.operands.at(0)), stack, origin); break;
      case Opcode::sync: taken = pop_target(StackKind::ssy); break;
      case Opcode::brk: taken = pop_target(StackKind::pbk); break;
      case Opcode::cont: taken = pop_target(StackKind::pcnt); break;
      case Opcode::ret: taken = pop_target(StackKind::call); break;
      case Opcode::cal: {
        Stack callee = stack;
        callee.push_back({StackKind::call, i + 1});
        taken = block_for(target_index(instruction, instruction.operands.at(0)), std::move(callee), origin);
        break;
      }
      case Opcode::exit: taken = exit_block_; break;
      default: break;
      }
      if (guarded || cc != 15) {
        cfg.exit = ir::CfgBlock::Exit::Branch;
        cfg.condition = context_.pred(instruction.guard, instruction.guard_negated);
        // BRA CC.NEU: taken when the guard holds and the condition code passes the test.
        if (cc != 15) cfg.condition = context_.b.op(ir::Op::LAnd, cfg.condition, context_.cc_test(cc));
        cfg.target = *taken;
        cfg.fallthrough = block_for(i + 1, stack, origin);
      } else {
        cfg.exit = ir::CfgBlock::Exit::Jump;
        cfg.target = *taken;
      }
      break;
    }
    cfg.body = std::move(body.nodes);
    blocks_[block_index] = std::move(cfg);
  }

  /// The target address is computed and tested against each possible target's address (indirect_targets_),
  /// so the translation needs no constant-bank data. An address that is none of them (a table the runtime
  /// changed, or a jump into the middle of a block) cannot be followed: a fragment is discarded there (it
  /// writes nothing, visibly), any other stage ends with the outputs written so far.
  void lower_brx(const Instruction& brx, size_t index, const Stack& stack, const Origin& origin, ir::CfgBlock& cfg) {
    if (brx.guard != kPT || brx.guard_negated) context_.fail("predicated BRX is not supported");
    auto& b = context_.b;
    const uint32_t address_local = b.add_local(ir::Type::U32);
    {
      const auto reg = static_cast<uint8_t>(brx.operands.at(0).index);
      const uint32_t after = static_cast<uint32_t>(brx.address + 8 + static_cast<uint64_t>(brx.operands.at(1).value));
      const ir::ValueId raw = b.op(ir::Op::IAdd, context_.reg(reg), b.u32(after));
      const ir::ValueId on_control_word = b.op(ir::Op::IEq, b.op(ir::Op::And, raw, b.u32(31)), b.u32(0));
      b.store_local(address_local, b.select(on_control_word, b.op(ir::Op::IAdd, raw, b.u32(8)), raw));
    }
    const uint32_t lost = new_block(SIZE_MAX);
    {
      ir::Block body;
      b.set_block(&body);
      if (program_.header && program_.header->stage == ShaderStage::pixel) b.emit(ir::Op::Demote, ir::Type::Void, {});
      blocks_[lost].guest_address = brx.address;
      blocks_[lost].body = std::move(body.nodes);
      blocks_[lost].exit = ir::CfgBlock::Exit::Jump;
      blocks_[lost].target = exit_block_;
    }
    const auto& all_targets = indirect_targets_.at(index);
    const auto edge_origin = [&](size_t target) -> Origin {
      if (origin || !guessed_.count({index, target})) return origin;
      return GuessedEdge{index, target};
    };
    // A guessed target stays inside the innermost SSY/PBK region around the BRX (up to its reconvergence point):
    // leaving a region without its SYNC/BRK would leave its entry on the stack, which compilers never do.
    const size_t region_end = !stack.empty() && stack.back().kind != StackKind::pcnt ? stack.back().target : program_.instructions.size();
    std::vector<size_t> targets;
    for (const size_t target : all_targets) {
      if (target <= region_end || !guessed_.count({index, target})) targets.push_back(target);
    }
    // Tests from the last target back, each falling through to the one after it; the first test ends `cfg`.
    uint32_t otherwise = lost;
    for (size_t k = targets.size(); k-- > 0;) {
      ir::Block test;
      b.set_block(&test);
      ir::CfgBlock chain;
      chain.guest_address = brx.address;
      chain.exit = ir::CfgBlock::Exit::Branch;
      chain.condition = b.op(ir::Op::IEq, b.load_local(address_local), b.u32(static_cast<uint32_t>(program_.instructions[targets[k]].address)));
      chain.target = block_for(targets[k], stack, edge_origin(targets[k]));
      chain.fallthrough = otherwise;
      chain.body = std::move(test.nodes);
      otherwise = new_block(SIZE_MAX);
      blocks_[otherwise] = std::move(chain);
    }
    cfg.exit = ir::CfgBlock::Exit::Jump;
    cfg.target = otherwise;
  }

  /// MOV32I Rd, 32@lo(symbol) / 32@hi(symbol): a word of the symbol's device address, which is the module's
  /// global memory base (in the constant buffer, constant_buffer.h) plus the symbol's offset there.
  void lower_relocated(const Instruction& instruction, const sm86::CodeRelocation& relocation) {
    const bool low = relocation.type == sm86::kRelocationAbs32Lo20, high = relocation.type == sm86::kRelocationAbs32Hi20;
    const auto* layout = context_.constant_layout;
    if (instruction.opcode != Opcode::mov32i || !(low || high) || !relocation.global_offset || !layout || !layout->global_base) {
      context_.fail(fmt::format("relocation type {} against {} is not supported", relocation.type, relocation.symbol));
    }
    auto& b = context_.b;
    const ir::ValueId base = b.load(ir::Op::LoadConst, ir::MemoryWidth::B64, b.u32(*layout->global_base));
    const ir::ValueId address = b.op(ir::Op::IAdd, base, b.u64(*relocation.global_offset + relocation.addend));
    const ir::ValueId word = b.convert(ir::Op::Trunc, ir::Type::U32, high ? b.op(ir::Op::LShr, address, b.u32(32)) : address);
    context_.set_reg(static_cast<uint8_t>(instruction.operands.at(0).index), word);
  }

  void lower_instruction(const Instruction& instruction) {
    const auto lower = [&] {
      if (instruction.opcode == Opcode::nop || instruction.opcode == Opcode::depbar) return;
      for (const sm86::CodeRelocation& relocation : context_.relocations) {
        if (relocation.offset != instruction.address) continue;
        lower_relocated(instruction, relocation);
        return;
      }
      if (context_.lower_integer(instruction) || context_.lower_alu(instruction) || context_.lower_wide(instruction)) return;
      const bool done = context_.compute() ? context_.lower_compute(instruction)
                                           : context_.lower_io(instruction) || context_.lower_texture(instruction) || context_.lower_quad(instruction);
      if (!done) context_.fail("instruction not supported by the lowering");
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
  const std::set<GuessedEdge>& dropped_;
  std::map<uint64_t, size_t> index_of_;
  std::vector<bool> leader_;
  std::vector<ir::CfgBlock> blocks_;
  std::vector<size_t> starts_;
  std::map<BlockKey, uint32_t> block_at_;
  std::map<BlockKey, Stack> stacks_;
  std::map<BlockKey, Origin> origins_;
  std::map<size_t, std::vector<size_t>> table_targets_;    ///< BRX index -> targets its known jump table names
  std::map<size_t, std::vector<size_t>> indirect_targets_; ///< BRX index -> every target its dispatch tests
  std::set<GuessedEdge> guessed_;
  std::set<GuessedEdge> to_drop_;
  std::vector<BlockKey> pending_;
  uint32_t exit_block_ = 0;
};

} // namespace

ir::Function lower_graphics(const Program& program, const LowerOptions& options) {
  if (!program.header) throw Error(fmt::format("{}: a graphics program needs its SPH", program.name));
  // Each attempt drops the guessed BRX edges the previous one could not take; every attempt drops at least one,
  // so this ends.
  std::set<GuessedEdge> dropped;
  for (;;) {
    ir::Function function;
    function.kernel.name = "main";
    try {
      CfgBuilder(function, program, options, dropped).run();
    } catch (DropGuessedEdges& retry) {
      const size_t before = dropped.size();
      dropped.merge(retry.edges);
      if (dropped.size() == before) throw Error(fmt::format("{}: the indirect branches' targets do not converge", program.name));
      continue;
    }
    ir::run_passes(function);
    return function;
  }
}

ir::Function lower_kernel(const sm86::Kernel& kernel, const std::string& file) {
  const std::string name = fmt::format("{}: kernel {}", file, kernel.name);
  Program program = decode_program(kernel.code, name, ProgramKind::compute);
  program.code_offset = kernel.code_file_offset; // errors give file offsets

  const sm86::ConstantBufferLayout layout = sm86::constant_buffer_layout(kernel);
  ir::Function function;
  function.kernel.name = kernel.name;
  function.kernel.shared_bytes = kernel.shared_memory_size;
  function.kernel.const_bank_bytes = layout.size;
  function.kernel.private_bytes = kernel.local_memory_size;
  CfgBuilder builder(function, program, {}, {}, &layout);
  bool windows = false;
  for (const Instruction& instruction : program.instructions) {
    for (const Operand& operand : instruction.operands) {
      windows = windows || (operand.kind == OperandKind::constant_buffer && operand.index == 0 && operand.value < 0x8);
    }
  }
  builder.set_reads_memory_windows(windows);
  builder.set_relocations(kernel.code_symbols);
  builder.run();
  ir::run_passes(function);
  return function;
}

} // namespace kiln::sass::sm5x
