// Triangles as the GPU walks them (behaviour documented by seed 001 and psx-spx):
// - edges in 32.32 fixed point, started half a step left of the vertex (x + 1 - 2^-21), stepped by a slope
//   rounded away from zero; a span covers [left, right) and a triangle rows [top, bottom): shared edges once;
// - colour and texture coordinates are planes through the "core" (leftmost) vertex with a +0.5 seed, their
//   per-pixel and per-row gradients in 8.24 fixed point, truncated towards zero;
// - each half of the triangle is walked away from the core vertex, which decides where clipping stops a walk.
#include <algorithm>
#include <cstdlib>

#include "runtime/gpu/psx/pixel.h"
#include "runtime/gpu/psx/rasterizer.h"
#include "runtime/gpu/psx/texture.h"

namespace kiln::psx {
namespace {

constexpr int fraction_bits = 24; // attribute planes: 8.24
constexpr int32_t sign_extend_11(int32_t value) { return static_cast<int32_t>(static_cast<uint32_t>(value) << 21) >> 21; }

struct Attributes {
  uint32_t r = 0, g = 0, b = 0, u = 0, v = 0;

  void add(const Attributes& step, int32_t count) {
    const auto n = static_cast<uint32_t>(count);
    r += step.r * n, g += step.g * n, b += step.b * n, u += step.u * n, v += step.v * n;
  }
};

// Gradient of one attribute over the triangle, d(attr)/dx or d(attr)/dy, as the hardware's 8.24 value.
uint32_t gradient(int64_t numerator, int64_t denominator) {
  return static_cast<uint32_t>(static_cast<int32_t>(numerator * (1 << 12) / denominator)) << 12;
}

int64_t edge_start(int32_t x) { return (static_cast<int64_t>(x) << 32) + ((int64_t{1} << 32) - (1 << 11)); }

int64_t edge_step(int32_t dx, int32_t dy) {
  int64_t scaled = static_cast<int64_t>(dx) * (int64_t{1} << 32);
  if (scaled < 0) scaled -= dy - 1;
  if (scaled > 0) scaled += dy - 1;
  return scaled / dy;
}

template <bool gouraud, bool textured>
class TriangleWalker {
public:
  TriangleWalker(Vram& vram, const DrawState& state, const PrimitiveStyle& style)
      : state_(state),
        pipe_{&vram, style.semi_transparent, state.semi_transparency, state.check_mask, state.mask_or()},
        sampler_(vram, state, style.clut),
        modulate_(!style.raw_texture) {}

