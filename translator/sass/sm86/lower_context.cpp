// The SM86 lowering's frame: guest registers as IR locals, operand reading, predication, and the kernel's
// branches turned into a CFG for the structurizer.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/ir/passes.h"
#include "translator/ir/structurize.h"
#include "translator/ir/warp_schedule.h"
#include "translator/sass/sm86/lower_context.h"

namespace kiln::sass::sm86 {

using ir::Op;
using ir::Type;

Lowerer::Lowerer(const Kernel& kernel, std::span<const Instruction> code, const std::string& file)
    : kernel_(kernel), constant_layout_(constant_buffer_layout(kernel)), code_(code), file_(file), b_(function_) {
  function_.kernel.name = kernel.name;
  function_.kernel.shared_bytes = kernel.shared_memory_size;
  function_.kernel.const_bank_bytes = constant_layout_.size;
  function_.kernel.private_bytes = kernel.local_memory_size;
}

Lowerer::Lowerer(const Kernel& program, std::span<const Instruction> code, const std::string& file,
                 const sm5x::ShaderProgramHeader& header, const GraphicsLowerOptions& options)
    : kernel_(program), header_(&header), graphics_options_(options), code_(code), file_(file), b_(function_) {
  function_.kernel.name = "main";
}

void Lowerer::unsupported(const Instruction& instruction, const std::string& what) const {
  throw Error(at_offset(file_, kernel_.code_file_offset + instruction.offset),
              fmt::format("kernel {}: code offset {:#06x}: {} ({:#018x}{:016x}): {}", kernel_.name, instruction.offset,
                          disassemble(instruction), instruction.word.high, instruction.word.low, what));
}

const Operand& Lowerer::operand(const Instruction& instruction, size_t index) const {
  if (index >= instruction.operands.size()) unsupported(instruction, fmt::format("operand {} missing", index));
  return instruction.operands[index];
}

uint32_t Lowerer::local(std::unordered_map<uint32_t, uint32_t>& map, uint32_t key, Type type) {
  auto it = map.find(key);
  if (it != map.end()) return it->second;
  const uint32_t created = b_.add_local(type);
  map.emplace(key, created);
  return created;
}

ir::ValueId Lowerer::read_gpr(uint8_t index) {
  if (index == kRZ) return u32(0);
  return b_.load_local(local(gprs_, index, Type::U32));
}
void Lowerer::write_gpr(uint8_t index, ValueId value) {
  if (index != kRZ) b_.store_local(local(gprs_, index, Type::U32), value);
}
ir::ValueId Lowerer::read_uniform(uint8_t index) {
  if (index == kURZ) return u32(0);
  return b_.load_local(local(uniforms_, index, Type::U32));
}
void Lowerer::write_uniform(uint8_t index, ValueId value) {
  if (index != kURZ) b_.store_local(local(uniforms_, index, Type::U32), value);
}

void Lowerer::write_register(const Operand& destination, ValueId value) {
  if (destination.kind == OperandKind::uniform_gpr) write_uniform(static_cast<uint8_t>(destination.index), value);
  else write_gpr(static_cast<uint8_t>(destination.index), value);
}

ir::ValueId Lowerer::read_pair(const Operand& register_operand) {
  const bool uniform = register_operand.kind == OperandKind::uniform_gpr;
  const auto index = static_cast<uint8_t>(register_operand.index);
  if (index == (uniform ? kURZ : kRZ)) return b_.u64(0);
  const ValueId low = uniform ? read_uniform(index) : read_gpr(index);
  const ValueId high = uniform ? read_uniform(static_cast<uint8_t>(index + 1)) : read_gpr(static_cast<uint8_t>(index + 1));
  return b_.op(Op::Pack64, low, high);
}

void Lowerer::write_pair(const Operand& register_operand, ValueId value64) {
  const bool uniform = register_operand.kind == OperandKind::uniform_gpr;
  const auto index = static_cast<uint8_t>(register_operand.index);
  if (index == (uniform ? kURZ : kRZ)) return;
  const ValueId low = b_.convert(Op::Trunc, Type::U32, value64);
  const ValueId high = b_.convert(Op::Trunc, Type::U32, b_.op(Op::LShr, value64, u32(32)));
  if (uniform) {
    write_uniform(index, low);
    write_uniform(static_cast<uint8_t>(index + 1), high);
  } else {
    write_gpr(index, low);
    write_gpr(static_cast<uint8_t>(index + 1), high);
  }
}

ir::ValueId Lowerer::read_predicate(const Operand& predicate) {
  ValueId value;
  if (predicate.index == kPT) {
    value = b_.boolean(true);
  } else {
    auto& map = predicate.kind == OperandKind::uniform_predicate ? uniform_predicates_ : predicates_;
    value = b_.load_local(local(map, predicate.index, Type::Bool));
  }
  return predicate.invert ? b_.op(Op::LNot, value) : value;
}

void Lowerer::write_predicate(const Operand& predicate, ValueId value) {
  if (predicate.index == kPT) return;
  auto& map = predicate.kind == OperandKind::uniform_predicate ? uniform_predicates_ : predicates_;
  b_.store_local(local(map, predicate.index, Type::Bool), value);
}

ir::ValueId Lowerer::guard_condition(const Instruction& instruction) {
  Operand guard{.kind = OperandKind::predicate, .index = instruction.guard, .invert = instruction.guard_negated};
  return read_predicate(guard);
}

ir::ValueId Lowerer::constant_address(const Operand& source, uint32_t extra_offset) {
  // Banks other than 0 are packed behind it in one uniform buffer (constant_buffer.h).
  if (source.uniform_bank) throw Error("constant banks selected by a uniform register are not translated");
  const std::optional<uint32_t> bank_offset = constant_layout_.offset_of(static_cast<uint32_t>(source.index));
  if (!bank_offset) throw Error(fmt::format("constant bank {} is not defined by the cubin", source.index));
  ValueId address = u32(*bank_offset + static_cast<uint32_t>(source.value) + extra_offset);
  if (source.base != kRZ) address = b_.op(Op::IAdd, address, read_gpr(source.base));
  return address;
}

ir::ValueId Lowerer::load_constant(const Operand& source, ir::MemoryWidth width) {
  if (!header_) return b_.load(Op::LoadConst, width, constant_address(source, 0));
  // Graphics stages bind each bank on its own (c[n] = uniform buffer n): 32-bit words, 64 bits as two.
  if (source.uniform_bank) throw Error("constant banks selected by a uniform register are not translated");
  ValueId offset = u32(static_cast<uint32_t>(source.value));
  if (source.base != kRZ) offset = b_.op(Op::IAdd, offset, read_gpr(source.base));
  const auto bank = static_cast<uint32_t>(source.index);
  if (width == ir::MemoryWidth::B32) return bank_word(bank, offset);
  if (width == ir::MemoryWidth::B64) return b_.op(Op::Pack64, bank_word(bank, offset), bank_word(bank, b_.op(Op::IAdd, offset, u32(4))));
  throw Error("constant loads narrower than 32 bits are not translated in graphics programs");
}

ir::ValueId Lowerer::bank_word(uint32_t bank, ValueId byte_offset) {
  return b_.emit(Op::LoadConstBank, Type::U32, {byte_offset}, bank);
}

ir::ValueId Lowerer::source_bits(const Operand& source) {
  switch (source.kind) {
  case OperandKind::gpr: return read_gpr(static_cast<uint8_t>(source.index));
  case OperandKind::uniform_gpr: return read_uniform(static_cast<uint8_t>(source.index));
  case OperandKind::immediate: return u32(static_cast<uint32_t>(source.value));
  case OperandKind::constant_buffer: return load_constant(source, ir::MemoryWidth::B32);
  default: throw Error(fmt::format("operand kind {} is not a 32-bit source", static_cast<int>(source.kind)));
  }
}

ir::ValueId Lowerer::source_u32(const Operand& source) {
  const ValueId bits = source_bits(source);
  return source.invert ? b_.op(Op::Not, bits) : bits;
}

ir::ValueId Lowerer::source_u64(const Operand& source) {
  switch (source.kind) {
  case OperandKind::gpr:
  case OperandKind::uniform_gpr: return read_pair(source);
  case OperandKind::immediate:
    if (source.immediate_type == ImmediateType::float64_high) return b_.u64(static_cast<uint64_t>(source.value) << 32);
    return b_.u64(static_cast<uint64_t>(source.value));
  case OperandKind::constant_buffer: return load_constant(source, ir::MemoryWidth::B64);
  default: throw Error("operand is not a 64-bit source");
  }
}

ir::ValueId Lowerer::source_f32(const Operand& source) {
  ValueId value = b_.convert(Op::Bitcast, Type::F32, source_bits(source));
  if (source.absolute) value = b_.op(Op::FAbs, value);
  if (source.negate) value = b_.op(Op::FNeg, value);
  return value;
}

ir::ValueId Lowerer::source_f64(const Operand& source) {
  ValueId value = b_.convert(Op::Bitcast, Type::F64, source_u64(source));
  if (source.absolute) value = b_.op(Op::FAbs, value);
  if (source.negate) value = b_.op(Op::FNeg, value);
  return value;
}

ir::ValueId Lowerer::to_bits(ValueId float_value) {
  const Type type = function_.insts[float_value].type;
  return b_.convert(Op::Bitcast, type == Type::F64 ? Type::U64 : Type::U32, float_value);
}

void Lowerer::lower_instruction(const Instruction& instruction) {
  b_.set_guest_address(instruction.offset);
  switch (instruction.opcode) {
  // Scheduling, convergence and reconvergence hints: structured control flow already reconverges.
  case Opcode::NOP:
  case Opcode::YIELD:
  case Opcode::DEPBAR:
  case Opcode::BSSY:
  case Opcode::BSYNC:
  case Opcode::WARPSYNC:
  case Opcode::BRA:
  case Opcode::EXIT:
  case Opcode::CALL:
  case Opcode::RET: return; // block terminators: the CFG handles them
  case Opcode::BMOV:
    // Convergence-barrier state, saved and restored around code ptxas may reconverge differently; structured
    // control flow has none, so a saved value reads as 0 and a restore does nothing.
    if (!instruction.operands.empty() && instruction.operands[0].kind == OperandKind::gpr) {
      if (instruction.is_predicated()) b_.if_then(guard_condition(instruction), [&] { write_gpr(static_cast<uint8_t>(instruction.operands[0].index), u32(0)); });
      else write_gpr(static_cast<uint8_t>(instruction.operands[0].index), u32(0));
    }
    return;
  default: break;
  }
  const auto body = [&] {
    try {
      if ((header_ && lower_graphics(instruction)) || lower_integer(instruction) || lower_float(instruction) || lower_memory(instruction)) return;
    } catch (const Error& e) {
      if (e.location().file.empty()) unsupported(instruction, e.message());
      throw;
    }
    unsupported(instruction, "no lowering for this instruction");
  };
  if (instruction.is_predicated()) b_.if_then(guard_condition(instruction), body);
  else body();
}

uint32_t Lowerer::return_dispatch(const Instruction& instruction, const std::vector<uint64_t>& return_sites,
                                  const std::map<uint64_t, uint32_t>& leaders, std::vector<ir::CfgBlock>& blocks, uint32_t exit_block) {
  // A chain of blocks comparing the return address with each call site's; no match ends the invocation.
  const Operand* address = nullptr;
  for (const Operand& candidate : instruction.operands) {
    if (candidate.kind == OperandKind::gpr) address = &candidate;
  }
  if (!address) unsupported(instruction, "return without an address register");
  ir::Block* saved = b_.block();
  uint32_t next = exit_block;
  for (auto site = return_sites.rbegin(); site != return_sites.rend(); ++site) {
    ir::Block code;
    b_.set_block(&code);
    ir::CfgBlock test{.guest_address = instruction.offset, .exit = ir::CfgBlock::Exit::Branch};
    test.condition = b_.op(Op::IEq, read_gpr(static_cast<uint8_t>(address->index)), u32(static_cast<uint32_t>(*site)));
    test.target = leaders.at(*site);
    test.fallthrough = next;
    test.body = std::move(code.nodes);
    blocks.push_back(std::move(test));
    next = static_cast<uint32_t>(blocks.size() - 1);
  }
  b_.set_block(saved);
  return next;
}

const Operand& Lowerer::branch_target(const Instruction& instruction) const {
  for (const Operand& candidate : instruction.operands) {
    if (candidate.kind == OperandKind::branch_target) return candidate;
  }
  unsupported(instruction, "branch without a target");
}

const Operand* Lowerer::branch_condition(const Instruction& instruction) const {
  // BRA and EXIT carry a condition of their own besides the guard ("@!P0 BRA P2, 0x1a0"); PT when absent.
  for (const Operand& candidate : instruction.operands) {
    if (candidate.kind == OperandKind::predicate && !(candidate.index == kPT && !candidate.invert)) return &candidate;
  }
  return nullptr;
}

ir::Function Lowerer::run() {
  // Basic blocks start at the entry, at branch targets and after branches and exits.
  std::map<uint64_t, uint32_t> leaders{{0, 0}};
  // Subroutines (the slow paths of division and square root) are inlined: CALL jumps to them, and RET jumps
  // to the call site whose return address (set by the caller in a register) matches.
  std::map<uint64_t, std::vector<uint64_t>> return_sites; // subroutine entry -> call sites' return addresses
  const uint64_t code_end = code_.empty() ? 0 : code_.back().offset + 16;
  for (const Instruction& instruction : code_) {
    if (instruction.opcode == Opcode::BRA) {
      const Operand& target = branch_target(instruction);
      if (target.kind != OperandKind::branch_target || target.value < 0 || static_cast<uint64_t>(target.value) >= code_end ||
          target.value % 16 != 0) {
        unsupported(instruction, "branch target outside the kernel");
      }
      leaders.emplace(static_cast<uint64_t>(target.value), 0);
    }
    if (instruction.opcode == Opcode::CALL) {
      if (instruction.is_predicated()) unsupported(instruction, "predicated calls are not translated yet");
      leaders.emplace(static_cast<uint64_t>(branch_target(instruction).value), 0);
      return_sites[static_cast<uint64_t>(branch_target(instruction).value)].push_back(instruction.offset + 16);
    }
    if (instruction.opcode == Opcode::RET && instruction.is_predicated()) unsupported(instruction, "predicated returns are not translated yet");
    if (instruction.opcode == Opcode::BRA || instruction.opcode == Opcode::EXIT || instruction.opcode == Opcode::CALL ||
        instruction.opcode == Opcode::RET) {
      leaders.emplace(instruction.offset + 16, 0);
    }
  }
  std::vector<uint64_t> starts;
  for (auto& [offset, index] : leaders) {
    if (offset >= code_end) continue;
    index = static_cast<uint32_t>(starts.size());
    starts.push_back(offset);
  }
  const auto exit_block = static_cast<uint32_t>(starts.size()); // shared target of predicated EXITs
  std::vector<ir::CfgBlock> blocks(starts.size() + 1);
  blocks[exit_block].exit = ir::CfgBlock::Exit::Return;
  blocks[exit_block].guest_address = code_end;
  if (header_) { // every EXIT of a graphics program leaves through the fragment output stores
    ir::Block outputs;
    b_.set_block(&outputs);
    store_fragment_outputs();
    blocks[exit_block].body = std::move(outputs.nodes);
  }
  for (uint32_t block = 0; block < starts.size(); ++block) {
    const uint64_t end = block + 1 < starts.size() ? starts[block + 1] : code_end;
    ir::Block code;
    b_.set_block(&code);
    ir::CfgBlock& out = blocks[block];
    out.guest_address = starts[block];
    const uint32_t next = block + 1 < starts.size() ? block + 1 : exit_block;
    out.exit = ir::CfgBlock::Exit::Jump;
    out.target = next;
    for (size_t i = starts[block] / 16; i < end / 16; ++i) {
      const Instruction& instruction = code_[i];
      if (instruction.offset != i * 16) unsupported(instruction, "instructions are not contiguous");
      lower_instruction(instruction);
      const bool last = instruction.offset + 16 == end;
      if (!last) continue;
      if (instruction.opcode == Opcode::CALL) {
        out.target = leaders.at(static_cast<uint64_t>(branch_target(instruction).value));
      } else if (instruction.opcode == Opcode::RET) {
        // ptxas lays subroutines out one after another: a RET belongs to the nearest entry before it.
        auto subroutine = return_sites.upper_bound(instruction.offset);
        if (subroutine == return_sites.begin()) unsupported(instruction, "return outside a subroutine");
        const uint32_t dispatch = return_dispatch(instruction, std::prev(subroutine)->second, leaders, blocks, exit_block);
        blocks[block].target = dispatch; // return_dispatch appends to `blocks`: `out` may have moved
      } else if (instruction.opcode == Opcode::BRA || instruction.opcode == Opcode::EXIT) {
        const uint32_t target = instruction.opcode == Opcode::BRA ? leaders.at(static_cast<uint64_t>(branch_target(instruction).value)) : exit_block;
        const Operand* condition = branch_condition(instruction);
        if (instruction.has(Modifier::DIV) || instruction.has(Modifier::CONV)) {
          // BRA.DIV / BRA.CONV branch when the lanes of their uniform mask are not / are converged (ptxas puts the
          // slow path of a warp operation behind BRA.DIV). Lanes reach warp operations together in kiln's rounds
          // (translator/ir/warp_schedule.h): they always count as converged.
          out.exit = ir::CfgBlock::Exit::Branch;
          out.condition = instruction.has(Modifier::DIV) ? b_.boolean(false) : guard_condition(instruction);
          if (condition && instruction.has(Modifier::CONV)) out.condition = b_.op(Op::LAnd, out.condition, read_predicate(*condition));
          out.target = target;
          out.fallthrough = next;
        } else if (instruction.is_predicated() || condition) {
          out.exit = ir::CfgBlock::Exit::Branch;
          out.condition = guard_condition(instruction);
          if (condition) out.condition = b_.op(Op::LAnd, out.condition, read_predicate(*condition));
          out.target = target;
          out.fallthrough = next;
        } else if (instruction.opcode == Opcode::EXIT) {
          if (header_) out.target = exit_block;
          else out.exit = ir::CfgBlock::Exit::Return;
        } else {
          out.target = target;
        }
      }
    }
    blocks[block].body = std::move(code.nodes);
  }
  const std::string where = header_ ? file_ : fmt::format("{}: kernel {}", file_, kernel_.name);
  // Graphics programs shuffle only inside a fragment quad (lower_graphics.cpp), which needs no rounds.
  if (!header_ && ir::has_warp_operations(function_, blocks)) {
    // Warp operations run in rounds that every invocation takes part in (exited ones and those on the other
    // side of a branch included): see translator/ir/warp_schedule.h.
    ir::schedule_warp_rounds(function_, blocks, [](ir::Builder& b) {
      constexpr uint32_t base = driver_constants(InstructionSet::volta).block_dim;
      const auto block_dim = [&](uint32_t k) { return b.load(Op::LoadConst, ir::MemoryWidth::B32, b.u32(base + 4 * k)); };
      return b.op(Op::IMul, b.op(Op::IMul, block_dim(0), block_dim(1)), block_dim(2));
    }, where);
  }
  ir::structurize(function_, std::move(blocks), where);
  ir::run_passes(function_);
  return std::move(function_);
}

ir::Function lower_kernel(const Kernel& kernel, std::span<const Instruction> code, const std::string& file) {
  return Lowerer(kernel, code, file).run();
}

ir::Function lower_graphics_program(std::span<const Instruction> code, const sm5x::ShaderProgramHeader& header,
                                    const std::string& file, const GraphicsLowerOptions& options) {
  if (header.stage != sm5x::ShaderStage::vertex && header.stage != sm5x::ShaderStage::pixel) {
    throw Error(in_file(file), fmt::format("{} programs are not lowered yet", sm5x::stage_name(header.stage)));
  }
  const Kernel program{.name = std::string(sm5x::stage_name(header.stage)), .code_file_offset = 0x80};
  return Lowerer(program, code, file, header, options).run();
}

ir::Function translate_kernel(const Kernel& kernel, const std::string& file, Architecture architecture) {
  const std::vector<Instruction> code = decode_all(kernel.code, kernel.location(file), architecture);
  return lower_kernel(kernel, code, file);
}

} // namespace kiln::sass::sm86
