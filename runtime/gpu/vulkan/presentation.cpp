#include "runtime/gpu/vulkan/presentation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "runtime/base/error.h"
#include "runtime/base/log.h"

namespace kiln::vulkan {
namespace {

constexpr vk::Format source_format = vk::Format::eR8G8B8A8Unorm;

/// A UNORM format (a blit into SRGB would re-encode the guest's bytes) that blits can write.
vk::SurfaceFormatKHR choose_format(vk::PhysicalDevice device, vk::SurfaceKHR surface) {
  const auto formats = device.getSurfaceFormatsKHR(surface);
  for (vk::Format wanted : {vk::Format::eB8G8R8A8Unorm, vk::Format::eR8G8B8A8Unorm, vk::Format::eA2B10G10R10UnormPack32}) {
    for (const auto& format : formats) {
      if (format.format == wanted && format.colorSpace == vk::ColorSpaceKHR::eSrgbNonlinear &&
          (device.getFormatProperties(wanted).optimalTilingFeatures & vk::FormatFeatureFlagBits::eBlitDst))
        return format;
    }
  }
  throw Error("vulkan: the window's surface offers no UNORM format that blits can write (B8G8R8A8 or R8G8B8A8)");
}

vk::PresentModeKHR vulkan_mode(PresentMode mode) {
  switch (mode) {
  case PresentMode::mailbox: return vk::PresentModeKHR::eMailbox;
  case PresentMode::immediate: return vk::PresentModeKHR::eImmediate;
  default: return vk::PresentModeKHR::eFifo;
  }
}

vk::ImageMemoryBarrier2 colour_barrier(vk::Image image, vk::PipelineStageFlags2 source_stage, vk::AccessFlags2 source_access,
                                       vk::ImageLayout from, vk::PipelineStageFlags2 destination_stage,
                                       vk::AccessFlags2 destination_access, vk::ImageLayout to) {
  return vk::ImageMemoryBarrier2(source_stage, source_access, destination_stage, destination_access, from, to,
                                 VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, image,
                                 vk::ImageSubresourceRange(vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1));
}

} // namespace

std::optional<PresentMode> present_mode_from_name(std::string_view name) {
  if (name == "fifo") return PresentMode::fifo;
  if (name == "mailbox") return PresentMode::mailbox;
  if (name == "immediate") return PresentMode::immediate;
  return std::nullopt;
}

Presenter::Presenter(Context& context, vk::SurfaceKHR surface, PresentOptions options, std::function<vk::Extent2D()> drawable_size)
    : context_(context), surface_(surface), options_(options), drawable_size_(std::move(drawable_size)) {
  if (!context_.physical_device().getSurfaceSupportKHR(context_.queue_family(), surface_)) {
    context_.instance().destroySurfaceKHR(surface_);
    throw Error(fmt::format("vulkan: {} cannot present to this window from its graphics queue", context_.device_name()));
  }
  pool_ = context_.device().createCommandPoolUnique({vk::CommandPoolCreateFlagBits::eResetCommandBuffer, context_.queue_family()});
  const auto modes = context_.physical_device().getSurfacePresentModesKHR(surface_);
  present_mode_ = vulkan_mode(options_.mode);
  if (std::find(modes.begin(), modes.end(), present_mode_) == modes.end()) {
    log::warning("host: present mode {} is not offered by this window; using FIFO", vk::to_string(present_mode_));
    present_mode_ = vk::PresentModeKHR::eFifo; // every surface offers FIFO
  }
}

Presenter::~Presenter() {
  context_.device().waitIdle();
  slots_.clear();
  rendered_.clear();
  swapchain_.reset();
  context_.instance().destroySurfaceKHR(surface_);
}

bool Presenter::create_swapchain() {
  const vk::PhysicalDevice physical = context_.physical_device();
  const auto capabilities = physical.getSurfaceCapabilitiesKHR(surface_);
  vk::Extent2D extent = capabilities.currentExtent;
  if (extent.width == 0xffffffffu) {
    extent = drawable_size_();
    extent.width = std::clamp(extent.width, capabilities.minImageExtent.width, capabilities.maxImageExtent.width);
    extent.height = std::clamp(extent.height, capabilities.minImageExtent.height, capabilities.maxImageExtent.height);
  }
  if (extent.width == 0 || extent.height == 0) return false; // minimised: try again at the next frame
  if (!(capabilities.supportedUsageFlags & vk::ImageUsageFlagBits::eTransferDst))
    throw Error("vulkan: the window's swapchain images cannot be blit destinations (no TRANSFER_DST usage)");
  const vk::SurfaceFormatKHR format = choose_format(physical, surface_);
  uint32_t count = std::max(capabilities.minImageCount + 1, 2u);
  if (capabilities.maxImageCount) count = std::min(count, capabilities.maxImageCount);
  const vk::Device device = context_.device();
  device.waitIdle(); // every slot's work is done before its images go
  vk::SwapchainCreateInfoKHR info({}, surface_, count, format.format, format.colorSpace, extent, 1,
                                  vk::ImageUsageFlagBits::eTransferDst, vk::SharingMode::eExclusive, {},
                                  capabilities.currentTransform, vk::CompositeAlphaFlagBitsKHR::eOpaque, present_mode_,
                                  VK_TRUE, *swapchain_);
  if (!(capabilities.supportedCompositeAlpha & vk::CompositeAlphaFlagBitsKHR::eOpaque))
    info.compositeAlpha = vk::CompositeAlphaFlagBitsKHR::eInherit;
  swapchain_ = device.createSwapchainKHRUnique(info);
  images_ = device.getSwapchainImagesKHR(*swapchain_);
  format_ = format.format;
  extent_ = extent;
  rendered_.clear();
  for (size_t i = 0; i < images_.size(); ++i) rendered_.push_back(device.createSemaphoreUnique({}));
  if (slots_.size() != images_.size()) {
    slots_.clear();
    auto buffers = device.allocateCommandBuffersUnique({*pool_, vk::CommandBufferLevel::ePrimary, static_cast<uint32_t>(images_.size())});
    for (auto& commands : buffers) {
      Slot slot;
      slot.fence = device.createFenceUnique({vk::FenceCreateFlagBits::eSignaled});
      slot.acquired = device.createSemaphoreUnique({});
      slot.commands = std::move(commands);
      slots_.push_back(std::move(slot));
    }
    next_slot_ = 0;
  }
  ++swapchains_created_;
  recreate_ = false;
  log::verbose("host: swapchain {}x{}, {} images, {}", extent.width, extent.height, images_.size(), vk::to_string(present_mode_));
  return true;
}

void Presenter::record(Slot& slot, const CpuImage& image, uint32_t image_index, const PresentRect& rect) {
  const vk::CommandBuffer commands = *slot.commands;
  const vk::Image source = *slot.source.image, target = images_[image_index];
  commands.reset();
  commands.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  using Stage = vk::PipelineStageFlagBits2;
  using Access = vk::AccessFlagBits2;
  // The source image's earlier contents are not needed (its last use finished: the slot's fence); the
  // swapchain image's wait on the acquire semaphore happens at the transfer stage, where this barrier starts.
  const vk::ImageMemoryBarrier2 before[2] = {
      colour_barrier(source, Stage::eNone, Access::eNone, vk::ImageLayout::eUndefined, Stage::eCopy, Access::eTransferWrite,
                     vk::ImageLayout::eTransferDstOptimal),
      colour_barrier(target, Stage::eAllTransfer, Access::eNone, vk::ImageLayout::eUndefined, Stage::eClear,
                     Access::eTransferWrite, vk::ImageLayout::eTransferDstOptimal)};
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, before));
  commands.copyBufferToImage(*slot.staging.buffer, source, vk::ImageLayout::eTransferDstOptimal,
                             vk::BufferImageCopy(0, 0, 0, {vk::ImageAspectFlagBits::eColor, 0, 0, 1}, {0, 0, 0},
                                                 {image.width, image.height, 1}));
  const vk::ImageSubresourceRange whole(vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1);
  commands.clearColorImage(target, vk::ImageLayout::eTransferDstOptimal, vk::ClearColorValue(std::array<float, 4>{0, 0, 0, 1}), whole);
  const vk::ImageMemoryBarrier2 to_blit[2] = {
      colour_barrier(source, Stage::eCopy, Access::eTransferWrite, vk::ImageLayout::eTransferDstOptimal, Stage::eBlit,
                     Access::eTransferRead, vk::ImageLayout::eTransferSrcOptimal),
      colour_barrier(target, Stage::eClear, Access::eTransferWrite, vk::ImageLayout::eTransferDstOptimal, Stage::eBlit,
                     Access::eTransferWrite, vk::ImageLayout::eTransferDstOptimal)};
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, to_blit));
  const vk::ImageSubresourceLayers layers(vk::ImageAspectFlagBits::eColor, 0, 0, 1);
  const vk::ImageBlit blit(layers, {vk::Offset3D{0, 0, 0}, vk::Offset3D{int32_t(image.width), int32_t(image.height), 1}}, layers,
                           {vk::Offset3D{rect.x, rect.y, 0}, vk::Offset3D{rect.x + int32_t(rect.width), rect.y + int32_t(rect.height), 1}});
  commands.blitImage(source, vk::ImageLayout::eTransferSrcOptimal, target, vk::ImageLayout::eTransferDstOptimal, blit, vk::Filter::eNearest);
  const vk::ImageMemoryBarrier2 to_present = colour_barrier(target, Stage::eBlit, Access::eTransferWrite, vk::ImageLayout::eTransferDstOptimal,
                                                            Stage::eNone, Access::eNone, vk::ImageLayout::ePresentSrcKHR);
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, to_present));
  commands.end();
}

