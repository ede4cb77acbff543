// The compute backend's skeleton (capabilities, interface, entry point) and its structured control flow.
//
// Every IR Block and Loop becomes a SPIR-V loop construct (a Block is a loop that never repeats), so a jump
// to the innermost construct is a plain break or continue. A jump to an outer construct stores its target in
// `pending_jump_`, breaks out, and each construct it crosses re-dispatches at its merge.
#include "translator/spirv/compute_emitter.h"

#include <algorithm>

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::spirv {

std::vector<uint32_t> emit_compute(const ir::Function& function, const ComputeOptions& options) {
  std::optional<ir::Function> expanded;
  return ComputeEmitter(lower_float_modes(function, options.floats, expanded), options).emit();
}

ComputeEmitter::ComputeEmitter(const ir::Function& function, const ComputeOptions& options)
    : function_(function), options_(options), values_(function.insts.size(), 0) {}

uint32_t ComputeEmitter::type_of(ir::Type type) {
  switch (type) {
  case ir::Type::Void: return builder_.type_void();
  case ir::Type::Bool: return builder_.type_bool();
  case ir::Type::U32: return builder_.type_int(32);
  case ir::Type::U64: return builder_.type_int(64);
  case ir::Type::F32: return builder_.type_float(32);
  case ir::Type::F64: return builder_.type_float(64);
  }
  return 0;
}

uint32_t ComputeEmitter::const_of(ir::Type type, uint64_t bits) {
  if (type == ir::Type::Bool) return builder_.constant_bool(bits != 0);
  return builder_.constant(type_of(type), bits, ir::bit_width(type));
}

void ComputeEmitter::declare_interface() {
  builder_.capability(spv::Capability::Shader);
  builder_.capability(spv::Capability::PhysicalStorageBufferAddresses);
  builder_.memory_model(spv::AddressingModel::PhysicalStorageBuffer64, spv::MemoryModel::GLSL450);
  const uint32_t uvec3 = builder_.type_vector(u32_type(), 3);
  const uint32_t size_x = builder_.spec_constant_u32(0, 32);
  const uint32_t size_y = builder_.spec_constant_u32(1, 1);
  const uint32_t size_z = builder_.spec_constant_u32(2, 1);
  workgroup_size_ = builder_.spec_constant_composite(uvec3, {size_x, size_y, size_z});
  builder_.decorate(workgroup_size_, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)});
  if (options_.warp_model == WarpModel::Subgroup) {
    builder_.capability(spv::Capability::GroupNonUniform);
    builder_.capability(spv::Capability::GroupNonUniformBallot);
    builder_.capability(spv::Capability::GroupNonUniformShuffle);
  }
}

void ComputeEmitter::start_block(uint32_t label) {
  builder_.label(label);
  terminated_ = false;
}

void ComputeEmitter::terminate(spv::Op opcode, std::initializer_list<uint32_t> operands) {
  builder_.op_void(opcode, operands);
  terminated_ = true;
}

void ComputeEmitter::emit_block(const ir::Block& block) {
  for (const ir::Node& node : block.nodes) {
    if (terminated_) return; // the rest of the block cannot run
    switch (node.kind) {
    case ir::NodeKind::Inst: emit_inst(node.value); break;
    case ir::NodeKind::If: emit_if(node); break;
    case ir::NodeKind::Block:
    case ir::NodeKind::Loop: emit_construct(node); break;
    case ir::NodeKind::Break:
    case ir::NodeKind::Continue: emit_jump(node); break;
    case ir::NodeKind::Return: terminate(spv::Op::OpReturn, {}); break;
    }
  }
}

void ComputeEmitter::emit_if(const ir::Node& node) {
  const uint32_t then_label = builder_.new_id();
  const uint32_t merge = builder_.new_id();
  const bool has_else = !node.else_body->nodes.empty();
  const uint32_t else_label = has_else ? builder_.new_id() : merge;
  builder_.op_void(spv::Op::OpSelectionMerge, {merge, 0});
  terminate(spv::Op::OpBranchConditional, {value(node.value), then_label, else_label});
  bool merge_reached = !has_else;
  start_block(then_label);
  emit_block(*node.body);
  if (!terminated_) {
    terminate(spv::Op::OpBranch, {merge});
    merge_reached = true;
  }
  if (has_else) {
    start_block(else_label);
    emit_block(*node.else_body);
    if (!terminated_) {
      terminate(spv::Op::OpBranch, {merge});
      merge_reached = true;
    }
  }
  start_block(merge);
  if (!merge_reached) terminate(spv::Op::OpUnreachable, {});
}

void ComputeEmitter::emit_construct(const ir::Node& node) {
  const bool is_loop = node.kind == ir::NodeKind::Loop;
  Construct construct{node.label, is_loop, builder_.new_id(), builder_.new_id(), builder_.new_id()};
  const uint32_t body = builder_.new_id();
  terminate(spv::Op::OpBranch, {construct.header});
  start_block(construct.header);
  builder_.op_void(spv::Op::OpLoopMerge, {construct.merge, construct.continue_target, 0});
  terminate(spv::Op::OpBranch, {body});
  constructs_.push_back(construct);
  start_block(body);
  emit_block(*node.body);
  if (!terminated_) terminate(spv::Op::OpBranch, {construct.merge}); // falling off the end leaves either kind
  construct = constructs_.back();
  constructs_.pop_back();
  start_block(construct.continue_target);
  terminate(spv::Op::OpBranch, {construct.header});
  start_block(construct.merge);
  if (construct.has_escapes) emit_pending_dispatch();
}

