#pragma once
// Internal to the graphics backend (emit_graphics*.cpp): the stage interface and resources around the compute
// backend's ComputeEmitter, which emits the computing ops and the control flow.
#include <map>
#include <optional>

#include "translator/spirv/compute_emitter.h"
#include "translator/spirv/emit_graphics.h"

namespace kiln::spirv {

class GraphicsEmitter {
public:
  GraphicsEmitter(const ir::Function& function, const GraphicsInterface& interface, const GraphicsOptions& options);
  std::vector<uint32_t> emit();

private:
  // emit_graphics.cpp
  std::optional<uint32_t> emit_stage_op(const ir::Inst& inst);
  void declare_interface();
  uint32_t input_variable(uint32_t address);   ///< vec4 (or FragCoord) holding the attribute
  uint32_t output_pointer(uint32_t address);   ///< pointer to the output component
  uint32_t load_attribute(uint32_t address);
  void declare_vertex_output(uint32_t target); ///< an output variable for attribute address `target` (once per vec4)
  void store_attribute(uint32_t target, uint32_t value);
  uint32_t load_const_bank(uint32_t bank, uint32_t offset);
  uint32_t quad_lane();
  uint32_t quad_shuffle(const ir::Inst& inst); ///< emit_graphics_quad.cpp
  // emit_graphics_geometry.cpp
  uint32_t load_vertex_attribute(uint32_t address, uint32_t vertex);
  void emit_vertex();
  void reset_outputs();                        ///< every vertex output (not point size) back to (0, 0, 0, 1)
  void declare_geometry_modes();
  // emit_graphics_tessellation.cpp
  bool tessellation_stage() const;
  uint32_t builtin_input(uint32_t key, uint32_t type, spv::BuiltIn builtin); ///< declared once, under inputs_[key]
  uint32_t invocation_id();
  std::optional<uint32_t> load_stage_attribute(uint32_t address); ///< invocation id, TessCoord, patch inputs
  uint32_t patch_pointer(uint32_t address, spv::StorageClass storage); ///< a patch attribute's f32 component
  void declare_tessellation_modes();
  // emit_graphics_texture.cpp
  uint32_t emit_texture(const ir::Inst& inst);
  uint32_t texture_variable(uint32_t dim, bool array);
  uint32_t image_type(uint32_t dim, bool array);
  std::pair<uint32_t, uint32_t> pair_of(ir::ValueId pack);
  /// The second half of a Pack64 operand when it is a constant (texel offsets).
  std::optional<uint32_t> constant_high_half(ir::ValueId pack) const;

  ModuleBuilder& builder() { return core_.builder_; }
  uint32_t f32_type() { return builder().type_float(32); }
  uint32_t vec4_type() { return builder().type_vector(f32_type(), 4); }

  const ir::Function& function_;
  GraphicsInterface interface_;
  GraphicsOptions options_;
  ComputeEmitter core_;
  std::map<uint32_t, uint32_t> inputs_;     ///< location (or 0xffff: FragCoord, 0xfffe: geometry position) -> variable
  std::map<uint32_t, uint32_t> outputs_;    ///< location / builtin key -> variable
  std::map<uint32_t, uint32_t> patch_inputs_;  ///< patch attribute (tessellation level or generic) -> variable
  std::map<uint32_t, uint32_t> patch_outputs_;
  std::map<uint32_t, uint32_t> banks_;      ///< bank -> variable
  std::map<uint32_t, uint32_t> textures_;   ///< binding -> variable
  uint32_t samplers_ = 0;
  uint32_t bank_block_type_ = 0;
  // The sample shared by the components of one texture instruction (consecutive Texture ops).
  std::optional<std::tuple<uint64_t, ir::ValueId, ir::ValueId, ir::ValueId>> last_texture_key_;
  uint32_t last_texture_result_ = 0;
};

} // namespace kiln::spirv
