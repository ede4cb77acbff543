// Rectangles (sprites): clipped to the drawing area, never dithered; textured ones step u/v by +1 or, flipped
// by E1 bits 12/13, by -1 (a horizontal flip also forces u odd, as the hardware does).
// Texture coordinates are 8-bit and wrap.
#include <algorithm>

#include "runtime/gpu/psx/pixel.h"
#include "runtime/gpu/psx/rasterizer.h"
#include "runtime/gpu/psx/texture.h"

namespace kiln::psx {

void draw_rectangle(Vram& vram, const DrawState& state, const PrimitiveStyle& style, Vertex corner, int32_t width,
                    int32_t height) {
  const PixelPipe pipe{&vram, style.semi_transparent, state.semi_transparency, state.check_mask, state.mask_or()};
  int32_t x_start = corner.x, y_start = corner.y;
  const int32_t x_bound = std::min(corner.x + width, state.clip_x1 + 1);
  const int32_t y_bound = std::min(corner.y + height, state.clip_y1 + 1);
  uint8_t u = corner.u, v = corner.v;
  const int u_step = state.flip_x ? -1 : 1, v_step = state.flip_y ? -1 : 1;
  if (state.flip_x) u |= 1;
  if (x_start < state.clip_x0) {
    u = static_cast<uint8_t>(u + (state.clip_x0 - x_start) * u_step);
    x_start = state.clip_x0;
  }
  if (y_start < state.clip_y0) {
    v = static_cast<uint8_t>(v + (state.clip_y0 - y_start) * v_step);
    y_start = state.clip_y0;
  }
  if (x_start >= x_bound || y_start >= y_bound) return;

  if (!style.textured) {
    const uint16_t colour = truncate_colour(uint32_t{corner.r} | uint32_t{corner.g} << 8 | uint32_t{corner.b} << 16);
    for (int32_t y = y_start; y < y_bound; ++y) {
      if (state.skips_row(y)) continue;
      pipe.plot_untextured_run(x_start, y, x_bound - x_start, colour);
    }
    return;
  }
  const TextureSampler sampler(vram, state, style.clut);
  for (int32_t y = y_start; y < y_bound; ++y, v = static_cast<uint8_t>(v + v_step)) {
    if (state.skips_row(y)) continue;
    uint8_t row_u = u;
    for (int32_t x = x_start; x < x_bound; ++x, row_u = static_cast<uint8_t>(row_u + u_step)) {
      uint16_t texel = sampler.fetch(row_u, v);
      if (texel == 0) continue;
      if (!style.raw_texture) texel = modulate(texel, corner.r, corner.g, corner.b, 0);
      pipe.plot_textured(x, y, texel);
    }
  }
}

} // namespace kiln::psx
