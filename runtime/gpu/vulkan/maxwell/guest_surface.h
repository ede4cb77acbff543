#pragma once
// A render target or depth buffer: a Vulkan image mirroring a surface in guest GPU memory (block-linear or
// pitch). Uploaded from guest memory when first used (or when the guest changed it since), written back in the
// guest layout when the GPU changed it and the guest may look.
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/base/png_image.h"
#include "runtime/gpu/maxwell/address_space.h"
#include "runtime/gpu/maxwell/draw_snapshot.h"
#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/vulkan/memory.h"
#include "runtime/gpu/vulkan/maxwell/formats.h"

namespace kiln::vulkan {

struct SurfaceKey {
  uint64_t address = 0;
  uint32_t width = 0, height = 0, format = 0, memory = 0;
  bool depth = false;
  friend bool operator==(const SurfaceKey&, const SurfaceKey&) = default;
  friend auto operator<=>(const SurfaceKey&, const SurfaceKey&) = default;
};

class GuestSurface {
public:
  /// Throws kiln::Error for formats kiln cannot render to (the caller logs it against the draw).
  GuestSurface(const Context& context, const SurfaceKey& key, uint32_t ordinal);

  const SurfaceKey& key() const { return key_; }
  vk::Image image() const { return *image_.image; }
  vk::ImageView view() const { return *image_.view; }
  vk::Format format() const { return format_; }
  vk::Extent2D extent() const { return {key_.width_texels, key_.height}; }
  bool is_depth() const { return key_.depth; }
  bool has_stencil() const { return depth_ && depth_->has_stencil; }
  vk::ImageAspectFlags aspects() const;
  vk::ImageLayout attachment_layout() const;
  uint32_t ordinal() const { return ordinal_; }
  maxwell_formats::ColorClass color_class() const { return color_class_; }
  uint64_t guest_size() const { return layout_.total_size(); }

  /// Whether the image holds what guest memory holds (false at creation and after the guest changed it).
  bool needs_upload(const maxwell::AddressSpace& memory) const;
  /// Records the upload of guest memory into `commands` through `staging` (guest bytes converted to the host
  /// layout); leaves the image in its attachment layout.
  void record_upload(const maxwell::AddressSpace& memory, vk::CommandBuffer commands, Buffer& staging);
  uint64_t host_bytes() const; ///< size of the staging buffer an upload or readback needs

  /// The GPU wrote the image since the last write-back.
  bool gpu_dirty = false;
  /// Records the copy of the image into `readback` (image back in its attachment layout afterwards).
  void record_readback(vk::CommandBuffer commands, const Buffer& readback);
  /// After the readback completed: converts and writes the pixels into guest memory.
  void write_back(maxwell::AddressSpace& memory, const Buffer& readback);
  /// The colour target as guest memory holds it, as RGBA8 (8-bit formats as stored, float formats clamped to
  /// 0..1); throws kiln::Error for formats without a conversion.
  RgbaImage read_rgba8(const maxwell::AddressSpace& memory) const;

private:
  /// The staging buffer <-> image copies: colour, or depth (and stencil after it).
  std::vector<vk::BufferImageCopy> copy_regions() const;
  struct Key : SurfaceKey {
    uint32_t width_texels = 0;
  };
  std::vector<uint8_t> to_guest_linear(const uint8_t* host) const;
  void from_guest_linear(const std::vector<uint8_t>& linear, uint8_t* host) const;

  Key key_;
  uint32_t ordinal_ = 0;
  vk::Format format_ = vk::Format::eUndefined;
  uint32_t bytes_ = 4;
  maxwell_formats::ColorClass color_class_ = maxwell_formats::ColorClass::float_like;
  std::optional<maxwell_formats::DepthFormat> depth_;
  textures::SurfaceLayout layout_;
  Image image_;
  uint64_t synced_hash_ = 0; ///< hash of guest memory when image and memory last agreed
  bool synced_ = false;
};

} // namespace kiln::vulkan
