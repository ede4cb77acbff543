#include "translator/spirv/module_builder.h"

#include <algorithm>

namespace kiln::spirv {

void ModuleBuilder::append(std::vector<uint32_t>& section, spv::Op opcode, std::initializer_list<uint32_t> operands) {
  section.push_back(static_cast<uint32_t>(operands.size() + 1) << 16 | static_cast<uint32_t>(opcode));
  section.insert(section.end(), operands.begin(), operands.end());
}

void ModuleBuilder::append_string(std::vector<uint32_t>& words, std::string_view text) {
  // Nul-terminated UTF-8, little-endian in 32-bit words, padded with zeros.
  const size_t word_count = text.size() / 4 + 1;
  const size_t start = words.size();
  words.resize(start + word_count, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    words[start + i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(text[i])) << (8 * (i % 4));
  }
}

void ModuleBuilder::capability(spv::Capability capability) {
  if (std::find(declared_capabilities_.begin(), declared_capabilities_.end(), capability) != declared_capabilities_.end()) return;
  declared_capabilities_.push_back(capability);
  append(capabilities_, spv::Op::OpCapability, {static_cast<uint32_t>(capability)});
}

void ModuleBuilder::extension(std::string_view text) {
  std::vector<uint32_t> words;
  append_string(words, text);
  extensions_.push_back(static_cast<uint32_t>(words.size() + 1) << 16 | static_cast<uint32_t>(spv::Op::OpExtension));
  extensions_.insert(extensions_.end(), words.begin(), words.end());
}

uint32_t ModuleBuilder::glsl_std_450() {
  if (glsl_std_450_ != 0) return glsl_std_450_;
  glsl_std_450_ = new_id();
  std::vector<uint32_t> words{glsl_std_450_};
  append_string(words, "GLSL.std.450");
  imports_.push_back(static_cast<uint32_t>(words.size() + 1) << 16 | static_cast<uint32_t>(spv::Op::OpExtInstImport));
  imports_.insert(imports_.end(), words.begin(), words.end());
  return glsl_std_450_;
}

void ModuleBuilder::memory_model(spv::AddressingModel addressing, spv::MemoryModel memory) {
  memory_model_.clear();
  append(memory_model_, spv::Op::OpMemoryModel, {static_cast<uint32_t>(addressing), static_cast<uint32_t>(memory)});
}

void ModuleBuilder::entry_point(spv::ExecutionModel model, uint32_t function, std::string_view entry_name,
                                std::span<const uint32_t> interface) {
  std::vector<uint32_t> words{static_cast<uint32_t>(model), function};
  append_string(words, entry_name);
  words.insert(words.end(), interface.begin(), interface.end());
  entry_points_.push_back(static_cast<uint32_t>(words.size() + 1) << 16 | static_cast<uint32_t>(spv::Op::OpEntryPoint));
  entry_points_.insert(entry_points_.end(), words.begin(), words.end());
}

void ModuleBuilder::execution_mode(uint32_t function, spv::ExecutionMode mode, std::initializer_list<uint32_t> literals) {
  execution_modes_.push_back(static_cast<uint32_t>(literals.size() + 3) << 16 |
                             static_cast<uint32_t>(spv::Op::OpExecutionMode));
  execution_modes_.push_back(function);
  execution_modes_.push_back(static_cast<uint32_t>(mode));
  execution_modes_.insert(execution_modes_.end(), literals.begin(), literals.end());
}

void ModuleBuilder::name(uint32_t id, std::string_view text) {
  std::vector<uint32_t> words{id};
  append_string(words, text);
  debug_.push_back(static_cast<uint32_t>(words.size() + 1) << 16 | static_cast<uint32_t>(spv::Op::OpName));
  debug_.insert(debug_.end(), words.begin(), words.end());
}

void ModuleBuilder::decorate(uint32_t id, spv::Decoration decoration, std::initializer_list<uint32_t> literals) {
  annotations_.push_back(static_cast<uint32_t>(literals.size() + 3) << 16 | static_cast<uint32_t>(spv::Op::OpDecorate));
  annotations_.push_back(id);
  annotations_.push_back(static_cast<uint32_t>(decoration));
  annotations_.insert(annotations_.end(), literals.begin(), literals.end());
}

void ModuleBuilder::member_decorate(uint32_t type, uint32_t member, spv::Decoration decoration,
                                    std::initializer_list<uint32_t> literals) {
  annotations_.push_back(static_cast<uint32_t>(literals.size() + 4) << 16 |
                         static_cast<uint32_t>(spv::Op::OpMemberDecorate));
  annotations_.push_back(type);
  annotations_.push_back(member);
  annotations_.push_back(static_cast<uint32_t>(decoration));
  annotations_.insert(annotations_.end(), literals.begin(), literals.end());
}

uint32_t ModuleBuilder::cached(std::vector<uint32_t> key, spv::Op opcode, const std::vector<uint32_t>& operands_after_id) {
  key.insert(key.begin(), static_cast<uint32_t>(opcode));
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const uint32_t id = new_id();
  globals_.push_back(static_cast<uint32_t>(operands_after_id.size() + 2) << 16 | static_cast<uint32_t>(opcode));
  if (opcode == spv::Op::OpConstant || opcode == spv::Op::OpConstantTrue || opcode == spv::Op::OpConstantFalse ||
      opcode == spv::Op::OpConstantNull || opcode == spv::Op::OpSpecConstant || opcode == spv::Op::OpConstantComposite) {
    // result type comes before the result id
    globals_.push_back(*operands_after_id.begin());
    globals_.push_back(id);
    globals_.insert(globals_.end(), operands_after_id.begin() + 1, operands_after_id.end());
  } else {
    globals_.push_back(id);
    globals_.insert(globals_.end(), operands_after_id.begin(), operands_after_id.end());
  }
  cache_.emplace(std::move(key), id);
  return id;
}

uint32_t ModuleBuilder::type_void() { return cached({}, spv::Op::OpTypeVoid, {}); }
uint32_t ModuleBuilder::type_bool() { return cached({}, spv::Op::OpTypeBool, {}); }
uint32_t ModuleBuilder::type_int(uint32_t width, bool is_signed) {
  if (width == 64) capability(spv::Capability::Int64);
  return cached({width, is_signed}, spv::Op::OpTypeInt, {width, is_signed ? 1u : 0u});
}
uint32_t ModuleBuilder::type_float(uint32_t width) {
  if (width == 64) capability(spv::Capability::Float64);
  return cached({width}, spv::Op::OpTypeFloat, {width});
}
uint32_t ModuleBuilder::type_vector(uint32_t component, uint32_t count) {
  return cached({component, count}, spv::Op::OpTypeVector, {component, count});
}
uint32_t ModuleBuilder::type_array(uint32_t element, uint32_t length) {
  const uint32_t length_id = constant_u32(length);
  return cached({element, length_id}, spv::Op::OpTypeArray, {element, length_id});
}
uint32_t ModuleBuilder::type_struct(std::initializer_list<uint32_t> members) {
  const uint32_t id = new_id();
  globals_.push_back(static_cast<uint32_t>(members.size() + 2) << 16 | static_cast<uint32_t>(spv::Op::OpTypeStruct));
  globals_.push_back(id);
  globals_.insert(globals_.end(), members.begin(), members.end());
  return id;
}
uint32_t ModuleBuilder::type_pointer(spv::StorageClass storage, uint32_t pointee) {
  return cached({static_cast<uint32_t>(storage), pointee}, spv::Op::OpTypePointer, {static_cast<uint32_t>(storage), pointee});
}
uint32_t ModuleBuilder::type_function(uint32_t result, std::initializer_list<uint32_t> parameters) {
  std::vector<uint32_t> operands{result};
  operands.insert(operands.end(), parameters.begin(), parameters.end());
  return cached(operands, spv::Op::OpTypeFunction, operands);
}

uint32_t ModuleBuilder::type(spv::Op opcode, std::initializer_list<uint32_t> operands) {
  return cached(std::vector<uint32_t>(operands), opcode, std::vector<uint32_t>(operands));
}

uint32_t ModuleBuilder::constant(uint32_t type, uint64_t bits, uint32_t width) {
  if (width == 64) {
    return cached({type, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)}, spv::Op::OpConstant,
                  {type, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)});
  }
  return cached({type, static_cast<uint32_t>(bits)}, spv::Op::OpConstant, {type, static_cast<uint32_t>(bits)});
}
uint32_t ModuleBuilder::constant_bool(bool value) {
  const uint32_t type = type_bool();
  return cached({type}, value ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, {type});
}
uint32_t ModuleBuilder::constant_composite(uint32_t type, std::initializer_list<uint32_t> parts) {
  std::vector<uint32_t> operands{type};
  operands.insert(operands.end(), parts.begin(), parts.end());
  return cached(operands, spv::Op::OpConstantComposite, operands);
}
uint32_t ModuleBuilder::constant_null(uint32_t type) { return cached({type}, spv::Op::OpConstantNull, {type}); }
uint32_t ModuleBuilder::spec_constant_u32(uint32_t spec_id, uint32_t default_value) {
  const uint32_t id = new_id();
  append(globals_, spv::Op::OpSpecConstant, {type_int(32), id, default_value});
  decorate(id, spv::Decoration::SpecId, {spec_id});
  return id;
}
uint32_t ModuleBuilder::spec_constant_composite(uint32_t type, std::initializer_list<uint32_t> parts) {
  const uint32_t id = new_id();
  globals_.push_back(static_cast<uint32_t>(parts.size() + 3) << 16 | static_cast<uint32_t>(spv::Op::OpSpecConstantComposite));
  globals_.push_back(type);
  globals_.push_back(id);
  globals_.insert(globals_.end(), parts.begin(), parts.end());
  return id;
}
uint32_t ModuleBuilder::variable(uint32_t pointer_type, spv::StorageClass storage, uint32_t initializer) {
  const uint32_t id = new_id();
  if (initializer != 0) append(globals_, spv::Op::OpVariable, {pointer_type, id, static_cast<uint32_t>(storage), initializer});
  else append(globals_, spv::Op::OpVariable, {pointer_type, id, static_cast<uint32_t>(storage)});
  return id;
}

