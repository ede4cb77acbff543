#pragma once
// WAV files of signed 16-bit PCM: RIFF "WAVE", one "fmt " chunk of 16 bytes, one "data" chunk.
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace kiln {

/// The 44-byte header of a file holding `data_bytes` bytes of interleaved samples.
std::vector<uint8_t> wav_header(uint32_t rate, uint16_t channels, uint32_t data_bytes);

/// A WAV file written as samples arrive: the header's sizes are brought up to date after every append, so the
/// file is complete whenever the program stops.
class WavStream {
public:
  /// Throws kiln::Error naming the path when it cannot be created.
  WavStream(const std::string& path, uint32_t rate, uint16_t channels);
  ~WavStream();
  WavStream(const WavStream&) = delete;
  WavStream& operator=(const WavStream&) = delete;
  void append(std::span<const int16_t> interleaved);
  const std::string& path() const { return path_; }

private:
  std::string path_;
  uint32_t rate_;
  uint16_t channels_;
  std::FILE* file_ = nullptr;
  uint32_t data_bytes_ = 0;
};

} // namespace kiln
