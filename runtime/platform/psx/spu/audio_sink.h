#pragma once
// Where the SPU's output goes: 44.1 kHz stereo signed 16-bit frames, handed over in batches as the machine's
// time advances. The host layer adapts this to an audio device; headless runs write a WAV file (wav_writer.h).
#include <cstdint>
#include <span>

namespace kiln::psx {

constexpr unsigned spu_sample_rate = 44100;

struct StereoFrame {
  int16_t left = 0, right = 0;
  bool operator==(const StereoFrame&) const = default;
};

class AudioSink {
public:
  virtual ~AudioSink() = default;
  virtual void push(std::span<const StereoFrame> frames) = 0;
};

} // namespace kiln::psx
