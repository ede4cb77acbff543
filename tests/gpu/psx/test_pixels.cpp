// Per-pixel rules, expected values derived by hand from psx-spx and seed 001: the four semi-transparency modes
// in 5-bit arithmetic, the mask bit, textures (CLUT 4/8-bit, 15-bit, texel 0, window, modulation), sprite flip.
#include <catch2/catch.hpp>

#include <utility>

#include "tests/gpu/psx/gpu_harness.h"

using kiln::psx::test::GpuHarness;
using kiln::psx::test::rgb;

TEST_CASE("the four semi-transparency modes work on 5-bit channels", "[psx][gpu][blend]") {
  // Back B = (20,10,31), front F = (12,15,3) (8-bit 96,120,24).
  struct Case { uint32_t mode; uint16_t expected; const char* formula; };
  const Case cases[] = {
      {0, rgb(16, 12, 17), "(B+F)/2 rounded down: 32/2, 25/2, 34/2"},
      {1, rgb(31, 25, 31), "B+F clamped to 31: 32, 25, 34"},
      {2, rgb(8, 0, 28), "B-F clamped to 0: 8, -5, 28"},
      {3, rgb(23, 13, 31), "B+F/4 clamped: 20+3, 10+3, 31+0"},
  };
  for (const Case& c : cases) {
    GpuHarness h;
    INFO(c.formula);
    h.fill(0, 0, 16, 1, 0xF850A0); // 8-bit (160,80,248) -> (20,10,31)
    h.gp0({0xE1000000 | c.mode << 5});
    h.gp0({0x62000000 | 0x187860u, h.xy(0, 0), 0x00010004}); // semi-transparent 4x1 rectangle
    CHECK(h.at(0, 0) == c.expected);
    CHECK(h.at(3, 0) == c.expected);
    CHECK(h.at(4, 0) == rgb(20, 10, 31)); // untouched
  }
}

TEST_CASE("textured pixels blend only where the texel's bit 15 is set", "[psx][gpu][blend]") {
  GpuHarness h;
  h.put(512, 0, static_cast<uint16_t>(0x8000 | rgb(4, 4, 4))); // STP set
  h.put(513, 0, rgb(4, 4, 4));                                 // STP clear
  h.fill(0, 0, 16, 1, 0x505050);                               // back (10,10,10)
  // E1: texpage x=512, 15-bit, additive mode; GP0(67h) raw-textured semi-transparent 2x1 rectangle.
  h.gp0({0xE1000000 | 8u | 1u << 5 | 2u << 7, 0x67000000, h.xy(0, 0), 0x00000000, 0x00010002});
  CHECK(h.at(0, 0) == (0x8000 | rgb(14, 14, 14))); // blended, bit 15 kept
  CHECK(h.at(1, 0) == rgb(4, 4, 4));               // opaque
}

TEST_CASE("the mask bit: set on draw, checked before draw, honoured by transfers and copies", "[psx][gpu][mask]") {
  GpuHarness h;
  h.put(0, 0, 0x8000 | rgb(1, 1, 1)); // protected pixel
  h.put(1, 0, rgb(1, 1, 1));
  SECTION("check: protected pixels stay, others are drawn") {
    h.gp0({0xE6000002, 0x600000F8, h.xy(0, 0), 0x00010002});
    CHECK(h.at(0, 0) == (0x8000 | rgb(1, 1, 1)));
    CHECK(h.at(1, 0) == rgb(31, 0, 0));
  }
  SECTION("set: drawn pixels get bit 15 (untextured colour never carries it otherwise)") {
    h.gp0({0xE6000001, 0x600000F8, h.xy(0, 0), 0x00010002});
    CHECK(h.at(0, 0) == (0x8000 | rgb(31, 0, 0)));
    CHECK(h.at(1, 0) == (0x8000 | rgb(31, 0, 0)));
  }
  SECTION("CPU-to-VRAM transfers and VRAM copies check and set it") {
    h.gp0({0xE6000003});
    h.gp0({0xA0000000, h.xy(0, 0), 0x00010002, 0x00030002}); // writes 2 then 3
    CHECK(h.at(0, 0) == (0x8000 | rgb(1, 1, 1)));
    CHECK(h.at(1, 0) == (0x8000 | 3));
    h.put(100, 0, 7); // source (written with mask set: 0x8007)
    h.gp0({0x80000000, h.xy(100, 0), h.xy(0, 0), 0x00010001}); // onto the protected pixel: refused
    CHECK(h.at(0, 0) == (0x8000 | rgb(1, 1, 1)));
    h.gp0({0x80000000, h.xy(100, 0), h.xy(5, 0), 0x00010001});
    CHECK(h.at(5, 0) == (0x8000 | 7));
  }
  SECTION("fills ignore it") {
    h.gp0({0xE6000002});
    h.fill(0, 0, 16, 1, 0x0000F8);
    CHECK(h.at(0, 0) == rgb(31, 0, 0));
  }
}

