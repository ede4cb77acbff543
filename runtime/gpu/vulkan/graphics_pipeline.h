#pragma once
// A graphics pipeline from a vertex and a fragment SPIR-V module (and optionally a geometry module), for dynamic rendering: descriptor set layouts
// from a list of bindings, one vertex buffer binding, dynamic viewport and scissor, no blending. The small
// helper kiln's translated-shader tests and bring-up draws use; the Maxwell 3D engine builds its own.
#include <cstdint>
#include <span>
#include <vector>

#include "runtime/gpu/vulkan/context.h"

namespace kiln::vulkan {

struct DescriptorBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  vk::DescriptorType type = vk::DescriptorType::eUniformBuffer;
  uint32_t count = 1;               ///< array size
  vk::ShaderStageFlags stages = vk::ShaderStageFlagBits::eAllGraphics;
};

struct VertexAttribute {
  uint32_t location = 0;
  vk::Format format = vk::Format::eR32G32B32A32Sfloat;
  uint32_t offset = 0;              ///< bytes into a vertex
};

struct GraphicsPipelineInfo {
  std::span<const uint32_t> vertex_spirv;
  std::span<const uint32_t> fragment_spirv;
  std::span<const uint32_t> geometry_spirv; ///< optional geometry stage (needs the geometryShader feature)
  /// Optional tessellation stages, both or neither (need the tessellationShader feature and a patch-list topology).
  std::span<const uint32_t> tess_control_spirv;
  std::span<const uint32_t> tess_evaluation_spirv;
  uint32_t patch_control_points = 3;
  std::vector<DescriptorBinding> bindings;  ///< every binding either module uses
  uint32_t vertex_stride = 0;               ///< one interleaved vertex buffer at binding 0
  std::vector<VertexAttribute> attributes;
  vk::PrimitiveTopology topology = vk::PrimitiveTopology::eTriangleStrip;
  std::vector<vk::Format> color_formats;
  std::vector<vk::ColorComponentFlags> color_write_masks; ///< per colour target; empty: all components
};

class GraphicsPipeline {
public:
  GraphicsPipeline(const Context& context, const GraphicsPipelineInfo& info);

  vk::Pipeline pipeline() const { return *pipeline_; }
  vk::PipelineLayout layout() const { return *layout_; }
  /// One descriptor set per set number 0..n-1 (sets no binding names are empty), freed with the pipeline.
  const std::vector<vk::DescriptorSet>& descriptor_sets() const { return sets_; }

private:
  std::vector<vk::UniqueDescriptorSetLayout> set_layouts_;
  vk::UniquePipelineLayout layout_;
  vk::UniquePipeline pipeline_;
  vk::UniqueDescriptorPool pool_;
  std::vector<vk::DescriptorSet> sets_;
};

} // namespace kiln::vulkan
