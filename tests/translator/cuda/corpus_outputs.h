#pragma once
// A corpus kernel's outputs as recorded on NVIDIA hardware (run_on_nvidia.cu writes them, kiln's tests read them):
//   "KILNOUT1"  8 bytes
//   u64         the run seed (the kernel's inputs come from kernel_seed(run seed, kernel), corpus_inputs.h)
//   u32         count of recorded arguments, then for each: u32 argument index, u64 byte size, the bytes
// Little-endian, one file per kernel: <kernel>.out.
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "tests/translator/cuda/corpus_inputs_common.h"

namespace kiln::test {

struct RecordedOutputs {
  uint64_t run_seed = 0;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> arguments; ///< (argument index, bytes)
};

inline constexpr char recorded_outputs_magic[8] = {'K', 'I', 'L', 'N', 'O', 'U', 'T', '1'};

/// Writes the output and in-out arguments of `launch`; false if the file cannot be written.
inline bool write_recorded_outputs(const std::string& path, uint64_t run_seed, const Launch& launch) {
  std::ofstream out(path, std::ios::binary);
  const auto put = [&](const void* data, size_t size) { out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size)); };
  put(recorded_outputs_magic, 8);
  put(&run_seed, 8);
  uint32_t count = 0;
  for (const Argument& argument : launch.arguments) count += argument.kind == Argument::Kind::Output || argument.kind == Argument::Kind::InOut;
  put(&count, 4);
  for (uint32_t i = 0; i < launch.arguments.size(); ++i) {
    const Argument& argument = launch.arguments[i];
    if (argument.kind != Argument::Kind::Output && argument.kind != Argument::Kind::InOut) continue;
    const uint64_t size = argument.bytes.size();
    put(&i, 4);
    put(&size, 8);
    put(argument.bytes.data(), argument.bytes.size());
  }
  return static_cast<bool>(out);
}

/// The file's contents, or an error message in `error` (truncated, wrong magic, sizes past the end).
inline std::optional<RecordedOutputs> read_recorded_outputs(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t offset = 0;
  const auto take = [&](void* data, size_t size) {
    if (bytes.size() - offset < size) return false;
    std::memcpy(data, bytes.data() + offset, size);
    offset += size;
    return true;
  };
  char magic[8];
  RecordedOutputs recorded;
  uint32_t count = 0;
  if (!take(magic, 8) || std::memcmp(magic, recorded_outputs_magic, 8) != 0) {
    error = path + ": not a recorded-outputs file (no KILNOUT1 magic at offset 0)";
    return std::nullopt;
  }
  if (!take(&recorded.run_seed, 8) || !take(&count, 4)) {
    error = path + ": truncated header";
    return std::nullopt;
  }
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = offset;
    uint32_t index = 0;
    uint64_t size = 0;
    if (!take(&index, 4) || !take(&size, 8) || size > bytes.size() - offset) {
      error = path + ": argument record at offset " + std::to_string(at) + " runs past the end of the file";
      return std::nullopt;
    }
    recorded.arguments.emplace_back(index, std::vector<uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(offset),
                                                                bytes.begin() + static_cast<std::ptrdiff_t>(offset + size)));
    offset += size;
  }
  if (offset != bytes.size()) {
    error = path + ": " + std::to_string(bytes.size() - offset) + " bytes after the last argument record";
    return std::nullopt;
  }
  return recorded;
}

} // namespace kiln::test
