// Triangle rules, each with its expected pixels derived by hand from the documented hardware behaviour
// (seed 001, psx-spx "GPU Rendering"): top-left fill convention with half-open spans, +0.5 attribute seed,
// dithering only where the hardware dithers, oversize rejection, drawing area and offset.
#include <catch2/catch.hpp>

#include "tests/gpu/psx/gpu_harness.h"

using kiln::psx::test::GpuHarness;
using kiln::psx::test::rgb;

namespace {
constexpr uint32_t red_flat_triangle = 0x200000F8; // GP0(20h), colour (248,0,0) -> 5-bit red 31
constexpr uint16_t red = 31;
} // namespace

TEST_CASE("a triangle covers the half-open span from its left to its right edge on each row from top to bottom", "[psx][gpu][raster]") {
  GpuHarness h;
  // (0,0) (4,0) (0,4): row y spans x < 4 - y, so 4, 3, 2, 1 pixels; row 4 (the bottom vertex) is not drawn.
  h.gp0({red_flat_triangle, h.xy(0, 0), h.xy(4, 0), h.xy(0, 4)});
  for (int y = 0; y < 6; ++y) {
    for (int x = 0; x < 6; ++x) {
      INFO("x=" << x << " y=" << y);
      CHECK(h.at(x, y) == (y < 4 && x < 4 - y ? red : 0));
    }
  }
}

TEST_CASE("a sloped right edge excludes the pixel it crosses", "[psx][gpu][raster]") {
  GpuHarness h;
  // (0,0) (2,0) (0,3): the right edge is x = 2 - 2y/3, i.e. 2, 1.33, 0.67 on rows 0..2.
  // A pixel is inside when x < edge: rows get 2, 2 and 1 pixels.
  h.gp0({red_flat_triangle, h.xy(0, 0), h.xy(2, 0), h.xy(0, 3)});
  const int expected_width[4] = {2, 2, 1, 0};
  for (int y = 0; y < 4; ++y) {
    INFO("row " << y);
    CHECK(h.count(0, y, 8, y + 1, red) == expected_width[y]);
    CHECK(h.count(0, y, expected_width[y], y + 1, red) == expected_width[y]);
  }
}

TEST_CASE("triangles sharing an edge draw each pixel once", "[psx][gpu][raster]") {
  GpuHarness h;
  // Additive semi-transparency (E1 bits 5-6 = 1) of red 1 over black: a pixel drawn twice would read 2.
  h.gp0({0xE1000020});
  const uint32_t add_red_1 = 0x22000008; // GP0(22h): flat semi-transparent triangle, red 8 -> 5-bit 1
  SECTION("diagonal of a square") {
    h.gp0({add_red_1, h.xy(0, 0), h.xy(8, 0), h.xy(0, 8)});
    h.gp0({add_red_1, h.xy(8, 0), h.xy(0, 8), h.xy(8, 8)});
    CHECK(h.count(0, 0, 8, 8, 1) == 64);    // the whole square, once
    CHECK(h.count(0, 0, 16, 16, 1) == 64);  // and nothing outside it
  }
  SECTION("quad with a shallow diagonal, drawn as two triangles by the GPU") {
    // GP0(2Ah) flat semi-transparent quad (0,0) (10,0) (0,7) (10,7): triangles (v0,v1,v2) and (v1,v2,v3).
    h.gp0({0x2A000008, h.xy(0, 0), h.xy(10, 0), h.xy(0, 7), h.xy(10, 7)});
    CHECK(h.count(0, 0, 10, 7, 1) == 70);
    CHECK(h.count(0, 0, 16, 16, 1) == 70);
  }
}

