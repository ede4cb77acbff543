// Memory, atomics, invocation ids and warp operations: CUDA's execution model on Vulkan (see emit_compute.h).
#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/spirv/compute_emitter.h"

namespace kiln::spirv {
namespace {

using ir::MemoryWidth;
using ir::Op;

constexpr uint32_t scope_device = static_cast<uint32_t>(spv::Scope::Device);
constexpr uint32_t scope_workgroup = static_cast<uint32_t>(spv::Scope::Workgroup);
constexpr uint32_t scope_subgroup = static_cast<uint32_t>(spv::Scope::Subgroup);
constexpr uint32_t aligned = static_cast<uint32_t>(spv::MemoryAccessMask::Aligned);
constexpr uint32_t barrier_semantics = static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease) |
                                       static_cast<uint32_t>(spv::MemorySemanticsMask::UniformMemory) |
                                       static_cast<uint32_t>(spv::MemorySemanticsMask::WorkgroupMemory);

bool is_subword(MemoryWidth width) { return ir::access_bytes(width) < 4; }

spv::Op atomic_opcode(ir::AtomicOp op) {
  switch (op) {
  case ir::AtomicOp::Add: return spv::Op::OpAtomicIAdd;
  case ir::AtomicOp::SMin: return spv::Op::OpAtomicSMin;
  case ir::AtomicOp::SMax: return spv::Op::OpAtomicSMax;
  case ir::AtomicOp::UMin: return spv::Op::OpAtomicUMin;
  case ir::AtomicOp::UMax: return spv::Op::OpAtomicUMax;
  case ir::AtomicOp::And: return spv::Op::OpAtomicAnd;
  case ir::AtomicOp::Or: return spv::Op::OpAtomicOr;
  case ir::AtomicOp::Xor: return spv::Op::OpAtomicXor;
  case ir::AtomicOp::Exchange: return spv::Op::OpAtomicExchange;
  }
  return spv::Op::OpNop;
}

} // namespace

uint32_t ComputeEmitter::global_pointer(uint32_t address, uint32_t pointee_type) {
  if (options_.global_address_bias) {
    if (global_address_bias_ == 0) {
      const uint32_t block = builder_.type_struct({u64_type()});
      builder_.member_decorate(block, 0, spv::Decoration::Offset, {0});
      builder_.decorate(block, spv::Decoration::Block);
      global_address_bias_ = builder_.variable(builder_.type_pointer(spv::StorageClass::PushConstant, block), spv::StorageClass::PushConstant);
      if (options_.debug_names) builder_.name(global_address_bias_, "global_address_bias");
      interface_.push_back(global_address_bias_);
    }
    const uint32_t bias_pointer = builder_.op(spv::Op::OpAccessChain, builder_.type_pointer(spv::StorageClass::PushConstant, u64_type()),
                                              {global_address_bias_, const_u32(0)});
    address = binary(spv::Op::OpIAdd, u64_type(), address, builder_.op(spv::Op::OpLoad, u64_type(), {bias_pointer}));
  }
  const uint32_t pointer_type = builder_.type_pointer(spv::StorageClass::PhysicalStorageBuffer, pointee_type);
  return builder_.op(spv::Op::OpConvertUToPtr, pointer_type, {address});
}

uint32_t ComputeEmitter::shared_word_pointer(uint32_t word_index) {
  const uint32_t words = std::max<uint32_t>(1, (function_.kernel.shared_bytes + 3) / 4);
  if (shared_memory_ == 0) {
    const uint32_t array = builder_.type_array(u32_type(), words);
    shared_memory_ = builder_.variable(builder_.type_pointer(spv::StorageClass::Workgroup, array), spv::StorageClass::Workgroup);
    if (options_.debug_names) builder_.name(shared_memory_, "shared_memory");
    interface_.push_back(shared_memory_);
  }
  // Out-of-bounds shared accesses fault on NVIDIA; here they stay inside the array instead of being undefined.
  const uint32_t index = builder_.ext(u32_type(), 38 /* UMin */, {word_index, const_u32(words - 1)});
  return builder_.op(spv::Op::OpAccessChain, builder_.type_pointer(spv::StorageClass::Workgroup, u32_type()), {shared_memory_, index});
}

