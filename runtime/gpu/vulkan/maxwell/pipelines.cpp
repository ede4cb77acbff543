#include "runtime/gpu/vulkan/maxwell/pipelines.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/hash.h"
#include "runtime/base/log.h"

namespace kiln::vulkan {
namespace {

template <typename T>
void hash_value(Hasher64& hasher, const T& value) {
  hasher.update(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&value), sizeof(value)));
}

vk::DescriptorType descriptor_type(graphics::ResourceBinding::Kind kind) {
  switch (kind) {
  case graphics::ResourceBinding::Kind::uniform_buffer: return vk::DescriptorType::eUniformBuffer;
  case graphics::ResourceBinding::Kind::sampled_images: return vk::DescriptorType::eSampledImage;
  case graphics::ResourceBinding::Kind::samplers: return vk::DescriptorType::eSampler;
  }
  return vk::DescriptorType::eUniformBuffer;
}

} // namespace

uint64_t graphics_shader_key(std::span<const uint8_t> bytes, graphics::Arch arch, const HostProfile& profile, uint32_t descriptor_set,
                             bool second_blend_source) {
  Hasher64 hasher;
  hasher.update(bytes);
  hash_value(hasher, arch);
  hash_value(hasher, profile.key());
  hash_value(hasher, descriptor_set);
  hash_value(hasher, second_blend_source);
  return hasher.digest();
}

uint64_t compute_program_key(std::span<const uint8_t> code, const maxwell::DispatchSnapshot& dispatch, const HostProfile& profile,
                             spirv::WarpModel warp_model) {
  Hasher64 hasher;
  hasher.update(code);
  hash_value(hasher, dispatch.shared_memory_size);
  hash_value(hasher, dispatch.local_memory_size);
  for (uint32_t bank = 0; bank < dispatch.constant_buffers.size(); ++bank) {
    const maxwell::ConstantBufferBinding& binding = dispatch.constant_buffers[bank];
    const uint64_t shape = binding.valid ? (uint64_t{binding.size} << 8 | 0x80 | bank) : 0;
    hash_value(hasher, shape);
  }
  hash_value(hasher, profile.key());
  hash_value(hasher, warp_model);
  return hasher.digest();
}

uint64_t PipelineDescription::hash() const {
  Hasher64 hasher;
  hash_value(hasher, vertex->hash);
  hash_value(hasher, fragment->hash);
  for (const auto& binding : input.bindings) {
    hash_value(hasher, binding.binding);
    hash_value(hasher, binding.stride);
    hash_value(hasher, binding.inputRate);
  }
  for (const auto& attribute : input.attributes) {
    hash_value(hasher, attribute.location);
    hash_value(hasher, attribute.binding);
    hash_value(hasher, attribute.format);
    hash_value(hasher, attribute.offset);
  }
  hash_value(hasher, topology);
  hash_value(hasher, primitive_restart);
  for (vk::Format format : color_formats) hash_value(hasher, format);
  hash_value(hasher, depth_format);
  hash_value(hasher, stencil);
  hash_value(hasher, fixed);
  hash_value(hasher, viewport_count);
  return hasher.digest();
}

PipelineCache::PipelineCache(const Context& context, HostProfile profile, std::filesystem::path file)
    : context_(context), profile_(std::move(profile)), file_(std::move(file)) {
  std::vector<uint8_t> initial;
  if (!file_.empty() && std::filesystem::exists(file_)) initial = read_file(file_, kiln::input::pipeline_cache);
  // A cache from another driver or device is ignored by Vulkan itself (header check), so any file is safe here.
  cache_ = context.device().createPipelineCacheUnique({{}, initial.size(), initial.data()});
  // The context enables these where offered.
  dual_source_blend = context.physical_device().getFeatures().dualSrcBlend;
  const auto offered = context.physical_device().getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features>();
  multi_viewport = offered.get<vk::PhysicalDeviceFeatures2>().features.multiViewport &&
                   offered.get<vk::PhysicalDeviceVulkan12Features>().shaderOutputViewportIndex;
  for (const vk::ExtensionProperties& extension : context.physical_device().enumerateDeviceExtensionProperties()) {
    // The context enables these two wherever the device offers them.
    if (std::string_view(extension.extensionName) == VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME) depth_clip_control = true;
    if (std::string_view(extension.extensionName) == VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME) {
      provoking_vertex = context.physical_device()
                             .getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceProvokingVertexFeaturesEXT>()
                             .get<vk::PhysicalDeviceProvokingVertexFeaturesEXT>()
                             .provokingVertexLast;
    }
  }
}

