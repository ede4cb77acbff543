// Checks what games/sample-switch leaves on the host: its save file holds the expected score (a little-endian
// u64), and its WAV holds the tone as defined in games/sample-switch/tone.h, computed here on its own: 0.25 s
// at 48 kHz (12000 frames) of a 440 Hz square wave, frame n = +8000 while floor(n * 880 / 48000) is even, else
// -8000, on both channels. Usage: check_sample_outputs SAVE_FILE SCORE WAV_FILE
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace {

std::string read_all(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::printf("%s: cannot read\n", path);
    std::exit(1);
  }
  return {std::istreambuf_iterator<char>(in), {}};
}

template <typename T>
T at(const std::string& bytes, size_t offset) {
  T v{};
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::printf("usage: check_sample_outputs SAVE_FILE SCORE WAV_FILE\n");
    return 2;
  }
  const std::string save = read_all(argv[1]);
  const uint64_t score = std::strtoull(argv[2], nullptr, 10);
  if (save.size() != 8 || at<uint64_t>(save, 0) != score) {
    std::printf("%s: %zu bytes, expected the score %llu as 8 bytes\n", argv[1], save.size(), static_cast<unsigned long long>(score));
    return 1;
  }
  const std::string wav = read_all(argv[3]);
  constexpr uint32_t rate = 48000, frames = 12000, hz = 440;
  constexpr int16_t amplitude = 8000;
  if (wav.size() < 44 || wav.compare(0, 4, "RIFF") != 0 || wav.compare(8, 8, "WAVEfmt ") != 0 || at<uint16_t>(wav, 20) != 1 ||
      at<uint16_t>(wav, 22) != 2 || at<uint32_t>(wav, 24) != rate || at<uint16_t>(wav, 34) != 16 || wav.compare(36, 4, "data") != 0) {
    std::printf("%s: not a 48 kHz stereo 16-bit PCM WAV\n", argv[3]);
    return 1;
  }
  const uint32_t data_bytes = at<uint32_t>(wav, 40);
  if (data_bytes != frames * 4 || wav.size() != 44 + data_bytes) {
    std::printf("%s: %u data bytes, expected %u (%u frames)\n", argv[3], data_bytes, frames * 4, frames);
    return 1;
  }
  for (uint32_t n = 0; n < frames; ++n) {
    const int16_t expected = (static_cast<uint64_t>(n) * 2 * hz / rate) % 2 == 0 ? amplitude : -amplitude;
    for (int channel = 0; channel < 2; ++channel) {
      const int16_t got = at<int16_t>(wav, 44 + 4 * n + 2 * channel);
      if (got != expected) {
        std::printf("%s: frame %u channel %d is %d, expected %d\n", argv[3], n, channel, got, expected);
        return 1;
      }
    }
  }
  std::printf("score %llu saved; %u frames of the 440 Hz square\n", static_cast<unsigned long long>(score), frames);
  return 0;
}