TEST_CASE("Gouraud colour is dithered with the 4x4 matrix when E1 bit 9 is set", "[psx][gpu][raster][dither]") {
  GpuHarness h;
  // All three vertices 66: the plane is flat at 66 (+0.5 seed, truncated back to 66).
  // 66 + {-4,0,-3,1 / 2,-2,3,-1 / -3,1,-4,0 / 3,-1,2,-2}, then >> 3:
  const int dithered[4][4] = {{7, 8, 7, 8}, {8, 8, 8, 8}, {7, 8, 7, 8}, {8, 8, 8, 8}};
  const uint32_t grey = 0x424242;
  const auto draw_gouraud_square = [&](int x0) {
    // GP0(38h) shaded quad covering [x0, x0+8) x [0, 8).
    h.gp0({0x38000000 | grey, h.xy(x0, 0), grey, h.xy(x0 + 8, 0), grey, h.xy(x0, 8), grey, h.xy(x0 + 8, 8)});
  };
  SECTION("dithering on") {
    h.gp0({0xE1000200});
    draw_gouraud_square(0);
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 8; ++x) {
        const int c = dithered[y & 3][x & 3];
        INFO("x=" << x << " y=" << y);
        CHECK(h.at(x, y) == rgb(c, c, c));
      }
    }
  }
  SECTION("dithering off: 66 >> 3 everywhere") {
    draw_gouraud_square(0);
    CHECK(h.count(0, 0, 8, 8, rgb(8, 8, 8)) == 64);
  }
  SECTION("flat polygons and rectangles are never dithered") {
    h.gp0({0xE1000200});
    h.gp0({0x28000000 | grey, h.xy(0, 0), h.xy(8, 0), h.xy(0, 8), h.xy(8, 8)}); // flat quad
    h.gp0({0x60000000 | grey, h.xy(16, 0), 0x00080008});                       // flat 8x8 rectangle
    CHECK(h.count(0, 0, 24, 8, rgb(8, 8, 8)) == 128);
  }
}

TEST_CASE("texture coordinates are interpolated from a +0.5 seed", "[psx][gpu][raster]") {
  GpuHarness h;
  // 15-bit texture page at VRAM x=512: texel u holds the value u+1 (never 0, which would be transparent).
  for (int u = 0; u < 16; ++u) h.put(512 + u, 0, static_cast<uint16_t>(u + 1));
  // GP0(25h) raw-textured triangle (0,0,u=0) (16,0,u=8) (0,16,u=0); texpage 8 (x=512), 15-bit (2 << 7).
  // du/dx = 0.5, so u(x) = floor(0.5 + x/2) = (x+1)/2 (without the seed it would be x/2).
  h.gp0({0x25000000, h.xy(0, 0), 0x00000000, h.xy(16, 0), 0x01080008, h.xy(0, 16), 0x00000000});
  for (int x = 0; x < 16; ++x) {
    INFO("x=" << x);
    CHECK(h.at(x, 0) == (x + 1) / 2 + 1);
  }
}

TEST_CASE("Gouraud colour interpolates across the triangle", "[psx][gpu][raster]") {
  GpuHarness h;
  // Red 0 at (0,0) and (0,16), 128 at (16,0): d(red)/dx = 128/16 = 8 exactly, so red(x) = 8x and 5-bit red = x.
  h.gp0({0x30000000, h.xy(0, 0), 0x00000080, h.xy(16, 0), 0x00000000, h.xy(0, 16)});
  for (int x = 0; x < 16; ++x) CHECK(h.at(x, 0) == x);
  CHECK(h.at(16, 0) == 0);
}

TEST_CASE("triangles too large for the hardware are dropped", "[psx][gpu][raster]") {
  GpuHarness h;
  SECTION("1024 columns apart: dropped") {
    h.gp0({red_flat_triangle, h.xy(0, 0), h.xy(1024, 0), h.xy(0, 2)});
    CHECK(h.count(0, 0, 1024, 2, red) == 0);
  }
  SECTION("1023 columns apart: drawn") {
    // Row 0 spans [0, 1023); row 1 spans [0, 511.5) -> 512 pixels.
    h.gp0({red_flat_triangle, h.xy(0, 0), h.xy(1023, 0), h.xy(0, 2)});
    CHECK(h.count(0, 0, 1024, 1, red) == 1023);
    CHECK(h.count(0, 1, 1024, 2, red) == 512);
  }
  SECTION("512 rows apart: dropped") {
    h.gp0({red_flat_triangle, h.xy(0, 0), h.xy(2, 0), h.xy(0, 512)});
    CHECK(h.count(0, 0, 4, 512, red) == 0);
  }
  SECTION("a quad's two triangles are checked separately") {
    // (0,0) (10,0) (0,10) (-1020,10): the second triangle (v1,v2,v3) has v1-v3 1030 columns apart and is
    // dropped; the first is drawn: rows 0..9 with 10-y pixels, 55 in all.
    h.gp0({0x280000F8, h.xy(0, 0), h.xy(10, 0), h.xy(0, 10), h.xy(-1020, 10)});
    CHECK(h.count(0, 0, 1024, 512, red) == 55);
  }
  SECTION("degenerate (zero area): nothing") {
    h.gp0({red_flat_triangle, h.xy(0, 0), h.xy(4, 4), h.xy(8, 8)});
    CHECK(h.count(0, 0, 16, 16, red) == 0);
  }
}

