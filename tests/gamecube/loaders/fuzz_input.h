#pragma once
// What a GameCube fuzz target feeds its reader: the fuzzer's bytes themselves when the first is even, else a
// valid seed file with the rest XORed over it (and appended past its end). Random bytes rarely pass a 0x100- or
// 0x2460-byte header's checks; mutating a valid file reaches every check behind them from an empty corpus.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln::gamecube::testing {

inline std::vector<uint8_t> fuzz_input(const uint8_t* data, size_t size, const std::vector<uint8_t>& seed) {
  if (size == 0 || data[0] % 2 == 0) return {data, data + size};
  std::vector<uint8_t> out = seed;
  for (size_t i = 1; i < size; ++i) {
    if (i - 1 < out.size()) out[i - 1] ^= data[i];
    else out.push_back(data[i]);
  }
  return out;
}

} // namespace kiln::gamecube::testing