PipelineCache::~PipelineCache() = default;

void PipelineCache::save() const {
  if (file_.empty()) return;
  const std::vector<uint8_t> data = context_.device().getPipelineCacheData(*cache_);
  write_file_if_changed(file_, data);
}

const TranslatedShader& PipelineCache::shader(std::span<const uint8_t> bytes, graphics::Arch arch, uint32_t descriptor_set,
                                              std::string_view name, bool second_blend_source) {
  const uint64_t key = graphics_shader_key(bytes, arch, profile_, descriptor_set, second_blend_source);
  if (const auto found = shaders_.find(key); found != shaders_.end()) {
    ++shader_hits;
    return *found->second;
  }
  graphics::TranslateOptions options;
  options.zero_registers = profile_.zero_registers;
  options.backend.gather_bias_bits = profile_.gather_bias_bits;
  options.backend.floats = profile_.floats;
  options.backend.descriptor_set = descriptor_set;
  options.backend.debug_names = false;
  options.backend.dual_source_blend = second_blend_source;
  auto entry = std::make_unique<TranslatedShader>();
  entry->hash = key;
  entry->translation = graphics::translate_graphics(bytes, arch, name, options);
  entry->module = context_.device().createShaderModuleUnique(
      {{}, entry->translation.spirv.size() * sizeof(uint32_t), entry->translation.spirv.data()});
  ++shaders_translated;
  return *shaders_.emplace(key, std::move(entry)).first->second;
}

const ShaderPairLayout& PipelineCache::layout(const TranslatedShader& vertex, const TranslatedShader& fragment) {
  const uint64_t key = vertex.hash * 31 + fragment.hash;
  if (const auto found = layouts_.find(key); found != layouts_.end()) return *found->second;
  auto entry = std::make_unique<ShaderPairLayout>();
  std::vector<vk::DescriptorSetLayout> raw;
  for (const TranslatedShader* stage : {&vertex, &fragment}) {
    const vk::ShaderStageFlags flags = stage == &vertex ? vk::ShaderStageFlagBits::eVertex : vk::ShaderStageFlagBits::eFragment;
    std::vector<vk::DescriptorSetLayoutBinding> bindings;
    for (const graphics::ResourceBinding& resource : stage->translation.resources) {
      bindings.emplace_back(resource.binding, descriptor_type(resource.kind), resource.count, flags);
    }
    entry->set_layouts.push_back(context_.device().createDescriptorSetLayoutUnique({{}, bindings}));
    raw.push_back(*entry->set_layouts.back());
  }
  entry->layout = context_.device().createPipelineLayoutUnique({{}, raw});
  return *layouts_.emplace(key, std::move(entry)).first->second;
}

