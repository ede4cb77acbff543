#pragma once
// What the IR's Texture op does, packed into its 64-bit immediate. The operands are three Pack64 pairs:
//   args[0] = (handle, lod | bias)   handle: bits 0-19 texture header (TIC) index, bits 20-31 sampler (TSC) index
//   args[1] = (x, y)                 coordinates (float bits; integer texel coordinates for fetches)
//   args[2] = (z | layer, dref | offsets)  third coordinate or array layer (an integer), depth reference, or
//                                    the guest's packed texel offsets (TextureOffsets) when `offsets` is set
// The result is one 32-bit component; the backend shares one sample among the components of an instruction.
#include <cstdint>

namespace kiln::ir {

enum class TextureKind : uint8_t {
  sample,         ///< implicit LOD (fragment stages)
  sample_lod,     ///< explicit LOD (lod operand; LZ = 0)
  sample_bias,    ///< implicit LOD plus bias
  fetch,          ///< texel fetch at integer coordinates and LOD
  gather,         ///< four texels' `gather_component`
  query_size,     ///< dimensions of LOD `lod`: (width, height, depth or layers, levels)
  query_lod,      ///< float bits of Vulkan's OpImageQueryLod (x = LOD the access uses, y = computed LOD), 0, 0
};
enum class TextureDim : uint8_t { d1, d2, d3, cube };
/// How the guest packs per-coordinate texel offsets into one register (signed fields, x in the low bits).
enum class TextureOffsets : uint8_t {
  none,
  bits4, ///< 4-bit fields every 4 bits (TEX/TLD/TLDS AOFFI: -8..7)
  bits6, ///< 6-bit fields every 8 bits (TLD4/TLD4S AOFFI: -32..31)
};

struct TextureDescriptor {
  TextureKind kind = TextureKind::sample;
  TextureDim dim = TextureDim::d2;
  bool array = false;
  bool depth_compare = false;
  uint8_t component = 0;         ///< which result component this op returns (0-3)
  uint8_t gather_component = 0;  ///< gather: which channel is gathered
  TextureOffsets offsets = TextureOffsets::none; ///< args[2]'s second half holds packed texel offsets

  uint64_t encode() const {
    return static_cast<uint64_t>(kind) | static_cast<uint64_t>(dim) << 8 | uint64_t{array} << 16 |
           uint64_t{depth_compare} << 17 | uint64_t{component} << 24 | uint64_t{gather_component} << 32 |
           static_cast<uint64_t>(offsets) << 40;
  }
  static TextureDescriptor decode(uint64_t bits) {
    return {static_cast<TextureKind>(bits & 0xff), static_cast<TextureDim>((bits >> 8) & 0xff), ((bits >> 16) & 1) != 0,
            ((bits >> 17) & 1) != 0, static_cast<uint8_t>((bits >> 24) & 3), static_cast<uint8_t>((bits >> 32) & 3),
            static_cast<TextureOffsets>((bits >> 40) & 3)};
  }
  /// The same operation for another component (the backend shares the sample among these).
  uint64_t without_component() const { return encode() & ~(uint64_t{0xff} << 24); }
};

/// Bindless handle layout (Maxwell 3D texture handles).
inline constexpr uint32_t texture_header_index(uint32_t handle) { return handle & 0xfffffu; }
inline constexpr uint32_t sampler_index(uint32_t handle) { return handle >> 20; }

} // namespace kiln::ir
