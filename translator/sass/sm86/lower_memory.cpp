// Memory, atomics, special registers, warp operations and barriers.
#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/sass/lowering/shared_semantics.h"
#include "translator/sass/sm86/lower_context.h"

namespace kiln::sass::sm86 {

using ir::MemoryWidth;
using ir::Op;
using ir::Type;

namespace {

// Access size from the width modifier: 1, 2, 4 (none), 8 or 16 bytes.
struct Access {
  MemoryWidth width = MemoryWidth::B32;
  unsigned words = 1; ///< 32-bit registers moved (2 for .64, 4 for .128)
};

Access access_of(const Instruction& instruction) {
  if (instruction.has(Modifier::U8)) return {MemoryWidth::U8, 1};
  if (instruction.has(Modifier::S8)) return {MemoryWidth::S8, 1};
  if (instruction.has(Modifier::U16)) return {MemoryWidth::U16, 1};
  if (instruction.has(Modifier::S16)) return {MemoryWidth::S16, 1};
  if (instruction.has(Modifier::n64)) return {MemoryWidth::B64, 2};
  if (instruction.has(Modifier::n128)) return {MemoryWidth::B64, 4};
  return {MemoryWidth::B32, 1};
}

size_t memory_operand_index(const Instruction& instruction) {
  for (size_t i = 0; i < instruction.operands.size(); ++i) {
    if (instruction.operands[i].kind == OperandKind::memory) return i;
  }
  throw Error("no memory operand");
}

} // namespace

namespace {
// "[R5.X4]": the base register scaled by the access size.
uint32_t base_scale_shift(const Operand& memory) {
  if (memory.suffix == "X4") return 2;
  if (memory.suffix == "X8") return 3;
  if (memory.suffix == "X16") return 4;
  return 0;
}
} // namespace

ir::ValueId Lowerer::global_address(const Operand& memory, bool extended) {
  // .E accesses take 64-bit addresses: the base is a register pair even where nvdisasm prints "[R2]".
  if (base_scale_shift(memory) != 0) throw Error("scaled global addresses are not translated yet");
  ValueId address = b_.u64(static_cast<uint64_t>(memory.value));
  if (memory.base != kRZ) {
    const Operand base{.kind = OperandKind::gpr, .index = memory.base};
    address = b_.op(Op::IAdd, address, memory.base_is_64 || extended ? read_pair(base) : b_.convert(Op::ZExt, Type::U64, read_gpr(memory.base)));
  }
  if (memory.uniform_base != kURZ) {
    address = b_.op(Op::IAdd, address, read_pair(Operand{.kind = OperandKind::uniform_gpr, .index = memory.uniform_base}));
  }
  return address;
}

ir::ValueId Lowerer::shared_address(const Operand& memory) {
  ValueId address = u32(static_cast<uint32_t>(memory.value));
  if (memory.base != kRZ) address = b_.op(Op::IAdd, address, b_.op(Op::Shl, read_gpr(memory.base), u32(base_scale_shift(memory))));
  if (memory.uniform_base != kURZ) address = b_.op(Op::IAdd, address, read_uniform(memory.uniform_base));
  return address;
}

void Lowerer::lower_load_store(const Instruction& instruction) {
  const Access access = access_of(instruction);
  // Local memory (LDL/STL) is addressed like shared memory, in a per-invocation array (the stack frame).
  const bool local = instruction.opcode == Opcode::LDL || instruction.opcode == Opcode::STL;
  const bool shared = local || instruction.opcode == Opcode::LDS || instruction.opcode == Opcode::STS;
  const bool load = instruction.opcode == Opcode::LDG || instruction.opcode == Opcode::LD || instruction.opcode == Opcode::LDS ||
                    instruction.opcode == Opcode::LDL;
  const size_t memory_index = memory_operand_index(instruction);
  const Operand& memory = instruction.operands[memory_index];
  const Operand& data = operand(instruction, load ? 0 : memory_index + 1);
  const ValueId base = shared ? shared_address(memory) : global_address(memory, instruction.has(Modifier::E));
  const Op load_op = local ? Op::LoadPrivate : shared ? Op::LoadShared : Op::LoadGlobal;
  const Op store_op = local ? Op::StorePrivate : shared ? Op::StoreShared : Op::StoreGlobal;
  const auto at = [&](uint32_t byte_offset) {
    return shared ? b_.op(Op::IAdd, base, u32(byte_offset)) : b_.op(Op::IAdd, base, b_.u64(byte_offset));
  };
  if (access.width != MemoryWidth::B64) {
    if (load) write_register(data, b_.load(load_op, access.width, base));
    else b_.store(store_op, access.width, base, source_u32(data));
    return;
  }
  // 64 and 128 bits: consecutive registers in 64-bit pieces.
  for (unsigned piece = 0; piece < access.words / 2; ++piece) {
    Operand registers = data;
    registers.index = static_cast<uint16_t>(data.index == kRZ ? kRZ : data.index + 2 * piece);
    if (load) write_pair(registers, b_.load(load_op, MemoryWidth::B64, at(8 * piece)));
    else b_.store(store_op, MemoryWidth::B64, at(8 * piece), data.index == kRZ ? b_.u64(0) : read_pair(registers));
  }
}

void Lowerer::lower_atomic(const Instruction& instruction) {
  const bool shared = instruction.opcode == Opcode::ATOMS;
  const bool reduction = instruction.opcode == Opcode::RED;
  const size_t memory_index = memory_operand_index(instruction);
  const Operand& memory = instruction.operands[memory_index];
  const bool wide = instruction.has(Modifier::n64) || instruction.has(Modifier::U64) || instruction.has(Modifier::S64);
  if (wide && shared) throw Error("64-bit shared-memory atomics are not translated yet");
  const Type type = wide ? Type::U64 : Type::U32;
  const ValueId address = shared ? shared_address(memory) : global_address(memory, instruction.has(Modifier::E));
  const auto value_of = [&](size_t index) { return wide ? source_u64(operand(instruction, index)) : source_u32(operand(instruction, index)); };
  // ATOMS.POPC.INC: every participating lane adds one (the hardware sums a warp's lanes per address).
  const bool count_lanes = instruction.has(Modifier::POPC) && instruction.has(Modifier::INC);
  const ValueId value = count_lanes ? u32(1) : value_of(memory_index + 1);
  ValueId old;
  if (instruction.has(Modifier::CAS)) {
    old = b_.emit(shared ? Op::AtomicCasShared : Op::AtomicCasGlobal, type, {address, value, value_of(memory_index + 2)});
  } else if (instruction.has(Modifier::ADD) && instruction.has(Modifier::F32)) {
    old = float_atomic_add(b_, shared, address, value);
  } else {
    ir::AtomicOp op;
    const bool is_signed = instruction.has(Modifier::S32) || instruction.has(Modifier::S64);
    if (instruction.has(Modifier::ADD) || count_lanes) op = ir::AtomicOp::Add;
    else if (instruction.has(Modifier::MIN)) op = is_signed ? ir::AtomicOp::SMin : ir::AtomicOp::UMin;
    else if (instruction.has(Modifier::MAX)) op = is_signed ? ir::AtomicOp::SMax : ir::AtomicOp::UMax;
    else if (instruction.has(Modifier::EXCH)) op = ir::AtomicOp::Exchange;
    else if (instruction.has(Modifier::AND)) op = ir::AtomicOp::And;
    else if (instruction.has(Modifier::OR)) op = ir::AtomicOp::Or;
    else if (instruction.has(Modifier::XOR)) op = ir::AtomicOp::Xor;
    else throw Error("atomic operation not translated yet");
    old = b_.emit(shared ? Op::AtomicShared : Op::AtomicGlobal, type, {address, value}, static_cast<uint64_t>(op));
  }
  if (reduction) return;
  // The destination is the last register operand before the address.
  for (size_t i = memory_index; i-- > 0;) {
    const Operand& destination = instruction.operands[i];
    if (destination.kind != OperandKind::gpr) continue;
    if (wide) write_pair(destination, old);
    else write_register(destination, old);
    break;
  }
}

void Lowerer::lower_special(const Instruction& instruction) {
  const Operand& destination = operand(instruction, 0);
  const Operand& special = operand(instruction, 1);
  const auto lane = [&] { return b_.emit(Op::LaneId, Type::U32, {}); };
  ValueId value;
  switch (special.index) {
  case 0x00: value = lane(); break;
  case 0x21: value = b_.emit(Op::ThreadIdX, Type::U32, {}); break;
  case 0x22: value = b_.emit(Op::ThreadIdY, Type::U32, {}); break;
  case 0x23: value = b_.emit(Op::ThreadIdZ, Type::U32, {}); break;
  case 0x25: value = b_.emit(Op::BlockIdX, Type::U32, {}); break;
  case 0x26: value = b_.emit(Op::BlockIdY, Type::U32, {}); break;
  case 0x27: value = b_.emit(Op::BlockIdZ, Type::U32, {}); break;
  case 0x38: value = lane_mask(b_, LaneMask::eq); break;
  case 0x39: value = lane_mask(b_, LaneMask::lt); break;
  case 0x3a: value = lane_mask(b_, LaneMask::le); break;
  case 0x3b: value = lane_mask(b_, LaneMask::gt); break;
  case 0x3c: value = lane_mask(b_, LaneMask::ge); break;
  case 0x50:
  case 0x51:
  case 0x52:
  case 0x53: {
    // Clocks and timers: shared_semantics.h's per-invocation counter.
    if (!clock_local_) clock_local_ = b_.add_local(Type::U32);
    value = clock_read(b_, *clock_local_);
    if (special.index == 0x51 || special.index == 0x53) value = u32(0);
    break;
  }
  case 0xff: value = u32(0); break; // SRZ
  default: throw Error(fmt::format("special register {} is not translated", special.text));
  }
  if (instruction.opcode == Opcode::CS2R && !instruction.has(Modifier::n32)) {
    write_pair(destination, b_.convert(Op::ZExt, Type::U64, value));
    return;
  }
  write_register(destination, value);
}

void Lowerer::lower_shfl(const Instruction& instruction) {
  ShuffleMode mode = ShuffleMode::index;
  if (instruction.has(Modifier::UP)) mode = ShuffleMode::up;
  else if (instruction.has(Modifier::DOWN)) mode = ShuffleMode::down;
  else if (instruction.has(Modifier::BFLY)) mode = ShuffleMode::butterfly;
  const ValueId value = source_u32(operand(instruction, 2));
  const ShuffleLane lane = shuffle_lane(b_, mode, source_u32(operand(instruction, 3)), source_u32(operand(instruction, 4)));
  write_register(operand(instruction, 1), b_.emit(Op::Shuffle, Type::U32, {value, lane.source}));
  write_predicate(operand(instruction, 0), lane.valid);
}

void Lowerer::lower_vote(const Instruction& instruction) {
  const VoteMode mode = instruction.has(Modifier::ALL) ? VoteMode::all : instruction.has(Modifier::ANY) ? VoteMode::any : VoteMode::eq;
  const auto [ballot, result] = vote(b_, mode, read_predicate(operand(instruction, 2)));
  write_register(operand(instruction, 0), ballot);
  write_predicate(operand(instruction, 1), result);
}

void Lowerer::lower_redux(const Instruction& instruction) {
  // A reduction over the warp's active lanes into a uniform register: every lane reads every lane's value
  // and folds in those of active lanes (REDUX alone is AND).
  const ValueId value = source_u32(operand(instruction, 1));
  const ValueId active = b_.emit(Op::Ballot, Type::U32, {b_.boolean(true)});
  const bool is_signed = instruction.has(Modifier::S32);
  Op op = Op::And;
  uint32_t identity = 0xffffffff;
  if (instruction.has(Modifier::SUM)) op = Op::IAdd, identity = 0;
  else if (instruction.has(Modifier::OR)) op = Op::Or, identity = 0;
  else if (instruction.has(Modifier::XOR)) op = Op::Xor, identity = 0;
  else if (instruction.has(Modifier::MIN)) op = is_signed ? Op::SMin : Op::UMin, identity = is_signed ? 0x7fffffff : 0xffffffff;
  else if (instruction.has(Modifier::MAX)) op = is_signed ? Op::SMax : Op::UMax, identity = is_signed ? 0x80000000 : 0;
  ValueId result = u32(identity);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const ValueId other = b_.emit(Op::Shuffle, Type::U32, {value, u32(lane)});
    const ValueId is_active = b_.op(Op::INe, b_.op(Op::And, active, u32(1u << lane)), u32(0));
    result = b_.select(is_active, b_.op(op, result, other), result);
  }
  write_register(operand(instruction, 0), result);
}

