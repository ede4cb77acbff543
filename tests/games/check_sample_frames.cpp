// Checks the PNG frames games/sample-triangle wrote when it ran recompiled: every pixel against the scene its
// main.c defines (background per frame, the moving rectangle, the 16x16 checkerboard texture copied in from
// block-linear layout, the panel cleared by the 3D engine on Vulkan, the 3D scene of textured, depth-tested and
// blended triangles), computed here from those numbers. The frames are RGB (what a display shows), so colour is
// checked and the render target's alpha is not. Usage: check_sample_frames FRAME_DIR FRAME_COUNT
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>

#include "tests/games/frame_check.h"

namespace {

using kiln::games::Cover;
using kiln::games::HandPoint;
using kiln::games::Rgb;

// The 3D scene (main.c, top comment) in its 64x32 target, placed at frame (64, 32). Positions are the scene's
// window coordinates; pixel (x, y) is sampled at its centre (x + 0.5, y + 0.5).
constexpr uint32_t kSceneX = 64, kSceneY = 32, kSceneWidth = 64, kSceneHeight = 32;

struct Triangle {
  float x[3], y[3];
};
Triangle triangle_a() { return {{2, 34, 2}, {2, 2, 34}}; }
Triangle triangle_b() { return {{16, 60, 60}, {6, 6, 28}}; }
Triangle triangle_c(int frame) {
  const float shift = 12.0f * static_cast<float>(frame);
  return {{4 + shift, 28 + shift, 16 + shift}, {14, 14, 30}};
}

// Where pixel centre (px, py) lies against the triangle (kiln::games::cover_from_distance).
Cover cover(const Triangle& t, float px, float py) {
  const float area = (t.x[1] - t.x[0]) * (t.y[2] - t.y[0]) - (t.y[1] - t.y[0]) * (t.x[2] - t.x[0]);
  float nearest = 1e9f;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const float dx = t.x[j] - t.x[i], dy = t.y[j] - t.y[i];
    const float distance = ((dx * (py - t.y[i]) - dy * (px - t.x[i])) / std::sqrt(dx * dx + dy * dy)) * (area > 0 ? 1.0f : -1.0f);
    nearest = std::min(nearest, distance);
  }
  return kiln::games::cover_from_distance(nearest);
}

// Triangle A's texel at pixel (x, y): (u, v) = ((x + 0.5 - 2) / 32, (y + 0.5 - 2) / 32) on the 16x16 texture,
// so texel (floor((x - 1.5) / 2), floor((y - 1.5) / 2)) = ((x - 2) >> 1, (y - 2) >> 1) with a quarter texel to
// spare from either texel edge (nearest filtering); red where (u / 4 + v / 4) is even, as main.c uploads it.
Rgb texel_a(uint32_t x, uint32_t y) {
  const uint32_t u = (x - 2) >> 1, v = (y - 2) >> 1;
  return ((u / 4 + v / 4) % 2 == 0) ? Rgb{0xff, 0x00, 0x00} : Rgb{0xff, 0xff, 0xff};
}

// The expected colour of scene pixel (x, y) as real numbers (0..255), and whether it is blended (then one unit of
// rounding either way is accepted, kiln::games::matches). None for pixels near an edge.
struct Expected {
  std::array<double, 3> rgb;
  bool blended;
};
std::optional<Expected> expected_scene(int frame, uint32_t x, uint32_t y) {
  const float px = static_cast<float>(x) + 0.5f, py = static_cast<float>(y) + 0.5f;
  const Cover a = cover(triangle_a(), px, py), b = cover(triangle_b(), px, py), c = cover(triangle_c(frame), px, py);
  if (a == Cover::edge || b == Cover::edge || c == Cover::edge) return std::nullopt;
  // Depth LESS against the clear value 1: A (z 0.5) is nearer than B (0.75), so A wins where they overlap,
  // whichever is drawn first; both beat the clear.
  Rgb below{0x00, 0x00, 0x00}; // clear colour (0, 0, 0, 1)
  if (a == Cover::inside) below = texel_a(x, y);
  else if (b == Cover::inside) below = {0x00, 0xff, 0x00};
  std::array<double, 3> result{double(below[0]), double(below[1]), double(below[2])};
  if (c != Cover::inside) return Expected{result, false};
  // C (z 0.25 passes over everything) blends src (0, 0, 1) at alpha 0.25 with SRC_ALPHA, ONE_MINUS_SRC_ALPHA:
  // result = src * 0.25 + dst * 0.75 per colour channel.
  const std::array<double, 3> source{0, 0, 255};
  for (int i = 0; i < 3; ++i) result[i] = source[i] * 0.25 + result[i] * 0.75;
  return Expected{result, true};
}