uint32_t ModuleBuilder::op(spv::Op opcode, uint32_t result_type, std::initializer_list<uint32_t> operands, bool has_result) {
  const uint32_t id = has_result ? new_id() : 0;
  const size_t extra = (result_type != 0 ? 1 : 0) + (has_result ? 1 : 0);
  functions_.push_back(static_cast<uint32_t>(operands.size() + extra + 1) << 16 | static_cast<uint32_t>(opcode));
  if (result_type != 0) functions_.push_back(result_type);
  if (has_result) functions_.push_back(id);
  functions_.insert(functions_.end(), operands.begin(), operands.end());
  return id;
}

uint32_t ModuleBuilder::op(spv::Op opcode, uint32_t result_type, const std::vector<uint32_t>& operands) {
  const uint32_t id = new_id();
  functions_.push_back(static_cast<uint32_t>(operands.size() + 3) << 16 | static_cast<uint32_t>(opcode));
  functions_.push_back(result_type);
  functions_.push_back(id);
  functions_.insert(functions_.end(), operands.begin(), operands.end());
  return id;
}

void ModuleBuilder::op_void(spv::Op opcode, std::initializer_list<uint32_t> operands) { append(functions_, opcode, operands); }

uint32_t ModuleBuilder::ext(uint32_t result_type, uint32_t instruction, std::initializer_list<uint32_t> operands) {
  const uint32_t set = glsl_std_450();
  const uint32_t id = new_id();
  functions_.push_back(static_cast<uint32_t>(operands.size() + 5) << 16 | static_cast<uint32_t>(spv::Op::OpExtInst));
  functions_.insert(functions_.end(), {result_type, id, set, instruction});
  functions_.insert(functions_.end(), operands.begin(), operands.end());
  return id;
}

std::vector<uint32_t> ModuleBuilder::finish(uint32_t version) const {
  std::vector<uint32_t> words{spv::MagicNumber, version, 0 /* generator */, next_id_, 0};
  for (const auto* section : {&capabilities_, &extensions_, &imports_, &memory_model_, &entry_points_, &execution_modes_,
                              &debug_, &annotations_, &globals_, &functions_}) {
    words.insert(words.end(), section->begin(), section->end());
  }
  return words;
}

} // namespace kiln::spirv
