// Checks the PNG frames games/sample-scene wrote when it ran recompiled, against a CPU rendering of the scene its
// main.c defines (top comment), computed here in double precision from those numbers: the texture T the 3D engine
// rendered (clears, scissored clears, a stripe), the frame's clears and scissored bar, the rotating cube (each
// front-facing face projected, texture coordinates interpolated perspective-correctly, T sampled nearest), and the
// overlay blended over it. Pixels within a pixel of a face's edge, and cube pixels within 0.2 texel of a colour
// change in T, are left unchecked (rasterisation and interpolation precision decide them, not the scene); blended
// pixels may round either way; everything else must match exactly. The frames are RGB (what a display shows), so
// colour is checked and the render target's alpha is not. Usage: check_scene_frames FRAME_DIR FRAME_COUNT
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
using Colour = std::array<double, 4>;

constexpr uint32_t kWidth = 160, kHeight = 128, kTarget = 128, kTexture = 32, kTextureX = 128;
constexpr Colour kPalette[4] = {{1, 0.6, 0, 1}, {0, 0.6, 1, 1}, {0.2, 0.8, 0.2, 1}, {0.8, 0.2, 0.6, 1}};
constexpr Colour kStripe = {1, 1, 1, 1}, kBackground = {0.2, 0.2, 0.4, 1}, kBar = {1, 0.8, 0, 1};
constexpr Colour kOverlay = {1, 1, 1, 0.4};
constexpr Rgb kFrameFill = {0x20, 0x20, 0x20};

// The colour of a clear value or flat colour stored in RGBA8 UNORM: round(c * 255) (no component of the scene
// lies near .5).
Rgb unorm8(const Colour& c) {
  Rgb r{};
  for (int i = 0; i < 3; ++i) r[i] = static_cast<uint8_t>(std::lround(c[i] * 255));
  return r;
}

// Texel (x, y) of T in frame n: the stripe (rows 12-19) over the scissored quadrants over the clear.
Rgb texel(int n, int x, int y) {
  if (y >= 12 && y < 20) return unorm8(kStripe);
  if ((x < 16) == (y < 16)) return unorm8(kPalette[(n + 1) % 4]);
  return unorm8(kPalette[n % 4]);
}

// ---- the cube ------------------------------------------------------------------------------------------------
using Matrix = std::array<double, 16>; // row-major
Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) r[4 * i + j] += a[4 * i + k] * b[4 * k + j];
  return r;
}

// P * Translate(0, 0.25, -4.5) * RotateX(a) * RotateY(b (n + 1)), from the angles (not by repeated products, as main.c
// does it in float).
Matrix cube_matrix(int n) {
  const double tilt = std::atan2(5.0, 12.0), yaw = std::atan2(3.0, 4.0) * (n + 1);
  const Matrix projection = {2, 0, 0, 0, 0, -2, 0, 0, 0, 0, -10.0 / 9, -10.0 / 9, 0, 0, -1, 0};
  const Matrix translate = {1, 0, 0, 0, 0, 1, 0, 0.25, 0, 0, 1, -4.5, 0, 0, 0, 1};
  const Matrix rotate_x = {1, 0, 0, 0, 0, std::cos(tilt), -std::sin(tilt), 0, 0, std::sin(tilt), std::cos(tilt), 0, 0, 0, 0, 1};
  const Matrix rotate_y = {std::cos(yaw), 0, std::sin(yaw), 0, 0, 1, 0, 0, -std::sin(yaw), 0, std::cos(yaw), 0, 0, 0, 0, 1};
  return multiply(projection, multiply(translate, multiply(rotate_x, rotate_y)));
}

struct WindowVertex {
  double x, y, w;
};

// A face's four corners (u, v) = (0,0) (1,0) (0,1) (1,1) in window coordinates.
struct Face {
  WindowVertex corner[4];
};

