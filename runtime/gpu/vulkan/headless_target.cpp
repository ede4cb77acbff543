#include "runtime/gpu/vulkan/headless_target.h"

#include <cstring>

namespace kiln::vulkan {
namespace {

void transition(vk::CommandBuffer commands, vk::Image image, vk::ImageLayout from, vk::ImageLayout to,
                vk::PipelineStageFlags2 src_stage, vk::AccessFlags2 src_access, vk::PipelineStageFlags2 dst_stage,
                vk::AccessFlags2 dst_access) {
  vk::ImageMemoryBarrier2 barrier(src_stage, src_access, dst_stage, dst_access, from, to, VK_QUEUE_FAMILY_IGNORED,
                                  VK_QUEUE_FAMILY_IGNORED, image, {vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1});
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, barrier));
}

} // namespace

HeadlessTarget::HeadlessTarget(Context& context, vk::Extent2D extent)
    : context_(context),
      image_(create_image_2d(context, vk::Format::eR8G8B8A8Unorm, extent,
                             vk::ImageUsageFlagBits::eColorAttachment | vk::ImageUsageFlagBits::eTransferSrc)) {}

void HeadlessTarget::clear(const std::array<float, 4>& rgba) {
  context_.submit_and_wait([&](vk::CommandBuffer commands) {
    transition(commands, *image_.image, layout_, vk::ImageLayout::eColorAttachmentOptimal,
               vk::PipelineStageFlagBits2::eAllCommands, vk::AccessFlagBits2::eMemoryRead | vk::AccessFlagBits2::eMemoryWrite,
               vk::PipelineStageFlagBits2::eColorAttachmentOutput, vk::AccessFlagBits2::eColorAttachmentWrite);
    vk::RenderingAttachmentInfo attachment(*image_.view, vk::ImageLayout::eColorAttachmentOptimal, {}, {}, {},
                                           vk::AttachmentLoadOp::eClear, vk::AttachmentStoreOp::eStore,
                                           vk::ClearValue(vk::ClearColorValue(rgba)));
    commands.beginRendering(vk::RenderingInfo({}, {{0, 0}, image_.extent}, 1, 0, attachment));
    commands.endRendering();
  });
  layout_ = vk::ImageLayout::eColorAttachmentOptimal;
}

RgbaImage HeadlessTarget::read_back() {
  const vk::Extent2D extent = image_.extent;
  const vk::DeviceSize size = vk::DeviceSize{extent.width} * extent.height * 4;
  Buffer staging = create_host_buffer(context_, size, vk::BufferUsageFlagBits::eTransferDst);
  context_.submit_and_wait([&](vk::CommandBuffer commands) {
    transition(commands, *image_.image, layout_, vk::ImageLayout::eTransferSrcOptimal,
               vk::PipelineStageFlagBits2::eColorAttachmentOutput, vk::AccessFlagBits2::eColorAttachmentWrite,
               vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferRead);
    vk::BufferImageCopy region(0, 0, 0, {vk::ImageAspectFlagBits::eColor, 0, 0, 1}, {0, 0, 0},
                               vk::Extent3D(extent, 1));
    commands.copyImageToBuffer(*image_.image, vk::ImageLayout::eTransferSrcOptimal, *staging.buffer, region);
    // Make the copy's writes visible to the host read below.
    vk::MemoryBarrier2 to_host(vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferWrite,
                               vk::PipelineStageFlagBits2::eHost, vk::AccessFlagBits2::eHostRead);
    commands.pipelineBarrier2(vk::DependencyInfo({}, to_host, {}, {}));
  });
  layout_ = vk::ImageLayout::eTransferSrcOptimal;
  RgbaImage image{extent.width, extent.height, std::vector<uint8_t>(size)};
  std::memcpy(image.pixels.data(), staging.mapped, size);
  return image;
}

} // namespace kiln::vulkan