uint32_t ComputeEmitter::private_word_pointer(uint32_t word_index) {
  // The array is declared at the top of the function (emit_compute.cpp) when the kernel has local memory.
  if (private_memory_ == 0) throw Error("SPIR-V backend: a private-memory access in a kernel without local memory");
  const uint32_t words = std::max<uint32_t>(1, (function_.kernel.private_bytes + 3) / 4);
  // Out-of-frame accesses stay inside the array instead of being undefined.
  const uint32_t index = builder_.ext(u32_type(), 38 /* UMin */, {word_index, const_u32(words - 1)});
  return builder_.op(spv::Op::OpAccessChain, builder_.type_pointer(spv::StorageClass::Function, u32_type()), {private_memory_, index});
}

uint32_t ComputeEmitter::load_const_word(uint32_t word_index) {
  const uint32_t vectors = std::max<uint32_t>(1, (function_.kernel.const_bank_bytes + 15) / 16);
  if (const_bank_ == 0) {
    const uint32_t uvec4 = builder_.type_vector(u32_type(), 4);
    const uint32_t array = builder_.type_array(uvec4, vectors);
    builder_.decorate(array, spv::Decoration::ArrayStride, {16});
    const uint32_t block = builder_.type_struct({array});
    builder_.member_decorate(block, 0, spv::Decoration::Offset, {0});
    builder_.decorate(block, spv::Decoration::Block);
    const_bank_ = builder_.variable(builder_.type_pointer(spv::StorageClass::Uniform, block), spv::StorageClass::Uniform);
    builder_.decorate(const_bank_, spv::Decoration::DescriptorSet, {0});
    builder_.decorate(const_bank_, spv::Decoration::Binding, {const_bank_binding});
    if (options_.debug_names) builder_.name(const_bank_, "constant_bank0");
    interface_.push_back(const_bank_);
  }
  const uint32_t vector_index = builder_.ext(u32_type(), 38 /* UMin */,
                                             {binary(spv::Op::OpShiftRightLogical, u32_type(), word_index, const_u32(2)), const_u32(vectors - 1)});
  const uint32_t component = binary(spv::Op::OpBitwiseAnd, u32_type(), word_index, const_u32(3));
  const uint32_t pointer = builder_.op(spv::Op::OpAccessChain, builder_.type_pointer(spv::StorageClass::Uniform, u32_type()),
                                       {const_bank_, const_u32(0), vector_index, component});
  return builder_.op(spv::Op::OpLoad, u32_type(), {pointer});
}

uint32_t ComputeEmitter::load_subword(uint32_t word, uint32_t byte_offset, MemoryWidth width) {
  const uint32_t bits = ir::access_bytes(width) * 8;
  const uint32_t shift = binary(spv::Op::OpShiftLeftLogical, u32_type(), byte_offset, const_u32(3));
  const uint32_t shifted = binary(spv::Op::OpShiftRightLogical, u32_type(), word, shift);
  if (width == MemoryWidth::S8 || width == MemoryWidth::S16) {
    const uint32_t top = binary(spv::Op::OpShiftLeftLogical, u32_type(), shifted, const_u32(32 - bits));
    return binary(spv::Op::OpShiftRightArithmetic, u32_type(), top, const_u32(32 - bits));
  }
  return binary(spv::Op::OpBitwiseAnd, u32_type(), shifted, const_u32((1u << bits) - 1));
}