TEST_CASE("the drawing offset moves and the drawing area clips polygons", "[psx][gpu][raster]") {
  GpuHarness h;
  // Area (2,2)-(5,5) inclusive; offset (+10, -3) (11-bit signed: -3 = 0x7FD in bits 11-21).
  h.gp0({0xE3000000 | 2u << 10 | 2u, 0xE4000000 | 5u << 10 | 5u, 0xE5000000 | 0x7FDu << 11 | 10u});
  // Square (-10,3)..(0,13) moves to (0,0)..(10,10); only the area's 4x4 pixels are drawn.
  h.gp0({0x280000F8, h.xy(-10, 3), h.xy(0, 3), h.xy(-10, 13), h.xy(0, 13)});
  CHECK(h.count(2, 2, 6, 6, red) == 16);
  CHECK(h.count(0, 0, 16, 16, red) == 16);
}

TEST_CASE("primitives at the VRAM edges are clipped, never wrapped", "[psx][gpu][raster]") {
  GpuHarness h;
  // A 16x16 rectangle at (1020, 508): only its 4x4 pixels inside VRAM are drawn.
  h.gp0({0x600000F8, h.xy(1020, 508), 0x00100010});
  CHECK(h.count(0, 0, 1024, 512, red) == 4 * 4);
  // Triangle (0,0) (100,0) (0,100) with drawing offset (1000,500), i.e. (1000,500) (1100,500) (1000,600) (the
  // offset sum is not wrapped to 11 bits for polygons): rows 500..511 each span x = 1000..1023 inside VRAM (the
  // edge is beyond x = 1088 there): 12 rows of 24, which include the rectangle. Nothing at the opposite edges.
  h.gp0({0xE5000000 | 500u << 11 | 1000u, 0x200000F8, h.xy(0, 0), h.xy(100, 0), h.xy(0, 100), 0xE5000000});
  CHECK(h.count(0, 0, 1024, 512, red) == 12 * 24);
  CHECK(h.count(1000, 500, 1024, 512, red) == 12 * 24);
  // A quad far in negative coordinates draws nothing.
  h.gp0({0x280000F8, h.xy(-1000, -500), h.xy(-900, -500), h.xy(-1000, -400), h.xy(-900, -400)});
  CHECK(h.count(0, 0, 1024, 512, red) == 12 * 24);
}

TEST_CASE("interlaced 480-line mode skips the displayed field's rows unless drawing to it is allowed",
          "[psx][gpu][raster]") {
  GpuHarness h;
  h.gpu.write_gp1(0x08000024); // 480 lines, interlaced
  // Field 1 (the default) with display start y = 0: rows whose parity equals (0 + !1) & 1 = 0 are on screen.
  h.gp0({0x600000F8, h.xy(0, 0), 0x00040004});
  for (int y = 0; y < 4; ++y) CHECK(h.count(0, y, 4, y + 1, red) == (y % 2 == 1 ? 4 : 0));
  h.gpu.set_interlace_field(false); // now the odd rows are on screen
  h.gp0({0x600000F8, h.xy(8, 0), 0x00040004});
  for (int y = 0; y < 4; ++y) CHECK(h.count(8, y, 12, y + 1, red) == (y % 2 == 0 ? 4 : 0));
  h.gp0({0xE1000400, 0x600000F8, h.xy(16, 0), 0x00040004}); // E1 bit 10: drawing to the display area allowed
  CHECK(h.count(16, 0, 20, 4, red) == 16);
  CHECK((h.gpu.gpustat() >> 13 & 1) == 0); // GPUSTAT shows the field while interlaced
}
