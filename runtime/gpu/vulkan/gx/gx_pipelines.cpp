#include "runtime/gpu/vulkan/gx/gx_pipelines.h"

#include <unordered_map>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "translator/gx/translate.h"

namespace kiln::gx {
namespace {

vk::BlendFactor vulkan_factor(BlendFactor factor) {
  switch (factor) {
  case BlendFactor::zero: return vk::BlendFactor::eZero;
  case BlendFactor::one: return vk::BlendFactor::eOne;
  case BlendFactor::src_color: return vk::BlendFactor::eSrcColor;
  case BlendFactor::inv_src_color: return vk::BlendFactor::eOneMinusSrcColor;
  case BlendFactor::dst_color: return vk::BlendFactor::eDstColor;
  case BlendFactor::inv_dst_color: return vk::BlendFactor::eOneMinusDstColor;
  case BlendFactor::src_alpha: return vk::BlendFactor::eSrcAlpha;
  case BlendFactor::inv_src_alpha: return vk::BlendFactor::eOneMinusSrcAlpha;
  case BlendFactor::dst_alpha: return vk::BlendFactor::eDstAlpha;
  case BlendFactor::inv_dst_alpha: return vk::BlendFactor::eOneMinusDstAlpha;
  }
  return vk::BlendFactor::eOne;
}

/// The alpha channel blends with the colour factors' alpha counterparts (a colour factor read for alpha is the
/// alpha itself).
vk::BlendFactor vulkan_alpha_factor(BlendFactor factor) {
  switch (factor) {
  case BlendFactor::src_color: return vk::BlendFactor::eSrcAlpha;
  case BlendFactor::inv_src_color: return vk::BlendFactor::eOneMinusSrcAlpha;
  case BlendFactor::dst_color: return vk::BlendFactor::eDstAlpha;
  case BlendFactor::inv_dst_color: return vk::BlendFactor::eOneMinusDstAlpha;
  default: return vulkan_factor(factor);
  }
}

vk::CullModeFlags vulkan_cull(CullMode cull) {
  switch (cull) {
  case CullMode::none: return vk::CullModeFlagBits::eNone;
  case CullMode::back: return vk::CullModeFlagBits::eBack;
  case CullMode::front: return vk::CullModeFlagBits::eFront;
  case CullMode::all: return vk::CullModeFlagBits::eFrontAndBack;
  }
  return vk::CullModeFlagBits::eNone;
}

struct Program {
  vk::UniqueShaderModule module;
  uint32_t input_locations = 0; ///< bit n: the program reads generic input n
};

template <typename Uid>
struct ProgramCache {
  std::unordered_map<uint64_t, std::vector<std::pair<Uid, Program>>> entries;
  template <typename Translate>
  const Program& get(vk::Device device, const Uid& uid, Translate&& translate) {
    auto& bucket = entries[uid.hash()];
    for (const auto& [key, program] : bucket) if (key == uid) return program;
    const GxShader shader = translate(uid);
    Program program{device.createShaderModuleUnique({{}, shader.spirv.size() * 4, shader.spirv.data()}), 0};
    for (const ir::Inst& inst : shader.program.insts) {
      const auto address = static_cast<uint32_t>(inst.immediate);
      if (inst.op == ir::Op::LoadAttribute && address >= 0x80 && address < 0x80 + 16 * 32) program.input_locations |= 1u << ((address - 0x80) / 16);
    }
    bucket.emplace_back(uid, std::move(program));
    return bucket.back().second;
  }
};

struct PipelineKey {
  VertexUid vertex;
  PixelUid pixel;
  PipelineState state;
  friend bool operator==(const PipelineKey&, const PipelineKey&) = default;
  uint64_t hash() const {
    const std::array<uint64_t, 3> words{vertex.hash(), pixel.hash(),
                                        hash64(std::span(reinterpret_cast<const uint8_t*>(&state), sizeof(state)))};
    return hash64(std::span(reinterpret_cast<const uint8_t*>(words.data()), sizeof(words)));
  }
};

} // namespace

PipelineState pipeline_state(const RasterState& raster) {
  PipelineState state;
  state.depth_test = raster.depth_test;
  state.depth_update = raster.depth_test && raster.depth_update; // with the test off nothing is written either
  state.depth_function = raster.depth_test ? raster.depth_function : CompareFunction::always;
  state.blend = raster.blend;
  if (raster.blend == BlendMode::blend) {
    state.src_factor = raster.src_factor;
    state.dst_factor = raster.dst_factor;
  }
  if (raster.blend == BlendMode::logic) state.logic_op = raster.logic_op;
  state.color_update = raster.color_update;
  state.alpha_update = raster.alpha_update;
  state.cull = raster.cull;
  return state;
}

struct GxPipelines::Cache {
  const vulkan::Context& context;
  vk::Format color_format, depth_format;
  vk::UniqueDescriptorSetLayout vertex_set, pixel_set;
  vk::UniquePipelineLayout layout;
  ProgramCache<VertexUid> vertex_programs;
  ProgramCache<PixelUid> pixel_programs;
  std::unordered_map<uint64_t, std::vector<std::pair<PipelineKey, vk::UniquePipeline>>> pipelines;
  uint64_t built = 0;