void ComputeEmitter::store_subword(uint32_t word_pointer, uint32_t scope, uint32_t byte_offset, uint32_t value_id, MemoryWidth width) {
  // Two atomics on the containing word: a neighbour's concurrent store to the other bytes stays intact.
  const uint32_t mask = (1u << (ir::access_bytes(width) * 8)) - 1;
  const uint32_t shift = binary(spv::Op::OpShiftLeftLogical, u32_type(), byte_offset, const_u32(3));
  const uint32_t field = binary(spv::Op::OpShiftLeftLogical, u32_type(), const_u32(mask), shift);
  const uint32_t keep = builder_.op(spv::Op::OpNot, u32_type(), {field});
  const uint32_t bits = binary(spv::Op::OpShiftLeftLogical, u32_type(), binary(spv::Op::OpBitwiseAnd, u32_type(), value_id, const_u32(mask)), shift);
  builder_.op(spv::Op::OpAtomicAnd, u32_type(), {word_pointer, const_u32(scope), const_u32(0), keep});
  builder_.op(spv::Op::OpAtomicOr, u32_type(), {word_pointer, const_u32(scope), const_u32(0), bits});
}

uint32_t ComputeEmitter::emit_memory(const ir::Inst& inst) {
  const auto width = static_cast<MemoryWidth>(inst.immediate);
  const uint32_t type = type_of(inst.type);
  switch (inst.op) {
  case Op::LoadGlobal:
  case Op::StoreGlobal: {
    const uint32_t address = value(inst.args[0]);
    if (is_subword(width)) {
      const uint32_t word_address = binary(spv::Op::OpBitwiseAnd, u64_type(), address, const_u64(~uint64_t{3}));
      const uint32_t byte_offset = binary(spv::Op::OpBitwiseAnd, u32_type(), builder_.op(spv::Op::OpUConvert, u32_type(), {address}), const_u32(3));
      const uint32_t pointer = global_pointer(word_address, u32_type());
      if (inst.op == Op::LoadGlobal) {
        return load_subword(builder_.op(spv::Op::OpLoad, u32_type(), {pointer, aligned, 4}), byte_offset, width);
      }
      store_subword(pointer, scope_device, byte_offset, value(inst.args[1]), width);
      return 0;
    }
    const uint32_t value_type = type_of(ir::access_type(width));
    const uint32_t pointer = global_pointer(address, value_type);
    if (inst.op == Op::LoadGlobal) return builder_.op(spv::Op::OpLoad, value_type, {pointer, aligned, ir::access_bytes(width)});
    builder_.op_void(spv::Op::OpStore, {pointer, value(inst.args[1]), aligned, ir::access_bytes(width)});
    return 0;
  }
  case Op::LoadShared:
  case Op::StoreShared:
  case Op::LoadPrivate:
  case Op::StorePrivate: {
    const bool is_private = inst.op == Op::LoadPrivate || inst.op == Op::StorePrivate;
    const bool is_load = inst.op == Op::LoadShared || inst.op == Op::LoadPrivate;
    const auto word_pointer = [&](uint32_t word) { return is_private ? private_word_pointer(word) : shared_word_pointer(word); };
    const uint32_t offset = value(inst.args[0]);
    const uint32_t word = binary(spv::Op::OpShiftRightLogical, u32_type(), offset, const_u32(2));
    if (is_subword(width)) {
      const uint32_t byte_offset = binary(spv::Op::OpBitwiseAnd, u32_type(), offset, const_u32(3));
      const uint32_t pointer = word_pointer(word);
      if (is_load) return load_subword(builder_.op(spv::Op::OpLoad, u32_type(), {pointer}), byte_offset, width);
      if (!is_private) {
        store_subword(pointer, scope_workgroup, byte_offset, value(inst.args[1]), width);
        return 0;
      }
      // Private memory has no other writer: a plain read-modify-write of the containing word.
      const uint32_t mask = (1u << (ir::access_bytes(width) * 8)) - 1;
      const uint32_t shift = binary(spv::Op::OpShiftLeftLogical, u32_type(), byte_offset, const_u32(3));
      const uint32_t field = binary(spv::Op::OpShiftLeftLogical, u32_type(), const_u32(mask), shift);
      const uint32_t bits = binary(spv::Op::OpShiftLeftLogical, u32_type(), binary(spv::Op::OpBitwiseAnd, u32_type(), value(inst.args[1]), const_u32(mask)), shift);
      const uint32_t kept = binary(spv::Op::OpBitwiseAnd, u32_type(), builder_.op(spv::Op::OpLoad, u32_type(), {pointer}),
                                   builder_.op(spv::Op::OpNot, u32_type(), {field}));
      builder_.op_void(spv::Op::OpStore, {pointer, binary(spv::Op::OpBitwiseOr, u32_type(), kept, bits)});
      return 0;
    }
    if (width == MemoryWidth::B32) {
      if (is_load) return builder_.op(spv::Op::OpLoad, u32_type(), {word_pointer(word)});
      builder_.op_void(spv::Op::OpStore, {word_pointer(word), value(inst.args[1])});
      return 0;
    }
    const uint32_t next = binary(spv::Op::OpIAdd, u32_type(), word, const_u32(1));
    if (is_load) {
      const uint32_t low = builder_.op(spv::Op::OpUConvert, u64_type(), {builder_.op(spv::Op::OpLoad, u32_type(), {word_pointer(word)})});
      const uint32_t high = builder_.op(spv::Op::OpUConvert, u64_type(), {builder_.op(spv::Op::OpLoad, u32_type(), {word_pointer(next)})});
      return binary(spv::Op::OpBitwiseOr, u64_type(), low, binary(spv::Op::OpShiftLeftLogical, u64_type(), high, const_u32(32)));
    }
    const uint32_t stored = value(inst.args[1]);
    builder_.op_void(spv::Op::OpStore, {word_pointer(word), builder_.op(spv::Op::OpUConvert, u32_type(), {stored})});
    const uint32_t high = builder_.op(spv::Op::OpUConvert, u32_type(), {binary(spv::Op::OpShiftRightLogical, u64_type(), stored, const_u32(32))});
    builder_.op_void(spv::Op::OpStore, {word_pointer(next), high});
    return 0;
  }
  case Op::LoadConst: {
    const uint32_t offset = value(inst.args[0]);
    const uint32_t word = binary(spv::Op::OpShiftRightLogical, u32_type(), offset, const_u32(2));
    if (is_subword(width)) return load_subword(load_const_word(word), binary(spv::Op::OpBitwiseAnd, u32_type(), offset, const_u32(3)), width);
    if (width == MemoryWidth::B32) return load_const_word(word);
    const uint32_t low = builder_.op(spv::Op::OpUConvert, u64_type(), {load_const_word(word)});
    const uint32_t high = builder_.op(spv::Op::OpUConvert, u64_type(), {load_const_word(binary(spv::Op::OpIAdd, u32_type(), word, const_u32(1)))});
    return binary(spv::Op::OpBitwiseOr, u64_type(), low, binary(spv::Op::OpShiftLeftLogical, u64_type(), high, const_u32(32)));
  }
  case Op::AtomicGlobal:
  case Op::AtomicCasGlobal:
  case Op::AtomicShared:
  case Op::AtomicCasShared: {
    const bool global = inst.op == Op::AtomicGlobal || inst.op == Op::AtomicCasGlobal;
    if (inst.type == ir::Type::U64) builder_.capability(spv::Capability::Int64Atomics);
    const uint32_t pointer = global ? global_pointer(value(inst.args[0]), type)
                                    : shared_word_pointer(binary(spv::Op::OpShiftRightLogical, u32_type(), value(inst.args[0]), const_u32(2)));
    const uint32_t scope = const_u32(global ? scope_device : scope_workgroup);
    if (inst.op == Op::AtomicCasGlobal || inst.op == Op::AtomicCasShared) {
      return builder_.op(spv::Op::OpAtomicCompareExchange, type,
                         {pointer, scope, const_u32(0), const_u32(0), value(inst.args[2]), value(inst.args[1])});
    }
    return builder_.op(atomic_opcode(static_cast<ir::AtomicOp>(inst.immediate)), type, {pointer, scope, const_u32(0), value(inst.args[1])});
  }
  case Op::Barrier: workgroup_barrier(); return 0;
  case Op::MemoryBarrier:
    builder_.op_void(spv::Op::OpMemoryBarrier, {const_u32(scope_device), const_u32(barrier_semantics)});
    return 0;
  default: throw Error(fmt::format("SPIR-V backend: {} is not a memory op", ir::op_name(inst.op)));
  }
}

