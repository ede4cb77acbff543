#include "translator/graphics/resources.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <spirv/unified1/spirv.hpp11>

#include "runtime/base/error.h"

namespace kiln::graphics {
namespace {

struct Decorations {
  std::optional<uint32_t> set;
  std::optional<uint32_t> binding;
};

} // namespace

std::vector<ResourceBinding> resource_bindings(std::span<const uint32_t> spirv) {
  if (spirv.size() < 5) throw Error("resource_bindings: not a SPIR-V module");
  std::map<uint32_t, Decorations> decorations;
  std::map<uint32_t, std::vector<uint32_t>> types;   // id -> the defining instruction (opcode first)
  std::map<uint32_t, uint32_t> constants;            // id -> 32-bit value
  std::vector<std::pair<uint32_t, uint32_t>> variables; // (pointer type, id) of Uniform/UniformConstant variables
  for (size_t i = 5; i < spirv.size();) {
    const uint32_t count = spirv[i] >> 16;
    const auto op = static_cast<spv::Op>(spirv[i] & 0xffff);
    if (count == 0 || i + count > spirv.size()) throw Error(fmt::format("resource_bindings: bad instruction at word {}", i));
    const std::span<const uint32_t> words = spirv.subspan(i, count);
    switch (op) {
    case spv::Op::OpDecorate:
      if (words[2] == static_cast<uint32_t>(spv::Decoration::DescriptorSet)) decorations[words[1]].set = words[3];
      if (words[2] == static_cast<uint32_t>(spv::Decoration::Binding)) decorations[words[1]].binding = words[3];
      break;
    case spv::Op::OpTypePointer: case spv::Op::OpTypeArray: case spv::Op::OpTypeImage: case spv::Op::OpTypeSampler:
    case spv::Op::OpTypeStruct:
      types[words[1]] = {words.begin(), words.end()};
      break;
    case spv::Op::OpConstant:
      if (count == 4) constants[words[2]] = words[3];
      break;
    case spv::Op::OpVariable: {
      const auto storage = static_cast<spv::StorageClass>(words[3]);
      if (storage == spv::StorageClass::Uniform || storage == spv::StorageClass::UniformConstant) variables.emplace_back(words[1], words[2]);
      break;
    }
    default: break;
    }
    i += count;
  }

  std::vector<ResourceBinding> result;
  for (const auto& [pointer_type, id] : variables) {
    const Decorations& decoration = decorations[id];
    if (!decoration.set || !decoration.binding) throw Error(fmt::format("resource_bindings: variable %{} has no set/binding", id));
    ResourceBinding resource{.set = *decoration.set, .binding = *decoration.binding};
    std::vector<uint32_t> pointee = types.at(types.at(pointer_type).at(3));
    if (static_cast<spv::Op>(pointee[0] & 0xffff) == spv::Op::OpTypeArray) {
      resource.count = constants.at(pointee[3]);
      pointee = types.at(pointee[2]);
    }
    switch (static_cast<spv::Op>(pointee[0] & 0xffff)) {
    case spv::Op::OpTypeStruct: resource.kind = ResourceBinding::Kind::uniform_buffer; break;
    case spv::Op::OpTypeSampler: resource.kind = ResourceBinding::Kind::samplers; break;
    case spv::Op::OpTypeImage:
      resource.kind = ResourceBinding::Kind::sampled_images;
      switch (static_cast<spv::Dim>(pointee[3])) {
      case spv::Dim::Dim1D: resource.image_dim = 0; break;
      case spv::Dim::Dim2D: resource.image_dim = 1; break;
      case spv::Dim::Dim3D: resource.image_dim = 2; break;
      case spv::Dim::Cube: resource.image_dim = 3; break;
      default: throw Error(fmt::format("resource_bindings: image variable %{} has an unexpected dimension", id));
      }
      resource.image_array = pointee[5] != 0;
      break;
    default: throw Error(fmt::format("resource_bindings: variable %{} is neither a block, an image nor a sampler", id));
    }
    result.push_back(resource);
  }
  std::sort(result.begin(), result.end(), [](const ResourceBinding& a, const ResourceBinding& b) {
    return std::pair(a.set, a.binding) < std::pair(b.set, b.binding);
  });
  return result;
}

} // namespace kiln::graphics