  vk::UniquePipeline build(const PipelineKey& key);
};

GxPipelines::GxPipelines(const vulkan::Context& context, vk::Format color_format, vk::Format depth_format)
    : cache_(std::make_unique<Cache>(Cache{context, color_format, depth_format, {}, {}, {}, {}, {}, {}, 0})) {
  const vk::Device device = context.device();
  const vk::DescriptorSetLayoutBinding vertex_bank(0, vk::DescriptorType::eUniformBuffer, 1, vk::ShaderStageFlagBits::eVertex);
  const vk::DescriptorSetLayoutBinding pixel_bank(0, vk::DescriptorType::eUniformBuffer, 1, vk::ShaderStageFlagBits::eFragment);
  cache_->vertex_set = device.createDescriptorSetLayoutUnique({{}, vertex_bank});
  cache_->pixel_set = device.createDescriptorSetLayoutUnique({{}, pixel_bank});
  const std::array sets{*cache_->vertex_set, *cache_->pixel_set};
  static_assert(vertex_descriptor_set == 0 && pixel_descriptor_set == 1);
  cache_->layout = device.createPipelineLayoutUnique({{}, sets, {}});
}

GxPipelines::~GxPipelines() = default;

vk::PipelineLayout GxPipelines::layout() const { return *cache_->layout; }
vk::DescriptorSetLayout GxPipelines::set_layout(uint32_t set) const {
  return set == vertex_descriptor_set ? *cache_->vertex_set : *cache_->pixel_set;
}
uint64_t GxPipelines::pipelines_built() const { return cache_->built; }

vk::Pipeline GxPipelines::get(const VertexUid& vertex, const PixelUid& pixel, const PipelineState& state) {
  const PipelineKey key{vertex, pixel, state};
  auto& bucket = cache_->pipelines[key.hash()];
  for (const auto& [entry, pipeline] : bucket) if (entry == key) return *pipeline;
  bucket.emplace_back(key, cache_->build(key));
  ++cache_->built;
  return *bucket.back().second;
}

vk::UniquePipeline GxPipelines::Cache::build(const PipelineKey& key) {
  const vk::Device device = context.device();
  const Program& vertex_program = vertex_programs.get(device, key.vertex, [](const VertexUid& uid) { return translate_vertex(uid); });
  const vk::ShaderModule vertex_module = *vertex_program.module;
  const vk::ShaderModule pixel_module =
      *pixel_programs.get(device, key.pixel, [](const PixelUid& uid) { return translate_pixel(uid); }).module;
  const std::array stages{vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eVertex, vertex_module, "main"),
                          vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eFragment, pixel_module, "main")};
  const vk::VertexInputBindingDescription binding(0, vertex_stride, vk::VertexInputRate::eVertex);
  // Only the locations the program reads: the buffer always carries all five.
  std::vector<vk::VertexInputAttributeDescription> attributes;
  for (uint32_t location = 0; location < vertex_locations; ++location) {
    if (vertex_program.input_locations & (1u << location))
      attributes.emplace_back(location, 0, vk::Format::eR32G32B32A32Sfloat, 16 * location);
  }
  const vk::PipelineVertexInputStateCreateInfo vertex_input({}, binding, attributes);
  const vk::PipelineInputAssemblyStateCreateInfo input_assembly({}, vk::PrimitiveTopology::eTriangleList, VK_FALSE);
  const vk::PipelineViewportStateCreateInfo viewport({}, 1, nullptr, 1, nullptr);
  const PipelineState& s = key.state;
  // GX front faces are clockwise on screen; Vulkan's orientation is also taken in framebuffer (y-down) space.
  const vk::PipelineRasterizationStateCreateInfo rasterization({}, VK_FALSE, VK_FALSE, vk::PolygonMode::eFill, vulkan_cull(s.cull),
                                                               vk::FrontFace::eClockwise, VK_FALSE, 0, 0, 0, 1.0f);
  const vk::PipelineMultisampleStateCreateInfo multisample({}, vk::SampleCountFlagBits::e1);
  const vk::PipelineDepthStencilStateCreateInfo depth({}, s.depth_test, s.depth_update,
                                                      static_cast<vk::CompareOp>(static_cast<uint32_t>(s.depth_function)));
  vk::PipelineColorBlendAttachmentState blend;
  if (s.color_update) blend.colorWriteMask |= vk::ColorComponentFlagBits::eR | vk::ColorComponentFlagBits::eG | vk::ColorComponentFlagBits::eB;
  if (s.alpha_update) blend.colorWriteMask |= vk::ColorComponentFlagBits::eA;
  if (s.blend == BlendMode::blend) {
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = vulkan_factor(s.src_factor);
    blend.dstColorBlendFactor = vulkan_factor(s.dst_factor);
    blend.srcAlphaBlendFactor = vulkan_alpha_factor(s.src_factor);
    blend.dstAlphaBlendFactor = vulkan_alpha_factor(s.dst_factor);
  } else if (s.blend == BlendMode::subtract) { // destination minus source, factors ignored
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = blend.dstColorBlendFactor = vk::BlendFactor::eOne;
    blend.srcAlphaBlendFactor = blend.dstAlphaBlendFactor = vk::BlendFactor::eOne;
    blend.colorBlendOp = blend.alphaBlendOp = vk::BlendOp::eReverseSubtract;
  }
  const bool logic = s.blend == BlendMode::logic;
  // The GX logic operations are numbered as VkLogicOp (clear, and, reverse and, copy, ... set).
  const vk::PipelineColorBlendStateCreateInfo color_blend({}, logic, static_cast<vk::LogicOp>(s.logic_op), blend);
  const std::array dynamic_states{vk::DynamicState::eViewport, vk::DynamicState::eScissor};
  const vk::PipelineDynamicStateCreateInfo dynamic({}, dynamic_states);
  const vk::PipelineRenderingCreateInfo rendering(0, color_format, depth_format, vk::Format::eUndefined);
  vk::GraphicsPipelineCreateInfo create({}, stages, &vertex_input, &input_assembly, nullptr, &viewport, &rasterization, &multisample,
                                        &depth, &color_blend, &dynamic, *layout);
  create.pNext = &rendering;
  auto [result, pipeline] = device.createGraphicsPipelineUnique({}, create);
  if (result != vk::Result::eSuccess) throw Error("GX renderer: pipeline creation failed: " + vk::to_string(result));
  return std::move(pipeline);
}

} // namespace kiln::gx