void ComputeEmitter::workgroup_barrier() {
  builder_.op_void(spv::Op::OpControlBarrier, {const_u32(scope_workgroup), const_u32(scope_workgroup), const_u32(barrier_semantics)});
}

uint32_t ComputeEmitter::builtin_component(uint32_t variable, uint32_t component) {
  const uint32_t vector = builder_.op(spv::Op::OpLoad, builder_.type_vector(u32_type(), 3), {variable});
  return builder_.op(spv::Op::OpCompositeExtract, u32_type(), {vector, component});
}

uint32_t ComputeEmitter::invocation_index() {
  if (local_invocation_index_ == 0) {
    local_invocation_index_ = builder_.variable(builder_.type_pointer(spv::StorageClass::Input, u32_type()), spv::StorageClass::Input);
    builder_.decorate(local_invocation_index_, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::LocalInvocationIndex)});
    interface_.push_back(local_invocation_index_);
  }
  return builder_.op(spv::Op::OpLoad, u32_type(), {local_invocation_index_});
}

uint32_t ComputeEmitter::emit_special(const ir::Inst& inst) {
  const auto vector_builtin = [&](uint32_t& variable, spv::BuiltIn builtin) {
    if (variable == 0) {
      variable = builder_.variable(builder_.type_pointer(spv::StorageClass::Input, builder_.type_vector(u32_type(), 3)), spv::StorageClass::Input);
      builder_.decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(builtin)});
      interface_.push_back(variable);
    }
    return variable;
  };
  switch (inst.op) {
  case Op::ThreadIdX:
  case Op::ThreadIdY:
  case Op::ThreadIdZ:
    return builtin_component(vector_builtin(local_invocation_id_, spv::BuiltIn::LocalInvocationId),
                             static_cast<uint32_t>(inst.op) - static_cast<uint32_t>(Op::ThreadIdX));
  case Op::BlockIdX:
  case Op::BlockIdY:
  case Op::BlockIdZ:
    return builtin_component(vector_builtin(workgroup_id_, spv::BuiltIn::WorkgroupId),
                             static_cast<uint32_t>(inst.op) - static_cast<uint32_t>(Op::BlockIdX));
  case Op::LaneId:
    if (options_.warp_model == WarpModel::Subgroup) {
      if (subgroup_invocation_id_ == 0) {
        subgroup_invocation_id_ = builder_.variable(builder_.type_pointer(spv::StorageClass::Input, u32_type()), spv::StorageClass::Input);
        builder_.decorate(subgroup_invocation_id_, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::SubgroupLocalInvocationId)});
        interface_.push_back(subgroup_invocation_id_);
      }
      return builder_.op(spv::Op::OpLoad, u32_type(), {subgroup_invocation_id_});
    }
    return binary(spv::Op::OpBitwiseAnd, u32_type(), invocation_index(), const_u32(31));
  default: throw Error(fmt::format("SPIR-V backend: {} is not an invocation id", ir::op_name(inst.op)));
  }
}

