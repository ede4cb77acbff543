#include "runtime/gpu/vulkan/maxwell/clear_pipelines.h"

#include <fmt/format.h>

#include "clear_depth.frag.h"
#include "clear_float.frag.h"
#include "clear_rect.vert.h"
#include "clear_sint.frag.h"
#include "clear_uint.frag.h"
#include "runtime/base/error.h"

namespace kiln::vulkan {
namespace {
template <size_t N>
vk::UniqueShaderModule module(vk::Device device, const uint32_t (&code)[N]) {
  return device.createShaderModuleUnique({{}, sizeof(code), code});
}
} // namespace

ClearPipelines::ClearPipelines(const Context& context) : context_(context) {
  const vk::Device device = context.device();
  const vk::PushConstantRange range(vk::ShaderStageFlagBits::eVertex | vk::ShaderStageFlagBits::eFragment, 0, sizeof(ClearPushConstants));
  layout_ = device.createPipelineLayoutUnique({{}, {}, range});
  vertex_ = module(device, clear_rect_vert_spv);
  float_ = module(device, clear_float_frag_spv);
  uint_ = module(device, clear_uint_frag_spv);
  sint_ = module(device, clear_sint_frag_spv);
  depth_only_ = module(device, clear_depth_frag_spv);
}

vk::Pipeline ClearPipelines::color(vk::Format format, maxwell_formats::ColorClass color_class, uint32_t mask) {
  const vk::ShaderModule fragment = color_class == maxwell_formats::ColorClass::uint ? *uint_
                                    : color_class == maxwell_formats::ColorClass::sint ? *sint_ : *float_;
  return create(format, fragment, mask & 0xf, vk::Format::eUndefined, false, false, 0);
}

vk::Pipeline ClearPipelines::depth_stencil(vk::Format format, bool depth, bool stencil, uint32_t stencil_mask) {
  return create(vk::Format::eUndefined, *depth_only_, 0, format, depth, stencil, stencil_mask & 0xff);
}

vk::Pipeline ClearPipelines::create(vk::Format color_format, vk::ShaderModule fragment, uint32_t mask, vk::Format depth_format, bool depth,
                                    bool stencil, uint32_t stencil_mask) {
  const auto key = std::make_tuple(static_cast<int>(color_format), static_cast<int>(depth_format), mask | stencil_mask << 4,
                                   depth ? 1 : 0, stencil ? 1 : 0);
  if (const auto found = pipelines_.find(key); found != pipelines_.end()) return *found->second;
  const std::array<vk::PipelineShaderStageCreateInfo, 2> stages = {
      vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eVertex, *vertex_, "main"),
      vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eFragment, fragment, "main")};
  const vk::PipelineVertexInputStateCreateInfo vertex_input;
  const vk::PipelineInputAssemblyStateCreateInfo assembly({}, vk::PrimitiveTopology::eTriangleList);
  const vk::PipelineViewportStateCreateInfo viewport({}, 1, nullptr, 1, nullptr);
  const vk::PipelineRasterizationStateCreateInfo raster({}, VK_FALSE, VK_FALSE, vk::PolygonMode::eFill, vk::CullModeFlagBits::eNone,
                                                        vk::FrontFace::eCounterClockwise, VK_FALSE, 0, 0, 0, 1.0f);
  const vk::PipelineMultisampleStateCreateInfo multisample({}, vk::SampleCountFlagBits::e1);
  const vk::StencilOpState replace(vk::StencilOp::eReplace, vk::StencilOp::eReplace, vk::StencilOp::eReplace, vk::CompareOp::eAlways, 0xff,
                                   stencil_mask, 0);
  const vk::PipelineDepthStencilStateCreateInfo depth_stencil({}, depth, depth, vk::CompareOp::eAlways, VK_FALSE, stencil, replace, replace);
  const vk::PipelineColorBlendAttachmentState attachment(VK_FALSE, {}, {}, {}, {}, {}, {}, static_cast<vk::ColorComponentFlags>(mask));
  const vk::PipelineColorBlendStateCreateInfo blend({}, VK_FALSE, vk::LogicOp::eCopy, color_format == vk::Format::eUndefined ? 0u : 1u,
                                                    &attachment);
  const std::array<vk::DynamicState, 3> dynamic_states = {vk::DynamicState::eViewport, vk::DynamicState::eScissor,
                                                          vk::DynamicState::eStencilReference};
  const vk::PipelineDynamicStateCreateInfo dynamic({}, dynamic_states);
  const bool has_stencil = depth_format == vk::Format::eD24UnormS8Uint || depth_format == vk::Format::eD32SfloatS8Uint;
  const vk::PipelineRenderingCreateInfo rendering(0, color_format == vk::Format::eUndefined ? 0u : 1u, &color_format, depth_format,
                                                  has_stencil ? depth_format : vk::Format::eUndefined);
  vk::GraphicsPipelineCreateInfo info({}, stages, &vertex_input, &assembly, nullptr, &viewport, &raster, &multisample, &depth_stencil, &blend,
                                      &dynamic, *layout_);
  info.pNext = &rendering;
  auto result = context_.device().createGraphicsPipelineUnique(nullptr, info);
  if (result.result != vk::Result::eSuccess) throw Error(fmt::format("clear pipeline: {}", vk::to_string(result.result)));
  return *pipelines_.emplace(key, std::move(result.value)).first->second;
}

} // namespace kiln::vulkan
