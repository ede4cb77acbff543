// Compute kernels' memory, atomics, special registers, warp operations and barriers in the SM5x lowering, on the
// execution model of the SM86 kernels (translator/sass/sm86/lower_memory.cpp): global memory through 64-bit
// addresses, shared memory and the per-invocation local memory (the stack frame), warps of 32 emulated in rounds.
#include <fmt/format.h>

#include "translator/sass/lowering/shared_semantics.h"
#include "translator/sass/sm5x/lower_context.h"

namespace kiln::sass::sm5x {
namespace {

using ir::MemoryWidth;
using ir::Op;
using ir::Type;
using ir::ValueId;

/// The access of a size field U8,S8,U16,S16,32,64,128 (LDSIZE): a width and the registers it moves.
struct Access {
  MemoryWidth width = MemoryWidth::B32;
  unsigned words = 1;
};
Access access_of(uint32_t size) {
  switch (size) {
  case 0: return {MemoryWidth::U8, 1};
  case 1: return {MemoryWidth::S8, 1};
  case 2: return {MemoryWidth::U16, 1};
  case 3: return {MemoryWidth::S16, 1};
  case 5: return {MemoryWidth::B64, 2};
  case 6:
  case 7: return {MemoryWidth::B64, 4}; // .128 and LDG's .U.128
  default: return {MemoryWidth::B32, 1};
  }
}

// Special registers (SR numbers as nvdisasm names them).
constexpr uint16_t kLaneId = 0x00, kTidX = 0x21, kTidY = 0x22, kTidZ = 0x23, kCtaidX = 0x25, kCtaidY = 0x26, kCtaidZ = 0x27;
constexpr uint16_t kEqMask = 0x38, kLtMask = 0x39, kLeMask = 0x3a, kGtMask = 0x3b, kGeMask = 0x3c;
constexpr uint16_t kClockLo = 0x50, kClockHi = 0x51, kGlobalTimerLo = 0x52, kGlobalTimerHi = 0x53;

} // namespace

bool LowerContext::lower_compute(const Instruction& in) {
  const auto& ops = in.operands;
  const auto memory_index = [&]() -> size_t {
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind == OperandKind::memory) return i;
    }
    fail("no memory operand");
  };
  // [base + offset]: a register pair with .E (64-bit addresses), else one register zero-extended.
  const auto global_address = [&](const Operand& memory, bool extended) {
    ValueId address = b.u64(static_cast<uint64_t>(memory.value));
    if (memory.base != kRZ) address = b.op(Op::IAdd, address, extended ? reg64(memory.base) : b.convert(Op::ZExt, Type::U64, reg(memory.base)));
    return address;
  };
  const auto window_address = [&](const Operand& memory) {
    ValueId address = b.u32(static_cast<uint32_t>(memory.value));
    if (memory.base != kRZ) address = b.op(Op::IAdd, address, reg(memory.base));
    return address;
  };
  switch (in.opcode) {
  case Opcode::ldg:
  case Opcode::stg:
  case Opcode::ld:
  case Opcode::st:
  case Opcode::lds:
  case Opcode::sts:
  case Opcode::ldl:
  case Opcode::stl: {
    const bool load = in.opcode == Opcode::ldg || in.opcode == Opcode::ld || in.opcode == Opcode::lds || in.opcode == Opcode::ldl;
    const bool local = in.opcode == Opcode::ldl || in.opcode == Opcode::stl;
    const bool shared = in.opcode == Opcode::lds || in.opcode == Opcode::sts;
    // Generic LD/ST: a generic pointer into shared or local memory is formed by adding a window base that the
    // kernel reads from the driver area below c[0x0][0x8]; a kernel that reads none has only global generic
    // pointers, and its LD/ST are global accesses. Their predicate operand, which ptxas takes from LEA.HI.X's carry
    // when it converts a pointer, does not change a valid address's access and is not read.
    if ((in.opcode == Opcode::ld || in.opcode == Opcode::st) && reads_memory_windows) {
      fail("generic accesses in a kernel that forms shared or local window addresses are not supported");
    }
    const size_t at = memory_index();
    const Operand& memory = ops[at];
    const Operand& data = ops.at(load ? 0 : at + 1);
    const Access access = access_of(in.modifier("size"));
    const bool window = local || shared;
    const ValueId base = window ? window_address(memory) : global_address(memory, in.modifier("E") != 0);
    const Op load_op = local ? Op::LoadPrivate : shared ? Op::LoadShared : Op::LoadGlobal;
    const Op store_op = local ? Op::StorePrivate : shared ? Op::StoreShared : Op::StoreGlobal;
    const auto plus = [&](uint32_t bytes) { return window ? b.op(Op::IAdd, base, b.u32(bytes)) : b.op(Op::IAdd, base, b.u64(bytes)); };
    const auto data_reg = static_cast<uint8_t>(data.index);
    if (access.width != MemoryWidth::B64) {
      if (load) set_reg(data_reg, b.load(load_op, access.width, base));
      else b.store(store_op, access.width, base, reg(data_reg));
      return true;
    }
    // 64 and 128 bits: consecutive registers in 64-bit pieces.
    for (unsigned piece = 0; piece < access.words / 2; ++piece) {
      const auto registers = static_cast<uint8_t>(data_reg == kRZ ? kRZ : data_reg + 2 * piece);
      if (load) set_reg64(registers, b.load(load_op, MemoryWidth::B64, plus(8 * piece)));
      else b.store(store_op, MemoryWidth::B64, plus(8 * piece), reg64(registers));
    }
    return true;
  }
  case Opcode::ldc: {
    if (in.modifier("mode") != 0) fail("LDC addressing modes other than the default are not supported");
    const Operand& source = ops.at(1);
    ValueId offset = b.u32(static_cast<uint32_t>(source.value));
    if (source.base != kRZ) offset = b.op(Op::IAdd, reg(source.base), offset);
    const Access access = access_of(in.modifier("size"));
    if (access.width == MemoryWidth::B64 && access.words == 2) {
      set_reg64(static_cast<uint8_t>(ops.at(0).index), b.op(Op::Pack64, const_bank(source.index, offset), const_bank(source.index, b.op(Op::IAdd, offset, b.u32(4)))));
    } else if (access.width == MemoryWidth::B32) {
      set_reg(static_cast<uint8_t>(ops.at(0).index), const_bank(source.index, offset));
    } else {
      fail("LDC of this size is not supported");
    }
    return true;
  }
  case Opcode::atom:
  case Opcode::atoms:
  case Opcode::red: {
    const bool shared = in.opcode == Opcode::atoms;
    const bool reduction = in.opcode == Opcode::red;
    const size_t at = memory_index();
    const Operand& memory = ops[at];
    const bool cas = !in.modifier_text("CAS").empty() || !in.modifier_text("CAS.64").empty();
    const bool cas64 = !in.modifier_text("CAS.64").empty();
    uint32_t type = cas ? (cas64 ? 2 : 0) : in.modifier("type");
    // ATOMS types: U32, S32, U64, S64; ATOM/RED: U32, S32, U64, F32, ?, S64, F64.
    if (shared && !cas && type == 3) type = 5;
    const bool wide = type == 2 || type == 5 || type == 6;
    const bool is_signed = type == 1 || type == 5;
    if (wide && shared) fail("64-bit shared-memory atomics are not supported");
    const Type value_type = wide ? Type::U64 : Type::U32;
    const ValueId address = shared ? window_address(memory) : global_address(memory, in.modifier("E") != 0);
    const auto value_of = [&](const Operand& operand) { return wide ? reg64(static_cast<uint8_t>(operand.index)) : reg(static_cast<uint8_t>(operand.index)); };
    ValueId old;
    if (cas) {
      old = b.emit(shared ? Op::AtomicCasShared : Op::AtomicCasGlobal, value_type, {address, value_of(ops.at(at + 1)), value_of(ops.at(at + 2))});
    } else {
      const uint32_t op = in.modifier("op"); // ADD,MIN,MAX,INC,DEC,AND,OR,XOR,EXCH
      const ValueId value = value_of(ops.at(at + 1));
      if (type == 3) {
        if (op != 0) fail("float atomics other than ADD are not supported");
        old = float_atomic_add(b, shared, address, value);
      } else if (op == 3 || op == 4) {
        if (wide) fail("64-bit atomic INC/DEC does not exist");
        old = atomic_wrapping_step(b, shared, address, value, op == 3);
      } else if (type == 6) {
        fail("double-precision atomic add is not supported");
      } else {
        ir::AtomicOp atomic;
        switch (op) {
        case 0: atomic = ir::AtomicOp::Add; break;
        case 1: atomic = is_signed ? ir::AtomicOp::SMin : ir::AtomicOp::UMin; break;
        case 2: atomic = is_signed ? ir::AtomicOp::SMax : ir::AtomicOp::UMax; break;
        case 5: atomic = ir::AtomicOp::And; break;
        case 6: atomic = ir::AtomicOp::Or; break;
        case 7: atomic = ir::AtomicOp::Xor; break;
        case 8: atomic = ir::AtomicOp::Exchange; break;
        default: fail("atomic operation not supported");
        }
        old = b.emit(shared ? Op::AtomicShared : Op::AtomicGlobal, value_type, {address, value}, static_cast<uint64_t>(atomic));
      }
    }
    if (reduction) return true;
    const auto destination = static_cast<uint8_t>(ops.at(0).index);
    if (wide) set_reg64(destination, old);
    else set_reg(destination, old);
    return true;
  }
  case Opcode::s2r:
  case Opcode::cs2r: {
    ValueId value;
    switch (ops.at(1).index) {
    case kLaneId: value = b.emit(Op::LaneId, Type::U32, {}); break;
    case kTidX: value = b.emit(Op::ThreadIdX, Type::U32, {}); break;
    case kTidY: value = b.emit(Op::ThreadIdY, Type::U32, {}); break;
    case kTidZ: value = b.emit(Op::ThreadIdZ, Type::U32, {}); break;
    case kCtaidX: value = b.emit(Op::BlockIdX, Type::U32, {}); break;
    case kCtaidY: value = b.emit(Op::BlockIdY, Type::U32, {}); break;
    case kCtaidZ: value = b.emit(Op::BlockIdZ, Type::U32, {}); break;
    case kEqMask: value = lane_mask(b, LaneMask::eq); break;
    case kLtMask: value = lane_mask(b, LaneMask::lt); break;
    case kLeMask: value = lane_mask(b, LaneMask::le); break;
    case kGtMask: value = lane_mask(b, LaneMask::gt); break;
    case kGeMask: value = lane_mask(b, LaneMask::ge); break;
    case kClockLo:
    case kGlobalTimerLo:
      if (!clock_local) clock_local = b.add_local(Type::U32);
      value = clock_read(b, *clock_local);
      break;
    case kClockHi:
    case kGlobalTimerHi: value = b.u32(0); break; // the counter never passes 2^32
    default: fail(fmt::format("special register {} is not supported", special_register_name(ops.at(1).index)));
    }
    set_reg(static_cast<uint8_t>(ops.at(0).index), value);
    return true;
  }
  case Opcode::shfl: {
    // Operands: predicate out, destination, value, lane (b), clamp/segment mask (c = clamp | segmask << 8).
    static constexpr ShuffleMode modes[] = {ShuffleMode::index, ShuffleMode::up, ShuffleMode::down, ShuffleMode::butterfly};
    const ValueId value = bits(ops.at(2));
    const ShuffleLane lane = shuffle_lane(b, modes[in.modifier("mode") & 3], bits(ops.at(3)), bits(ops.at(4)));
    set_reg(static_cast<uint8_t>(ops.at(1).index), b.emit(Op::Shuffle, Type::U32, {value, lane.source}));
    set_pred(static_cast<uint8_t>(ops.at(0).index), lane.valid);
    return true;
  }
  case Opcode::vote: {
    static constexpr VoteMode modes[] = {VoteMode::all, VoteMode::any, VoteMode::eq, VoteMode::eq};
    const auto [ballot, result] = vote(b, modes[in.modifier("mode") & 3], pred(static_cast<uint8_t>(ops.at(2).index), ops.at(2).invert));
    set_reg(static_cast<uint8_t>(ops.at(0).index), ballot);
    set_pred(static_cast<uint8_t>(ops.at(1).index), result);
    return true;
  }
  case Opcode::bar: {
    // BAR.SYNC with the default barrier and every thread: the workgroup barrier.
    if (in.modifier("mode") != 0) fail("BAR modes other than SYNC are not supported");
    if (!(ops.at(0).kind == OperandKind::integer && ops.at(0).value == 0) || !(ops.at(1).kind == OperandKind::integer && ops.at(1).value == 0)) {
      fail("BAR.SYNC with a barrier number or thread count is not supported");
    }
    b.emit(Op::Barrier, Type::Void, {});
    return true;
  }
  case Opcode::membar: b.emit(Op::MemoryBarrier, Type::Void, {}); return true;
  default: return false;
  }
}

} // namespace kiln::sass::sm5x