  void draw(Vertex v[3]) {
    // The core vertex is the leftmost, chosen on the unsorted order (ties as the hardware breaks them).
    int core = 0;
    if (v[1].x <= v[0].x) core = v[2].x <= v[1].x ? 2 : 1;
    else if (v[2].x < v[0].x) core = 2;
    const Vertex core_vertex = v[core];
    std::stable_sort(v, v + 3, [](const Vertex& a, const Vertex& b) { return a.y < b.y; });
    core = core_vertex.x == v[0].x && core_vertex.y == v[0].y ? 0 : core_vertex.x == v[1].x && core_vertex.y == v[1].y ? 1 : 2;
    // (Vertices equal in x and y are interchangeable here: the core only anchors planes and edges.)
    if (v[0].y == v[2].y) return;

    const int64_t ax = v[0].x, ay = v[0].y, bx = v[1].x, by = v[1].y, cx = v[2].x, cy = v[2].y;
    const int64_t denominator = (bx - ax) * (cy - by) - (cx - bx) * (by - ay);
    if (denominator == 0) return;
    auto dx_of = [&](int a, int b, int c) { return gradient((b - a) * (cy - by) - (c - b) * (by - ay), denominator); };
    auto dy_of = [&](int a, int b, int c) { return gradient((bx - ax) * (c - b) - (cx - bx) * (b - a), denominator); };
    if (gouraud) {
      step_x_.r = dx_of(v[0].r, v[1].r, v[2].r), step_y_.r = dy_of(v[0].r, v[1].r, v[2].r);
      step_x_.g = dx_of(v[0].g, v[1].g, v[2].g), step_y_.g = dy_of(v[0].g, v[1].g, v[2].g);
      step_x_.b = dx_of(v[0].b, v[1].b, v[2].b), step_y_.b = dy_of(v[0].b, v[1].b, v[2].b);
    }
    if (textured) {
      step_x_.u = dx_of(v[0].u, v[1].u, v[2].u), step_y_.u = dy_of(v[0].u, v[1].u, v[2].u);
      step_x_.v = dx_of(v[0].v, v[1].v, v[2].v), step_y_.v = dy_of(v[0].v, v[1].v, v[2].v);
    }
    // Planes through the core vertex, seeded with +0.5, moved to the origin.
    const Vertex& c = v[core];
    auto seed = [](uint32_t value) { return ((value << 12) + (1u << 11)) << 12; };
    origin_ = {seed(c.r), seed(c.g), seed(c.b), seed(c.u), seed(c.v)};
    origin_.add(step_x_, -c.x);
    origin_.add(step_y_, -c.y);

    const int64_t long_step = edge_step(v[2].x - v[0].x, v[2].y - v[0].y);
    const int64_t upper_step = v[1].y == v[0].y ? 0 : edge_step(v[1].x - v[0].x, v[1].y - v[0].y);
    const int64_t lower_step = v[2].y == v[1].y ? 0 : edge_step(v[2].x - v[1].x, v[2].y - v[1].y);
    const bool short_side_right = v[1].y == v[0].y ? v[1].x > v[0].x : upper_step > long_step;
    const auto long_edge_at = [&](int32_t y) { return edge_start(v[0].x) + (y - v[0].y) * long_step; };

    // Upper half: rows [v0.y, v1.y); its short edge is anchored at v0 if that is the core, else at v1.
    // Lower half: rows [v1.y, v2.y); anchored at v2 if that is the core, else at v1.
    // A half is walked downwards when anchored at its top, upwards otherwise.
    struct Half { int32_t top, bottom; int anchor; int64_t step; bool upwards; };
    const Half upper{v[0].y, v[1].y, core == 0 ? 0 : 1, upper_step, core != 0};
    const Half lower{v[1].y, v[2].y, core == 2 ? 2 : 1, lower_step, core == 2};
    for (const Half& half : core == 0 ? std::array{upper, lower} : std::array{lower, upper}) {
      const Vertex& anchor = v[half.anchor];
      const auto short_edge_at = [&](int32_t y) { return edge_start(anchor.x) + (y - anchor.y) * half.step; };
      const auto span = [&](int32_t y) {
        const int64_t short_x = short_edge_at(y), long_x = long_edge_at(y);
        const auto left = static_cast<int32_t>((short_side_right ? long_x : short_x) >> 32);
        const auto right = static_cast<int32_t>((short_side_right ? short_x : long_x) >> 32);
        draw_span(y, left, right);
      };
      if (half.upwards) {
        for (int32_t y = half.bottom - 1; y >= half.top; --y) {
          const int32_t row = sign_extend_11(y);
          if (row < state_.clip_y0) break;
          if (row <= state_.clip_y1) span(y);
        }
      } else {
        for (int32_t y = half.top; y < half.bottom; ++y) {
          const int32_t row = sign_extend_11(y);
          if (row > state_.clip_y1) break;
          if (row >= state_.clip_y0) span(y);
        }
      }
    }
  }

private:
  void draw_span(int32_t y, int32_t x_start, int32_t x_bound) {
    if (state_.skips_row(y)) return;
    int32_t x = sign_extend_11(x_start);
    int32_t width = x_bound - x_start;
    int32_t plane_x = x_start;
    if (x < state_.clip_x0) {
      const int32_t skipped = state_.clip_x0 - x;
      plane_x += skipped, x += skipped, width -= skipped;
    }
    width = std::min(width, state_.clip_x1 + 1 - x);
    if (width <= 0) return;
    Attributes at = origin_;
    at.add(step_x_, plane_x);
    at.add(step_y_, y);
    if constexpr (!gouraud && !textured) {
      // One colour for the whole primitive.
      const auto channel = [&](uint32_t value) { return static_cast<int>(value >> fraction_bits) >> 3; };
      pipe_.plot_untextured_run(x, y, width, rgb15(channel(at.r), channel(at.g), channel(at.b)));
      return;
    }
    const auto& dither_row = dither_matrix[static_cast<size_t>(y & 3)];
    for (; width > 0; --width, ++x, at.add(step_x_, 1)) {
      const int r = static_cast<int>(at.r >> fraction_bits), g = static_cast<int>(at.g >> fraction_bits),
                b = static_cast<int>(at.b >> fraction_bits);
      const int offset = state_.dither ? dither_row[static_cast<size_t>(x & 3)] : 0;
      if constexpr (textured) {
        uint16_t texel = sampler_.fetch(at.u >> fraction_bits, at.v >> fraction_bits);
        if (texel == 0) continue;
        if (modulate_) texel = modulate(texel, r, g, b, offset);
        pipe_.plot_textured(x, y, texel);
      } else {
        pipe_.plot_untextured(x, y, rgb15(to_5_bits(r, offset), to_5_bits(g, offset), to_5_bits(b, offset)));
      }
    }
  }

  const DrawState& state_;
  PixelPipe pipe_;
  TextureSampler sampler_;
  bool modulate_;
  Attributes origin_, step_x_, step_y_;
};

bool oversized(const Vertex& a, const Vertex& b, const Vertex& c) {
  const auto too_far = [](const Vertex& p, const Vertex& q) {
    return std::abs(p.x - q.x) >= 1024 || std::abs(p.y - q.y) >= 512;
  };
  return too_far(a, b) || too_far(b, c) || too_far(a, c);
}

} // namespace

void draw_triangle(Vram& vram, const DrawState& state, const PrimitiveStyle& style, Vertex v0, Vertex v1,
                   Vertex v2) {
  if (oversized(v0, v1, v2)) return;
  Vertex v[3] = {v0, v1, v2};
  if (!style.gouraud) {
    for (Vertex& vertex : v) vertex.r = v0.r, vertex.g = v0.g, vertex.b = v0.b;
  }
  if (style.textured) {
    if (style.gouraud) TriangleWalker<true, true>(vram, state, style).draw(v);
    else TriangleWalker<false, true>(vram, state, style).draw(v);
  } else {
    if (style.gouraud) TriangleWalker<true, false>(vram, state, style).draw(v);
    else TriangleWalker<false, false>(vram, state, style).draw(v);
  }
}

} // namespace kiln::psx
