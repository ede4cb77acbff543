#pragma once
// A headless AudioSink: keeps every frame and writes a 16-bit stereo PCM WAV file (RIFF "WAVE", one "fmt "
// chunk of 16 bytes, one "data" chunk) at 44.1 kHz.
#include <filesystem>
#include <vector>

#include "runtime/platform/psx/spu/audio_sink.h"

namespace kiln::psx {

class WavFileSink final : public AudioSink {
public:
  void push(std::span<const StereoFrame> frames) override { frames_.insert(frames_.end(), frames.begin(), frames.end()); }
  const std::vector<StereoFrame>& frames() const { return frames_; }
  /// Writes what was pushed so far; throws kiln::Error naming the path when it cannot.
  void write(const std::filesystem::path& path) const;

private:
  std::vector<StereoFrame> frames_;
};

/// The file's bytes (what write() stores).
std::vector<uint8_t> wav_bytes(std::span<const StereoFrame> frames);

} // namespace kiln::psx
