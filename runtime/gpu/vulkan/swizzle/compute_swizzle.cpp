#include "runtime/gpu/vulkan/swizzle/compute_swizzle.h"

#include <fmt/format.h>

#include "blocklinear_copy.comp.h"
#include "runtime/base/error.h"

namespace kiln::vulkan {

using textures::LevelLayout;
using textures::LinearImage;
using textures::Region;
using textures::SurfaceLayout;
using textures::CopyPlan;
using textures::Tiling;
namespace {

constexpr uint32_t sets_per_pool = 64;
constexpr uint32_t words_per_group = 64; // local_size_x of the shader

struct PushConstants {
  uint32_t guest_level_word, linear_base_word, region_x_bytes, region_y, region_z, width_words, height, depth;
  uint32_t row_pitch_words, slice_pitch_words, gobs_per_row, blocks_per_column, block_height_log2,
      block_depth_log2, to_linear;
};

uint32_t checked_word(const SurfaceLayout& layout, uint64_t bytes, const char* what) {
  if (bytes % 4 != 0) {
    throw Error(in_file(layout.name()), fmt::format("GPU swizzle: {} of {} bytes is not a multiple of 4 (the "
                                                    "compute path moves 32-bit words; use the CPU path)",
                                                    what, bytes));
  }
  if (bytes / 4 > UINT32_MAX) throw Error(in_file(layout.name()), fmt::format("GPU swizzle: {} is past 16 GiB", what));
  return static_cast<uint32_t>(bytes / 4);
}

} // namespace

ComputeSwizzler::ComputeSwizzler(const Context& context) : context_(context) {
  const vk::Device device = context.device();
  const vk::DescriptorSetLayoutBinding bindings[] = {
      {0, vk::DescriptorType::eStorageBuffer, 1, vk::ShaderStageFlagBits::eCompute},
      {1, vk::DescriptorType::eStorageBuffer, 1, vk::ShaderStageFlagBits::eCompute}};
  set_layout_ = device.createDescriptorSetLayoutUnique({{}, bindings});
  const vk::PushConstantRange push_range(vk::ShaderStageFlagBits::eCompute, 0, sizeof(PushConstants));
  pipeline_layout_ = device.createPipelineLayoutUnique({{}, *set_layout_, push_range});
  shader_ = device.createShaderModuleUnique({{}, sizeof(blocklinear_copy_comp_spv), blocklinear_copy_comp_spv});
  const vk::ComputePipelineCreateInfo info(
      {}, vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eCompute, *shader_, "main"), *pipeline_layout_);
  auto [result, pipeline] = device.createComputePipelineUnique(nullptr, info);
  if (result != vk::Result::eSuccess) throw Error("vulkan: cannot create the block-linear copy pipeline");
  pipeline_ = std::move(pipeline);
}

ComputeSwizzler::~ComputeSwizzler() = default;

vk::DescriptorSet ComputeSwizzler::allocate_set() {
  if (pools_.empty() || sets_in_last_pool_ == sets_per_pool) {
    const vk::DescriptorPoolSize size(vk::DescriptorType::eStorageBuffer, 2 * sets_per_pool);
    pools_.push_back(context_.device().createDescriptorPoolUnique({{}, sets_per_pool, size}));
    sets_in_last_pool_ = 0;
  }
  ++sets_in_last_pool_;
  return context_.device().allocateDescriptorSets({*pools_.back(), *set_layout_}).front();
}

void ComputeSwizzler::release_recorded() {
  pools_.clear();
  sets_in_last_pool_ = 0;
}

void ComputeSwizzler::record_deswizzle(vk::CommandBuffer commands, const SurfaceLayout& layout, uint32_t layer,
                                       uint32_t level, const Region& region, const GpuSurfaceBuffers& buffers,
                                       LinearImage pitches) {
  record(commands, layout, layer, level, region, buffers, pitches, true);
}

void ComputeSwizzler::record_swizzle(vk::CommandBuffer commands, const SurfaceLayout& layout, uint32_t layer,
                                     uint32_t level, const Region& region, const GpuSurfaceBuffers& buffers,
                                     LinearImage pitches) {
  record(commands, layout, layer, level, region, buffers, pitches, false);
}

void ComputeSwizzler::record(vk::CommandBuffer commands, const SurfaceLayout& layout, uint32_t layer,
                             uint32_t level_index, const Region& region, const GpuSurfaceBuffers& buffers,
                             LinearImage pitches, bool to_linear) {
  if (layout.description().tiling != Tiling::block_linear) {
    throw Error(in_file(layout.name()), "GPU swizzle: pitch-linear surfaces are plain buffer copies");
  }
  const CopyPlan plan = plan_copy(layout, layer, level_index, region, buffers.guest_size, buffers.linear_size, pitches);
  const LevelLayout& level = layout.level(level_index);
  const uint32_t bytes = layout.description().element.bytes;
  PushConstants push{};
  push.guest_level_word = checked_word(layout, buffers.guest_offset + plan.level_offset, "the level's offset");
  push.linear_base_word = checked_word(layout, buffers.linear_offset, "the linear offset");
  push.region_x_bytes = checked_word(layout, uint64_t{region.x} * bytes, "the region's x") * 4;
  push.width_words = checked_word(layout, uint64_t{region.width} * bytes, "the region's width");
  push.region_y = region.y;
  push.region_z = region.z;
  push.height = region.height;
  push.depth = region.depth;
  push.row_pitch_words = checked_word(layout, plan.row_pitch, "the row pitch");
  push.slice_pitch_words = checked_word(layout, plan.slice_pitch, "the slice pitch");
  push.gobs_per_row = level.gobs_per_row;
  push.blocks_per_column = level.blocks_per_column;
  push.block_height_log2 = level.block_height_log2;
  push.block_depth_log2 = level.block_depth_log2;
  push.to_linear = to_linear ? 1 : 0;
  const vk::PhysicalDeviceLimits limits = context_.physical_device().getProperties().limits;
  const uint32_t groups_x = (push.width_words + words_per_group - 1) / words_per_group;
  if (groups_x > limits.maxComputeWorkGroupCount[0] || region.height > limits.maxComputeWorkGroupCount[1] ||
      region.depth > limits.maxComputeWorkGroupCount[2]) {
    throw Error(in_file(layout.name()), "GPU swizzle: region larger than one dispatch; split it");
  }

  const vk::DescriptorSet set = allocate_set();
  const vk::DescriptorBufferInfo guest_info(buffers.guest, 0, VK_WHOLE_SIZE);
  const vk::DescriptorBufferInfo linear_info(buffers.linear, 0, VK_WHOLE_SIZE);
  const vk::WriteDescriptorSet writes[] = {
      {set, 0, 0, vk::DescriptorType::eStorageBuffer, {}, guest_info},
      {set, 1, 0, vk::DescriptorType::eStorageBuffer, {}, linear_info}};
  context_.device().updateDescriptorSets(writes, {});
  commands.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline_);
  commands.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *pipeline_layout_, 0, set, {});
  commands.pushConstants(*pipeline_layout_, vk::ShaderStageFlagBits::eCompute, 0, sizeof(push), &push);
  commands.dispatch(groups_x, region.height, region.depth);
}

} // namespace kiln::vulkan