Rgb expected(int frame, uint32_t x, uint32_t y) {
  if (x >= 96 && x < 112 && y >= 8 && y < 24) { // texture texel (u, v)
    const uint32_t u = x - 96, v = y - 8;
    return ((u / 4 + v / 4) % 2 == 0) ? Rgb{0xff, 0x00, 0x00} : Rgb{0xff, 0xff, 0xff};
  }
  if (x >= 16 && x < 48 && y >= 40 && y < 56) { // the panel the 3D engine cleared (Vulkan renderer)
    static constexpr Rgb panel[3] = {{0x00, 0xff, 0xff}, {0xff, 0x00, 0xff}, {0xff, 0xff, 0x00}};
    return panel[frame % 3];
  }
  const uint32_t left = 8 + 16 * static_cast<uint32_t>(frame);
  if (x >= left && x < left + 32 && y >= 8 && y < 24) return {0xff, 0xc0, 0x00};
  return {0x10, 0x20, static_cast<uint8_t>(0x40 + 0x20 * frame)};
}

// Pixels worked out by hand from the scene's numbers (scene coordinates; frame = scene + (64, 32)), checked on
// their own as well as by the pixel-by-pixel comparison, so that a mistake in expected_scene cannot hide them.
constexpr HandPoint kHandPoints[] = {
    // Centre (14.5, 4.5): inside A (x, y > 2 by 2.5 or more, x + y = 19 < 36); above B (y < 6) and C (y < 14).
    // Texel ((14 - 2) >> 1, (4 - 2) >> 1) = (6, 1): 6 / 4 + 1 / 4 = 1, odd: white.
    {-1, 14, 4, {0xff, 0xff, 0xff}, "a checkerboard texel of A"},
    // Centre (24.5, 7.5): inside A (x + y = 32, 2.8 pixels from the hypotenuse x + y = 36) and inside B (1.5 below
    // y = 6, 2.5 inside the edge y - 6 = (x - 16) / 2); C starts at y = 14. A is nearer: texel (11, 2), 2 + 0 even:
    // red, not B's green.
    {-1, 24, 7, {0xff, 0x00, 0x00}, "the depth winner where A and B overlap"},
    // Centre (50.5, 10.5): B only (x + y > 36; 10.5 - 6 = 4.5 < (50.5 - 16) / 2); C is below y = 14: green.
    {-1, 50, 10, {0x00, 0xff, 0x00}, "B outside the overlap"},
    // Centre (56.5, 30.5): outside A, below B's hypotenuse (24.5 > 20.25), below C's lowest vertex (y = 30).
    {-1, 56, 30, {0x00, 0x00, 0x00}, "the clear colour"},
    // Centre (16.5 + 12 f, 16.5) is inside C in every frame (2.5 below its top edge, about 8.5 from its sides).
    // Frame 0: inside A (x + y = 33): texel (7, 7), 1 + 1 even: red below. 255 * 0.75 = 191.25 -> 191;
    // blue 255 * 0.25 = 63.75 -> 64.
    {0, 16, 16, {191, 0x00, 64}, "C blended over A's red texel"},
    // Frame 1: (28.5, 16.5) is outside A (x + y = 45) and B (16.5 - 6 = 10.5 > (28.5 - 16) / 2): over black.
    {1, 28, 16, {0x00, 0x00, 64}, "C blended over the clear colour"},
    // Frame 2: (40.5, 16.5) is inside B (10.5 < (40.5 - 16) / 2 = 12.25, 1.6 pixels in): over green.
    {2, 40, 16, {0x00, 191, 64}, "C blended over B"},
};

int check_frame(const kiln::games::Frame& frame, int n) {
  const kiln::RgbaImage& image = frame.image;
  int wrong = kiln::games::check_hand_points(frame, n, kHandPoints, kSceneX, kSceneY), unchecked = 0;
  for (uint32_t y = 0; y < image.height; ++y)
    for (uint32_t x = 0; x < image.width; ++x) {
      const Rgb p = frame.pixel(x, y);
      if (x >= kSceneX && x < kSceneX + kSceneWidth && y >= kSceneY && y < kSceneY + kSceneHeight) {
        const std::optional<Expected> want = expected_scene(n, x - kSceneX, y - kSceneY);
        if (!want) {
          ++unchecked;
          continue;
        }
        if (kiln::games::matches(p, want->rgb, want->blended)) continue;
        if (++wrong <= 5)
          std::fprintf(stderr, "%s: scene pixel (%u, %u) is %02x%02x%02x, expected %.2f %.2f %.2f\n", frame.path.c_str(),
                       x - kSceneX, y - kSceneY, p[0], p[1], p[2], want->rgb[0], want->rgb[1], want->rgb[2]);
        continue;
      }
      const Rgb want = expected(n, x, y);
      if (p == want) continue;
      if (++wrong <= 5)
        std::fprintf(stderr, "%s: pixel (%u, %u) is %02x%02x%02x, expected %02x%02x%02x\n", frame.path.c_str(), x, y,
                     p[0], p[1], p[2], want[0], want[1], want[2]);
    }
  std::printf("%s: %d of %u pixels differ from the scene (%d pixels within a pixel of a triangle edge not checked)\n",
              frame.path.c_str(), wrong, image.width * image.height, unchecked);
  return wrong;
}

} // namespace

int main(int argc, char** argv) {
  return kiln::games::run_frame_checks(argc, argv, "check_sample_frames", 128, 64, check_frame);
}
