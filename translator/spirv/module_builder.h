#pragma once
// Writes a SPIR-V module word by word, in the section order the specification requires, with types and
// constants deduplicated. Knows nothing about kiln's IR: the compute backend (and later graphics stages)
// drive it.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <string_view>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

namespace kiln::spirv {

class ModuleBuilder {
public:
  uint32_t new_id() { return next_id_++; }

  void capability(spv::Capability capability);
  void extension(std::string_view name);
  uint32_t glsl_std_450();
  void memory_model(spv::AddressingModel addressing, spv::MemoryModel memory);
  void entry_point(spv::ExecutionModel model, uint32_t function, std::string_view name, std::span<const uint32_t> interface);
  void execution_mode(uint32_t function, spv::ExecutionMode mode, std::initializer_list<uint32_t> literals = {});
  void name(uint32_t id, std::string_view text);
  void decorate(uint32_t id, spv::Decoration decoration, std::initializer_list<uint32_t> literals = {});
  void member_decorate(uint32_t type, uint32_t member, spv::Decoration decoration, std::initializer_list<uint32_t> literals = {});

  uint32_t type_void();
  uint32_t type_bool();
  uint32_t type_int(uint32_t width, bool is_signed = false);
  uint32_t type_float(uint32_t width);
  uint32_t type_vector(uint32_t component, uint32_t count);
  uint32_t type_array(uint32_t element, uint32_t length); ///< length as a literal; declares the constant
  uint32_t type_struct(std::initializer_list<uint32_t> members); ///< never deduplicated (structs get decorations)
  uint32_t type_pointer(spv::StorageClass storage, uint32_t pointee);
  uint32_t type_function(uint32_t result, std::initializer_list<uint32_t> parameters = {});
  /// Any other type instruction (OpTypeImage, OpTypeSampler, ...), deduplicated by its operands.
  uint32_t type(spv::Op opcode, std::initializer_list<uint32_t> operands);

  uint32_t constant(uint32_t type, uint64_t bits, uint32_t width); ///< integer or float, by its bits
  uint32_t constant_u32(uint32_t value) { return constant(type_int(32), value, 32); }
  uint32_t constant_bool(bool value);
  uint32_t constant_null(uint32_t type);
  uint32_t constant_composite(uint32_t type, std::initializer_list<uint32_t> parts);
  uint32_t spec_constant_u32(uint32_t spec_id, uint32_t default_value);
  uint32_t spec_constant_composite(uint32_t type, std::initializer_list<uint32_t> parts);
  uint32_t variable(uint32_t pointer_type, spv::StorageClass storage, uint32_t initializer = 0);

  /// An instruction in the function section; `result_type` 0 means none. Returns the result id (or 0).
  uint32_t op(spv::Op opcode, uint32_t result_type, std::initializer_list<uint32_t> operands, bool has_result = true);
  /// The same with operands assembled at run time (image operands).
  uint32_t op(spv::Op opcode, uint32_t result_type, const std::vector<uint32_t>& operands);
  /// An instruction without a result (stores, branches, merges).
  void op_void(spv::Op opcode, std::initializer_list<uint32_t> operands);
  uint32_t ext(uint32_t result_type, uint32_t instruction, std::initializer_list<uint32_t> operands);
  void label(uint32_t id) { op_void(spv::Op::OpLabel, {id}); }
  /// Where function-scope OpVariables go: the entry block, before any other instruction.
  std::vector<uint32_t>& function_words() { return functions_; }

  std::vector<uint32_t> finish(uint32_t version = 0x00010500) const;

private:
  static void append(std::vector<uint32_t>& section, spv::Op opcode, std::initializer_list<uint32_t> operands);
  static void append_string(std::vector<uint32_t>& words, std::string_view text);
  uint32_t cached(std::vector<uint32_t> key, spv::Op opcode, const std::vector<uint32_t>& operands_after_id);

  uint32_t next_id_ = 1;
  uint32_t glsl_std_450_ = 0;
  std::vector<uint32_t> capabilities_, extensions_, imports_, memory_model_, entry_points_, execution_modes_, debug_,
      annotations_, globals_, functions_;
  std::map<std::vector<uint32_t>, uint32_t> cache_;
  std::vector<spv::Capability> declared_capabilities_;
};

} // namespace kiln::spirv
