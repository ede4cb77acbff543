// Lines as the GPU steps them: along the longer axis, one pixel per step, both endpoints drawn,
// x and y in 32.32 fixed point started at the pixel centre (nudged 2^-22 left, and up when going up),
// colour in 8.12 started at +0.5; dithered whenever dithering is on, Gouraud or not.
#include <algorithm>
#include <cstdlib>
#include <utility>

#include "runtime/gpu/psx/pixel.h"
#include "runtime/gpu/psx/rasterizer.h"

namespace kiln::psx {
namespace {

int64_t per_step(int64_t delta, int32_t steps) {
  delta *= int64_t{1} << 32;
  if (delta < 0) delta -= steps - 1;
  if (delta > 0) delta += steps - 1;
  return delta / steps;
}

} // namespace

void draw_line(Vram& vram, const DrawState& state, const PrimitiveStyle& style, Vertex from, Vertex to) {
  const int32_t dx = std::abs(to.x - from.x), dy = std::abs(to.y - from.y);
  if (dx >= 1024 || dy >= 512) return;
  if (!style.gouraud) to.r = from.r, to.g = from.g, to.b = from.b;
  const int32_t steps = std::max(dx, dy);
  if (from.x > to.x && steps != 0) std::swap(from, to);

  int64_t step_x = 0, step_y = 0;
  int32_t step_r = 0, step_g = 0, step_b = 0;
  if (steps != 0) {
    step_x = per_step(to.x - from.x, steps);
    step_y = per_step(to.y - from.y, steps);
    step_r = static_cast<int32_t>(static_cast<uint32_t>(to.r - from.r) << 12) / steps;
    step_g = static_cast<int32_t>(static_cast<uint32_t>(to.g - from.g) << 12) / steps;
    step_b = static_cast<int32_t>(static_cast<uint32_t>(to.b - from.b) << 12) / steps;
  }
  uint64_t x = (static_cast<uint64_t>(from.x) << 32 | uint64_t{1} << 31) - 1024;
  uint64_t y = static_cast<uint64_t>(from.y) << 32 | uint64_t{1} << 31;
  if (step_y < 0) y -= 1024;
  uint32_t r = static_cast<uint32_t>(from.r) << 12 | 1u << 11;
  uint32_t g = static_cast<uint32_t>(from.g) << 12 | 1u << 11;
  uint32_t b = static_cast<uint32_t>(from.b) << 12 | 1u << 11;

  const PixelPipe pipe{&vram, style.semi_transparent, state.semi_transparency, state.check_mask, state.mask_or()};
  for (int32_t i = 0; i <= steps; ++i) {
    const auto px = static_cast<int32_t>(x >> 32 & 2047), py = static_cast<int32_t>(y >> 32 & 2047);
    if (!state.skips_row(py) && px >= state.clip_x0 && px <= state.clip_x1 && py >= state.clip_y0 &&
        py <= state.clip_y1) {
      const int offset = state.dither ? dither_matrix[static_cast<size_t>(py & 3)][static_cast<size_t>(px & 3)] : 0;
      const int cr = static_cast<int>(r >> 12 & 0xFF), cg = static_cast<int>(g >> 12 & 0xFF),
                cb = static_cast<int>(b >> 12 & 0xFF);
      pipe.plot_untextured(px, py, rgb15(to_5_bits(cr, offset), to_5_bits(cg, offset), to_5_bits(cb, offset)));
    }
    x += static_cast<uint64_t>(step_x), y += static_cast<uint64_t>(step_y);
    r += static_cast<uint32_t>(step_r), g += static_cast<uint32_t>(step_g), b += static_cast<uint32_t>(step_b);
  }
}

} // namespace kiln::psx
