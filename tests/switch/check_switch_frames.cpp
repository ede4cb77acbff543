// Checks the frames games/sample-switch presents through vi (kiln writes them as $KILN_FRAME_DIR/frame_N.png)
// against its scene as games/sample-switch/README.md describes it, the numbers restated here rather than taken
// from the sample's source or kiln's output: 256x144; rows 0-95 dark blue sky (0x10, 0x20, 0x60), rows 96-143
// green ground (0x30, 0xa0, 0x30); a 32x32 orange square (0xff, 0x80, 0x00) standing on the ground, centred:
// x 112-143, y 64-95. Before each frame is drawn the left stick moves the square by stick * 8 / 0x7fff pixels
// (rounded towards zero; stick y up, the frame's y down), kept inside the frame. Without a pad the square stays
// where it starts; with a held stick (the run's --pad-script, given here as STICK_X STICK_Y in Horizon's units)
// frame n shows it moved n + 1 times. Each channel is cleared as byte / 255, which UNORM8 stores exactly, so
// every pixel must match exactly (scissored clears have no edge rounding).
// Usage: check_switch_frames FRAME_DIR FRAME_COUNT [STICK_X STICK_Y]
#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

#include "tests/games/frame_check.h"

namespace {

using kiln::games::Frame;
using kiln::games::HandPoint;
using kiln::games::Rgb;

constexpr uint32_t width = 256, height = 144, horizon = 96, side = 32;
constexpr int start_x = (width - side) / 2, start_y = horizon - side;
constexpr int speed = 8, stick_full = 0x7fff;

int stick_x = 0, stick_y = 0; // the held left stick, Horizon's units (y up)

/// The square's top left corner in frame n (README: moved before each frame, kept inside the frame).
std::pair<int, int> square_at(int n) {
  int x = start_x, y = start_y;
  for (int step = 0; step <= n; ++step) {
    x = std::clamp(x + stick_x * speed / stick_full, 0, int{width - side});
    y = std::clamp(y - stick_y * speed / stick_full, 0, int{height - side});
  }
  return {x, y};
}

constexpr Rgb sky{0x10, 0x20, 0x60}, ground{0x30, 0xa0, 0x30}, square{0xff, 0x80, 0x00};
constexpr int png_rgba = 6;

Rgb expected(int n, uint32_t x, uint32_t y) {
  const auto [square_x, square_y] = square_at(n);
  if (int(x) >= square_x && int(x) < square_x + int{side} && int(y) >= square_y && int(y) < square_y + int{side}) return square;
  return y < horizon ? sky : ground;
}

// Worked out by hand for the square at rest: its corners and the pixels just outside it, the horizon's two rows.
constexpr HandPoint hand_points[] = {
    {-1, 0, 0, sky, "top left: sky"},
    {-1, 255, 143, ground, "bottom right: ground"},
    {-1, 112, 64, square, "the square's top left corner"},
    {-1, 143, 95, square, "the square's bottom right corner"},
    {-1, 111, 80, sky, "left of the square"},
    {-1, 144, 80, sky, "right of the square"},
    {-1, 128, 63, sky, "above the square"},
    {-1, 128, 96, ground, "below the square: the first ground row"},
    {-1, 10, 95, sky, "the last sky row"},
    {-1, 10, 96, ground, "the first ground row"},
};

int check_frame(const Frame& frame, int n) {
  int wrong = stick_x || stick_y ? 0 : kiln::games::check_hand_points(frame, n, hand_points);
  int differing = 0;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const Rgb got = frame.pixel(x, y), want = expected(n, x, y);
      if (got == want) continue;
      if (differing++ < 5)
        std::fprintf(stderr, "%s: pixel (%u, %u) is %02x%02x%02x, expected %02x%02x%02x\n", frame.path.c_str(), x, y,
                     got[0], got[1], got[2], want[0], want[1], want[2]);
    }
  if (differing) std::fprintf(stderr, "%s: %d pixels differ from the scene\n", frame.path.c_str(), differing);
  else {
    const auto [square_x, square_y] = square_at(n);
    std::printf("%s: all %u pixels as the scene defines (square at %d, %d)\n", frame.path.c_str(), width * height, square_x, square_y);
  }
  return wrong + differing;
}

} // namespace

int main(int argc, char** argv) {
  if (argc == 5) {
    stick_x = std::atoi(argv[3]);
    stick_y = std::atoi(argv[4]);
    argc = 3;
  }
  return kiln::games::run_frame_checks(argc, argv, "check_switch_frames", width, height, check_frame, png_rgba);
}
