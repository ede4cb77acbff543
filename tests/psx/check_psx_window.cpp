// Checks the PS1 sample in a window (tests/psx/sample_window.sh):
//   check_psx_window square WINDOW.xwd SCALE X Y     the sample's yellow 8x8 square covers exactly frame pixels
//                                                    [X, X + 8) x [Y, Y + 8) (nothing else in the window is yellow)
//   check_psx_window audio DEVICE.raw SPU.wav RATE MIN   SDL's disk driver output (16-bit stereo at RATE Hz) is,
//       after its leading silence, the WAV's 44.1 kHz frames resampled by docs/host.md's formula, equal sample by
//       sample for at least MIN frames and silent after them
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tests/host/xwd_image.h"

using namespace kiln;

namespace {

int check_square(const std::string& path, uint32_t scale, uint32_t left, uint32_t top) {
  const RgbaImage window = test::read_xwd(path);
  // (248,248,0) in the 15-bit VRAM is 31,31,0: full yellow once widened to 8 bits.
  uint32_t count = 0, min_x = ~0u, min_y = ~0u, max_x = 0, max_y = 0;
  for (uint32_t y = 0; y < window.height / scale; ++y)
    for (uint32_t x = 0; x < window.width / scale; ++x) {
      const uint8_t* p = &window.pixels[(size_t{y * scale + scale / 2} * window.width + x * scale + scale / 2) * 4];
      if (p[0] < 0xf0 || p[1] < 0xf0 || p[2] > 0x10) continue;
      ++count, min_x = std::min(min_x, x), min_y = std::min(min_y, y), max_x = std::max(max_x, x), max_y = std::max(max_y, y);
    }
  std::printf("%s: %u yellow frame pixels, x %u..%u, y %u..%u\n", path.c_str(), count, min_x, max_x, min_y, max_y);
  return count == 64 && min_x == left && min_y == top && max_x == left + 7 && max_y == top + 7 ? 0 : 1;
}

std::vector<int16_t> samples_of(const std::vector<uint8_t>& bytes, size_t from) {
  std::vector<int16_t> s((bytes.size() - from) / 2);
  std::memcpy(s.data(), bytes.data() + from, s.size() * 2);
  return s;
}

int check_audio(const std::string& raw_path, const std::string& wav_path, uint32_t rate, size_t min_frames) {
  const std::vector<int16_t> out = samples_of(read_file(raw_path), 0);
  const std::vector<uint8_t> wav_bytes = read_file(wav_path);
  if (wav_bytes.size() < 44) throw Error(in_file(wav_path), "not a WAV file");
  const std::vector<int16_t> in = samples_of(wav_bytes, 44); // 44.1 kHz stereo, as test_sample.cpp checks
  std::vector<int16_t> expected; // out[n] = s[i] + floor(((s[i+1] - s[i]) * r + rate / 2) / rate), i = floor(n * 44100 / rate)
  for (uint64_t n = 0;; ++n) {
    const uint64_t i = n * 44100 / rate, r = n * 44100 % rate;
    if (2 * (i + 1) + 1 >= in.size()) break;
    for (int c = 0; c < 2; ++c) {
      const int64_t a = in[2 * i + c], b = in[2 * (i + 1) + c], num = (b - a) * int64_t(r) + rate / 2;
      expected.push_back(int16_t(a + (num >= 0 ? num / rate : -((-num + rate - 1) / rate))));
    }
  }
  size_t first_sound = 0;
  while (first_sound < out.size() && out[first_sound] == 0) ++first_sound;
  first_sound -= first_sound % 2;
  size_t best = 0, best_offset = 0;
  for (size_t offset = 0; offset <= first_sound; offset += 2) { // the tone may start with silent samples itself
    size_t n = 0;
    while (offset + n < out.size() && n < expected.size() && out[offset + n] == expected[n]) ++n;
    if (n > best) best = n, best_offset = offset;
  }
  size_t after = 0;
  for (size_t k = best_offset + best - best % 2; k < out.size(); ++k) after += out[k] != 0;
  std::printf("%s: %zu leading silent frames, then %zu frames equal to %s resampled to %u Hz, %zu non-zero samples after\n",
              raw_path.c_str(), best_offset / 2, best / 2, wav_path.c_str(), rate, after);
  return best / 2 >= min_frames && after == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "square" && argc == 6)
      return check_square(argv[2], uint32_t(std::atoi(argv[3])), uint32_t(std::atoi(argv[4])), uint32_t(std::atoi(argv[5])));
    if (mode == "audio" && argc == 6) return check_audio(argv[2], argv[3], uint32_t(std::atoi(argv[4])), size_t(std::atoll(argv[5])));
    std::fprintf(stderr, "usage: check_psx_window square WINDOW.xwd SCALE X Y | audio DEVICE.raw SPU.wav RATE MIN_FRAMES\n");
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "check_psx_window: %s\n", e.what());
    return 1;
  }
}
