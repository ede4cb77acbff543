#include "runtime/gpu/vulkan/maxwell/texture_descriptors.h"

#include <bit>

#include "runtime/base/bits.h"

namespace kiln::vulkan {

TextureHeader decode_texture_header(const std::array<uint32_t, 8>& w) {
  // Bit positions from clb197tex.h TEXHEAD_BL_* (MW(hi:lo) counts bits across the eight words).
  TextureHeader h;
  h.components = extract_bits(w[0], 0, 7);
  for (uint32_t c = 0; c < 4; ++c) h.data_type[c] = extract_bits(w[0], 7 + 3 * c, 3);
  for (uint32_t c = 0; c < 4; ++c) h.source[c] = extract_bits(w[0], 19 + 3 * c, 3);
  h.header_version = extract_bits(w[2], 21, 3);
  if (h.header_version == 2 || h.header_version == 1) { // pitch: ADDRESS_BITS31TO5 at 63:37, PITCH_BITS20TO5 at 111:96
    h.address = (uint64_t{w[2] & 0xffff} << 32) | (w[1] & 0xffffffe0u);
    h.pitch = extract_bits(w[3], 0, 16) << 5;
  } else { // block-linear: ADDRESS_BITS31TO9 at 63:41, GOBS_PER_BLOCK_HEIGHT 101:99, _DEPTH 104:102
    h.address = (uint64_t{w[2] & 0xffff} << 32) | (w[1] & 0xfffffe00u);
    h.block_height_log2 = extract_bits(w[3], 3, 3);
    h.block_depth_log2 = extract_bits(w[3], 6, 3);
  }
  h.max_mip_level = extract_bits(w[3], 28, 4);
  h.width = extract_bits(w[4], 0, 16) + 1;
  h.srgb = extract_bits(w[4], 22, 1) != 0;
  h.texture_type = extract_bits(w[4], 23, 4);
  h.height = extract_bits(w[5], 0, 16) + 1;
  h.depth = extract_bits(w[5], 16, 14) + 1;
  h.normalized_coordinates = extract_bits(w[5], 31, 1) != 0;
  h.min_view_level = extract_bits(w[7], 0, 4);
  h.max_view_level = extract_bits(w[7], 4, 4);
  return h;
}

std::optional<TextureFormat> texture_format(const TextureHeader& h) {
  using F = vk::Format;
  const uint32_t type = h.data_type[0];
  constexpr uint32_t snorm = 1, unorm = 2, sint = 3, uint = 4, floating = 7;
  auto pick = [&](F unorm_format, F snorm_format, F uint_format, F sint_format, F float_format) {
    switch (type) {
    case unorm: return unorm_format;
    case snorm: return snorm_format;
    case uint: return uint_format;
    case sint: return sint_format;
    case floating: return float_format;
    default: return F::eUndefined;
    }
  };
  TextureFormat result;
  switch (h.components) { // COMPONENTS_SIZES_*
  case 0x01: result = {pick(F::eUndefined, F::eUndefined, F::eR32G32B32A32Uint, F::eR32G32B32A32Sint, F::eR32G32B32A32Sfloat), {16}}; break;
  case 0x03: result = {pick(F::eR16G16B16A16Unorm, F::eR16G16B16A16Snorm, F::eR16G16B16A16Uint, F::eR16G16B16A16Sint, F::eR16G16B16A16Sfloat), {8}}; break;
  case 0x04: result = {pick(F::eUndefined, F::eUndefined, F::eR32G32Uint, F::eR32G32Sint, F::eR32G32Sfloat), {8}}; break;
  case 0x08: result = {pick(h.srgb ? F::eR8G8B8A8Srgb : F::eR8G8B8A8Unorm, F::eR8G8B8A8Snorm, F::eR8G8B8A8Uint, F::eR8G8B8A8Sint, F::eUndefined), {4}}; break;
  case 0x09: result = {pick(F::eA2B10G10R10UnormPack32, F::eUndefined, F::eA2B10G10R10UintPack32, F::eUndefined, F::eUndefined), {4}}; break;
  case 0x0c: result = {pick(F::eR16G16Unorm, F::eR16G16Snorm, F::eR16G16Uint, F::eR16G16Sint, F::eR16G16Sfloat), {4}}; break;
  case 0x0f: result = {pick(F::eUndefined, F::eUndefined, F::eR32Uint, F::eR32Sint, F::eR32Sfloat), {4}}; break;
  // B5G6R5 names its fields from the most significant bit, and the header's R source reads bits 0-4 (Mesa's nouveau
  // table samples a red-in-bits-11-15 format from this one with sources B, G, R): Vulkan's B5G6R5 layout.
  case 0x15: result = {type == unorm ? F::eB5G6R5UnormPack16 : F::eUndefined, {2}}; break;
  case 0x18: result = {pick(F::eR8G8Unorm, F::eR8G8Snorm, F::eR8G8Uint, F::eR8G8Sint, F::eUndefined), {2}}; break;
  case 0x1b: result = {pick(F::eR16Unorm, F::eR16Snorm, F::eR16Uint, F::eR16Sint, F::eR16Sfloat), {2}}; break;
  case 0x1d: result = {pick(F::eR8Unorm, F::eR8Snorm, F::eR8Uint, F::eR8Sint, F::eUndefined), {1}}; break;
  case 0x21: result = {F::eB10G11R11UfloatPack32, {4}}; break;
  case 0x24: result = {h.srgb ? F::eBc1RgbaSrgbBlock : F::eBc1RgbaUnormBlock, {8, 4, 4}}; break;
  case 0x25: result = {h.srgb ? F::eBc2SrgbBlock : F::eBc2UnormBlock, {16, 4, 4}}; break;
  case 0x26: result = {h.srgb ? F::eBc3SrgbBlock : F::eBc3UnormBlock, {16, 4, 4}}; break;
  case 0x27: result = {type == snorm ? F::eBc4SnormBlock : F::eBc4UnormBlock, {8, 4, 4}}; break;
  case 0x28: result = {type == snorm ? F::eBc5SnormBlock : F::eBc5UnormBlock, {16, 4, 4}}; break;
  case 0x17: result = {h.srgb ? F::eBc7SrgbBlock : F::eBc7UnormBlock, {16, 4, 4}}; break;
  case 0x10: result = {F::eBc6HSfloatBlock, {16, 4, 4}}; break;
  case 0x11: result = {F::eBc6HUfloatBlock, {16, 4, 4}}; break;
  default: return std::nullopt;
  }
  if (result.format == F::eUndefined) return std::nullopt;
  return result;
}

vk::ComponentMapping component_mapping(const TextureHeader& h) {
  auto swizzle = [](uint32_t source) {
    switch (source) { // TEXHEAD_BL_X_SOURCE_IN_*
    case 2: return vk::ComponentSwizzle::eR;
    case 3: return vk::ComponentSwizzle::eG;
    case 4: return vk::ComponentSwizzle::eB;
    case 5: return vk::ComponentSwizzle::eA;
    case 6: case 7: return vk::ComponentSwizzle::eOne;
    default: return vk::ComponentSwizzle::eZero;
    }
  };
  return {swizzle(h.source[0]), swizzle(h.source[1]), swizzle(h.source[2]), swizzle(h.source[3])};
}

vk::SamplerCreateInfo decode_sampler(const std::array<uint32_t, 8>& w, bool anisotropy_supported) {
  auto address = [](uint32_t mode) { // TEXSAMP0_ADDRESS_*
    switch (mode) {
    case 0: return vk::SamplerAddressMode::eRepeat;
    case 1: return vk::SamplerAddressMode::eMirroredRepeat;
    case 3: case 6: return vk::SamplerAddressMode::eClampToBorder;
    default: return vk::SamplerAddressMode::eClampToEdge; // CLAMP_TO_EDGE, CLAMP_OGL, MIRROR_ONCE_* (approximated)
    }
  };
  vk::SamplerCreateInfo info;
  info.addressModeU = address(extract_bits(w[0], 0, 3));
  info.addressModeV = address(extract_bits(w[0], 3, 3));
  info.addressModeW = address(extract_bits(w[0], 6, 3));
  info.compareEnable = extract_bits(w[0], 9, 1);
  info.compareOp = static_cast<vk::CompareOp>(extract_bits(w[0], 10, 3)); // ZC_NEVER.. ZC_ALWAYS: Vulkan's order
  const uint32_t anisotropy_log = extract_bits(w[0], 20, 3);
  static constexpr float kAnisotropy[8] = {1, 2, 4, 6, 8, 10, 12, 16};
  info.anisotropyEnable = anisotropy_supported && anisotropy_log != 0;
  info.maxAnisotropy = kAnisotropy[anisotropy_log];
  info.magFilter = extract_bits(w[1], 0, 3) == 2 ? vk::Filter::eLinear : vk::Filter::eNearest;
  info.minFilter = extract_bits(w[1], 4, 2) >= 2 ? vk::Filter::eLinear : vk::Filter::eNearest;
  const uint32_t mip = extract_bits(w[1], 6, 2);
  info.mipmapMode = mip == 3 ? vk::SamplerMipmapMode::eLinear : vk::SamplerMipmapMode::eNearest;
  info.mipLodBias = static_cast<float>(sign_extend(extract_bits(w[1], 12, 13), 13)) / 256.0f; // 5.8 fixed point
  info.minLod = static_cast<float>(extract_bits(w[2], 0, 12)) / 256.0f;                        // 4.8 fixed point
  info.maxLod = mip == 1 ? info.minLod : static_cast<float>(extract_bits(w[2], 12, 12)) / 256.0f; // MIP_NONE: level 0 only
  info.unnormalizedCoordinates = VK_FALSE;
  const float border[4] = {std::bit_cast<float>(w[4]), std::bit_cast<float>(w[5]), std::bit_cast<float>(w[6]), std::bit_cast<float>(w[7])};
  const bool opaque = border[3] >= 0.5f, white = border[0] >= 0.5f && border[1] >= 0.5f && border[2] >= 0.5f;
  info.borderColor = !opaque ? vk::BorderColor::eFloatTransparentBlack : white ? vk::BorderColor::eFloatOpaqueWhite : vk::BorderColor::eFloatOpaqueBlack;
  return info;
}

} // namespace kiln::vulkan
