// The graphics backend's skeleton: stage interface (attributes, fragment outputs), constant banks, and the
// function around the compute backend's control flow.
#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/sass/attribute_map.h"
#include "translator/spirv/graphics_emitter.h"

namespace kiln::spirv {
namespace {

constexpr uint32_t kPosition = sass::attribute::position;
constexpr uint32_t kPointSize = sass::attribute::point_size;
constexpr uint32_t kLayer = sass::attribute::layer;
constexpr uint32_t kViewportIndex = sass::attribute::viewport_index;
constexpr uint32_t kFragCoordKey = 0xffff;
constexpr uint32_t kFragDepthOutput = 32; ///< StoreAttribute target of the fragment depth
constexpr uint32_t kConstBankWords = 16384;

/// Outputs that are one scalar of their own rather than a vec4 of four attribute words.
bool is_scalar_output(uint32_t address) { return address == kPointSize || address == kLayer || address == kViewportIndex; }

bool is_varying(uint32_t address) {
  using namespace sass::attribute;
  return (address >= generic && address < generic_end) || (address >= texture_coordinate && address < texture_coordinate_end);
}

} // namespace

uint32_t varying_location(uint32_t address) {
  using namespace sass::attribute;
  if (address >= generic && address < generic_end) return (address - generic) / 16;
  if (address >= texture_coordinate && address < texture_coordinate_end) return 16 + (address - texture_coordinate) / 16;
  throw Error(fmt::format("graphics backend: attribute a[{:#x}] is not a generic or texture coordinate", address));
}

std::vector<uint32_t> emit_graphics(const ir::Function& function, const GraphicsInterface& interface,
                                    const GraphicsOptions& options) {
  std::optional<ir::Function> expanded;
  return GraphicsEmitter(lower_float_modes(function, options.floats, expanded), interface, options).emit();
}

GraphicsEmitter::GraphicsEmitter(const ir::Function& function, const GraphicsInterface& interface, const GraphicsOptions& options)
    : function_(function), interface_(interface), options_(options), core_(function, ComputeOptions{.debug_names = options.debug_names, .floats = options.floats}) {
  core_.stage_ops = [this](const ir::Inst& inst) { return emit_stage_op(inst); };
}

std::optional<uint32_t> GraphicsEmitter::emit_stage_op(const ir::Inst& inst) {
  if (inst.op != ir::Op::Texture) last_texture_key_.reset();
  switch (inst.op) {
  case ir::Op::LoadAttribute: return load_attribute(static_cast<uint32_t>(inst.immediate));
  case ir::Op::StoreAttribute: store_attribute(static_cast<uint32_t>(inst.immediate), core_.value(inst.args[0])); return 0;
  case ir::Op::LoadConstBank: return load_const_bank(static_cast<uint32_t>(inst.immediate), core_.value(inst.args[0]));
  case ir::Op::Texture: return emit_texture(inst);
  case ir::Op::QuadLane: return quad_lane();
  case ir::Op::LoadVertexAttribute: return load_vertex_attribute(static_cast<uint32_t>(inst.immediate), core_.value(inst.args[0]));
  case ir::Op::EmitVertex: emit_vertex(); return 0;
  case ir::Op::EndPrimitive:
    if (interface_.stage != GraphicsStage::geometry) throw Error("graphics backend: OUT.CUT outside a geometry program");
    builder().op_void(spv::Op::OpEndPrimitive, {});
    return 0;
  case ir::Op::Shuffle: return quad_shuffle(inst); // fragment quads (emit_graphics_quad.cpp)
  case ir::Op::Demote:
    if (interface_.stage != GraphicsStage::fragment) throw Error("graphics backend: KIL outside a fragment program");
    builder().extension("SPV_EXT_demote_to_helper_invocation");
    builder().capability(spv::Capability::DemoteToHelperInvocationEXT);
    builder().op_void(spv::Op::OpDemoteToHelperInvocationEXT, {});
    return 0;
  case ir::Op::ThreadIdX: case ir::Op::ThreadIdY: case ir::Op::ThreadIdZ: case ir::Op::BlockIdX: case ir::Op::BlockIdY:
  case ir::Op::BlockIdZ: case ir::Op::LaneId: case ir::Op::LoadGlobal: case ir::Op::StoreGlobal: case ir::Op::LoadShared:
  case ir::Op::StoreShared: case ir::Op::LoadConst: case ir::Op::AtomicGlobal: case ir::Op::AtomicShared:
  case ir::Op::AtomicCasGlobal: case ir::Op::AtomicCasShared: case ir::Op::Barrier: case ir::Op::Ballot:
    throw Error(fmt::format("graphics backend: {} is a compute op", ir::op_name(inst.op)));
  default: return std::nullopt;
  }
}

void GraphicsEmitter::declare_interface() {
  builder().capability(spv::Capability::Shader);
  builder().memory_model(spv::AddressingModel::Logical, spv::MemoryModel::GLSL450);
}

uint32_t GraphicsEmitter::input_variable(uint32_t address) {
  const bool fragment = interface_.stage == GraphicsStage::fragment;
  if (interface_.stage == GraphicsStage::geometry) throw Error("graphics backend: a geometry program reads inputs per vertex");
  if (fragment && address >= kPosition && address < kPosition + 16) {
    uint32_t& variable = inputs_[kFragCoordKey];
    if (variable == 0) {
      variable = builder().variable(builder().type_pointer(spv::StorageClass::Input, vec4_type()), spv::StorageClass::Input);
      builder().decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::FragCoord)});
      core_.interface_.push_back(variable);
    }
    return variable;
  }
  if (!is_varying(address)) {
    throw Error(fmt::format("graphics backend: reading attribute a[{:#x}] is not supported", address));
  }
  const uint32_t location = varying_location(address);
  uint32_t& variable = inputs_[location];
  if (variable == 0) {
    variable = builder().variable(builder().type_pointer(spv::StorageClass::Input, vec4_type()), spv::StorageClass::Input);
    builder().decorate(variable, spv::Decoration::Location, {location});
    if (fragment) {
      const auto mode = interface_.interpolation.find(address);
      if (mode != interface_.interpolation.end() && mode->second == Interpolation::flat) builder().decorate(variable, spv::Decoration::Flat);
      if (mode != interface_.interpolation.end() && mode->second == Interpolation::linear) builder().decorate(variable, spv::Decoration::NoPerspective);
    }
    if (options_.debug_names) builder().name(variable, fmt::format("in_a{:x}", address & ~0xfu));
    core_.interface_.push_back(variable);
  }
  return variable;
}

