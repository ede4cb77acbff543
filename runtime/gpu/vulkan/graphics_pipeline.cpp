#include "runtime/gpu/vulkan/graphics_pipeline.h"

#include <algorithm>
#include <map>

#include "runtime/base/error.h"

namespace kiln::vulkan {

GraphicsPipeline::GraphicsPipeline(const Context& context, const GraphicsPipelineInfo& info) {
  const vk::Device device = context.device();
  if (info.vertex_spirv.empty() || info.fragment_spirv.empty()) throw Error("graphics pipeline: a vertex and a fragment module are needed");

  // Descriptor set layouts, one per set number up to the highest used.
  uint32_t set_count = 0;
  std::map<vk::DescriptorType, uint32_t> pool_sizes;
  for (const DescriptorBinding& binding : info.bindings) {
    set_count = std::max(set_count, binding.set + 1);
    pool_sizes[binding.type] += binding.count;
  }
  std::vector<vk::DescriptorSetLayout> raw_layouts;
  for (uint32_t set = 0; set < set_count; ++set) {
    std::vector<vk::DescriptorSetLayoutBinding> bindings;
    for (const DescriptorBinding& binding : info.bindings) {
      if (binding.set == set) bindings.emplace_back(binding.binding, binding.type, binding.count, binding.stages);
    }
    set_layouts_.push_back(device.createDescriptorSetLayoutUnique({{}, bindings}));
    raw_layouts.push_back(*set_layouts_.back());
  }
  layout_ = device.createPipelineLayoutUnique({{}, raw_layouts, {}});

  if (set_count > 0) {
    std::vector<vk::DescriptorPoolSize> sizes;
    for (const auto& [type, count] : pool_sizes) sizes.emplace_back(type, count);
    pool_ = device.createDescriptorPoolUnique({{}, set_count, sizes});
    sets_ = device.allocateDescriptorSets({*pool_, raw_layouts});
  }

  const vk::UniqueShaderModule vertex_module = device.createShaderModuleUnique({{}, info.vertex_spirv.size_bytes(), info.vertex_spirv.data()});
  const vk::UniqueShaderModule fragment_module = device.createShaderModuleUnique({{}, info.fragment_spirv.size_bytes(), info.fragment_spirv.data()});
  std::vector stages{vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eVertex, *vertex_module, "main"),
                     vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eFragment, *fragment_module, "main")};
  vk::UniqueShaderModule geometry_module;
  if (!info.geometry_spirv.empty()) {
    geometry_module = device.createShaderModuleUnique({{}, info.geometry_spirv.size_bytes(), info.geometry_spirv.data()});
    stages.emplace_back(vk::PipelineShaderStageCreateFlags{}, vk::ShaderStageFlagBits::eGeometry, *geometry_module, "main");
  }
  if (info.tess_control_spirv.empty() != info.tess_evaluation_spirv.empty()) {
    throw Error("graphics pipeline: tessellation needs both a control and an evaluation module");
  }
  vk::UniqueShaderModule tess_control_module, tess_evaluation_module;
  const vk::PipelineTessellationStateCreateInfo tessellation({}, info.patch_control_points);
  const bool tessellated = !info.tess_control_spirv.empty();
  if (tessellated) {
    tess_control_module = device.createShaderModuleUnique({{}, info.tess_control_spirv.size_bytes(), info.tess_control_spirv.data()});
    tess_evaluation_module = device.createShaderModuleUnique({{}, info.tess_evaluation_spirv.size_bytes(), info.tess_evaluation_spirv.data()});
    stages.emplace_back(vk::PipelineShaderStageCreateFlags{}, vk::ShaderStageFlagBits::eTessellationControl, *tess_control_module, "main");
    stages.emplace_back(vk::PipelineShaderStageCreateFlags{}, vk::ShaderStageFlagBits::eTessellationEvaluation, *tess_evaluation_module, "main");
  }

  std::vector<vk::VertexInputBindingDescription> vertex_bindings;
  std::vector<vk::VertexInputAttributeDescription> vertex_attributes;
  if (!info.attributes.empty()) vertex_bindings.emplace_back(0, info.vertex_stride, vk::VertexInputRate::eVertex);
  for (const VertexAttribute& attribute : info.attributes) vertex_attributes.emplace_back(attribute.location, 0, attribute.format, attribute.offset);
  const vk::PipelineVertexInputStateCreateInfo vertex_input({}, vertex_bindings, vertex_attributes);
  const vk::PipelineInputAssemblyStateCreateInfo input_assembly({}, info.topology, VK_FALSE);
  const vk::PipelineViewportStateCreateInfo viewport({}, 1, nullptr, 1, nullptr);
  vk::PipelineRasterizationStateCreateInfo rasterization({}, VK_FALSE, VK_FALSE, vk::PolygonMode::eFill, vk::CullModeFlagBits::eNone,
                                                         vk::FrontFace::eCounterClockwise, VK_FALSE, 0, 0, 0, 1.0f);
  const vk::PipelineMultisampleStateCreateInfo multisample({}, vk::SampleCountFlagBits::e1);
  std::vector<vk::PipelineColorBlendAttachmentState> blend(info.color_formats.size());
  for (size_t i = 0; i < blend.size(); ++i) {
    blend[i].colorWriteMask = i < info.color_write_masks.size() ? info.color_write_masks[i]
                                                                : vk::ColorComponentFlagBits::eR | vk::ColorComponentFlagBits::eG |
                                                                      vk::ColorComponentFlagBits::eB | vk::ColorComponentFlagBits::eA;
  }
  const vk::PipelineColorBlendStateCreateInfo color_blend({}, VK_FALSE, vk::LogicOp::eCopy, blend);
  const std::array dynamic_states{vk::DynamicState::eViewport, vk::DynamicState::eScissor};
  const vk::PipelineDynamicStateCreateInfo dynamic({}, dynamic_states);
  const vk::PipelineRenderingCreateInfo rendering(0, info.color_formats, vk::Format::eUndefined, vk::Format::eUndefined);

  vk::GraphicsPipelineCreateInfo create({}, stages, &vertex_input, &input_assembly, tessellated ? &tessellation : nullptr, &viewport, &rasterization, &multisample,
                                        nullptr, &color_blend, &dynamic, *layout_);
  create.pNext = &rendering;
  auto [result, pipeline] = device.createGraphicsPipelineUnique({}, create);
  if (result != vk::Result::eSuccess) throw Error("graphics pipeline: creation failed: " + vk::to_string(result));
  pipeline_ = std::move(pipeline);
}

} // namespace kiln::vulkan
