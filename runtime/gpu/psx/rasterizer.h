#pragma once
// The software rasterizer: triangles, lines and rectangles drawn into VRAM exactly as the PS1 GPU draws them
// (seed 001; psx-spx "GPU Rendering"). Coordinates arrive with the drawing offset already added.
#include <cstdint>

#include "runtime/gpu/psx/draw_state.h"
#include "runtime/gpu/psx/vram.h"

namespace kiln::psx {

struct Vertex {
  int32_t x = 0, y = 0;
  uint8_t r = 0, g = 0, b = 0;
  uint8_t u = 0, v = 0;
};

/// How a primitive is drawn, decoded from its GP0 command byte.
struct PrimitiveStyle {
  bool gouraud = false;
  bool textured = false;
  bool raw_texture = false;      ///< textured without colour modulation
  bool semi_transparent = false;
  uint16_t clut = 0;             ///< textured only
};

/// One triangle. Rejected as the hardware rejects it: zero area, or an edge spanning >= 1024 columns or >= 512 rows.
void draw_triangle(Vram& vram, const DrawState& state, const PrimitiveStyle& style, Vertex v0, Vertex v1,
                   Vertex v2);

/// One line segment, both endpoints included; dropped when it spans >= 1024 columns or >= 512 rows.
void draw_line(Vram& vram, const DrawState& state, const PrimitiveStyle& style, Vertex from, Vertex to);

/// A rectangle (sprite) at `corner`, `width` x `height` pixels; never dithered, flipped by E1 bits 12/13.
void draw_rectangle(Vram& vram, const DrawState& state, const PrimitiveStyle& style, Vertex corner, int32_t width,
                    int32_t height);

} // namespace kiln::psx