bool Presenter::present(const CpuImage& image, double display_aspect) {
  if (image.width == 0 || image.height == 0) return false;
  const vk::Device device = context_.device();
  if (recreate_ && !create_swapchain()) return false;
  Slot& slot = slots_[next_slot_];
  if (device.waitForFences(*slot.fence, VK_TRUE, UINT64_MAX) != vk::Result::eSuccess) throw Error("vulkan: waiting for a presented frame failed");
  uint32_t image_index = 0;
  for (int attempt = 0;; ++attempt) {
    const VkResult result = VULKAN_HPP_DEFAULT_DISPATCHER.vkAcquireNextImageKHR(device, *swapchain_, UINT64_MAX, *slot.acquired, VK_NULL_HANDLE, &image_index);
    if (result == VK_SUCCESS) break;
    if (result == VK_SUBOPTIMAL_KHR) { recreate_ = true; break; }
    if (result == VK_ERROR_OUT_OF_DATE_KHR && attempt == 0) {
      if (!create_swapchain()) return false;
      continue;
    }
    throw Error(fmt::format("vulkan: acquiring a swapchain image failed ({})", vk::to_string(vk::Result(result))));
  }
  // The slot's staging buffer and source image follow the frame's size.
  const vk::DeviceSize bytes = vk::DeviceSize{image.width} * image.height * 4;
  if (slot.staging.size < bytes) slot.staging = create_host_buffer(context_, bytes, vk::BufferUsageFlagBits::eTransferSrc);
  if (!slot.source.image || slot.source.extent != vk::Extent2D{image.width, image.height})
    slot.source = create_image_2d(context_, source_format, {image.width, image.height},
                                  // eSampled only because create_image_2d gives every image a view
                                  vk::ImageUsageFlagBits::eTransferDst | vk::ImageUsageFlagBits::eTransferSrc | vk::ImageUsageFlagBits::eSampled);
  for (uint32_t row = 0; row < image.height; ++row)
    std::memcpy(static_cast<uint8_t*>(slot.staging.mapped) + size_t{row} * image.width * 4, image.pixels + size_t{row} * image.pitch, size_t{image.width} * 4);
  const PresentRect rect = fit_image(image.width, image.height, display_aspect, extent_.width, extent_.height, options_.scaling);
  record(slot, image, image_index, rect);
  device.resetFences(*slot.fence);
  const vk::SemaphoreSubmitInfo wait(*slot.acquired, 0, vk::PipelineStageFlagBits2::eAllTransfer);
  const vk::SemaphoreSubmitInfo signal(*rendered_[image_index], 0, vk::PipelineStageFlagBits2::eAllTransfer);
  const vk::CommandBufferSubmitInfo command_info(*slot.commands);
  context_.queue().submit2(vk::SubmitInfo2({}, wait, command_info, signal), *slot.fence);
  const VkSemaphore rendered = *rendered_[image_index];
  const VkSwapchainKHR swapchain = *swapchain_;
  const VkPresentInfoKHR present_info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, nullptr, 1, &rendered, 1, &swapchain, &image_index, nullptr};
  const VkResult presented = VULKAN_HPP_DEFAULT_DISPATCHER.vkQueuePresentKHR(context_.queue(), &present_info);
  if (presented == VK_SUBOPTIMAL_KHR || presented == VK_ERROR_OUT_OF_DATE_KHR) {
    recreate_ = true;
  } else if (presented != VK_SUCCESS) {
    throw Error(fmt::format("vulkan: presenting failed ({})", vk::to_string(vk::Result(presented))));
  }
  next_slot_ = (next_slot_ + 1) % slots_.size();
  return true;
}

} // namespace kiln::vulkan