namespace {
// Draws a raw-textured w x 1 rectangle at (0, y) from (u, v) with texpage and CLUT halfwords.
void textured_strip(GpuHarness& h, int y, int u, int v, uint32_t texpage, uint32_t clut, int width) {
  h.gp0({0xE1000000 | texpage, 0x65000000, h.xy(0, y), clut << 16 | static_cast<uint32_t>(v << 8 | u),
         static_cast<uint32_t>(1 << 16 | width)});
}
} // namespace

TEST_CASE("4-bit and 8-bit CLUT textures, texel 0 transparent", "[psx][gpu][texture]") {
  GpuHarness h;
  // CLUT at (0, 480): entry i at x = i. CLUT halfword: x/16 in bits 0-5, y in bits 6-14.
  const uint32_t clut = 480u << 6;
  h.put(0, 480, 0x0000); // transparent
  h.put(1, 480, rgb(31, 0, 0));
  h.put(2, 480, rgb(0, 31, 0));
  h.put(3, 480, rgb(0, 0, 31));
  h.fill(0, 0, 16, 2, 0x080808); // background (1,1,1)
  SECTION("4-bit: four texels per halfword, lowest nibble first") {
    h.put(64, 0, 0x3210); // texpage 1 (x=64), u=0..3 -> indices 0,1,2,3
    textured_strip(h, 0, 0, 0, 1u | 0u << 7, clut, 4);
    CHECK(h.at(0, 0) == rgb(1, 1, 1)); // index 0 -> texel 0000h -> not drawn
    CHECK(h.at(1, 0) == rgb(31, 0, 0));
    CHECK(h.at(2, 0) == rgb(0, 31, 0));
    CHECK(h.at(3, 0) == rgb(0, 0, 31));
  }
  SECTION("8-bit: two texels per halfword, low byte first") {
    h.put(64, 0, 0x0302);
    h.put(65, 0, 0x0001);
    textured_strip(h, 0, 0, 0, 1u | 1u << 7, clut, 4);
    CHECK(h.at(0, 0) == rgb(0, 31, 0));
    CHECK(h.at(1, 0) == rgb(0, 0, 31));
    CHECK(h.at(2, 0) == rgb(31, 0, 0));
    CHECK(h.at(3, 0) == rgb(1, 1, 1));
  }
}

TEST_CASE("texture windows repeat a region of the page", "[psx][gpu][texture]") {
  GpuHarness h;
  for (int u = 0; u < 32; ++u) h.put(512 + u, 0, static_cast<uint16_t>(100 + u));
  // E2: mask x = 1 (8 texels), offset x = 1: u' = (u AND NOT 8) OR 8, so u = 0..15 reads 8..15 twice.
  h.gp0({0xE2000000 | 1u << 10 | 1u});
  textured_strip(h, 0, 0, 0, 8u | 2u << 7, 0, 16);
  for (int x = 0; x < 16; ++x) CHECK(h.at(x, 0) == 100 + ((x & ~8) | 8));
}

TEST_CASE("sprites flip with E1 bits 12 and 13", "[psx][gpu][texture][flip]") {
  GpuHarness h;
  for (int u = 0; u < 256; ++u) h.put(512 + u, 0, static_cast<uint16_t>(1000 + u));
  for (int v = 1; v < 5; ++v) h.put(512, v, static_cast<uint16_t>(2000 + v));
  const uint32_t page = 8u | 2u << 7;
  SECTION("x flip walks u backwards from u|1") {
    textured_strip(h, 10, 3, 0, page | 1u << 12, 0, 4); // u = 3, 2, 1, 0
    for (int x = 0; x < 4; ++x) CHECK(h.at(x, 10) == 1000 + 3 - x);
    textured_strip(h, 11, 0, 0, page | 1u << 12, 0, 4); // u starts at 0|1 = 1: 1, 0, 255, 254
    CHECK(h.at(0, 11) == 1001);
    CHECK(h.at(1, 11) == 1000);
    CHECK(h.at(2, 11) == 1255);
    CHECK(h.at(3, 11) == 1254);
  }
  SECTION("y flip walks v backwards") {
    // GP0(65h) 1x4 rectangle from (u,v) = (0,4): v = 4, 3, 2, 1.
    h.gp0({0xE1000000 | page | 1u << 13, 0x65000000, h.xy(20, 20), 0x00000400, 0x00040001});
    for (int y = 0; y < 4; ++y) CHECK(h.at(20, 20 + y) == 2004 - y);
  }
}

TEST_CASE("texels are modulated by the colour, 80h meaning 1.0", "[psx][gpu][texture]") {
  GpuHarness h;
  h.put(512, 0, rgb(10, 20, 31));
  // GP0(64h) modulated textured rectangle, colour (80h, 40h, FFh):
  // r = 10*128/16 = 80 -> 10; g = 20*64/16 = 80 -> 10; b = 31*255/16 = 494 -> 61 -> clamped to 31.
  h.gp0({0xE1000000 | 8u | 2u << 7, 0x64FF4080, h.xy(0, 0), 0x00000000, 0x00010001});
  CHECK(h.at(0, 0) == rgb(10, 10, 31));
}

