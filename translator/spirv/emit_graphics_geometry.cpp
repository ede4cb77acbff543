// The geometry stage: per-vertex input arrays, EmitVertex/EndPrimitive, and the execution modes the program's
// header and the draw's input primitive decide.
#include <fmt/format.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "runtime/base/error.h"
#include "translator/spirv/graphics_emitter.h"

namespace kiln::spirv {
namespace {

constexpr uint32_t kPositionAddress = 0x70;
constexpr uint32_t kPositionKey = 0xfffe; ///< inputs_ key of the per-vertex position array

} // namespace

uint32_t GraphicsEmitter::load_vertex_attribute(uint32_t address, uint32_t vertex) {
  if (interface_.stage != GraphicsStage::geometry && !tessellation_stage()) {
    throw Error("graphics backend: per-vertex inputs outside a geometry or tessellation program");
  }
  ModuleBuilder& b = builder();
  const uint32_t count = tessellation_stage() ? kMaxPatchVertices : geometry_input_vertices(interface_.geometry.input);
  const bool position = address >= kPositionAddress && address < kPositionAddress + 16;
  const uint32_t key = position ? kPositionKey : varying_location(address);
  uint32_t& variable = inputs_[key];
  if (variable == 0) {
    const uint32_t array = b.type_array(vec4_type(), count);
    variable = b.variable(b.type_pointer(spv::StorageClass::Input, array), spv::StorageClass::Input);
    if (position) b.decorate(variable, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::Position)});
    else b.decorate(variable, spv::Decoration::Location, {key});
    if (options_.debug_names) b.name(variable, fmt::format("in_a{:x}", address & ~0xfu));
    core_.interface_.push_back(variable);
  }
  // A vertex past the primitive's (or the largest patch's) reads the last one (the hardware's result there is not known).
  const uint32_t index = b.ext(core_.u32_type(), GLSLstd450UMin, {vertex, core_.const_u32(count - 1)});
  const uint32_t pointer = b.op(spv::Op::OpAccessChain, b.type_pointer(spv::StorageClass::Input, f32_type()),
                                {variable, index, core_.const_u32((address / 4) % 4)});
  return b.op(spv::Op::OpBitcast, core_.u32_type(), {b.op(spv::Op::OpLoad, f32_type(), {pointer})});
}

void GraphicsEmitter::emit_vertex() {
  if (interface_.stage != GraphicsStage::geometry) throw Error("graphics backend: OUT.EMIT outside a geometry program");
  builder().op_void(spv::Op::OpEmitVertex, {});
  // Outputs are undefined after EmitVertex; the next vertex starts from the unwritten value, as the first does.
  reset_outputs();
}

void GraphicsEmitter::declare_geometry_modes() {
  ModuleBuilder& b = builder();
  const GeometryInterface& geometry = interface_.geometry;
  b.capability(spv::Capability::Geometry);
  static constexpr spv::ExecutionMode inputs[] = {spv::ExecutionMode::InputPoints, spv::ExecutionMode::InputLines,
                                                  spv::ExecutionMode::InputLinesAdjacency, spv::ExecutionMode::Triangles,
                                                  spv::ExecutionMode::InputTrianglesAdjacency};
  static constexpr spv::ExecutionMode outputs[] = {spv::ExecutionMode::OutputPoints, spv::ExecutionMode::OutputLineStrip,
                                                   spv::ExecutionMode::OutputTriangleStrip};
  if (geometry.max_output_vertices == 0) throw Error("graphics backend: a geometry program that emits no vertex");
  if (geometry.invocations == 0 || geometry.invocations > 32) {
    throw Error(fmt::format("graphics backend: {} geometry invocations (1-32 are possible)", geometry.invocations));
  }
  b.execution_mode(core_.main_function_, inputs[static_cast<size_t>(geometry.input)]);
  b.execution_mode(core_.main_function_, spv::ExecutionMode::Invocations, {geometry.invocations});
  b.execution_mode(core_.main_function_, outputs[static_cast<size_t>(geometry.output)]);
  b.execution_mode(core_.main_function_, spv::ExecutionMode::OutputVertices, {geometry.max_output_vertices});
}

} // namespace kiln::spirv
