// The tessellation stages: the control stage's per-vertex outputs (arrays indexed by the invocation id) and
// patch outputs (tessellation levels, patch generics), the evaluation stage's TessCoord and patch inputs, and
// the execution modes. Per-vertex inputs of both stages are the geometry stage's arrays
// (emit_graphics_geometry.cpp).
#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/spirv/graphics_emitter.h"

namespace kiln::spirv {
namespace {

constexpr uint32_t kTessCoordU = 0x2f0;
constexpr uint32_t kTessCoordV = 0x2f4;
constexpr uint32_t kTessLevelOuter = 0x00; ///< patch a[0x00..0x0c]
constexpr uint32_t kTessLevelInner = 0x10; ///< patch a[0x10..0x14]
constexpr uint32_t kPatchGeneric = 0x20;   ///< patch a[0x20 + 16n]
constexpr uint32_t kPatchGenericEnd = 0x220;
constexpr uint32_t kLastPatchLocation = 29;

} // namespace

bool GraphicsEmitter::tessellation_stage() const {
  return interface_.stage == GraphicsStage::tess_control || interface_.stage == GraphicsStage::tess_evaluation;
}

uint32_t GraphicsEmitter::builtin_input(uint32_t key, uint32_t type, spv::BuiltIn builtin) {
  uint32_t& variable = inputs_[key];
  if (variable == 0) {
    variable = builder().variable(builder().type_pointer(spv::StorageClass::Input, type), spv::StorageClass::Input);
    builder().decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(builtin)});
    core_.interface_.push_back(variable);
  }
  return variable;
}

uint32_t GraphicsEmitter::invocation_id() {
  if (interface_.stage != GraphicsStage::tess_control && interface_.stage != GraphicsStage::geometry) {
    throw Error("graphics backend: SR_INVOCATION_ID outside a tessellation control or geometry program");
  }
  const uint32_t variable = builtin_input(kInvocationIdAttribute, core_.u32_type(), spv::BuiltIn::InvocationId);
  return builder().op(spv::Op::OpLoad, core_.u32_type(), {variable});
}

std::optional<uint32_t> GraphicsEmitter::load_stage_attribute(uint32_t address) {
  if (address == kInvocationIdAttribute) return invocation_id();
  if (!tessellation_stage()) return std::nullopt;
  ModuleBuilder& b = builder();
  const uint32_t float_pointer = b.type_pointer(spv::StorageClass::Input, f32_type());
  if (interface_.stage == GraphicsStage::tess_evaluation && (address == kTessCoordU || address == kTessCoordV)) {
    const uint32_t variable = builtin_input(kTessCoordU, b.type_vector(f32_type(), 3), spv::BuiltIn::TessCoord);
    const uint32_t pointer = b.op(spv::Op::OpAccessChain, float_pointer, {variable, core_.const_u32((address - kTessCoordU) / 4)});
    return b.op(spv::Op::OpBitcast, core_.u32_type(), {b.op(spv::Op::OpLoad, f32_type(), {pointer})});
  }
  if (interface_.stage == GraphicsStage::tess_evaluation && (address & kPatchAttributeFlag) != 0) {
    const uint32_t pointer = patch_pointer(address & ~kPatchAttributeFlag, spv::StorageClass::Input);
    return b.op(spv::Op::OpBitcast, core_.u32_type(), {b.op(spv::Op::OpLoad, f32_type(), {pointer})});
  }
  throw Error(fmt::format("graphics backend: reading a[{:#x}] in a tessellation program is not supported", address & ~kPatchAttributeFlag));
}

uint32_t GraphicsEmitter::patch_pointer(uint32_t address, spv::StorageClass storage) {
  ModuleBuilder& b = builder();
  std::map<uint32_t, uint32_t>& variables = storage == spv::StorageClass::Input ? patch_inputs_ : patch_outputs_;
  uint32_t key = 0, component = 0, type = 0;
  spv::BuiltIn builtin = spv::BuiltIn::Max;
  if (address < kTessLevelInner) {
    key = kTessLevelOuter, component = address / 4, type = b.type_array(f32_type(), 4), builtin = spv::BuiltIn::TessLevelOuter;
  } else if (address < kTessLevelInner + 8) {
    key = kTessLevelInner, component = (address - kTessLevelInner) / 4, type = b.type_array(f32_type(), 2), builtin = spv::BuiltIn::TessLevelInner;
  } else if (address >= kPatchGeneric && address < kPatchGenericEnd && address % 4 == 0) {
    if ((address - kPatchGeneric) / 16 > kLastPatchLocation) {
      throw Error(fmt::format("graphics backend: patch generic {} (a[{:#x}]) is past the {} a device surely has", (address - kPatchGeneric) / 16,
                              address, kLastPatchLocation + 1));
    }
    key = address & ~0xfu, component = (address / 4) % 4, type = vec4_type();
  } else {
    throw Error(fmt::format("graphics backend: patch attribute a[{:#x}] is not a tessellation level or patch generic", address));
  }
  uint32_t& variable = variables[key];
  if (variable == 0) {
    variable = b.variable(b.type_pointer(storage, type), storage);
    b.decorate(variable, spv::Decoration::Patch);
    if (builtin != spv::BuiltIn::Max) b.decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(builtin)});
    // Patch and per-vertex variables share one location space, which per-vertex generics fill from 0 up: patch
    // generic n takes Location 29 - n from the top of the 30 locations every device has for patch data (120
    // components, Vulkan's minimum maxTessellationControlPerPatchOutputComponents).
    else b.decorate(variable, spv::Decoration::Location, {kLastPatchLocation - (key - kPatchGeneric) / 16});
    if (options_.debug_names) b.name(variable, fmt::format("{}_patch_a{:x}", storage == spv::StorageClass::Input ? "in" : "out", key));
    core_.interface_.push_back(variable);
  }
  return b.op(spv::Op::OpAccessChain, b.type_pointer(storage, f32_type()), {variable, core_.const_u32(component)});
}

void GraphicsEmitter::declare_tessellation_modes() {
  ModuleBuilder& b = builder();
  const TessellationInterface& tessellation = interface_.tessellation;
  b.capability(spv::Capability::Tessellation);
  if (interface_.stage == GraphicsStage::tess_control) {
    if (tessellation.output_vertices == 0 || tessellation.output_vertices > kMaxPatchVertices) {
      throw Error(fmt::format("graphics backend: an output patch of {} vertices (1-{} are possible)", tessellation.output_vertices, kMaxPatchVertices));
    }
    b.execution_mode(core_.main_function_, spv::ExecutionMode::OutputVertices, {tessellation.output_vertices});
    return;
  }
  static constexpr spv::ExecutionMode domains[] = {spv::ExecutionMode::Isolines, spv::ExecutionMode::Triangles, spv::ExecutionMode::Quads};
  static constexpr spv::ExecutionMode spacings[] = {spv::ExecutionMode::SpacingEqual, spv::ExecutionMode::SpacingFractionalOdd,
                                                    spv::ExecutionMode::SpacingFractionalEven};
  b.execution_mode(core_.main_function_, domains[static_cast<size_t>(tessellation.domain)]);
  b.execution_mode(core_.main_function_, spacings[static_cast<size_t>(tessellation.spacing)]);
  b.execution_mode(core_.main_function_, tessellation.counter_clockwise ? spv::ExecutionMode::VertexOrderCcw : spv::ExecutionMode::VertexOrderCw);
  if (tessellation.point_mode) b.execution_mode(core_.main_function_, spv::ExecutionMode::PointMode);
}

} // namespace kiln::spirv