TEST_CASE("rectangle sizes are masked to 10 and 9 bits", "[psx][gpu][raster]") {
  GpuHarness h;
  // Size word 0201_0402h: width 402h AND 3FFh = 2, height 201h AND 1FFh = 1.
  h.gp0({0x600000F8, h.xy(0, 0), 0x02010402});
  CHECK(h.count(0, 0, 16, 4, rgb(31, 0, 0)) == 2);
  CHECK(h.at(1, 0) == rgb(31, 0, 0));
}

TEST_CASE("lines draw both endpoints, stepping along the longer axis", "[psx][gpu][line]") {
  GpuHarness h;
  const uint16_t red = rgb(31, 0, 0);
  SECTION("(0,0)-(4,2): y = floor(0.5 + i/2)") {
    h.gp0({0x400000F8, h.xy(0, 0), h.xy(4, 2)});
    CHECK(h.count(0, 0, 8, 4, red) == 5);
    for (const auto& [x, y] : {std::pair{0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}}) CHECK(h.at(x, y) == red);
  }
  SECTION("the same line drawn backwards lands on the same pixels") {
    h.gp0({0x400000F8, h.xy(4, 2), h.xy(0, 0)});
    for (const auto& [x, y] : {std::pair{0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}}) CHECK(h.at(x, y) == red);
  }
  SECTION("polyline: vertices until a 5xxx5xxxh word, then the next command") {
    h.gp0({0x480000F8, h.xy(0, 10), h.xy(5, 10), h.xy(5, 15), 0x55555555});
    CHECK(h.count(0, 10, 6, 11, red) == 6);  // (0..5, 10)
    CHECK(h.count(5, 10, 6, 16, red) == 6);  // (5, 10..15)
    CHECK_FALSE(h.gpu.pending_command());
    h.gp0({0x400000F8, h.xy(20, 0), h.xy(20, 0)}); // a one-pixel line: accepted as a new command
    CHECK(h.at(20, 0) == red);
  }
  SECTION("dithered when dithering is on, even flat") {
    h.gp0({0xE1000200, 0x40424242, h.xy(0, 0), h.xy(3, 0)});
    // 66 + (-4, 0, -3, 1) >> 3 = 7, 8, 7, 8 on row 0.
    CHECK(h.at(0, 0) == rgb(7, 7, 7));
    CHECK(h.at(1, 0) == rgb(8, 8, 8));
    CHECK(h.at(2, 0) == rgb(7, 7, 7));
    CHECK(h.at(3, 0) == rgb(8, 8, 8));
  }
  SECTION("lines spanning 1024 columns are dropped") {
    h.gp0({0x400000F8, h.xy(-512, 0), h.xy(512, 0)});
    CHECK(h.count(0, 0, 1024, 1, red) == 0);
  }
}

TEST_CASE("a textured polygon's texpage word becomes the drawing state for later primitives", "[psx][gpu][texture]") {
  GpuHarness h;
  h.put(512, 0, static_cast<uint16_t>(0x8000 | rgb(4, 4, 4))); // semi-transparent texel at page 8 (x=512)
  h.fill(0, 0, 16, 2, 0x505050);                               // back (10,10,10)
  h.gp0({0xE1000200});                                         // E1: page 0, mode 0, dither on
  // GP0(27h): raw-textured semi-transparent triangle; texpage halfword = page 8, mode 1 (add), 15-bit,
  // and bits 9-10 clear (which must not turn dithering off). Triangle (0,0) (2,0) (0,2) covers (0,0) (1,0) (0,1).
  const uint32_t texpage = 8u | 1u << 5 | 2u << 7;
  h.gp0({0x27000000, h.xy(0, 0), 0x00000000, h.xy(2, 0), texpage << 16, h.xy(0, 2), 0x00000000});
  CHECK(h.at(0, 0) == (0x8000 | rgb(14, 14, 14))); // blended with B+F, the polygon's own mode
  CHECK((h.gpu.gpustat() & 0x1FF) == texpage);      // E1 bits 0-8 now come from the polygon
  CHECK((h.gpu.gpustat() >> 9 & 1) == 1);           // dithering untouched
  // A later rectangle (no texpage of its own) samples page 8 with mode 1.
  h.gp0({0x67000000, h.xy(4, 1), 0x00000000, 0x00010001});
  CHECK(h.at(4, 1) == (0x8000 | rgb(14, 14, 14)));
}

TEST_CASE("GP1(00h) resets the drawing environment and cancels commands", "[psx][gpu][gp1]") {
  GpuHarness h;
  h.gp0({0xE1000200, 0xE6000003, 0x38000000}); // ... and a shaded quad left half-sent
  h.gpu.write_gp1(0x00000000);
  CHECK_FALSE(h.gpu.pending_command());
  CHECK(h.gpu.draw_state().clip_x1 == 0); // drawing area back to (0,0)-(0,0)
  CHECK_FALSE(h.gpu.draw_state().dither);
  CHECK_FALSE(h.gpu.draw_state().check_mask);
  CHECK(h.gpu.gpustat() == 0x14802000);
}