bool Lowerer::lower_memory(const Instruction& instruction) {
  switch (instruction.opcode) {
  case Opcode::LDG:
  case Opcode::STG:
  case Opcode::LD:
  case Opcode::ST:
  case Opcode::LDS:
  case Opcode::STS:
  case Opcode::LDL:
  case Opcode::STL: lower_load_store(instruction); return true;
  case Opcode::LDC:
  case Opcode::ULDC: {
    const Access access = access_of(instruction);
    const Operand& source = operand(instruction, 1);
    if (access.width == MemoryWidth::B64 && access.words == 2) write_pair(operand(instruction, 0), load_constant(source, MemoryWidth::B64));
    else if (access.words == 1) write_register(operand(instruction, 0), load_constant(source, access.width));
    else throw Error("128-bit constant loads are not translated yet");
    return true;
  }
  case Opcode::ATOMG:
  case Opcode::ATOM:
  case Opcode::ATOMS:
  case Opcode::RED: lower_atomic(instruction); return true;
  case Opcode::S2R:
  case Opcode::S2UR:
  case Opcode::CS2R: lower_special(instruction); return true;
  case Opcode::SHFL: lower_shfl(instruction); return true;
  case Opcode::REDUX: lower_redux(instruction); return true;
  case Opcode::VOTE:
  case Opcode::VOTEU: lower_vote(instruction); return true;
  case Opcode::BAR:
    if (!instruction.has(Modifier::SYNC)) throw Error("only BAR.SYNC is translated");
    b_.emit(Op::Barrier, Type::Void, {});
    return true;
  case Opcode::MEMBAR: b_.emit(Op::MemoryBarrier, Type::Void, {}); return true;
  default: return false;
  }
}

} // namespace kiln::sass::sm86
