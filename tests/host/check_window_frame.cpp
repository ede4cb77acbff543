// Checks an xwd dump of a sample title's window (tests/host/sample_window.sh):
//   check_window_frame same WINDOW.xwd FRAME.png SCALE   every window pixel is the frame's pixel (x / SCALE, y / SCALE)
//   check_window_frame rectangle WINDOW.xwd SCALE LEFT   sample-triangle's orange rectangle (ff c0 00) covers
//                                                        exactly x in [LEFT, LEFT + 32) of frame row 16, x < 96
//   check_window_frame not-rectangle WINDOW.xwd SCALE LEFT   it does not start at LEFT
//   check_window_frame same-png A.png B.png              the two images have the same size and RGB pixels
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/base/error.h"
#include "tests/host/xwd_image.h"

using namespace kiln;

namespace {

const uint8_t* pixel(const RgbaImage& image, uint32_t x, uint32_t y) { return &image.pixels[(size_t{y} * image.width + x) * 4]; }

/// The first x < 96 of frame row 16 where the rectangle is, and whether it is one run of 32 pixels.
int rectangle_left(const RgbaImage& window, uint32_t scale, bool& one_run) {
  int left = -1, count = 0, runs = 0;
  bool inside = false;
  for (uint32_t x = 0; x < 96; ++x) {
    const uint8_t* p = pixel(window, x * scale + scale / 2, 16 * scale + scale / 2);
    const bool orange = p[0] == 0xff && p[1] == 0xc0 && p[2] == 0x00;
    if (orange && !inside) ++runs, left = left < 0 ? int(x) : left;
    count += orange;
    inside = orange;
  }
  one_run = runs == 1 && count == 32;
  return left;
}

} // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "same" && argc == 5) {
      const RgbaImage window = test::read_xwd(argv[2]), frame = read_png(argv[3]);
      const uint32_t scale = static_cast<uint32_t>(std::atoi(argv[4]));
      if (window.width != frame.width * scale || window.height != frame.height * scale) {
        std::printf("window %ux%u, frame %ux%u times %u\n", window.width, window.height, frame.width, frame.height, scale);
        return 1;
      }
      size_t wrong = 0;
      for (uint32_t y = 0; y < window.height; ++y)
        for (uint32_t x = 0; x < window.width; ++x)
          for (int c = 0; c < 3; ++c) wrong += pixel(window, x, y)[c] != pixel(frame, x / scale, y / scale)[c];
      std::printf("%s vs %s: %zu differing components of %u pixels\n", argv[2], argv[3], wrong, window.width * window.height);
      return wrong == 0 ? 0 : 1;
    }
    if (mode == "same-png" && argc == 4) {
      const RgbaImage a = read_png(argv[2]), b = read_png(argv[3]);
      size_t wrong = a.width == b.width && a.height == b.height ? 0 : 1;
      for (size_t i = 0; wrong == 0 && i < a.pixels.size(); ++i) wrong += i % 4 != 3 && a.pixels[i] != b.pixels[i];
      std::printf("%s vs %s: %s\n", argv[2], argv[3], wrong ? "differ" : "same pixels");
      return wrong == 0 ? 0 : 1;
    }
    if ((mode == "rectangle" || mode == "not-rectangle") && argc == 5) {
      const RgbaImage window = test::read_xwd(argv[2]);
      bool one_run = false;
      const int left = rectangle_left(window, static_cast<uint32_t>(std::atoi(argv[3])), one_run);
      std::printf("%s: rectangle at x = %d (%s)\n", argv[2], left, one_run ? "32 pixels" : "not one run of 32 pixels");
      const bool at = one_run && left == std::atoi(argv[4]);
      return (mode == "rectangle" ? at : one_run && !at) ? 0 : 1;
    }
    std::fprintf(stderr, "usage: check_window_frame same WINDOW.xwd FRAME.png SCALE | rectangle|not-rectangle WINDOW.xwd SCALE LEFT\n");
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "check_window_frame: %s\n", e.what());
    return 1;
  }
}
