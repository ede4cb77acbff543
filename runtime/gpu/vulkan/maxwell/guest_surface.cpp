#include "runtime/gpu/vulkan/maxwell/guest_surface.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"

namespace kiln::vulkan {
namespace {

using maxwell_formats::DepthLayout;
constexpr float kUnorm24 = 16777215.0f;

void image_barrier(vk::CommandBuffer commands, vk::Image image, vk::ImageAspectFlags aspects, vk::ImageLayout from,
                   vk::ImageLayout to, vk::PipelineStageFlags2 src_stage, vk::AccessFlags2 src_access,
                   vk::PipelineStageFlags2 dst_stage, vk::AccessFlags2 dst_access) {
  const vk::ImageMemoryBarrier2 barrier(src_stage, src_access, dst_stage, dst_access, from, to, VK_QUEUE_FAMILY_IGNORED,
                                        VK_QUEUE_FAMILY_IGNORED, image, {aspects, 0, 1, 0, 1});
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, barrier));
}

} // namespace

GuestSurface::GuestSurface(const Context& context, const SurfaceKey& key, uint32_t ordinal) : ordinal_(ordinal) {
  static_cast<SurfaceKey&>(key_) = key;
  const bool pitch = !key.depth && extract_bits(key.memory, 12, 1) != 0; // SET_COLOR_TARGET_MEMORY_LAYOUT_PITCH
  if (key.depth) {
    depth_ = maxwell_formats::depth_format(key.format, context.physical_device());
    if (!depth_) throw Error(fmt::format("depth format {:#x} is not supported yet", key.format));
    format_ = depth_->format;
    bytes_ = depth_->bytes;
  } else {
    const auto color = maxwell_formats::color_format(key.format);
    if (!color) throw Error(fmt::format("colour target format {:#x} is not supported yet", key.format));
    format_ = color->format;
    bytes_ = color->bytes;
    color_class_ = color->color_class;
  }
  // A pitch target's width register holds its pitch in bytes.
  key_.width_texels = pitch ? key.width / bytes_ : key.width;
  if (key_.width_texels == 0 || key.height == 0) throw Error(fmt::format("render target of {}x{} texels", key_.width_texels, key.height));
  textures::SurfaceDescription description;
  description.width = key_.width_texels;
  description.height = key.height;
  description.element.bytes = bytes_;
  if (pitch) {
    description.tiling = textures::Tiling::pitch_linear;
    description.pitch_bytes = key.width;
  } else {
    description.block_height_log2 = extract_bits(key.memory, 4, 4); // BLOCK_HEIGHT (log2 GOBs)
    description.block_depth_log2 = 0;
  }
  layout_ = textures::SurfaceLayout::compute(description, fmt::format("render target at GPU {:#x}", key.address));

  const vk::Device device = context.device();
  const vk::ImageUsageFlags usage = (key.depth ? vk::ImageUsageFlagBits::eDepthStencilAttachment : vk::ImageUsageFlagBits::eColorAttachment) |
                                    vk::ImageUsageFlagBits::eTransferSrc | vk::ImageUsageFlagBits::eTransferDst |
                                    vk::ImageUsageFlagBits::eSampled;
  image_.format = format_;
  image_.extent = vk::Extent2D{key_.width_texels, key.height};
  image_.image = device.createImageUnique({{}, vk::ImageType::e2D, format_, vk::Extent3D(image_.extent, 1), 1, 1,
                                           vk::SampleCountFlagBits::e1, vk::ImageTiling::eOptimal, usage,
                                           vk::SharingMode::eExclusive, {}, vk::ImageLayout::eUndefined});
  const auto requirements = device.getImageMemoryRequirements(*image_.image);
  image_.memory = device.allocateMemoryUnique(
      {requirements.size, find_memory_type(context.physical_device(), requirements.memoryTypeBits, vk::MemoryPropertyFlagBits::eDeviceLocal)});
  device.bindImageMemory(*image_.image, *image_.memory, 0);
  image_.view = device.createImageViewUnique({{}, *image_.image, vk::ImageViewType::e2D, format_, {}, {aspects(), 0, 1, 0, 1}});
}

vk::ImageAspectFlags GuestSurface::aspects() const {
  if (!key_.depth) return vk::ImageAspectFlagBits::eColor;
  return has_stencil() ? vk::ImageAspectFlagBits::eDepth | vk::ImageAspectFlagBits::eStencil : vk::ImageAspectFlagBits::eDepth;
}

vk::ImageLayout GuestSurface::attachment_layout() const {
  return key_.depth ? vk::ImageLayout::eDepthStencilAttachmentOptimal : vk::ImageLayout::eColorAttachmentOptimal;
}

uint64_t GuestSurface::host_bytes() const {
  const uint64_t texels = uint64_t{key_.width_texels} * key_.height;
  if (!depth_) return texels * bytes_;
  const uint64_t depth_bytes = depth_->format == vk::Format::eD16Unorm ? 2 : 4;
  return texels * depth_bytes + (has_stencil() ? texels : 0);
}