uint32_t GraphicsEmitter::load_attribute(uint32_t address) {
  if (const std::optional<uint32_t> value = load_stage_attribute(address)) return *value;
  const uint32_t variable = input_variable(address);
  const uint32_t pointer = builder().op(spv::Op::OpAccessChain, builder().type_pointer(spv::StorageClass::Input, f32_type()),
                                        {variable, core_.const_u32((address / 4) % 4)});
  const uint32_t value = builder().op(spv::Op::OpLoad, f32_type(), {pointer});
  return builder().op(spv::Op::OpBitcast, core_.u32_type(), {value});
}

uint32_t GraphicsEmitter::output_pointer(uint32_t target) {
  const uint32_t float_pointer = builder().type_pointer(spv::StorageClass::Output, f32_type());
  if (interface_.stage == GraphicsStage::fragment) {
    if (target == kFragDepthOutput) return outputs_.at(kFragDepthOutput);
    return builder().op(spv::Op::OpAccessChain, float_pointer, {outputs_.at(target / 4), core_.const_u32(target % 4)});
  }
  if (target & kPatchAttributeFlag) return patch_pointer(target & ~kPatchAttributeFlag, spv::StorageClass::Output);
  if (is_scalar_output(target)) return outputs_.at(target);
  if (interface_.stage == GraphicsStage::tess_control) { // the invocation's own output vertex
    return builder().op(spv::Op::OpAccessChain, float_pointer, {outputs_.at(target & ~0xfu), invocation_id(), core_.const_u32((target / 4) % 4)});
  }
  return builder().op(spv::Op::OpAccessChain, float_pointer, {outputs_.at(target & ~0xfu), core_.const_u32((target / 4) % 4)});
}

