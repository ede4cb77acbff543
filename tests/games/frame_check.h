// What the GPU sample titles' frame checkers (check_sample_frames.cpp, check_scene_frames.cpp and
// tests/switch/check_switch_frames.cpp) share: reading the frames a title wrote (RGB PNG files from
// games/common/png_writer.h; RGBA from kiln's Switch vi), comparing pixels with the colours a scene's numbers
// give, the pixels derived by hand, and the driver loop with its usage and exit status. Header-only, so each
// checker stays one source file.
#ifndef KILN_TESTS_GAMES_FRAME_CHECK_H
#define KILN_TESTS_GAMES_FRAME_CHECK_H

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "runtime/base/png_image.h"

namespace kiln::games {

// A pixel as a display shows it: the frames carry no alpha.
using Rgb = std::array<uint8_t, 3>;

// Where a pixel centre lies against a shape: inside when more than one pixel inside every edge, outside when more
// than one pixel outside one of them; pixels within a pixel of an edge are not checked (rasterisation rules and
// interpolation rounding decide them, not the scene).
enum class Cover { outside, inside, edge };
inline Cover cover_from_distance(double nearest_edge_distance) {
  return nearest_edge_distance > 1 ? Cover::inside : nearest_edge_distance < -1 ? Cover::outside : Cover::edge;
}

// An expected colour as real numbers (0..255). Blended pixels may round either way (Vulkan lets the UNORM
// conversion of a blend result round either way): within one unit; everything else exactly.
inline bool matches(const Rgb& actual, const std::array<double, 3>& want, bool blended) {
  for (int c = 0; c < 3; ++c) {
    const double difference = std::fabs(double(actual[c]) - want[c]);
    if (blended ? difference >= 1.0 : difference != 0.0) return false;
  }
  return true;
}

struct Frame {
  std::string path;
  kiln::RgbaImage image; // read_png gives RGBA; the file's missing alpha reads as 255 and is not looked at
  Rgb pixel(uint32_t x, uint32_t y) const {
    const uint8_t* p = &image.pixels[(size_t{y} * image.width + x) * 4];
    return {p[0], p[1], p[2]};
  }
};

// The PNG colour type, IHDR's byte 9 (file offset 25): 2 is RGB, 6 RGBA.
inline int png_colour_type(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char header[26] = {};
  if (!file.read(header, sizeof header)) return -1;
  return static_cast<unsigned char>(header[25]);
}

// FRAME_DIR/frame_N.png, which must be a PNG of width x height and `colour_type` (2, RGB, for the linux-user
// titles' own writer; 6, RGBA, for the frames kiln's Switch vi writes); nothing after printing why.
inline std::optional<Frame> load_frame(const std::string& directory, int n, uint32_t width, uint32_t height,
                                       int colour_type = 2) {
  Frame frame{directory + "/frame_" + std::to_string(n) + ".png", {}};
  try {
    frame.image = kiln::read_png(frame.path);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return std::nullopt;
  }
  if (frame.image.width != width || frame.image.height != height) {
    std::fprintf(stderr, "%s: %ux%u, expected %ux%u\n", frame.path.c_str(), frame.image.width, frame.image.height,
                 width, height);
    return std::nullopt;
  }
  if (const int type = png_colour_type(frame.path); type != colour_type) {
    std::fprintf(stderr, "%s: PNG colour type %d, expected %d\n", frame.path.c_str(), type, colour_type);
    return std::nullopt;
  }
  return frame;
}

// A pixel worked out by hand from a title's numbers, checked on its own so that a mistake in the checker's
// rendering of the scene cannot hide it. Frame -1: every frame. (x, y) is offset by the caller's origin.
struct HandPoint {
  int frame;
  uint32_t x, y;
  Rgb rgb;
  const char* why;
};

// The hand-derived points of frame n that differ, each reported; returns their number.
inline int check_hand_points(const Frame& frame, int n, std::span<const HandPoint> points, uint32_t origin_x = 0,
                             uint32_t origin_y = 0) {
  int wrong = 0;
  for (const HandPoint& point : points) {
    if (point.frame != -1 && point.frame != n) continue;
    const Rgb p = frame.pixel(origin_x + point.x, origin_y + point.y);
    if (p == point.rgb) continue;
    ++wrong;
    std::fprintf(stderr, "%s: pixel (%u, %u), %s, is %02x%02x%02x, expected %02x%02x%02x\n", frame.path.c_str(),
                 point.x, point.y, point.why, p[0], p[1], p[2], point.rgb[0], point.rgb[1], point.rgb[2]);
  }
  return wrong;
}

// The checker's main: `name FRAME_DIR FRAME_COUNT`; each frame (width x height) is loaded and handed to
// `check_frame`, which returns how many of its checks failed. Exit status 0 when every frame passes, 1 otherwise,
// 2 for bad usage.
inline int run_frame_checks(int argc, char** argv, const char* name, uint32_t width, uint32_t height,
                            const std::function<int(const Frame&, int)>& check_frame, int colour_type = 2) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s FRAME_DIR FRAME_COUNT\n", name);
    return 2;
  }
  const int frames = std::atoi(argv[2]);
  int failures = 0;
  for (int n = 0; n < frames; ++n) {
    const std::optional<Frame> frame = load_frame(argv[1], n, width, height, colour_type);
    if (!frame) return 1;
    failures += check_frame(*frame, n) != 0;
  }
  return failures ? 1 : 0;
}

} // namespace kiln::games

#endif
