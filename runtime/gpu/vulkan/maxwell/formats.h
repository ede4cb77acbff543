#pragma once
// Maxwell render-target, depth and vertex-attribute formats (clb197.h) as Vulkan formats, and the CPU
// conversions for the forms a host lacks.
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "runtime/gpu/maxwell/draw_snapshot.h"
#include "runtime/gpu/vulkan/vulkan.h"

namespace kiln::vulkan::maxwell_formats {

enum class ColorClass : uint8_t { float_like, uint, sint }; ///< the fragment output type a target needs

struct ColorFormat {
  vk::Format format = vk::Format::eUndefined;
  uint32_t bytes = 0;     ///< per texel in guest memory (= host texel size)
  ColorClass color_class = ColorClass::float_like;
};
/// SET_COLOR_TARGET_FORMAT value -> host format; empty for formats kiln does not render to yet.
std::optional<ColorFormat> color_format(uint32_t maxwell_format);

/// How depth/stencil texels are stored in guest memory.
enum class DepthLayout : uint8_t { d16, d32f, s8z24, z24s8, d32f_s8 };
struct DepthFormat {
  vk::Format format = vk::Format::eUndefined;
  uint32_t bytes = 0;     ///< per texel in guest memory
  DepthLayout layout = DepthLayout::d32f;
  bool has_stencil = false;
};
/// SET_ZT_FORMAT value -> host format, picked among what `device` supports as a depth attachment.
std::optional<DepthFormat> depth_format(uint32_t maxwell_format, vk::PhysicalDevice device);

using maxwell::VertexAttribute;

/// Bytes of one element of the attribute's size code; 0 for unknown codes.
uint32_t attribute_bytes(uint32_t size);
/// The native host format for the attribute, or eUndefined when it must be widened on the CPU.
vk::Format native_vertex_format(const VertexAttribute& attribute);
/// The attribute's value as the shader reads it (float for float/norm/scaled types; the integer's bits for
/// SINT/UINT, as ALD returns them). `bytes` holds one element. Throws kiln::Error for unknown size/type codes.
std::array<uint32_t, 4> widen_vertex_attribute(const VertexAttribute& attribute, std::span<const uint8_t> bytes);

} // namespace kiln::vulkan::maxwell_formats