void GraphicsEmitter::store_attribute(uint32_t target, uint32_t value) {
  if (interface_.stage != GraphicsStage::fragment && (target == kLayer || target == kViewportIndex)) {
    builder().op_void(spv::Op::OpStore, {output_pointer(target), value}); // integer outputs take the register bits
    return;
  }
  const uint32_t bits = builder().op(spv::Op::OpBitcast, f32_type(), {value});
  builder().op_void(spv::Op::OpStore, {output_pointer(target), bits});
}

uint32_t GraphicsEmitter::load_const_bank(uint32_t bank, uint32_t offset) {
  if (bank >= max_const_banks) throw Error(fmt::format("graphics backend: constant bank c[{}] does not exist", bank));
  uint32_t& variable = banks_[bank];
  if (variable == 0) {
    if (bank_block_type_ == 0) { // one decorated block type for every bank
      const uint32_t uvec4 = builder().type_vector(core_.u32_type(), 4);
      const uint32_t array = builder().type_array(uvec4, kConstBankWords / 4);
      builder().decorate(array, spv::Decoration::ArrayStride, {16});
      bank_block_type_ = builder().type_struct({array});
      builder().decorate(bank_block_type_, spv::Decoration::Block);
      builder().member_decorate(bank_block_type_, 0, spv::Decoration::Offset, {0});
    }
    variable = builder().variable(builder().type_pointer(spv::StorageClass::Uniform, bank_block_type_), spv::StorageClass::Uniform);
    builder().decorate(variable, spv::Decoration::DescriptorSet, {options_.descriptor_set});
    builder().decorate(variable, spv::Decoration::Binding, {graphics_const_bank_binding(bank)});
    if (options_.debug_names) builder().name(variable, fmt::format("c{}", bank));
    core_.interface_.push_back(variable);
  }
  // Reads past the 64 KiB bank wrap inside it (the hardware returns zero there; no corpus program does it).
  const uint32_t word = core_.binary(spv::Op::OpShiftRightLogical, core_.u32_type(), offset, core_.const_u32(2));
  const uint32_t element = core_.binary(spv::Op::OpBitwiseAnd, core_.u32_type(),
                                        core_.binary(spv::Op::OpShiftRightLogical, core_.u32_type(), word, core_.const_u32(2)),
                                        core_.const_u32(kConstBankWords / 4 - 1));
  const uint32_t component = core_.binary(spv::Op::OpBitwiseAnd, core_.u32_type(), word, core_.const_u32(3));
  const uint32_t pointer = builder().op(spv::Op::OpAccessChain, builder().type_pointer(spv::StorageClass::Uniform, core_.u32_type()),
                                        {variable, core_.const_u32(0), element, component});
  return builder().op(spv::Op::OpLoad, core_.u32_type(), {pointer});
}

