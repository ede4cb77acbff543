#pragma once
// A sampled texture: a Vulkan image holding every level (and layer, slice or cube face) of a guest surface named
// by a texture header (1D, 2D, 3D, cube and their arrays), re-uploaded when the guest bytes change (checked once
// per batch).
#include <cstdint>
#include <functional>

#include "runtime/gpu/maxwell/address_space.h"
#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/vulkan/memory.h"
#include "runtime/gpu/vulkan/maxwell/texture_descriptors.h"

namespace kiln::vulkan {

class GuestTexture {
public:
  /// Throws kiln::Error for texture types and formats not sampled yet.
  GuestTexture(const Context& context, const TextureHeader& header);

  vk::ImageView view() const { return *view_; }
  uint64_t address() const { return header_.address; }
  uint64_t guest_size() const { return layout_.total_size(); }
  /// The translator's numbering: 0 1D, 1 2D, 2 3D, 3 cube; arrayed for 1D/2D arrays and cube arrays.
  uint32_t dimension() const { return dimension_; }
  bool arrayed() const { return arrayed_; }

  /// Re-uploads (into `commands`, through a staging buffer from `staging_for(bytes)`) when guest memory differs
  /// from what was uploaded. Returns whether it recorded an upload.
  bool refresh(const maxwell::AddressSpace& memory, vk::CommandBuffer commands, const std::function<Buffer&(uint64_t)>& staging_for);
  uint64_t checked_serial = UINT64_MAX; ///< the batch that last compared guest memory

private:
  TextureHeader header_;
  TextureFormat format_;
  textures::SurfaceLayout layout_;
  uint32_t dimension_ = 1;
  bool arrayed_ = false;
  vk::UniqueImage image_;
  vk::UniqueDeviceMemory memory_;
  vk::UniqueImageView view_;
  uint64_t uploaded_hash_ = 0;
  bool uploaded_ = false;
};

} // namespace kiln::vulkan
