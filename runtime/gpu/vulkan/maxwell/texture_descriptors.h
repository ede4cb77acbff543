#pragma once
// Maxwell texture headers (TIC) and samplers (TSC) as the B197 class lays them out (clb197tex.h), decoded into
// what a Vulkan image view and sampler need.
#include <array>
#include <cstdint>
#include <optional>

#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/vulkan/vulkan.h"

namespace kiln::vulkan {

struct TextureHeader {
  uint32_t components = 0;             ///< COMPONENTS_SIZES_*
  std::array<uint32_t, 4> data_type{}; ///< R, G, B, A: 1 SNORM, 2 UNORM, 3 SINT, 4 UINT, 7 FLOAT
  std::array<uint32_t, 4> source{};    ///< X..W sources: 0 zero, 2 R .. 5 A, 6/7 one
  uint64_t address = 0;
  uint32_t header_version = 0;         ///< 2 pitch, 3 block-linear
  uint32_t block_height_log2 = 0, block_depth_log2 = 0;
  uint32_t pitch = 0;                  ///< pitch headers: bytes per row
  uint32_t max_mip_level = 0;
  uint32_t width = 1, height = 1, depth = 1;
  bool srgb = false;
  uint32_t texture_type = 0;           ///< 0 1D, 1 2D, 2 3D, 3 cube, 4 1D array, 5 2D array, 6 1D buffer, 7 2D no mipmap, 8 cube array
  bool normalized_coordinates = true;
  uint32_t min_view_level = 0, max_view_level = 0;
};
TextureHeader decode_texture_header(const std::array<uint32_t, 8>& words);

/// Host format and guest element of a texture; empty for formats not sampled yet.
struct TextureFormat {
  vk::Format format = vk::Format::eUndefined;
  textures::ElementFormat element;
};
std::optional<TextureFormat> texture_format(const TextureHeader& header);
vk::ComponentMapping component_mapping(const TextureHeader& header);

/// The TSC as a Vulkan sampler description (border colours: the nearest of Vulkan's three built-in ones).
vk::SamplerCreateInfo decode_sampler(const std::array<uint32_t, 8>& words, bool anisotropy_supported);

} // namespace kiln::vulkan