std::array<Face, 6> project_cube(int n) {
  static constexpr double normals[6][3] = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
  static constexpr double rights[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, -1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}};
  const Matrix m = cube_matrix(n);
  std::array<Face, 6> faces{};
  for (int f = 0; f < 6; ++f) {
    const double* nn = normals[f];
    const double* r = rights[f];
    const double down[3] = {r[1] * nn[2] - r[2] * nn[1], r[2] * nn[0] - r[0] * nn[2], r[0] * nn[1] - r[1] * nn[0]};
    for (int c = 0; c < 4; ++c) {
      const double u = c & 1, v = c >> 1;
      double p[4] = {0, 0, 0, 1}, clip[4] = {};
      for (int i = 0; i < 3; ++i) p[i] = nn[i] + (2 * u - 1) * r[i] + (2 * v - 1) * down[i];
      for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) clip[i] += m[4 * i + k] * p[k];
      // Viewport: window = 64 * ndc + 64.
      faces[f].corner[c] = {64 * clip[0] / clip[3] + 64, 64 * clip[1] / clip[3] + 64, clip[3]};
    }
  }
  return faces;
}

double signed_area(const WindowVertex& a, const WindowVertex& b, const WindowVertex& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// The face's quad (corners 0, 1, 3, 2 around), front-facing when its area is positive in window coordinates
// (y down); where the centre lies as kiln::games::cover_from_distance says.
Cover cover(const Face& face, double px, double py) {
  static constexpr int order[4] = {0, 1, 3, 2};
  double nearest = 1e9;
  for (int i = 0; i < 4; ++i) {
    const WindowVertex& a = face.corner[order[i]];
    const WindowVertex& b = face.corner[order[(i + 1) % 4]];
    const double dx = b.x - a.x, dy = b.y - a.y;
    nearest = std::min(nearest, (dx * (py - a.y) - dy * (px - a.x)) / std::hypot(dx, dy));
  }
  return kiln::games::cover_from_distance(nearest);
}

// Perspective-correct (u, v) at window point (px, py) of the face's plane: screen barycentrics against corners
// 0, 1, 2 (u = 1 at corner 1, v = 1 at corner 2), each weighted by 1 / w.
std::array<double, 2> face_uv(const Face& face, double px, double py) {
  const WindowVertex &a = face.corner[0], &b = face.corner[1], &c = face.corner[2];
  const double area = signed_area(a, b, c);
  const double l1 = ((px - a.x) * (c.y - a.y) - (py - a.y) * (c.x - a.x)) / area;
  const double l2 = ((b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)) / area;
  const double w0 = (1 - l1 - l2) / a.w, w1 = l1 / b.w, w2 = l2 / c.w;
  return {w1 / (w0 + w1 + w2), w2 / (w0 + w1 + w2)};
}

// T sampled nearest (clamp to edge) at (u, v), or nothing within 0.2 texel of a change of colour.
std::optional<Rgb> sample(int n, double u, double v) {
  std::optional<Rgb> result;
  for (const double du : {-0.2, 0.2})
    for (const double dv : {-0.2, 0.2}) {
      const int x = std::clamp(static_cast<int>(std::floor(u * kTexture + du)), 0, int{kTexture} - 1);
      const int y = std::clamp(static_cast<int>(std::floor(v * kTexture + dv)), 0, int{kTexture} - 1);
      const Rgb t = texel(n, x, y);
      if (result && *result != t) return std::nullopt;
      result = t;
    }
  return result;
}

struct Expected {
  std::array<double, 3> rgb; // 0..255
  bool blended;
  bool cube; // a textured cube pixel
};

// Frame pixel (x, y) of frame n, or nothing where the scene does not decide it.
std::optional<Expected> expected(int n, const std::array<Face, 6>& faces, uint32_t x, uint32_t y) {
  using Rgb255 = std::array<double, 3>;
  const auto as_colour = [](const Rgb& c) { return Rgb255{double(c[0]), double(c[1]), double(c[2])}; };
  if (x >= kTextureX) { // T, copied in at (128, 0), and the 2D engine's fill below it
    return Expected{as_colour(y < kTexture ? texel(n, int(x - kTextureX), int(y)) : kFrameFill), false, false};
  }
  const double px = x + 0.5, py = y + 0.5;
  Rgb255 below = as_colour(unorm8(y >= 120 && x < 32u * (n + 1) ? kBar : kBackground));
  bool cube = false;
  for (const Face& face : faces) {
    if (signed_area(face.corner[0], face.corner[1], face.corner[2]) <= 0) continue; // back face: behind a front one
    const Cover c = cover(face, px, py);
    if (c == Cover::edge) return std::nullopt;
    if (c == Cover::outside) continue;
    const auto [u, v] = face_uv(face, px, py);
    const std::optional<Rgb> t = sample(n, u, v);
    if (!t) return std::nullopt;
    below = as_colour(*t);
    cube = true;
  }
  if (x < 8 || x >= 56 || y < 84 || y >= 112) return Expected{below, false, cube};
  // The overlay: SRC_ALPHA, ONE_MINUS_SRC_ALPHA: colour = src * 0.4 + dst * 0.6.
  Rgb255 result{};
  for (int i = 0; i < 3; ++i) result[i] = kOverlay[i] * 255 * kOverlay[3] + below[i] * (1 - kOverlay[3]);
  return Expected{result, true, cube};
}

// Pixels worked out by hand from main.c's numbers, checked on their own so that a mistake in `expected` cannot
// hide them (frame -1: every frame).
constexpr HandPoint kHandPoints[] = {
    // Overlay over the background (51, 51, 102, 255), blended src * 0.4 + dst * 0.6: 102 + 30.6 = 132.6 -> 133;
    // blue 102 + 61.2 = 163.2 -> 163. The cube stays right of
    // x = 17 in all four frames (its eight corners, projected by hand, have window x >= 17.9).
    {-1, 8, 84, {133, 133, 163}, "the overlay over the background"},
    // The bar, x < 32 (n + 1), y >= 120: (1, 0.8, 0, 1) -> (255, 204, 0, 255); at x 100 only from frame 3.
    {-1, 0, 127, {255, 204, 0}, "the scissored bar"},
    {2, 100, 127, {51, 51, 102}, "outside the bar's scissor in frame 2"},
    {3, 100, 127, {255, 204, 0}, "inside the bar's scissor in frame 3"},
    // T's texel (0, 0) is in the first scissored quadrant: PALETTE[(n + 1) % 4]; texel (20, 2) keeps the clear
    // PALETTE[n % 4]; texel (5, 15) is the stripe's white. Frame 0: (0, 0.6, 1) -> (0, 153, 255) and
    // (1, 0.6, 0) -> (255, 153, 0).
    {0, 128, 0, {0, 153, 255}, "T: scissored clear"},
    {0, 148, 2, {255, 153, 0}, "T: the clear outside both scissors"},
    {1, 148, 2, {0, 153, 255}, "T: the next frame's clear colour"},
    {-1, 133, 15, {255, 255, 255}, "T: the stripe drawn into it"},
};

int check_frame(const kiln::games::Frame& frame, int n) {
  int wrong = kiln::games::check_hand_points(frame, n, kHandPoints), unchecked = 0, cube_pixels = 0;
  const std::array<Face, 6> faces = project_cube(n);
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) {
      const std::optional<Expected> want = expected(n, faces, x, y);
      if (!want) {
        ++unchecked;
        continue;
      }
      cube_pixels += want->cube;
      const Rgb p = frame.pixel(x, y);
      if (kiln::games::matches(p, want->rgb, want->blended)) continue;
      if (++wrong <= 8)
        std::fprintf(stderr, "%s: pixel (%u, %u) is %02x%02x%02x, expected %.1f %.1f %.1f\n", frame.path.c_str(), x, y,
                     p[0], p[1], p[2], want->rgb[0], want->rgb[1], want->rgb[2]);
    }
  std::printf("%s: %d of %u pixels differ from the scene (%d cube pixels checked; %d near an edge or a texel "
              "boundary not checked)\n",
              frame.path.c_str(), wrong, kWidth * kHeight, cube_pixels, unchecked);
  // The cube covers thousands of pixels in every frame: a frame without it must not pass.
  if (cube_pixels < 2000) {
    std::fprintf(stderr, "%s: only %d cube pixels checked\n", frame.path.c_str(), cube_pixels);
    ++wrong;
  }
  return wrong;
}

} // namespace

int main(int argc, char** argv) {
  return kiln::games::run_frame_checks(argc, argv, "check_scene_frames", kWidth, kHeight, check_frame);
}
