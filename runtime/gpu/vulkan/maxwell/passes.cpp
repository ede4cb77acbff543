#include "runtime/gpu/vulkan/maxwell/passes.h"

#include <algorithm>

namespace kiln::vulkan {

bool PassRecorder::attaches(const GuestSurface& surface) const {
  return pass_ && (std::find(pass_->colors.begin(), pass_->colors.end(), &surface) != pass_->colors.end() || pass_->depth == &surface);
}

void PassRecorder::end(Batch* b) {
  if (!pass_) return;
  if (b) b->commands.endRendering();
  pass_.reset();
}

void PassRecorder::begin(Batch& b, const Pass& wanted) {
  // Attachments written by an earlier pass are read and written again by this one.
  const vk::MemoryBarrier2 barrier(
      vk::PipelineStageFlagBits2::eColorAttachmentOutput | vk::PipelineStageFlagBits2::eEarlyFragmentTests |
          vk::PipelineStageFlagBits2::eLateFragmentTests,
      vk::AccessFlagBits2::eColorAttachmentWrite | vk::AccessFlagBits2::eDepthStencilAttachmentWrite,
      vk::PipelineStageFlagBits2::eColorAttachmentOutput | vk::PipelineStageFlagBits2::eEarlyFragmentTests |
          vk::PipelineStageFlagBits2::eLateFragmentTests,
      vk::AccessFlagBits2::eColorAttachmentRead | vk::AccessFlagBits2::eColorAttachmentWrite |
          vk::AccessFlagBits2::eDepthStencilAttachmentRead | vk::AccessFlagBits2::eDepthStencilAttachmentWrite);
  b.commands.pipelineBarrier2(vk::DependencyInfo({}, barrier, {}, {}));
  std::vector<vk::RenderingAttachmentInfo> colors;
  for (GuestSurface* s : wanted.colors) {
    if (!s) {
      colors.emplace_back();
      continue;
    }
    colors.emplace_back(s->view(), s->attachment_layout(), vk::ResolveModeFlagBits::eNone, nullptr, vk::ImageLayout::eUndefined,
                        vk::AttachmentLoadOp::eLoad, vk::AttachmentStoreOp::eStore);
    s->gpu_dirty = true;
  }
  vk::RenderingAttachmentInfo depth, stencil;
  vk::RenderingInfo info({}, {{0, 0}, wanted.extent}, 1, 0, colors);
  if (wanted.depth) {
    depth = vk::RenderingAttachmentInfo(wanted.depth->view(), wanted.depth->attachment_layout(), vk::ResolveModeFlagBits::eNone, nullptr,
                                        vk::ImageLayout::eUndefined, vk::AttachmentLoadOp::eLoad, vk::AttachmentStoreOp::eStore);
    info.pDepthAttachment = &depth;
    if (wanted.depth->has_stencil()) {
      stencil = depth;
      info.pStencilAttachment = &stencil;
    }
    wanted.depth->gpu_dirty = true;
  }
  b.commands.beginRendering(info);
  pass_ = wanted;
}

} // namespace kiln::vulkan