uint32_t GraphicsEmitter::quad_lane() {
  if (interface_.stage != GraphicsStage::fragment) throw Error("graphics backend: quad operations outside a fragment program");
  // Quads are aligned 2x2 pixel blocks: the lane follows from the pixel's coordinate parity.
  const uint32_t coord = input_variable(kPosition);
  const uint32_t vec2 = builder().type_vector(f32_type(), 2);
  const uint32_t xy = builder().op(spv::Op::OpVectorShuffle, vec2, {builder().op(spv::Op::OpLoad, vec4_type(), {coord}),
                                                                    builder().op(spv::Op::OpLoad, vec4_type(), {coord}), 0, 1});
  const uint32_t uvec2 = builder().type_vector(core_.u32_type(), 2);
  const uint32_t pixel = builder().op(spv::Op::OpConvertFToU, uvec2, {xy});
  const uint32_t x = builder().op(spv::Op::OpCompositeExtract, core_.u32_type(), {pixel, 0});
  const uint32_t y = builder().op(spv::Op::OpCompositeExtract, core_.u32_type(), {pixel, 1});
  const uint32_t x_bit = core_.binary(spv::Op::OpBitwiseAnd, core_.u32_type(), x, core_.const_u32(1));
  const uint32_t y_bit = core_.binary(spv::Op::OpShiftLeftLogical, core_.u32_type(),
                                      core_.binary(spv::Op::OpBitwiseAnd, core_.u32_type(), y, core_.const_u32(1)), core_.const_u32(1));
  return core_.binary(spv::Op::OpBitwiseOr, core_.u32_type(), x_bit, y_bit);
}

void GraphicsEmitter::reset_outputs() {
  ModuleBuilder& b = builder();
  const uint32_t zero = b.constant(f32_type(), 0, 32);
  const uint32_t one = b.constant(f32_type(), 0x3f800000u, 32);
  const uint32_t unwritten = b.op(spv::Op::OpCompositeConstruct, vec4_type(), {zero, zero, zero, one});
  for (const auto& [key, variable] : outputs_) {
    if (is_scalar_output(key)) continue;
    if (interface_.stage == GraphicsStage::tess_control) {
      b.op_void(spv::Op::OpStore, {b.op(spv::Op::OpAccessChain, b.type_pointer(spv::StorageClass::Output, vec4_type()), {variable, invocation_id()}), unwritten});
    } else {
      b.op_void(spv::Op::OpStore, {variable, unwritten});
    }
  }
}

void GraphicsEmitter::declare_vertex_output(uint32_t target) {
  if (target & kPatchAttributeFlag) return; // patch outputs are declared where they are written
  const uint32_t key = is_scalar_output(target) ? target : target & ~0xfu;
  if (outputs_.count(key)) return;
  const bool point_size = target == kPointSize, integer = target == kLayer || target == kViewportIndex;
  if (!point_size && !integer && key != kPosition && !is_varying(target)) {
    throw Error(fmt::format("graphics backend: writing attribute a[{:#x}] is not supported", target));
  }
  if (integer) {
    // A vertex program writes them through SPV_EXT_shader_viewport_index_layer; a geometry program natively.
    if (interface_.stage == GraphicsStage::vertex) {
      if (!outputs_.count(kLayer) && !outputs_.count(kViewportIndex)) builder().extension("SPV_EXT_shader_viewport_index_layer");
      builder().capability(spv::Capability::ShaderViewportIndexLayerEXT);
    } else if (target == kViewportIndex) {
      builder().capability(spv::Capability::MultiViewport);
    }
  }
  uint32_t type = point_size ? f32_type() : integer ? core_.u32_type() : vec4_type();
  if (interface_.stage == GraphicsStage::tess_control) {
    if (point_size || integer) throw Error(fmt::format("graphics backend: a tessellation control program writing a[{:#x}] is not supported", target));
    type = builder().type_array(type, interface_.tessellation.output_vertices); // one element per output vertex
  }
  const uint32_t variable = builder().variable(builder().type_pointer(spv::StorageClass::Output, type), spv::StorageClass::Output);
  if (point_size) builder().decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::PointSize)});
  else if (target == kLayer) builder().decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::Layer)});
  else if (target == kViewportIndex) builder().decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::ViewportIndex)});
  else if (key == kPosition) builder().decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::Position)});
  else builder().decorate(variable, spv::Decoration::Location, {varying_location(target)});
  if (options_.debug_names) builder().name(variable, fmt::format("out_a{:x}", key));
  outputs_[key] = variable;
  core_.interface_.push_back(variable);
}

