#include "tests/gpu/compute/compute_dispatch.h"

#include <cstring>

#include "runtime/base/error.h"
#include "runtime/gpu/vulkan/memory.h"

namespace kiln::gpu {

void run_compute(vulkan::Context& context, const ComputeDispatch& dispatch) {
  const vk::Device device = context.device();
  // Uniform buffers must not be empty; a kernel that reads nothing from the bank still gets one vector.
  const vk::DeviceSize bank_size = std::max<vk::DeviceSize>(16, (dispatch.constant_bank.size() + 15) / 16 * 16);
  vulkan::Buffer bank = vulkan::create_host_buffer(context, bank_size, vk::BufferUsageFlagBits::eUniformBuffer);
  std::memset(bank.mapped, 0, bank_size);
  if (!dispatch.constant_bank.empty()) std::memcpy(bank.mapped, dispatch.constant_bank.data(), dispatch.constant_bank.size());

  const vk::DescriptorSetLayoutBinding binding(0, vk::DescriptorType::eUniformBuffer, 1, vk::ShaderStageFlagBits::eCompute);
  const vk::UniqueDescriptorSetLayout set_layout = device.createDescriptorSetLayoutUnique({{}, binding});
  const vk::UniquePipelineLayout pipeline_layout = device.createPipelineLayoutUnique({{}, *set_layout});
  const vk::UniqueShaderModule module =
      device.createShaderModuleUnique({{}, dispatch.spirv.size() * sizeof(uint32_t), dispatch.spirv.data()});

  const std::array<vk::SpecializationMapEntry, 3> entries{vk::SpecializationMapEntry(0, 0, 4), vk::SpecializationMapEntry(1, 4, 4),
                                                           vk::SpecializationMapEntry(2, 8, 4)};
  const vk::SpecializationInfo specialization(static_cast<uint32_t>(entries.size()), entries.data(), sizeof(dispatch.block), dispatch.block.data());
  vk::PipelineShaderStageCreateInfo stage({}, vk::ShaderStageFlagBits::eCompute, *module, dispatch.entry_point.c_str(), &specialization);
  vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_size(dispatch.required_subgroup_size);
  if (dispatch.required_subgroup_size != 0) {
    stage.flags = vk::PipelineShaderStageCreateFlagBits::eRequireFullSubgroups;
    stage.pNext = &subgroup_size;
  }
  auto [result, pipeline] = device.createComputePipelineUnique({}, {{}, stage, *pipeline_layout});
  if (result != vk::Result::eSuccess) throw Error("vulkan: cannot create the compute pipeline");

  const vk::DescriptorPoolSize pool_size(vk::DescriptorType::eUniformBuffer, 1);
  const vk::UniqueDescriptorPool pool = device.createDescriptorPoolUnique({vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 1, pool_size});
  vk::UniqueDescriptorSet set = std::move(device.allocateDescriptorSetsUnique({*pool, *set_layout}).front());
  const vk::DescriptorBufferInfo bank_info(*bank.buffer, 0, bank_size);
  device.updateDescriptorSets(vk::WriteDescriptorSet(*set, 0, 0, vk::DescriptorType::eUniformBuffer, {}, bank_info), {});

  context.submit_and_wait([&](vk::CommandBuffer commands) {
    commands.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline);
    commands.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *pipeline_layout, 0, *set, {});
    commands.dispatch(dispatch.grid[0], dispatch.grid[1], dispatch.grid[2]);
    // Results are read by the host after the fence.
    const vk::MemoryBarrier2 to_host(vk::PipelineStageFlagBits2::eComputeShader, vk::AccessFlagBits2::eShaderWrite,
                                     vk::PipelineStageFlagBits2::eHost, vk::AccessFlagBits2::eHostRead);
    commands.pipelineBarrier2(vk::DependencyInfo({}, to_host, {}, {}));
  });
}

} // namespace kiln::gpu
