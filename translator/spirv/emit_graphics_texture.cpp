// Texture operations: bindless handles index sampled-image and sampler arrays (the TIC/TSC model: the runtime
// binds each texture header's view at its TIC index and each sampler at its TSC index).
#include <bit>
#include <optional>

#include <fmt/format.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "runtime/base/error.h"
#include "translator/ir/texture.h"
#include "translator/spirv/graphics_emitter.h"

namespace kiln::spirv {

std::optional<uint32_t> GraphicsEmitter::constant_high_half(ir::ValueId pack) const {
  const ir::Inst& inst = function_.insts.at(pack);
  if (inst.op == ir::Op::Const) return static_cast<uint32_t>(inst.immediate >> 32);
  if (inst.op != ir::Op::Pack64) return std::nullopt;
  const ir::Inst& high = function_.insts.at(inst.args[1]);
  if (high.op != ir::Op::Const) return std::nullopt;
  return static_cast<uint32_t>(high.immediate);
}

std::pair<uint32_t, uint32_t> GraphicsEmitter::pair_of(ir::ValueId pack) {
  const ir::Inst& inst = function_.insts.at(pack);
  if (inst.op == ir::Op::Const) { // folded: both halves constant
    return {core_.const_u32(static_cast<uint32_t>(inst.immediate)), core_.const_u32(static_cast<uint32_t>(inst.immediate >> 32))};
  }
  if (inst.op != ir::Op::Pack64) throw Error("graphics backend: a Texture operand is not a Pack64 pair");
  return {core_.value(inst.args[0]), core_.value(inst.args[1])};
}

uint32_t GraphicsEmitter::image_type(uint32_t dim, bool array) {
  static constexpr spv::Dim dims[] = {spv::Dim::Dim1D, spv::Dim::Dim2D, spv::Dim::Dim3D, spv::Dim::Cube};
  if (dim == 0) builder().capability(spv::Capability::Sampled1D);
  if (dim == 3 && array) builder().capability(spv::Capability::SampledCubeArray);
  return builder().type(spv::Op::OpTypeImage, {f32_type(), static_cast<uint32_t>(dims[dim]), 0, array ? 1u : 0u, 0, 1,
                                               static_cast<uint32_t>(spv::ImageFormat::Unknown)});
}

uint32_t GraphicsEmitter::texture_variable(uint32_t dim, bool array) {
  const uint32_t binding = texture_binding(dim, array);
  uint32_t& variable = textures_[binding];
  if (variable != 0) return variable;
  const uint32_t slots = builder().type_array(image_type(dim, array), options_.texture_header_slots);
  variable = builder().variable(builder().type_pointer(spv::StorageClass::UniformConstant, slots), spv::StorageClass::UniformConstant);
  builder().decorate(variable, spv::Decoration::DescriptorSet, {options_.descriptor_set});
  builder().decorate(variable, spv::Decoration::Binding, {binding});
  if (options_.debug_names) builder().name(variable, fmt::format("tic_{}{}", dim + 1, array ? "d_array" : "d"));
  core_.interface_.push_back(variable);
  return variable;
}

uint32_t GraphicsEmitter::emit_texture(const ir::Inst& inst) {
  const auto descriptor = ir::TextureDescriptor::decode(inst.immediate);
  const auto key = std::make_tuple(descriptor.without_component(), inst.args[0], inst.args[1], inst.args[2]);
  if (last_texture_key_ && *last_texture_key_ == key) {
    return builder().op(spv::Op::OpCompositeExtract, core_.u32_type(), {last_texture_result_, descriptor.component});
  }
  ModuleBuilder& b = builder();
  const uint32_t u32 = core_.u32_type();
  const uint32_t f32 = f32_type();
  const auto dim = static_cast<uint32_t>(descriptor.dim);
  const auto [handle, level] = pair_of(inst.args[0]);
  const auto [x, y] = pair_of(inst.args[1]);
  const auto [z, dref] = pair_of(inst.args[2]);
  if (descriptor.depth_compare && descriptor.offsets != ir::TextureOffsets::none) {
    throw Error("graphics backend: depth compare with texel offsets is not supported yet");
  }

  // Handle -> TIC and TSC indices, clamped to the arrays the runtime binds.
  const uint32_t tic = b.ext(u32, GLSLstd450UMin, {core_.binary(spv::Op::OpBitwiseAnd, u32, handle, core_.const_u32(0xfffff)),
                                                   core_.const_u32(options_.texture_header_slots - 1)});
  const uint32_t image_ty = image_type(dim, descriptor.array);
  const uint32_t image_pointer = b.op(spv::Op::OpAccessChain, b.type_pointer(spv::StorageClass::UniformConstant, image_ty),
                                      {texture_variable(dim, descriptor.array), tic});
  const uint32_t image = b.op(spv::Op::OpLoad, image_ty, {image_pointer});
  const uint32_t vec4 = vec4_type();
  const uint32_t uvec4 = b.type_vector(u32, 4);

  const bool fetch = descriptor.kind == ir::TextureKind::fetch;
  const bool query = descriptor.kind == ir::TextureKind::query_size;
  uint32_t result = 0;
  if (query) {
    b.capability(spv::Capability::ImageQuery);
    const uint32_t size_components = (dim == 0 ? 1 : dim == 2 ? 3 : 2) + (descriptor.array ? 1 : 0);
    const uint32_t size_type = size_components == 1 ? u32 : b.type_vector(u32, size_components);
    const uint32_t size = b.op(spv::Op::OpImageQuerySizeLod, size_type, {image, level});
    const uint32_t levels = b.op(spv::Op::OpImageQueryLevels, u32, {image});
    uint32_t parts[4] = {core_.const_u32(0), core_.const_u32(1), core_.const_u32(1), levels};
    for (uint32_t i = 0; i < size_components && i < 3; ++i) {
      parts[i] = size_components == 1 ? size : b.op(spv::Op::OpCompositeExtract, u32, {size, i});
    }
    result = b.op(spv::Op::OpCompositeConstruct, uvec4, {parts[0], parts[1], parts[2], parts[3]});
  } else {
    // Coordinates: floats for sampling, integers for fetches; the array layer is an integer register.
    const uint32_t coord_type = fetch ? u32 : f32;
    const auto coordinate = [&](uint32_t bits) { return fetch ? bits : b.op(spv::Op::OpBitcast, f32, {bits}); };
    const auto layer = [&](uint32_t bits) { return fetch ? bits : b.op(spv::Op::OpConvertUToF, f32, {bits}); };
    std::vector<uint32_t> parts{coordinate(x)};
    if (dim >= 1) parts.push_back(coordinate(y));
    if (dim >= 2) parts.push_back(coordinate(z));
    if (descriptor.kind == ir::TextureKind::gather && options_.gather_bias_bits != 0) {
      // coordinate += 1 / (size x 2^(bits + 1)) per dimension (GraphicsOptions::gather_bias_bits).
      if (dim != 1 || descriptor.array) throw Error("graphics backend: gathers other than 2D are not supported yet");
      b.capability(spv::Capability::ImageQuery);
      const uint32_t size = b.op(spv::Op::OpImageQuerySizeLod, b.type_vector(u32, 2), {image, core_.const_u32(0)});
      const float steps = static_cast<float>(uint64_t{1} << (options_.gather_bias_bits + 1));
      for (uint32_t i = 0; i < 2; ++i) {
        const uint32_t extent = b.op(spv::Op::OpConvertUToF, f32, {b.op(spv::Op::OpCompositeExtract, u32, {size, i})});
        const uint32_t scaled = core_.binary(spv::Op::OpFMul, f32, extent, b.constant(f32, std::bit_cast<uint32_t>(steps), 32));
        parts[i] = core_.binary(spv::Op::OpFAdd, f32, parts[i], core_.binary(spv::Op::OpFDiv, f32, b.constant(f32, 0x3f800000u, 32), scaled));
      }
    }
    // The LOD query takes the coordinates without the array layer.
    const auto vector_of = [&](const std::vector<uint32_t>& values) {
      if (values.size() == 1) return values[0];
      const uint32_t vector_type = b.type_vector(coord_type, static_cast<uint32_t>(values.size()));
      if (values.size() == 2) return b.op(spv::Op::OpCompositeConstruct, vector_type, {values[0], values[1]});
      return b.op(spv::Op::OpCompositeConstruct, vector_type, {values[0], values[1], values[2]});
    };
    const uint32_t lod_query_coords = descriptor.kind == ir::TextureKind::query_lod ? vector_of(parts) : 0;
    if (descriptor.array) parts.push_back(layer(z));
    if (descriptor.array && dim >= 2) throw Error("graphics backend: 3D/cube arrays are not supported yet");
    const uint32_t coords = vector_of(parts);
    // Texel offsets: constants here become ConstOffset (register offsets would need shaderImageGatherExtended).
    uint32_t offset_mask = 0;
    uint32_t offset_operand = 0;
    if (descriptor.offsets != ir::TextureOffsets::none) {
      const auto word = constant_high_half(inst.args[2]);
      if (!word) throw Error("graphics backend: texel offsets must be constants at translation time");
      if (dim == 3) throw Error("graphics backend: texel offsets on a cube texture");
      const bool wide = descriptor.offsets == ir::TextureOffsets::bits6;
      const uint32_t i32 = b.type_int(32, true);
      std::vector<uint32_t> offsets;
      for (uint32_t i = 0; i < (dim == 0 ? 1u : dim == 1 ? 2u : 3u); ++i) {
        const uint32_t width = wide ? 6 : 4;
        const uint32_t field = (*word >> (i * (wide ? 8 : 4))) & ((1u << width) - 1);
        const int32_t value = static_cast<int32_t>(field << (32 - width)) >> (32 - width);
        offsets.push_back(b.constant(i32, static_cast<uint32_t>(value), 32));
      }
      offset_operand = offsets.size() == 1 ? offsets[0]
                       : offsets.size() == 2 ? b.constant_composite(b.type_vector(i32, 2), {offsets[0], offsets[1]})
                                             : b.constant_composite(b.type_vector(i32, 3), {offsets[0], offsets[1], offsets[2]});
      offset_mask = static_cast<uint32_t>(spv::ImageOperandsMask::ConstOffset);
    }
    // Image operands in the order of their mask bits (Bias, Lod, ..., ConstOffset).
    const auto with_operands = [&](std::initializer_list<uint32_t> head, uint32_t mask, std::initializer_list<uint32_t> values) {
      std::vector<uint32_t> operands(head);
      if (mask | offset_mask) operands.push_back(mask | offset_mask);
      operands.insert(operands.end(), values);
      if (offset_mask != 0) operands.push_back(offset_operand);
      return operands;
    };
    const auto image_op = [&](spv::Op opcode, uint32_t type, const std::vector<uint32_t>& operands) { return b.op(opcode, type, operands); };
    if (fetch) {
      const uint32_t texel = image_op(spv::Op::OpImageFetch, vec4, with_operands({image, coords}, static_cast<uint32_t>(spv::ImageOperandsMask::Lod), {level}));
      result = b.op(spv::Op::OpBitcast, uvec4, {texel});
    } else {
      if (samplers_ == 0) {
        const uint32_t array = b.type_array(b.type(spv::Op::OpTypeSampler, {}), options_.sampler_slots);
        samplers_ = b.variable(b.type_pointer(spv::StorageClass::UniformConstant, array), spv::StorageClass::UniformConstant);
        b.decorate(samplers_, spv::Decoration::DescriptorSet, {options_.descriptor_set});
        b.decorate(samplers_, spv::Decoration::Binding, {sampler_binding});
        if (options_.debug_names) b.name(samplers_, "tsc");
        core_.interface_.push_back(samplers_);
      }
      const uint32_t sampler_type = b.type(spv::Op::OpTypeSampler, {});
      const uint32_t tsc = b.ext(u32, GLSLstd450UMin, {core_.binary(spv::Op::OpShiftRightLogical, u32, handle, core_.const_u32(20)),
                                                       core_.const_u32(options_.sampler_slots - 1)});
      const uint32_t sampler = b.op(spv::Op::OpLoad, sampler_type,
                                    {b.op(spv::Op::OpAccessChain, b.type_pointer(spv::StorageClass::UniformConstant, sampler_type), {samplers_, tsc})});
      const uint32_t sampled = b.op(spv::Op::OpSampledImage, b.type(spv::Op::OpTypeSampledImage, {image_ty}), {image, sampler});
      const uint32_t level_f = b.op(spv::Op::OpBitcast, f32, {level});
      uint32_t texel = 0;
      const bool implicit = interface_.stage == GraphicsStage::fragment;
      const auto lod_mask = static_cast<uint32_t>(spv::ImageOperandsMask::Lod);
      // Depth compare: the reference is args[2]'s second half; a sample returns (result, result, result, 1).
      const uint32_t reference = descriptor.depth_compare ? b.op(spv::Op::OpBitcast, f32, {dref}) : 0;
      const auto compared = [&](uint32_t result_f32) {
        return b.op(spv::Op::OpCompositeConstruct, vec4, {result_f32, result_f32, result_f32, b.constant(f32, 0x3f800000u, 32)});
      };
      if (descriptor.depth_compare && descriptor.kind != ir::TextureKind::gather) {
        switch (descriptor.kind) {
        case ir::TextureKind::sample:
          texel = compared(implicit ? image_op(spv::Op::OpImageSampleDrefImplicitLod, f32, with_operands({sampled, coords, reference}, 0, {}))
                                    : image_op(spv::Op::OpImageSampleDrefExplicitLod, f32,
                                               with_operands({sampled, coords, reference}, lod_mask, {b.constant(f32, 0, 32)})));
          break;
        case ir::TextureKind::sample_lod:
          texel = compared(image_op(spv::Op::OpImageSampleDrefExplicitLod, f32, with_operands({sampled, coords, reference}, lod_mask, {level_f})));
          break;
        default: throw Error("graphics backend: this depth-compare texture operation is not supported yet");
        }
      } else switch (descriptor.kind) {
      case ir::TextureKind::sample:
        texel = implicit ? image_op(spv::Op::OpImageSampleImplicitLod, vec4, with_operands({sampled, coords}, 0, {}))
                         : image_op(spv::Op::OpImageSampleExplicitLod, vec4, with_operands({sampled, coords}, lod_mask, {b.constant(f32, 0, 32)}));
        break;
      case ir::TextureKind::sample_bias:
        if (!implicit) throw Error("graphics backend: LOD bias outside a fragment program");
        texel = image_op(spv::Op::OpImageSampleImplicitLod, vec4,
                         with_operands({sampled, coords}, static_cast<uint32_t>(spv::ImageOperandsMask::Bias), {level_f}));
        break;
      case ir::TextureKind::sample_lod:
        texel = image_op(spv::Op::OpImageSampleExplicitLod, vec4, with_operands({sampled, coords}, lod_mask, {level_f}));
        break;
      case ir::TextureKind::gather:
        texel = descriptor.depth_compare
                    ? image_op(spv::Op::OpImageDrefGather, vec4, with_operands({sampled, coords, reference}, 0, {}))
                    : image_op(spv::Op::OpImageGather, vec4, with_operands({sampled, coords, core_.const_u32(descriptor.gather_component)}, 0, {}));
        break;
      case ir::TextureKind::query_lod: {
        if (!implicit) throw Error("graphics backend: a LOD query outside a fragment program");
        b.capability(spv::Capability::ImageQuery);
        const uint32_t lod = b.op(spv::Op::OpImageQueryLod, b.type_vector(f32, 2), {sampled, lod_query_coords});
        const uint32_t zero = b.constant(f32, 0, 32);
        texel = b.op(spv::Op::OpCompositeConstruct, vec4,
                     {b.op(spv::Op::OpCompositeExtract, f32, {lod, 0}), b.op(spv::Op::OpCompositeExtract, f32, {lod, 1}), zero, zero});
        break;
      }
      default: throw Error(fmt::format("graphics backend: texture operation {} is not supported", static_cast<int>(descriptor.kind)));
      }
      result = b.op(spv::Op::OpBitcast, uvec4, {texel});
    }
  }
  last_texture_key_ = key;
  last_texture_result_ = result;
  return b.op(spv::Op::OpCompositeExtract, u32, {result, descriptor.component});
}

} // namespace kiln::spirv