vk::Pipeline PipelineCache::pipeline(const PipelineDescription& d) {
  const uint64_t key = d.hash();
  if (const auto found = pipelines_.find(key); found != pipelines_.end()) {
    ++pipeline_hits;
    return *found->second;
  }
  const FixedFunctionState& f = d.fixed;
  const std::array<vk::PipelineShaderStageCreateInfo, 2> stages = {
      vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eVertex, *d.vertex->module, "main"),
      vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eFragment, *d.fragment->module, "main")};
  const vk::PipelineVertexInputStateCreateInfo vertex_input({}, d.input.bindings, d.input.attributes);
  const vk::PipelineInputAssemblyStateCreateInfo assembly({}, d.topology, d.primitive_restart);
  vk::PipelineViewportStateCreateInfo viewport({}, d.viewport_count, nullptr, d.viewport_count, nullptr);
  const vk::PipelineViewportDepthClipControlCreateInfoEXT clip_control(VK_TRUE);
  if (f.negative_one_to_one && depth_clip_control) viewport.pNext = &clip_control;
  vk::PipelineRasterizationStateCreateInfo raster(
      {}, VK_FALSE, VK_FALSE, static_cast<vk::PolygonMode>(f.polygon_mode), static_cast<vk::CullModeFlags>(f.cull_mode),
      static_cast<vk::FrontFace>(f.front_face), f.depth_bias_enable, f.depth_bias_constant, f.depth_bias_clamp, f.depth_bias_slope, 1.0f);
  const vk::PipelineRasterizationProvokingVertexStateCreateInfoEXT last_vertex(vk::ProvokingVertexModeEXT::eLastVertex);
  if (f.provoking_last && provoking_vertex) raster.pNext = &last_vertex;
  const vk::PipelineMultisampleStateCreateInfo multisample({}, vk::SampleCountFlagBits::e1);
  auto stencil_side = [](const FixedFunctionState::Stencil& s) {
    return vk::StencilOpState(static_cast<vk::StencilOp>(s.fail), static_cast<vk::StencilOp>(s.pass), static_cast<vk::StencilOp>(s.depth_fail),
                              static_cast<vk::CompareOp>(s.compare), s.compare_mask, s.write_mask, s.reference);
  };
  const bool has_depth = d.depth_format != vk::Format::eUndefined;
  const vk::PipelineDepthStencilStateCreateInfo depth_stencil(
      {}, has_depth && f.depth_test, has_depth && f.depth_test && f.depth_write, static_cast<vk::CompareOp>(f.depth_compare), VK_FALSE,
      d.stencil && f.stencil_test, stencil_side(f.front), stencil_side(f.back), 0.0f, 1.0f);
  std::vector<vk::PipelineColorBlendAttachmentState> attachments;
  for (size_t k = 0; k < d.color_formats.size(); ++k) {
    const FixedFunctionState::Blend& b = f.blend[k];
    // An output the fragment program does not write keeps the target's texel (seed 002 §1.1).
    const uint32_t written = d.fragment->translation.color_masks[k];
    attachments.emplace_back(b.enable, static_cast<vk::BlendFactor>(b.color_source), static_cast<vk::BlendFactor>(b.color_dest),
                             static_cast<vk::BlendOp>(b.color_op), static_cast<vk::BlendFactor>(b.alpha_source),
                             static_cast<vk::BlendFactor>(b.alpha_dest), static_cast<vk::BlendOp>(b.alpha_op),
                             static_cast<vk::ColorComponentFlags>(written == 0 ? 0 : b.write_mask));
  }
  const vk::PipelineColorBlendStateCreateInfo blend({}, VK_FALSE, vk::LogicOp::eCopy, attachments, f.blend_constants);
  const std::array<vk::DynamicState, 2> dynamic_states = {vk::DynamicState::eViewport, vk::DynamicState::eScissor};
  const vk::PipelineDynamicStateCreateInfo dynamic({}, dynamic_states);
  const vk::PipelineRenderingCreateInfo rendering(0, d.color_formats, d.depth_format, d.stencil ? d.depth_format : vk::Format::eUndefined);
  const ShaderPairLayout& pair = layout(*d.vertex, *d.fragment);
  vk::GraphicsPipelineCreateInfo info({}, stages, &vertex_input, &assembly, nullptr, &viewport, &raster, &multisample, &depth_stencil,
                                      &blend, &dynamic, *pair.layout);
  info.pNext = &rendering;
  auto result = context_.device().createGraphicsPipelineUnique(*cache_, info);
  if (result.result != vk::Result::eSuccess) throw Error(fmt::format("vkCreateGraphicsPipelines: {}", vk::to_string(result.result)));
  ++pipelines_created;
  return *pipelines_.emplace(key, std::move(result.value)).first->second;
}

} // namespace kiln::vulkan
