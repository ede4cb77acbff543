#include "runtime/base/wav_file.h"

#include <string_view>

#include "runtime/base/error.h"

namespace kiln {

std::vector<uint8_t> wav_header(uint32_t rate, uint16_t channels, uint32_t data_bytes) {
  constexpr unsigned bytes_per_sample = 2;
  const unsigned block_align = channels * bytes_per_sample;
  std::vector<uint8_t> out;
  out.reserve(44);
  auto tag = [&](std::string_view four) { out.insert(out.end(), four.begin(), four.end()); };
  auto u16 = [&](uint32_t v) {
    out.push_back(static_cast<uint8_t>(v));
    out.push_back(static_cast<uint8_t>(v >> 8));
  };
  auto u32 = [&](uint32_t v) {
    u16(v & 0xFFFF);
    u16(v >> 16);
  };
  tag("RIFF");
  u32(36 + data_bytes);
  tag("WAVE");
  tag("fmt ");
  u32(16);
  u16(1); // PCM
  u16(channels);
  u32(rate);
  u32(rate * block_align);
  u16(block_align);
  u16(bytes_per_sample * 8);
  tag("data");
  u32(data_bytes);
  return out;
}

WavStream::WavStream(const std::string& path, uint32_t rate, uint16_t channels) : path_(path), rate_(rate), channels_(channels) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw Error(in_file(path), with_errno("cannot create the WAV file"));
  const std::vector<uint8_t> header = wav_header(rate_, channels_, 0);
  std::fwrite(header.data(), 1, header.size(), file_);
  std::fflush(file_);
}

WavStream::~WavStream() {
  if (file_) std::fclose(file_);
}

void WavStream::append(std::span<const int16_t> interleaved) {
  // Samples are little-endian on every host kiln runs on, as WAV stores them.
  std::fseek(file_, 0, SEEK_END);
  std::fwrite(interleaved.data(), sizeof(int16_t), interleaved.size(), file_);
  data_bytes_ += static_cast<uint32_t>(interleaved.size() * sizeof(int16_t));
  const std::vector<uint8_t> header = wav_header(rate_, channels_, data_bytes_);
  std::fseek(file_, 0, SEEK_SET);
  std::fwrite(header.data(), 1, header.size(), file_);
  std::fflush(file_);
}

} // namespace kiln
