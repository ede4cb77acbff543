#include "runtime/gpu/psx/texture.h"

#include <cstddef>

namespace kiln::psx {

TextureSampler::TextureSampler(const Vram& vram, const DrawState& state, uint16_t clut)
    : vram_(vram),
      depth_(state.texture_depth),
      page_x_(state.texpage_x),
      page_y_(state.texpage_y),
      // Texture window: inside each (mask*8)-texel period the coordinate is replaced by the offset's bits.
      and_x_(~(uint32_t{state.window_mask_x} << 3)),
      or_x_(static_cast<uint32_t>(state.window_offset_x & state.window_mask_x) << 3),
      and_y_(~(uint32_t{state.window_mask_y} << 3)),
      or_y_(static_cast<uint32_t>(state.window_offset_y & state.window_mask_y) << 3) {
  if (depth_ != TextureDepth::clut4 && depth_ != TextureDepth::clut8) return;
  const int clut_x = (clut & 0x3F) * 16;
  const int clut_y = clut >> 6 & 0x1FF;
  const int entries = depth_ == TextureDepth::clut4 ? 16 : 256;
  for (int i = 0; i < entries; ++i) palette_[static_cast<std::size_t>(i)] = vram.at(clut_x + i, clut_y);
}

} // namespace kiln::psx