uint32_t ComputeEmitter::emit_warp(const ir::Inst& inst) {
  if (options_.warp_model == WarpModel::Subgroup) {
    if (inst.op == Op::Shuffle) {
      return builder_.op(spv::Op::OpGroupNonUniformShuffle, u32_type(), {const_u32(scope_subgroup), value(inst.args[0]), value(inst.args[1])});
    }
    const uint32_t ballot = builder_.op(spv::Op::OpGroupNonUniformBallot, builder_.type_vector(u32_type(), 4), {const_u32(scope_subgroup), value(inst.args[0])});
    return builder_.op(spv::Op::OpCompositeExtract, u32_type(), {ballot, 0});
  }
  // Emulated warp: each lane publishes its value in workgroup memory, a barrier makes it visible, lanes read
  // their warp's slots, a second barrier keeps the next warp operation from overwriting them too early, and
  // each lane clears its slot again: lanes that do not take part (exited, or on the other side of a branch)
  // then count as zero in a ballot, so ballots and votes see exactly the active lanes. Invocations that have
  // not exited must all reach the operation (barriers); exited ones are left out.
  const uint32_t index = invocation_index();
  const uint32_t lane = binary(spv::Op::OpBitwiseAnd, u32_type(), index, const_u32(31));
  const uint32_t warp_base = binary(spv::Op::OpBitwiseAnd, u32_type(), index, const_u32(~31u));
  const auto slot = [&](uint32_t i) { return warp_slot(i); };
  uint32_t result = 0;
  if (inst.op == Op::Shuffle) {
    builder_.op_void(spv::Op::OpStore, {slot(index), value(inst.args[0])});
    workgroup_barrier();
    const uint32_t source = binary(spv::Op::OpBitwiseOr, u32_type(), warp_base, binary(spv::Op::OpBitwiseAnd, u32_type(), value(inst.args[1]), const_u32(31)));
    result = builder_.op(spv::Op::OpLoad, u32_type(), {slot(source)});
  } else {
    const uint32_t bit = binary(spv::Op::OpShiftLeftLogical, u32_type(), const_u32(1), lane);
    builder_.op_void(spv::Op::OpStore, {slot(index), select(u32_type(), value(inst.args[0]), bit, const_u32(0))});
    workgroup_barrier();
    // Lanes past the end of the workgroup do not exist: their slots hold stale data and are skipped.
    uint32_t invocations = builder_.op(spv::Op::OpCompositeExtract, u32_type(), {workgroup_size_, 0});
    for (uint32_t axis = 1; axis < 3; ++axis) {
      invocations = binary(spv::Op::OpIMul, u32_type(), invocations, builder_.op(spv::Op::OpCompositeExtract, u32_type(), {workgroup_size_, axis}));
    }
    result = const_u32(0);
    for (uint32_t i = 0; i < 32; ++i) {
      const uint32_t other = binary(spv::Op::OpBitwiseOr, u32_type(), warp_base, const_u32(i));
      const uint32_t exists = binary(spv::Op::OpULessThan, bool_type(), other, invocations);
      const uint32_t word = builder_.op(spv::Op::OpLoad, u32_type(), {slot(other)});
      result = binary(spv::Op::OpBitwiseOr, u32_type(), result, select(u32_type(), exists, word, const_u32(0)));
    }
  }
  workgroup_barrier();
  builder_.op_void(spv::Op::OpStore, {slot(index), const_u32(0)});
  return result;
}

uint32_t ComputeEmitter::warp_slot(uint32_t index) {
  if (warp_scratch_ == 0) {
    const uint32_t array = builder_.type_array(u32_type(), max_workgroup_invocations);
    warp_scratch_ = builder_.variable(builder_.type_pointer(spv::StorageClass::Workgroup, array), spv::StorageClass::Workgroup);
    if (options_.debug_names) builder_.name(warp_scratch_, "warp_exchange");
    interface_.push_back(warp_scratch_);
  }
  return builder_.op(spv::Op::OpAccessChain, builder_.type_pointer(spv::StorageClass::Workgroup, u32_type()), {warp_scratch_, index});
}

void ComputeEmitter::clear_warp_slot() {
  // Workgroup memory starts undefined: every lane clears its slot once before any warp operation.
  builder_.op_void(spv::Op::OpStore, {warp_slot(invocation_index()), const_u32(0)});
  workgroup_barrier();
}

} // namespace kiln::spirv
