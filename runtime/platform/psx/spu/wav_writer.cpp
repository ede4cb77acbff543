#include "runtime/platform/psx/spu/wav_writer.h"

#include <string_view>

#include "runtime/base/file_writer.h"

namespace kiln::psx {

std::vector<uint8_t> wav_bytes(std::span<const StereoFrame> frames) {
  constexpr unsigned channels = 2, bytes_per_sample = 2, block_align = channels * bytes_per_sample;
  const uint32_t data_bytes = static_cast<uint32_t>(frames.size() * block_align);
  std::vector<uint8_t> out;
  out.reserve(44 + data_bytes);
  auto tag = [&](std::string_view four) { out.insert(out.end(), four.begin(), four.end()); };
  auto u16 = [&](uint32_t v) { out.push_back(static_cast<uint8_t>(v)); out.push_back(static_cast<uint8_t>(v >> 8)); };
  auto u32 = [&](uint32_t v) { u16(v & 0xFFFF); u16(v >> 16); };
  tag("RIFF");
  u32(36 + data_bytes);
  tag("WAVE");
  tag("fmt ");
  u32(16);
  u16(1); // PCM
  u16(channels);
  u32(spu_sample_rate);
  u32(spu_sample_rate * block_align);
  u16(block_align);
  u16(bytes_per_sample * 8);
  tag("data");
  u32(data_bytes);
  for (const StereoFrame& f : frames) {
    u16(static_cast<uint16_t>(f.left));
    u16(static_cast<uint16_t>(f.right));
  }
  return out;
}

void WavFileSink::write(const std::filesystem::path& path) const { write_file_if_changed(path, wav_bytes(frames_)); }

} // namespace kiln::psx
