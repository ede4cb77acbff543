// compare_frames DIR_A DIR_B COUNT WIDTH HEIGHT: the frames a title wrote in two runs (frame_0.png ..), compared
// pixel for pixel: the Ampere build of sample-scene against its Maxwell twin. Prints every differing pixel of the
// first frames that differ (at most 20), and "N frames, P pixels: identical" when none does. Exit status 0 when
// all are identical, 1 otherwise, 2 for bad usage.
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "tests/games/frame_check.h"

int main(int argc, char** argv) {
  using kiln::games::Frame;
  if (argc != 6) {
    std::fprintf(stderr, "usage: compare_frames DIR_A DIR_B COUNT WIDTH HEIGHT\n");
    return 2;
  }
  const int count = std::atoi(argv[3]);
  const auto width = static_cast<uint32_t>(std::atoi(argv[4])), height = static_cast<uint32_t>(std::atoi(argv[5]));
  if (count <= 0 || width == 0 || height == 0) {
    std::fprintf(stderr, "compare_frames: COUNT, WIDTH and HEIGHT must be positive\n");
    return 2;
  }
  uint64_t differing = 0, reported = 0;
  for (int n = 0; n < count; ++n) {
    const std::optional<Frame> a = kiln::games::load_frame(argv[1], n, width, height);
    const std::optional<Frame> b = kiln::games::load_frame(argv[2], n, width, height);
    if (!a || !b) return 1;
    for (uint32_t y = 0; y < height; ++y) {
      for (uint32_t x = 0; x < width; ++x) {
        const kiln::games::Rgb pa = a->pixel(x, y), pb = b->pixel(x, y);
        if (pa == pb) continue;
        ++differing;
        if (reported++ < 20) {
          std::fprintf(stderr, "frame %d, pixel (%u, %u): %s has %02x%02x%02x, %s has %02x%02x%02x\n", n, x, y, a->path.c_str(), pa[0],
                       pa[1], pa[2], b->path.c_str(), pb[0], pb[1], pb[2]);
        }
      }
    }
  }
  const uint64_t pixels = uint64_t{width} * height * static_cast<uint64_t>(count);
  if (differing != 0) {
    std::fprintf(stderr, "%d frames, %llu pixels: %llu differ\n", count, static_cast<unsigned long long>(pixels),
                 static_cast<unsigned long long>(differing));
    return 1;
  }
  std::printf("%d frames, %llu pixels: identical\n", count, static_cast<unsigned long long>(pixels));
  return 0;
}
