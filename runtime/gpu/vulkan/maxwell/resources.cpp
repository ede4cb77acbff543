#include "runtime/gpu/vulkan/maxwell/resources.h"

namespace kiln::vulkan {

DefaultResources::DefaultResources(Context& context) {
  const vk::Device device = context.device();
  struct Spec {
    vk::ImageType type;
    uint32_t layers;
    vk::ImageCreateFlags flags;
  };
  const Spec specs[3] = {{vk::ImageType::e1D, 2, {}}, {vk::ImageType::e2D, 6, vk::ImageCreateFlagBits::eCubeCompatible}, {vk::ImageType::e3D, 1, {}}};
  const vk::Format format = vk::Format::eR8G8B8A8Unorm;
  for (size_t i = 0; i < 3; ++i) {
    images_[i] = device.createImageUnique({specs[i].flags, specs[i].type, format, vk::Extent3D(1, 1, 1), 1, specs[i].layers,
                                           vk::SampleCountFlagBits::e1, vk::ImageTiling::eOptimal,
                                           vk::ImageUsageFlagBits::eSampled | vk::ImageUsageFlagBits::eTransferDst});
    const auto requirements = device.getImageMemoryRequirements(*images_[i]);
    memory_[i] = device.allocateMemoryUnique(
        {requirements.size, find_memory_type(context.physical_device(), requirements.memoryTypeBits, vk::MemoryPropertyFlagBits::eDeviceLocal)});
    device.bindImageMemory(*images_[i], *memory_[i], 0);
  }
  auto make_view = [&](size_t image, vk::ImageViewType type, uint32_t layers) {
    return device.createImageViewUnique({{}, *images_[image], type, format, {}, {vk::ImageAspectFlagBits::eColor, 0, 1, 0, layers}});
  };
  views_[0] = make_view(0, vk::ImageViewType::e1D, 1);
  views_[1] = make_view(0, vk::ImageViewType::e1DArray, 2);
  views_[2] = make_view(1, vk::ImageViewType::e2D, 1);
  views_[3] = make_view(1, vk::ImageViewType::e2DArray, 6);
  views_[4] = make_view(2, vk::ImageViewType::e3D, 1);
  views_[5] = make_view(2, vk::ImageViewType::e3D, 1); // no 3D arrays exist; never declared
  views_[6] = make_view(1, vk::ImageViewType::eCube, 6);
  views_[7] = make_view(1, vk::ImageViewType::eCubeArray, 6);
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    for (size_t i = 0; i < 3; ++i) {
      const vk::ImageSubresourceRange range(vk::ImageAspectFlagBits::eColor, 0, 1, 0, specs[i].layers);
      const vk::ImageMemoryBarrier2 to_transfer(vk::PipelineStageFlagBits2::eNone, {}, vk::PipelineStageFlagBits2::eClear,
                                                vk::AccessFlagBits2::eTransferWrite, vk::ImageLayout::eUndefined,
                                                vk::ImageLayout::eTransferDstOptimal, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED,
                                                *images_[i], range);
      commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, to_transfer));
      commands.clearColorImage(*images_[i], vk::ImageLayout::eTransferDstOptimal, vk::ClearColorValue(std::array<float, 4>{0, 0, 0, 0}), range);
      const vk::ImageMemoryBarrier2 to_read(vk::PipelineStageFlagBits2::eClear, vk::AccessFlagBits2::eTransferWrite,
                                            vk::PipelineStageFlagBits2::eVertexShader | vk::PipelineStageFlagBits2::eFragmentShader,
                                            vk::AccessFlagBits2::eShaderSampledRead, vk::ImageLayout::eTransferDstOptimal,
                                            vk::ImageLayout::eShaderReadOnlyOptimal, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED,
                                            *images_[i], range);
      commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, to_read));
    }
  });
  sampler_ = device.createSamplerUnique({{}, vk::Filter::eNearest, vk::Filter::eNearest, vk::SamplerMipmapMode::eNearest,
                                         vk::SamplerAddressMode::eClampToEdge, vk::SamplerAddressMode::eClampToEdge,
                                         vk::SamplerAddressMode::eClampToEdge});
}

} // namespace kiln::vulkan