bool GuestSurface::needs_upload(const maxwell::AddressSpace& memory) const {
  if (!synced_) return true;
  const uint8_t* guest = memory.host_pointer(key_.address, layout_.total_size());
  return guest == nullptr || hash64(std::span<const uint8_t>(guest, layout_.total_size())) != synced_hash_;
}

// Guest texels (tightly packed, guest format) -> host copy planes (depth plane, then stencil plane).
void GuestSurface::from_guest_linear(const std::vector<uint8_t>& linear, uint8_t* host) const {
  const size_t texels = size_t{key_.width_texels} * key_.height;
  if (!depth_ || depth_->layout == DepthLayout::d16 || depth_->layout == DepthLayout::d32f) {
    std::memcpy(host, linear.data(), linear.size());
    return;
  }
  uint8_t* stencil = host + texels * 4;
  const bool host_float = depth_->format == vk::Format::eD32SfloatS8Uint;
  for (size_t i = 0; i < texels; ++i) {
    uint32_t z24 = 0, s = 0;
    float zf = 0;
    const uint32_t word = load<uint32_t>(linear.data() + i * bytes_, Endian::little);
    switch (depth_->layout) {
    case DepthLayout::s8z24: z24 = word & 0xffffff; s = word >> 24; break;
    case DepthLayout::z24s8: z24 = word >> 8; s = word & 0xff; break;
    case DepthLayout::d32f_s8: zf = std::bit_cast<float>(word); s = linear[i * bytes_ + 4]; break;
    default: break;
    }
    const uint32_t host_depth = depth_->layout == DepthLayout::d32f_s8 ? std::bit_cast<uint32_t>(zf)
                                : host_float ? std::bit_cast<uint32_t>(static_cast<float>(z24) / kUnorm24) : z24;
    store<uint32_t>(host + i * 4, host_depth, Endian::little);
    stencil[i] = static_cast<uint8_t>(s);
  }
}

std::vector<uint8_t> GuestSurface::to_guest_linear(const uint8_t* host) const {
  const size_t texels = size_t{key_.width_texels} * key_.height;
  std::vector<uint8_t> linear(texels * bytes_);
  if (!depth_ || depth_->layout == DepthLayout::d16 || depth_->layout == DepthLayout::d32f) {
    std::memcpy(linear.data(), host, linear.size());
    return linear;
  }
  const uint8_t* stencil = host + texels * 4;
  const bool host_float = depth_->format == vk::Format::eD32SfloatS8Uint;
  for (size_t i = 0; i < texels; ++i) {
    const uint32_t host_depth = load<uint32_t>(host + i * 4, Endian::little);
    const uint32_t s = stencil[i];
    uint8_t* out = linear.data() + i * bytes_;
    if (depth_->layout == DepthLayout::d32f_s8) {
      store<uint32_t>(out, host_depth, Endian::little);
      store<uint32_t>(out + 4, s, Endian::little);
      continue;
    }
    const uint32_t z24 = host_float ? static_cast<uint32_t>(std::lround(std::clamp(std::bit_cast<float>(host_depth), 0.0f, 1.0f) * kUnorm24))
                                    : host_depth & 0xffffff;
    store<uint32_t>(out, depth_->layout == DepthLayout::s8z24 ? (z24 | s << 24) : (z24 << 8 | s), Endian::little);
  }
  return linear;
}

void GuestSurface::record_upload(const maxwell::AddressSpace& memory, vk::CommandBuffer commands, Buffer& staging) {
  const std::vector<uint8_t> guest = memory.read_bytes(key_.address, layout_.total_size());
  std::vector<uint8_t> linear(size_t{key_.width_texels} * key_.height * bytes_);
  textures::deswizzle(layout_, 0, 0, textures::whole_level(layout_, 0), guest, linear);
  from_guest_linear(linear, static_cast<uint8_t*>(staging.mapped));
  synced_hash_ = hash64(guest);
  synced_ = true;

  image_barrier(commands, image(), aspects(), vk::ImageLayout::eUndefined, vk::ImageLayout::eTransferDstOptimal,
                vk::PipelineStageFlagBits2::eNone, {}, vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferWrite);
  const std::vector<vk::BufferImageCopy> regions = copy_regions();
  commands.copyBufferToImage(*staging.buffer, image(), vk::ImageLayout::eTransferDstOptimal, regions);
  const vk::PipelineStageFlags2 stages = key_.depth ? vk::PipelineStageFlagBits2::eEarlyFragmentTests | vk::PipelineStageFlagBits2::eLateFragmentTests
                                                    : vk::PipelineStageFlagBits2::eColorAttachmentOutput;
  const vk::AccessFlags2 access = key_.depth ? vk::AccessFlagBits2::eDepthStencilAttachmentRead | vk::AccessFlagBits2::eDepthStencilAttachmentWrite
                                             : vk::AccessFlagBits2::eColorAttachmentRead | vk::AccessFlagBits2::eColorAttachmentWrite;
  image_barrier(commands, image(), aspects(), vk::ImageLayout::eTransferDstOptimal, attachment_layout(), vk::PipelineStageFlagBits2::eCopy,
                vk::AccessFlagBits2::eTransferWrite, stages, access);
}

