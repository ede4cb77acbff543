#include "runtime/platform/psx/spu/wav_writer.h"

#include "runtime/base/file_writer.h"
#include "runtime/base/wav_file.h"

namespace kiln::psx {

std::vector<uint8_t> wav_bytes(std::span<const StereoFrame> frames) {
  std::vector<uint8_t> out = wav_header(spu_sample_rate, 2, static_cast<uint32_t>(frames.size() * 4));
  auto u16 = [&](int16_t v) {
    out.push_back(static_cast<uint8_t>(v));
    out.push_back(static_cast<uint8_t>(static_cast<uint16_t>(v) >> 8));
  };
  for (const StereoFrame& f : frames) {
    u16(f.left);
    u16(f.right);
  }
  return out;
}

void WavFileSink::write(const std::filesystem::path& path) const { write_file_if_changed(path, wav_bytes(frames_)); }

} // namespace kiln::psx
