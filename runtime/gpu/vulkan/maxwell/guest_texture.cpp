#include "runtime/gpu/vulkan/maxwell/guest_texture.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"

namespace kiln::vulkan {

GuestTexture::GuestTexture(const Context& context, const TextureHeader& header) : header_(header) {
  const auto format = texture_format(header);
  if (!format) {
    throw Error(fmt::format("texture at GPU {:#x}: components {:#x} type {} are not sampled yet", header.address, header.components,
                            header.data_type[0]));
  }
  format_ = *format;
  // TIC texture types (clb197tex.h TEXHEAD_BL_TEXTURE_TYPE); DEPTH_MINUS_ONE counts layers of arrays, slices of
  // a 3D texture and cubes of a cube array. Cube faces are layers in the order +X, -X, +Y, -Y, +Z, -Z, as in
  // Vulkan, six per cube.
  uint32_t layers = 1, depth = 1;
  vk::ImageType image_type = vk::ImageType::e2D;
  vk::ImageViewType view_type = vk::ImageViewType::e2D;
  vk::ImageCreateFlags flags;
  switch (header.texture_type) {
  case 0: image_type = vk::ImageType::e1D; view_type = vk::ImageViewType::e1D; dimension_ = 0; break; // ONE_D
  case 4: // ONE_D_ARRAY
    image_type = vk::ImageType::e1D; view_type = vk::ImageViewType::e1DArray; dimension_ = 0; arrayed_ = true; layers = header.depth;
    break;
  case 1: case 7: break; // TWO_D, TWO_D_NO_MIPMAP
  case 5: view_type = vk::ImageViewType::e2DArray; arrayed_ = true; layers = header.depth; break; // TWO_D_ARRAY
  case 2: image_type = vk::ImageType::e3D; view_type = vk::ImageViewType::e3D; dimension_ = 2; depth = header.depth; break; // THREE_D
  case 3: // CUBEMAP
    view_type = vk::ImageViewType::eCube; dimension_ = 3; layers = 6; flags = vk::ImageCreateFlagBits::eCubeCompatible;
    break;
  case 8: // CUBE_ARRAY
    view_type = vk::ImageViewType::eCubeArray; dimension_ = 3; arrayed_ = true; layers = 6 * header.depth;
    flags = vk::ImageCreateFlagBits::eCubeCompatible;
    break;
  default: throw Error(fmt::format("texture at GPU {:#x}: texture type {} is not sampled yet", header.address, header.texture_type));
  }
  if (image_type == vk::ImageType::e1D && header.height != 1) {
    throw Error(fmt::format("texture at GPU {:#x}: a 1D texture of height {}", header.address, header.height));
  }
  if ((view_type == vk::ImageViewType::eCube || view_type == vk::ImageViewType::eCubeArray) && header.width != header.height) {
    throw Error(fmt::format("texture at GPU {:#x}: cube faces of {}x{} are not square", header.address, header.width, header.height));
  }
  const uint32_t levels = header.texture_type == 7 ? 1 : header.max_mip_level + 1;
  textures::SurfaceDescription description;
  description.width = header.width;
  description.height = header.height;
  description.depth = depth;
  description.array_layers = layers;
  description.mip_levels = levels;
  description.element = format_.element;
  if (header.header_version == 2) {
    description.tiling = textures::Tiling::pitch_linear;
    description.pitch_bytes = header.pitch;
  } else {
    description.block_height_log2 = header.block_height_log2;
    description.block_depth_log2 = header.block_depth_log2;
  }
  layout_ = textures::SurfaceLayout::compute(description, fmt::format("texture at GPU {:#x}", header.address));

  const vk::Device device = context.device();
  image_ = device.createImageUnique({flags, image_type, format_.format, vk::Extent3D(header.width, header.height, depth), levels, layers,
                                     vk::SampleCountFlagBits::e1, vk::ImageTiling::eOptimal,
                                     vk::ImageUsageFlagBits::eSampled | vk::ImageUsageFlagBits::eTransferDst});
  const auto requirements = device.getImageMemoryRequirements(*image_);
  memory_ = device.allocateMemoryUnique(
      {requirements.size, find_memory_type(context.physical_device(), requirements.memoryTypeBits, vk::MemoryPropertyFlagBits::eDeviceLocal)});
  device.bindImageMemory(*image_, *memory_, 0);
  view_ = device.createImageViewUnique({{}, *image_, view_type, format_.format,
                                        component_mapping(header), {vk::ImageAspectFlagBits::eColor, 0, levels, 0, layers}});
}

bool GuestTexture::refresh(const maxwell::AddressSpace& memory, vk::CommandBuffer commands, const std::function<Buffer&(uint64_t)>& staging_for) {
  const std::vector<uint8_t> guest = memory.read_bytes(header_.address, layout_.total_size());
  const uint64_t hash = hash64(guest);
  if (uploaded_ && hash == uploaded_hash_) return false;
  Buffer& staging = staging_for(textures::linear_surface_size(layout_));
  textures::deswizzle_surface(layout_, guest, std::span<uint8_t>(static_cast<uint8_t*>(staging.mapped), staging.size));
  uploaded_hash_ = hash;
  uploaded_ = true;
  const vk::ImageSubresourceRange all(vk::ImageAspectFlagBits::eColor, 0, layout_.level_count(), 0, layout_.layer_count());
  // Earlier submissions may still sample the old content: their shader reads come first (WAR).
  const vk::ImageMemoryBarrier2 to_transfer(vk::PipelineStageFlagBits2::eVertexShader | vk::PipelineStageFlagBits2::eFragmentShader, {},
                                            vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferWrite, vk::ImageLayout::eUndefined,
                                            vk::ImageLayout::eTransferDstOptimal, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, *image_, all);
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, to_transfer));
  std::vector<vk::BufferImageCopy> regions;
  for (uint32_t layer = 0; layer < layout_.layer_count(); ++layer) {
    for (uint32_t level = 0; level < layout_.level_count(); ++level) {
      const uint32_t width = std::max(1u, header_.width >> level), height = std::max(1u, header_.height >> level);
      const uint32_t depth = std::max(1u, layout_.description().depth >> level);
      regions.emplace_back(textures::linear_level_offset(layout_, layer, level), 0, 0,
                           vk::ImageSubresourceLayers(vk::ImageAspectFlagBits::eColor, level, layer, 1), vk::Offset3D{},
                           vk::Extent3D(width, height, depth));
    }
  }
  commands.copyBufferToImage(*staging.buffer, *image_, vk::ImageLayout::eTransferDstOptimal, regions);
  const vk::ImageMemoryBarrier2 to_read(vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferWrite,
                                        vk::PipelineStageFlagBits2::eVertexShader | vk::PipelineStageFlagBits2::eFragmentShader,
                                        vk::AccessFlagBits2::eShaderSampledRead, vk::ImageLayout::eTransferDstOptimal,
                                        vk::ImageLayout::eShaderReadOnlyOptimal, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, *image_, all);
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, to_read));
  return true;
}

} // namespace kiln::vulkan
