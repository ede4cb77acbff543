// Compute dispatches (docs/renderer.md, "Compute"): an SM86 program found in guest memory, translated once per
// content, run with the guest's GPU address range mirrored in one device-addressable buffer; the pages the
// dispatch changed are written back into guest memory before dispatch() returns.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/vulkan/maxwell/guest_program.h"
#include "runtime/gpu/vulkan/maxwell/renderer_state.h"
#include "translator/sass/sm86/constant_buffer.h"
#include "translator/sass/sm86/lower.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

namespace kiln::vulkan {
namespace {

using maxwell::AddressSpace;

/// GM20B's shared memory per workgroup (the limit the guest's driver enforces; Ampere's larger carve-outs are
/// not offered).
constexpr uint32_t kMaxSharedMemory = 48 * 1024;

/// The kernel as the SM86 lowering takes it, without its code: what the QMD says of its memory, and as constant
/// banks the QMD's valid bindings read from guest memory (bank 0 first; constant_buffer.h packs them).
sass::sm86::Kernel kernel_of(const AddressSpace& memory, const maxwell::DispatchSnapshot& dispatch) {
  sass::sm86::Kernel kernel;
  kernel.name = "main";
  kernel.register_count = dispatch.register_count;
  kernel.shared_memory_size = dispatch.shared_memory_size;
  kernel.local_memory_size = dispatch.local_memory_size;
  for (uint32_t bank = 0; bank < dispatch.constant_buffers.size(); ++bank) {
    const maxwell::ConstantBufferBinding& binding = dispatch.constant_buffers[bank];
    if (!binding.valid) continue;
    if (!memory.is_mapped(binding.address, binding.size)) {
      throw Error(fmt::format("constant buffer {} at GPU {:#x} (+{:#x}) is not mapped", bank, binding.address, binding.size));
    }
    std::vector<uint8_t> bytes = memory.read_bytes(binding.address, binding.size);
    if (bank == 0) kernel.constant0 = std::move(bytes);
    else kernel.constant_banks.push_back({.bank = bank, .bytes = std::move(bytes)});
  }
  return kernel;
}

void check_launch_shape(const vk::PhysicalDeviceLimits& limits, const maxwell::DispatchSnapshot& dispatch) {
  const auto& block = dispatch.block;
  const uint64_t invocations = uint64_t{block[0]} * block[1] * block[2];
  const uint64_t most = std::min<uint64_t>(spirv::max_workgroup_invocations, limits.maxComputeWorkGroupInvocations);
  if (invocations == 0 || invocations > most) {
    throw Error(fmt::format("block {}x{}x{} has {} threads (1 to {} can run)", block[0], block[1], block[2], invocations, most));
  }
  for (size_t i = 0; i < 3; ++i) {
    if (block[i] > limits.maxComputeWorkGroupSize[i]) {
      throw Error(fmt::format("block dimension {} is {}, the device allows {}", i, block[i], limits.maxComputeWorkGroupSize[i]));
    }
    if (dispatch.grid[i] > limits.maxComputeWorkGroupCount[i]) {
      throw Error(fmt::format("grid dimension {} is {}, the device allows {}", i, dispatch.grid[i], limits.maxComputeWorkGroupCount[i]));
    }
  }
  const uint32_t shared_limit = std::min(kMaxSharedMemory, limits.maxComputeSharedMemorySize);
  if (dispatch.shared_memory_size > shared_limit) {
    throw Error(fmt::format("{} bytes of shared memory asked, at most {} can be given (GM20B: {}, this device: {})",
                            dispatch.shared_memory_size, shared_limit, kMaxSharedMemory, limits.maxComputeSharedMemorySize));
  }
}

} // namespace

ComputeCache::Program& MaxwellRenderer::State::compute_program(const maxwell::DispatchSnapshot& dispatch, sass::sm86::Kernel& kernel) {
  // The module depends on the code, the memory sizes the lowering declares and the constant bank layout.
  const std::vector<uint8_t> code =
      sm86_code_bytes(memory, dispatch.program_address, kMaxComputeProgram, fmt::format("compute program at GPU {:#x}", dispatch.program_address));
  const HostProfile& profile = pipelines.profile();
  const spirv::WarpModel warp_model = compute_warp_model(profile, dispatch.block);
  const uint64_t key = compute_program_key(code, dispatch, profile, warp_model);
  const auto found = compute.programs.find(key);
  if (found != compute.programs.end()) {
    ++statistics.compute_programs_reused;
    return *found->second;
  }
  kernel.code = code;
  const std::string file = fmt::format("compute program at GPU {:#x}", dispatch.program_address);
  const std::vector<uint32_t> words =
      spirv::emit_compute(sass::sm86::translate_kernel(kernel, file, sass::sm86::Architecture::sm86),
                          {.warp_model = warp_model, .floats = profile.floats, .global_address_bias = true});
  if (const auto messages = spirv::validate(words); !messages.empty()) throw Error(fmt::format("{}: spirv-val: {}", file, messages.front()));
  auto program = std::make_unique<ComputeCache::Program>();
  program->module = context.device().createShaderModuleUnique({{}, words.size() * sizeof(uint32_t), words.data()});
  program->warp_model = warp_model;
  ++statistics.compute_programs_translated;
  return *compute.programs.emplace(key, std::move(program)).first->second;
}

vk::Pipeline MaxwellRenderer::State::compute_pipeline(ComputeCache::Program& program, const std::array<uint32_t, 3>& block) {
  const vk::Device device = context.device();
  if (!compute.layout) {
    const vk::DescriptorSetLayoutBinding binding(spirv::const_bank_binding, vk::DescriptorType::eUniformBuffer, 1,
                                                 vk::ShaderStageFlagBits::eCompute);
    compute.set_layout = device.createDescriptorSetLayoutUnique({{}, binding});
    const vk::PushConstantRange bias(vk::ShaderStageFlagBits::eCompute, 0, spirv::global_address_bias_bytes);
    compute.layout = device.createPipelineLayoutUnique({{}, *compute.set_layout, bias});
  }
  const uint64_t key = uint64_t{block[0]} | uint64_t{block[1]} << 21 | uint64_t{block[2]} << 42;
  if (const auto found = program.pipelines.find(key); found != program.pipelines.end()) return *found->second;
  const std::array<vk::SpecializationMapEntry, 3> entries{vk::SpecializationMapEntry(0, 0, 4), vk::SpecializationMapEntry(1, 4, 4),
                                                           vk::SpecializationMapEntry(2, 8, 4)};
  const vk::SpecializationInfo specialization(static_cast<uint32_t>(entries.size()), entries.data(), sizeof(block), block.data());
  vk::PipelineShaderStageCreateInfo stage({}, vk::ShaderStageFlagBits::eCompute, *program.module, "main", &specialization);
  // The subgroup warp model reads a warp as one subgroup: 32 lanes, all present (compute_warp_model checked that
  // the block splits into full subgroups).
  const vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo warp_size(warp_lanes);
  if (program.warp_model == spirv::WarpModel::Subgroup) {
    stage.flags = vk::PipelineShaderStageCreateFlagBits::eRequireFullSubgroups;
    stage.pNext = &warp_size;
  }
  auto [result, pipeline] = device.createComputePipelineUnique({}, {{}, stage, *compute.layout});
  if (result != vk::Result::eSuccess) throw Error(fmt::format("vulkan: the compute pipeline was not created ({})", vk::to_string(result)));
  return *program.pipelines.emplace(key, std::move(pipeline)).first->second;
}

void MaxwellRenderer::State::record_dispatch(const maxwell::DispatchSnapshot& dispatch) {
  if (maxwell::program_isa_of(dispatch.class_id) != maxwell::ProgramIsa::sm86) {
    throw Error(fmt::format("compute program at GPU address {:#x}: SM5x compute kernels are not lowered yet", dispatch.program_address));
  }
  const vk::PhysicalDeviceLimits limits = context.physical_device().getProperties().limits;
  check_launch_shape(limits, dispatch);
  // Command order: earlier draws finish and their render targets reach guest memory before the kernel reads it.
  flush();
  sass::sm86::Kernel kernel = kernel_of(memory, dispatch);
  ComputeCache::Program& program = compute_program(dispatch, kernel);
  const vk::Pipeline pipeline = compute_pipeline(program, dispatch.block);

  // The guest's GPU address range, mirrored: device address = GPU address + bias (emit_compute.h).
  const std::vector<std::pair<uint64_t, uint64_t>> mappings = memory.mappings();
  if (mappings.empty()) throw Error("no GPU memory is mapped");
  const uint64_t base = mappings.front().first, end = mappings.back().first + mappings.back().second;
  if (end - base > kMaxComputeAddressSpan) {
    throw Error(fmt::format("the mapped GPU range {:#x}..{:#x} spans {} MiB; a dispatch can address at most {} MiB", base, end,
                            (end - base) >> 20, kMaxComputeAddressSpan >> 20));
  }
  AddressableBuffer mirror = create_addressable_buffer(context, end - base);
  std::memset(mirror.mapped, 0, mirror.size);
  for (const auto& [address, size] : mappings) memory.read(address, std::span(mirror.mapped + (address - base), size));
  const std::vector<uint8_t> before(mirror.mapped, mirror.mapped + mirror.size);
  const uint64_t bias = mirror.address - base; // modulo 2^64, as the module's addition is
  if (bias % 16 != 0) throw Error(fmt::format("the mirror's device address {:#x} is not 16-byte aligned", mirror.address));

  // The constant banks in the layout the lowering read them from (the guest wrote its own addresses: nothing to
  // relocate).
  const std::vector<uint8_t> constants = sass::sm86::pack_constant_buffer(kernel, kernel.constant0, 0);
  if (constants.size() > limits.maxUniformBufferRange) {
    throw Error(fmt::format("{} bytes of constant banks exceed the device's uniform buffer range of {}", constants.size(),
                            limits.maxUniformBufferRange));
  }
  const vk::DeviceSize bank_size = std::max<vk::DeviceSize>(16, align_up(uint64_t{constants.size()}, uint64_t{16}));
  Buffer bank = create_host_buffer(context, bank_size, vk::BufferUsageFlagBits::eUniformBuffer);
  std::memset(bank.mapped, 0, bank_size);
  std::copy(constants.begin(), constants.end(), static_cast<uint8_t*>(bank.mapped));

  const vk::Device device = context.device();
  const vk::DescriptorPoolSize pool_size(vk::DescriptorType::eUniformBuffer, 1);
  const vk::UniqueDescriptorPool pool = device.createDescriptorPoolUnique({{}, 1, pool_size});
  const vk::DescriptorSet set = device.allocateDescriptorSets({*pool, *compute.set_layout}).front();
  const vk::DescriptorBufferInfo bank_info(*bank.buffer, 0, bank_size);
  device.updateDescriptorSets(vk::WriteDescriptorSet(set, spirv::const_bank_binding, 0, vk::DescriptorType::eUniformBuffer, {}, bank_info), {});
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    commands.bindPipeline(vk::PipelineBindPoint::eCompute, pipeline);
    commands.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *compute.layout, 0, set, {});
    commands.pushConstants(*compute.layout, vk::ShaderStageFlagBits::eCompute, 0, spirv::global_address_bias_bytes, &bias);
    commands.dispatch(dispatch.grid[0], dispatch.grid[1], dispatch.grid[2]);
    const vk::MemoryBarrier2 to_host(vk::PipelineStageFlagBits2::eComputeShader, vk::AccessFlagBits2::eShaderWrite,
                                     vk::PipelineStageFlagBits2::eHost, vk::AccessFlagBits2::eHostRead);
    commands.pipelineBarrier2(vk::DependencyInfo({}, to_host, {}, {}));
  });

  // Only the pages the kernel changed go back: the guest CPU may own the rest meanwhile.
  for (const auto& [address, size] : mappings) {
    for (uint64_t page = address; page < address + size; page += AddressSpace::page_size) {
      const uint64_t offset = page - base;
      const uint64_t bytes = std::min<uint64_t>(AddressSpace::page_size, address + size - page);
      if (std::memcmp(before.data() + offset, mirror.mapped + offset, bytes) == 0) continue;
      memory.write(page, std::span<const uint8_t>(mirror.mapped + offset, bytes));
      ++statistics.compute_pages_written_back;
    }
  }
  ++statistics.dispatches;
}

} // namespace kiln::vulkan