std::vector<vk::BufferImageCopy> GuestSurface::copy_regions() const {
  const vk::Extent3D extent(key_.width_texels, key_.height, 1);
  std::vector<vk::BufferImageCopy> regions;
  if (!depth_) {
    regions.emplace_back(0, 0, 0, vk::ImageSubresourceLayers(vk::ImageAspectFlagBits::eColor, 0, 0, 1), vk::Offset3D{}, extent);
  } else {
    regions.emplace_back(0, 0, 0, vk::ImageSubresourceLayers(vk::ImageAspectFlagBits::eDepth, 0, 0, 1), vk::Offset3D{}, extent);
    if (has_stencil()) { // stencil bytes follow the 32-bit depth words in the staging buffer
      regions.emplace_back(uint64_t{key_.width_texels} * key_.height * 4, 0, 0,
                           vk::ImageSubresourceLayers(vk::ImageAspectFlagBits::eStencil, 0, 0, 1), vk::Offset3D{}, extent);
    }
  }
  return regions;
}

void GuestSurface::record_readback(vk::CommandBuffer commands, const Buffer& readback) {
  const vk::PipelineStageFlags2 stages = key_.depth ? vk::PipelineStageFlagBits2::eEarlyFragmentTests | vk::PipelineStageFlagBits2::eLateFragmentTests
                                                    : vk::PipelineStageFlagBits2::eColorAttachmentOutput;
  const vk::AccessFlags2 access = key_.depth ? vk::AccessFlagBits2::eDepthStencilAttachmentRead | vk::AccessFlagBits2::eDepthStencilAttachmentWrite
                                             : vk::AccessFlagBits2::eColorAttachmentRead | vk::AccessFlagBits2::eColorAttachmentWrite;
  image_barrier(commands, image(), aspects(), attachment_layout(), vk::ImageLayout::eTransferSrcOptimal, stages, access,
                vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferRead);
  const std::vector<vk::BufferImageCopy> regions = copy_regions();
  commands.copyImageToBuffer(image(), vk::ImageLayout::eTransferSrcOptimal, *readback.buffer, regions);
  image_barrier(commands, image(), aspects(), vk::ImageLayout::eTransferSrcOptimal, attachment_layout(), vk::PipelineStageFlagBits2::eCopy,
                vk::AccessFlagBits2::eTransferRead, stages, access);
}

void GuestSurface::write_back(maxwell::AddressSpace& memory, const Buffer& readback) {
  const std::vector<uint8_t> linear = to_guest_linear(static_cast<const uint8_t*>(readback.mapped));
  std::vector<uint8_t> guest = memory.read_bytes(key_.address, layout_.total_size());
  textures::swizzle(layout_, 0, 0, textures::whole_level(layout_, 0), linear, guest);
  memory.write(key_.address, guest);
  synced_hash_ = hash64(guest);
  synced_ = true;
  gpu_dirty = false;
}

RgbaImage GuestSurface::read_rgba8(const maxwell::AddressSpace& memory) const {
  const std::vector<uint8_t> guest = memory.read_bytes(key_.address, layout_.total_size());
  std::vector<uint8_t> linear(size_t{key_.width_texels} * key_.height * bytes_);
  textures::deswizzle(layout_, 0, 0, textures::whole_level(layout_, 0), guest, linear);
  RgbaImage image{key_.width_texels, key_.height, std::vector<uint8_t>(size_t{key_.width_texels} * key_.height * 4)};
  auto unit = [](float value) { return static_cast<uint8_t>(std::lround(std::clamp(value, 0.0f, 1.0f) * 255.0f)); };
  for (size_t i = 0; i < size_t{key_.width_texels} * key_.height; ++i) {
    const uint8_t* in = linear.data() + i * bytes_;
    uint8_t* out = image.pixels.data() + i * 4;
    switch (format_) {
    case vk::Format::eR8G8B8A8Unorm: case vk::Format::eR8G8B8A8Srgb: std::memcpy(out, in, 4); break;
    case vk::Format::eB8G8R8A8Unorm: case vk::Format::eB8G8R8A8Srgb:
      out[0] = in[2]; out[1] = in[1]; out[2] = in[0]; out[3] = in[3]; break;
    case vk::Format::eR32G32B32A32Sfloat:
      for (int c = 0; c < 4; ++c) out[c] = unit(std::bit_cast<float>(load<uint32_t>(in + 4 * c, Endian::little)));
      break;
    case vk::Format::eR32Sfloat: out[0] = out[1] = out[2] = unit(std::bit_cast<float>(load<uint32_t>(in, Endian::little))); out[3] = 255; break;
    case vk::Format::eR8Unorm: out[0] = out[1] = out[2] = in[0]; out[3] = 255; break;
    default: throw Error(fmt::format("no PNG conversion for colour target format {:#x}", key_.format));
    }
  }
  return image;
}

} // namespace kiln::vulkan