std::vector<uint32_t> GraphicsEmitter::emit() {
  declare_interface();
  const bool fragment = interface_.stage == GraphicsStage::fragment;
  // Outputs are declared up front so a vertex stage can give every output its (0, 0, 0, 1) start (seed 002 §1.2).
  for (const ir::Inst& inst : function_.insts) {
    if (inst.op != ir::Op::StoreAttribute) continue;
    const auto target = static_cast<uint32_t>(inst.immediate);
    if (fragment) {
      const uint32_t key = target == kFragDepthOutput ? kFragDepthOutput : target / 4;
      if (outputs_.count(key)) continue;
      const bool depth = target == kFragDepthOutput;
      const uint32_t variable = builder().variable(builder().type_pointer(spv::StorageClass::Output, depth ? f32_type() : vec4_type()),
                                                   spv::StorageClass::Output);
      if (depth) builder().decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::FragDepth)});
      else if (key == 1 && options_.dual_source_blend) {
        builder().decorate(variable, spv::Decoration::Location, {0});
        builder().decorate(variable, spv::Decoration::Index, {1});
      } else if (target < kFragDepthOutput) builder().decorate(variable, spv::Decoration::Location, {key});
      else throw Error(fmt::format("graphics backend: fragment output {} is not supported", target));
      outputs_[key] = variable;
      core_.interface_.push_back(variable);
      continue;
    }
    declare_vertex_output(target);
  }
  if (!fragment) {
    for (uint32_t target : interface_.declared_outputs) {
      if ((target & ~0xfu) == kPosition || is_varying(target)) declare_vertex_output(target);
    }
  }

  ModuleBuilder& b = builder();
  const uint32_t void_type = b.type_void();
  const uint32_t function_type = b.type_function(void_type);
  core_.main_function_ = b.new_id();
  b.op_void(spv::Op::OpFunction, {void_type, core_.main_function_, 0, function_type});
  b.label(b.new_id());
  for (ir::Type type : function_.locals) {
    const uint32_t pointer = b.type_pointer(spv::StorageClass::Function, core_.type_of(type));
    if (options_.zero_registers) {
      core_.local_variables_.push_back(b.op(spv::Op::OpVariable, pointer, {static_cast<uint32_t>(spv::StorageClass::Function),
                                                                           b.constant_null(core_.type_of(type))}));
    } else {
      core_.local_variables_.push_back(b.op(spv::Op::OpVariable, pointer, {static_cast<uint32_t>(spv::StorageClass::Function)}));
    }
  }
  core_.pending_jump_ = b.op(spv::Op::OpVariable, b.type_pointer(spv::StorageClass::Function, core_.u32_type()),
                             {static_cast<uint32_t>(spv::StorageClass::Function), core_.const_u32(0)});
  const uint32_t start = b.new_id();
  core_.terminate(spv::Op::OpBranch, {start});
  core_.start_block(start);
  if (!fragment) reset_outputs();
  core_.emit_block(function_.body);
  if (!core_.terminated_) core_.terminate(spv::Op::OpReturn, {});
  b.op_void(spv::Op::OpFunctionEnd, {});

  static constexpr spv::ExecutionModel models[] = {spv::ExecutionModel::Vertex, spv::ExecutionModel::Fragment, spv::ExecutionModel::Geometry,
                                                   spv::ExecutionModel::TessellationControl, spv::ExecutionModel::TessellationEvaluation};
  b.entry_point(models[static_cast<size_t>(interface_.stage)], core_.main_function_, "main", core_.interface_);
  if (interface_.stage == GraphicsStage::geometry) declare_geometry_modes();
  if (tessellation_stage()) declare_tessellation_modes();
  if (fragment) {
    b.execution_mode(core_.main_function_, spv::ExecutionMode::OriginUpperLeft);
    if (outputs_.count(kFragDepthOutput)) b.execution_mode(core_.main_function_, spv::ExecutionMode::DepthReplacing);
  }
  if (options_.debug_names) b.name(core_.main_function_, "main");
  return b.finish();
}

} // namespace kiln::spirv
