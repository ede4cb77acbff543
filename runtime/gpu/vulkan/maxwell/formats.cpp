#include "runtime/gpu/vulkan/maxwell/formats.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/half_float.h"

namespace kiln::vulkan::maxwell_formats {

std::optional<ColorFormat> color_format(uint32_t maxwell_format) {
  using F = vk::Format;
  using C = ColorClass;
  switch (maxwell_format) { // SET_COLOR_TARGET_FORMAT_V_* (component names MSB first: A8B8G8R8 has R in byte 0)
  case 0xc0: return ColorFormat{F::eR32G32B32A32Sfloat, 16, C::float_like}; // RF32_GF32_BF32_AF32
  case 0xc1: return ColorFormat{F::eR32G32B32A32Sint, 16, C::sint};         // RS32_GS32_BS32_AS32
  case 0xc2: return ColorFormat{F::eR32G32B32A32Uint, 16, C::uint};         // RU32_GU32_BU32_AU32
  case 0xc6: return ColorFormat{F::eR16G16B16A16Unorm, 8, C::float_like};   // R16_G16_B16_A16
  case 0xc7: return ColorFormat{F::eR16G16B16A16Snorm, 8, C::float_like};   // RN16_GN16_BN16_AN16
  case 0xc8: return ColorFormat{F::eR16G16B16A16Sint, 8, C::sint};          // RS16_GS16_BS16_AS16
  case 0xc9: return ColorFormat{F::eR16G16B16A16Uint, 8, C::uint};          // RU16_GU16_BU16_AU16
  case 0xca: return ColorFormat{F::eR16G16B16A16Sfloat, 8, C::float_like};  // RF16_GF16_BF16_AF16
  case 0xcb: return ColorFormat{F::eR32G32Sfloat, 8, C::float_like};        // RF32_GF32
  case 0xcd: return ColorFormat{F::eR32G32Uint, 8, C::uint};                // RU32_GU32
  case 0xcf: return ColorFormat{F::eB8G8R8A8Unorm, 4, C::float_like};       // A8R8G8B8
  case 0xd0: return ColorFormat{F::eB8G8R8A8Srgb, 4, C::float_like};        // A8RL8GL8BL8
  case 0xd1: return ColorFormat{F::eA2B10G10R10UnormPack32, 4, C::float_like}; // A2B10G10R10
  case 0xd2: return ColorFormat{F::eA2B10G10R10UintPack32, 4, C::uint};     // AU2BU10GU10RU10
  case 0xd5: return ColorFormat{F::eR8G8B8A8Unorm, 4, C::float_like};       // A8B8G8R8
  case 0xd6: return ColorFormat{F::eR8G8B8A8Srgb, 4, C::float_like};        // A8BL8GL8RL8
  case 0xd7: return ColorFormat{F::eR8G8B8A8Snorm, 4, C::float_like};       // AN8BN8GN8RN8
  case 0xd8: return ColorFormat{F::eR8G8B8A8Sint, 4, C::sint};              // AS8BS8GS8RS8
  case 0xd9: return ColorFormat{F::eR8G8B8A8Uint, 4, C::uint};              // AU8BU8GU8RU8
  case 0xda: return ColorFormat{F::eR16G16Unorm, 4, C::float_like};         // R16_G16
  case 0xdb: return ColorFormat{F::eR16G16Snorm, 4, C::float_like};         // RN16_GN16
  case 0xdd: return ColorFormat{F::eR16G16Uint, 4, C::uint};                // RU16_GU16
  case 0xde: return ColorFormat{F::eR16G16Sfloat, 4, C::float_like};        // RF16_GF16
  case 0xe0: return ColorFormat{F::eB10G11R11UfloatPack32, 4, C::float_like}; // BF10GF11RF11
  case 0xe3: return ColorFormat{F::eR32Sint, 4, C::sint};                   // RS32
  case 0xe4: return ColorFormat{F::eR32Uint, 4, C::uint};                   // RU32
  case 0xe5: return ColorFormat{F::eR32Sfloat, 4, C::float_like};           // RF32
  case 0xe6: return ColorFormat{F::eB8G8R8A8Unorm, 4, C::float_like};       // X8R8G8B8
  case 0xe8: return ColorFormat{F::eR5G6B5UnormPack16, 2, C::float_like};   // R5G6B5
  case 0xea: return ColorFormat{F::eR8G8Unorm, 2, C::float_like};           // G8R8
  case 0xeb: return ColorFormat{F::eR8G8Snorm, 2, C::float_like};           // GN8RN8
  case 0xed: return ColorFormat{F::eR8G8Uint, 2, C::uint};                  // GU8RU8
  case 0xee: return ColorFormat{F::eR16Unorm, 2, C::float_like};            // R16
  case 0xef: return ColorFormat{F::eR16Snorm, 2, C::float_like};            // RN16
  case 0xf1: return ColorFormat{F::eR16Uint, 2, C::uint};                   // RU16
  case 0xf2: return ColorFormat{F::eR16Sfloat, 2, C::float_like};           // RF16
  case 0xf3: return ColorFormat{F::eR8Unorm, 1, C::float_like};             // R8
  case 0xf4: return ColorFormat{F::eR8Snorm, 1, C::float_like};             // RN8
  case 0xf6: return ColorFormat{F::eR8Uint, 1, C::uint};                    // RU8
  case 0xf9: return ColorFormat{F::eR8G8B8A8Unorm, 4, C::float_like};       // X8B8G8R8
  case 0xfa: return ColorFormat{F::eR8G8B8A8Srgb, 4, C::float_like};        // X8BL8GL8RL8
  default: return std::nullopt;
  }
}

namespace {
bool depth_attachment_supported(vk::PhysicalDevice device, vk::Format format) {
  return static_cast<bool>(device.getFormatProperties(format).optimalTilingFeatures &
                           vk::FormatFeatureFlagBits::eDepthStencilAttachment);
}
} // namespace

std::optional<DepthFormat> depth_format(uint32_t maxwell_format, vk::PhysicalDevice device) {
  // SET_ZT_FORMAT_V_*: names list components MSB first, so S8Z24 keeps stencil in the top byte of each word.
  auto with_stencil = [&](DepthLayout layout) -> std::optional<DepthFormat> {
    if (layout != DepthLayout::d32f_s8 && depth_attachment_supported(device, vk::Format::eD24UnormS8Uint)) {
      return DepthFormat{vk::Format::eD24UnormS8Uint, 4, layout, true};
    }
    return DepthFormat{vk::Format::eD32SfloatS8Uint, layout == DepthLayout::d32f_s8 ? 8u : 4u, layout, true};
  };
  switch (maxwell_format) {
  case 0x13: return DepthFormat{vk::Format::eD16Unorm, 2, DepthLayout::d16, false};   // Z16
  case 0x0a: return DepthFormat{vk::Format::eD32Sfloat, 4, DepthLayout::d32f, false}; // ZF32
  case 0x14: return with_stencil(DepthLayout::z24s8);                                // Z24S8
  case 0x15: case 0x16: return with_stencil(DepthLayout::s8z24);                     // X8Z24, S8Z24
  case 0x19: return with_stencil(DepthLayout::d32f_s8);                              // ZF32_X24S8
  default: return std::nullopt;
  }
}

namespace {

/// Component bit widths from the least significant bit of the little-endian element, R first.
struct Layout {
  std::array<uint8_t, 4> bits{};
  uint32_t count = 0;
};

std::optional<Layout> layout_of(uint32_t size) {
  switch (size) { // COMPONENT_BIT_WIDTHS_*
  case 0x01: return Layout{{32, 32, 32, 32}, 4};
  case 0x02: return Layout{{32, 32, 32, 0}, 3};
  case 0x03: return Layout{{16, 16, 16, 16}, 4};
  case 0x04: return Layout{{32, 32, 0, 0}, 2};
  case 0x05: return Layout{{16, 16, 16, 0}, 3};
  case 0x0a: case 0x2f: case 0x33: return Layout{{8, 8, 8, 8}, 4}; // R8_G8_B8_A8, A8B8G8R8, X8B8G8R8
  case 0x0f: return Layout{{16, 16, 0, 0}, 2};
  case 0x12: return Layout{{32, 0, 0, 0}, 1};
  case 0x13: return Layout{{8, 8, 8, 0}, 3};
  case 0x18: case 0x32: return Layout{{8, 8, 0, 0}, 2};             // R8_G8, G8R8
  case 0x1b: return Layout{{16, 0, 0, 0}, 1};
  case 0x1d: return Layout{{8, 0, 0, 0}, 1};
  case 0x30: return Layout{{10, 10, 10, 2}, 4};                     // A2B10G10R10
  case 0x31: return Layout{{11, 11, 10, 0}, 3};                     // B10G11R11 (unsigned floats)
  default: return std::nullopt;
  }
}

/// Unsigned small floats of B10G11R11: 5-bit exponent (bias 15), `mantissa_bits` of mantissa.
float small_float(uint32_t value, uint32_t mantissa_bits) {
  const uint32_t exponent = value >> mantissa_bits, mantissa = value & ((1u << mantissa_bits) - 1);
  if (exponent == 0) return std::ldexp(static_cast<float>(mantissa), -14 - static_cast<int>(mantissa_bits));
  if (exponent == 31) return mantissa ? NAN : INFINITY;
  return std::ldexp(static_cast<float>(mantissa | (1u << mantissa_bits)), static_cast<int>(exponent) - 15 - static_cast<int>(mantissa_bits));
}

} // namespace

uint32_t attribute_bytes(uint32_t size) {
  const auto layout = layout_of(size);
  if (!layout) return 0;
  uint32_t bits = 0;
  for (uint32_t c = 0; c < layout->count; ++c) bits += layout->bits[c];
  return bits / 8;
}

vk::Format native_vertex_format(const VertexAttribute& a) {
  using F = vk::Format;
  constexpr uint32_t snorm = 1, unorm = 2, floating = 7;
  if (a.swap_r_and_b) {
    return (a.size == 0x2f || a.size == 0x0a) && a.type == unorm ? F::eB8G8R8A8Unorm : F::eUndefined;
  }
  switch (a.size) {
  case 0x01: return a.type == floating ? F::eR32G32B32A32Sfloat : F::eUndefined;
  case 0x02: return a.type == floating ? F::eR32G32B32Sfloat : F::eUndefined;
  case 0x04: return a.type == floating ? F::eR32G32Sfloat : F::eUndefined;
  case 0x12: return a.type == floating ? F::eR32Sfloat : F::eUndefined;
  case 0x03: return a.type == floating ? F::eR16G16B16A16Sfloat : a.type == unorm ? F::eR16G16B16A16Unorm
                    : a.type == snorm ? F::eR16G16B16A16Snorm : F::eUndefined;
  case 0x0f: return a.type == floating ? F::eR16G16Sfloat : a.type == unorm ? F::eR16G16Unorm
                    : a.type == snorm ? F::eR16G16Snorm : F::eUndefined;
  case 0x0a: case 0x2f: return a.type == unorm ? F::eR8G8B8A8Unorm : a.type == snorm ? F::eR8G8B8A8Snorm : F::eUndefined;
  case 0x18: case 0x32: return a.type == unorm ? F::eR8G8Unorm : a.type == snorm ? F::eR8G8Snorm : F::eUndefined;
  case 0x1d: return a.type == unorm ? F::eR8Unorm : a.type == snorm ? F::eR8Snorm : F::eUndefined;
  default: return F::eUndefined; // 3-component 8/16-bit, 10-10-10-2, 11-11-10, scaled and integer forms: widened
  }
}

std::array<uint32_t, 4> widen_vertex_attribute(const VertexAttribute& a, std::span<const uint8_t> bytes) {
  const auto layout = layout_of(a.size);
  if (!layout || a.type == 0) {
    throw Error(fmt::format("vertex attribute size {:#x} type {} is not a Maxwell vertex format", a.size, a.type));
  }
  const bool integer = a.type == 3 || a.type == 4;
  std::array<uint32_t, 4> out{0, 0, 0, integer ? 1u : std::bit_cast<uint32_t>(1.0f)};
  uint32_t bit = 0;
  for (uint32_t c = 0; c < layout->count; ++c) {
    const uint32_t width = layout->bits[c];
    uint64_t raw = 0;
    for (uint32_t b = 0; b < width; ++b) {
      const uint32_t at = bit + b;
      raw |= static_cast<uint64_t>((bytes[at / 8] >> (at % 8)) & 1) << b;
    }
    bit += width;
    const uint32_t value = static_cast<uint32_t>(raw);
    const int64_t signed_value = width == 32 ? static_cast<int32_t>(value) : sign_extend(value, width);
    const double unsigned_max = static_cast<double>((uint64_t{1} << width) - 1);
    const double signed_max = static_cast<double>((uint64_t{1} << (width - 1)) - 1);
    float result = 0;
    switch (a.type) {
    case 1: result = static_cast<float>(std::max(-1.0, static_cast<double>(signed_value) / signed_max)); break; // SNORM
    case 2: result = static_cast<float>(static_cast<double>(value) / unsigned_max); break;                    // UNORM
    case 3: out[c] = static_cast<uint32_t>(signed_value); continue;                                            // SINT
    case 4: out[c] = value; continue;                                                                          // UINT
    case 5: result = static_cast<float>(value); break;                                                         // USCALED
    case 6: result = static_cast<float>(signed_value); break;                                                  // SSCALED
    case 7:                                                                                                    // FLOAT
      if (a.size == 0x31) result = small_float(value, width == 11 ? 6 : 5);
      else if (width == 16) result = half_to_float(static_cast<uint16_t>(value));
      else if (width == 32) { out[c] = value; continue; }
      else throw Error(fmt::format("vertex attribute size {:#x} has no float form", a.size));
      break;
    default: throw Error(fmt::format("vertex attribute type {} is reserved", a.type));
    }
    out[c] = std::bit_cast<uint32_t>(result);
  }
  if (a.swap_r_and_b) std::swap(out[0], out[2]);
  return out;
}

} // namespace kiln::vulkan::maxwell_formats