void ComputeEmitter::emit_jump(const ir::Node& node) {
  const bool is_continue = node.kind == ir::NodeKind::Continue;
  if (constructs_.empty()) throw Error(fmt::format("SPIR-V backend: jump to L{} outside any construct", node.label));
  Construct& innermost = constructs_.back();
  if (innermost.label == node.label) {
    terminate(spv::Op::OpBranch, {is_continue ? innermost.continue_target : innermost.merge});
    return;
  }
  // Crossing constructs: remember the target and leave the innermost one; the constructs in between
  // re-dispatch at their merges until the target handles it.
  bool found = false;
  for (auto it = constructs_.rbegin(); it != constructs_.rend(); ++it) {
    if (it->label == node.label) {
      found = true;
      break;
    }
    it->has_escapes = true;
  }
  if (!found) throw Error(fmt::format("SPIR-V backend: jump to L{}, which does not enclose it", node.label));
  builder_.op_void(spv::Op::OpStore, {pending_jump_, const_u32(node.label * 2 + (is_continue ? 1 : 0))});
  terminate(spv::Op::OpBranch, {innermost.merge});
}

void ComputeEmitter::emit_pending_dispatch() {
  // At the merge of a construct some jump crossed: if a jump is pending, hand it to the enclosing construct.
  const Construct& outer = constructs_.back(); // exists: the jump's target encloses the construct just left
  const uint32_t pending = builder_.op(spv::Op::OpLoad, u32_type(), {pending_jump_});
  const uint32_t is_pending = binary(spv::Op::OpINotEqual, bool_type(), pending, const_u32(0));
  const uint32_t dispatch = builder_.new_id();
  const uint32_t resume = builder_.new_id();
  builder_.op_void(spv::Op::OpSelectionMerge, {resume, 0});
  terminate(spv::Op::OpBranchConditional, {is_pending, dispatch, resume});

  start_block(dispatch);
  const uint32_t switch_merge = builder_.new_id();
  const uint32_t break_here = builder_.new_id();
  const uint32_t continue_here = builder_.new_id();
  const uint32_t pass_outwards = builder_.new_id();
  builder_.op_void(spv::Op::OpSelectionMerge, {switch_merge, 0});
  if (outer.is_loop) {
    terminate(spv::Op::OpSwitch, {pending, pass_outwards, outer.label * 2, break_here, outer.label * 2 + 1, continue_here});
  } else {
    terminate(spv::Op::OpSwitch, {pending, pass_outwards, outer.label * 2, break_here});
  }
  start_block(break_here);
  builder_.op_void(spv::Op::OpStore, {pending_jump_, const_u32(0)});
  terminate(spv::Op::OpBranch, {outer.merge});
  if (outer.is_loop) {
    start_block(continue_here);
    builder_.op_void(spv::Op::OpStore, {pending_jump_, const_u32(0)});
    terminate(spv::Op::OpBranch, {outer.continue_target});
  }
  start_block(pass_outwards); // a jump to a construct further out: `outer` was marked when it was emitted
  terminate(spv::Op::OpBranch, {outer.merge});
  start_block(switch_merge);
  terminate(spv::Op::OpUnreachable, {});
  start_block(resume);
}

std::vector<uint32_t> ComputeEmitter::emit() {
  declare_interface();
  const uint32_t void_type = builder_.type_void();
  const uint32_t function_type = builder_.type_function(void_type);
  main_function_ = builder_.new_id();
  builder_.op_void(spv::Op::OpFunction, {void_type, main_function_, 0, function_type});
  builder_.label(builder_.new_id());
  for (ir::Type type : function_.locals) {
    const uint32_t pointer = builder_.type_pointer(spv::StorageClass::Function, type_of(type));
    local_variables_.push_back(builder_.op(spv::Op::OpVariable, pointer,
                                           {static_cast<uint32_t>(spv::StorageClass::Function), builder_.constant_null(type_of(type))}));
  }
  if (function_.kernel.private_bytes > 0) {
    const uint32_t array = builder_.type_array(u32_type(), (function_.kernel.private_bytes + 3) / 4);
    private_memory_ = builder_.op(spv::Op::OpVariable, builder_.type_pointer(spv::StorageClass::Function, array),
                                  {static_cast<uint32_t>(spv::StorageClass::Function)});
    if (options_.debug_names) builder_.name(private_memory_, "local_memory");
  }
  pending_jump_ = builder_.op(spv::Op::OpVariable, builder_.type_pointer(spv::StorageClass::Function, u32_type()),
                              {static_cast<uint32_t>(spv::StorageClass::Function), const_u32(0)});
  const uint32_t start = builder_.new_id();
  terminate(spv::Op::OpBranch, {start});
  start_block(start);
  if (options_.warp_model == WarpModel::Emulated) {
    const bool uses_warp = std::any_of(function_.insts.begin(), function_.insts.end(),
                                       [](const ir::Inst& inst) { return inst.op == ir::Op::Shuffle || inst.op == ir::Op::Ballot; });
    if (uses_warp) clear_warp_slot();
  }
  emit_block(function_.body);
  if (!terminated_) terminate(spv::Op::OpReturn, {});
  builder_.op_void(spv::Op::OpFunctionEnd, {});

  builder_.entry_point(spv::ExecutionModel::GLCompute, main_function_, function_.kernel.name, interface_);
  builder_.execution_mode(main_function_, spv::ExecutionMode::LocalSize, {1, 1, 1});
  if (options_.debug_names) builder_.name(main_function_, function_.kernel.name);
  return builder_.finish();
}

} // namespace kiln::spirv
