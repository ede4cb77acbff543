// SPU-ADPCM decoding of hand-built blocks; each expectation worked out by hand from psx-spx's decode_28_nibbles
// (sample = nibble << (12 - shift) + (old * pos + older * neg + 32) / 64, clamped) and its filter tables.
#include <catch2/catch.hpp>

#include <array>

#include "runtime/platform/psx/spu/adpcm.h"
#include "runtime/platform/psx/spu/gaussian.h"
#include "tests/platform/psx/spu/spu_harness.h"

using kiln::psx::spu::AdpcmHistory;
using kiln::psx::spu::decode_adpcm_block;

namespace {

std::array<int16_t, 28> decode(uint8_t shift_filter, std::initializer_list<int> nibbles, AdpcmHistory& history) {
  const std::vector<int> n(nibbles);
  const auto b = spu_test::block(shift_filter, 0, n);
  return decode_adpcm_block(std::span<const uint8_t, 16>(b.data(), 16), history);
}

} // namespace

TEST_CASE("psx ADPCM filter 0 is the nibble shifted", "[psx][spu]") {
  AdpcmHistory h;
  // Shift 0: 7 -> 7 << 12 = 28672, 8 (= -8) -> -32768, 1 -> 4096, F (= -1) -> -4096, 0 -> 0.
  auto s = decode(0x00, {7, 8, 1, 0xF, 0}, h);
  CHECK(s[0] == 28672);
  CHECK(s[1] == -32768);
  CHECK(s[2] == 4096);
  CHECK(s[3] == -4096);
  CHECK(s[4] == 0);
  // Shift 12: the nibble itself; shifts 13..15 act as 9 (psx-spx, CD-XA header): 7 << 3 = 56.
  CHECK(decode(0x0C, {7, 8}, h)[0] == 7);
  CHECK(decode(0x0C, {7, 8}, h)[1] == -8);
  CHECK(decode(0x0D, {7}, h)[0] == 56);
  CHECK(decode(0x0F, {0xF}, h)[0] == -8);
}

TEST_CASE("psx ADPCM filters 1 to 4 predict from the two previous samples", "[psx][spu]") {
  // Filter 1 (60, 0), shift 12, from old = 1000: (1000 * 60 + 32) / 64 = 60032 / 64 = 938, then
  // (938 * 60 + 32) / 64 = 56312 / 64 = 879 (879.875 truncated), then (879 * 60 + 32) / 64 = 52772 / 64 = 824.
  AdpcmHistory h{1000, 0};
  auto s = decode(0x1C, {0, 0, 0}, h);
  CHECK(s[0] == 938);
  CHECK(s[1] == 879);
  CHECK(s[2] == 824);
  // Filter 2 (115, -52), nibble 1 at shift 12 adds 1: 1 + (1000 * 115 - 500 * 52 + 32) / 64 = 1 + 89032 / 64 = 1 + 1391.
  // The next sample predicts from the one just decoded: (1392 * 115 - 1000 * 52 + 32) / 64 = 108112 / 64 = 1689.
  h = {1000, 500};
  const auto two = decode(0x2C, {1, 0}, h);
  CHECK(two[0] == 1392);
  CHECK(two[1] == 1689);
  // Filter 3 (98, -55): (1000 * 98 - 500 * 55 + 32) / 64 = 70532 / 64 = 1102 (1102.06).
  h = {1000, 500};
  CHECK(decode(0x3C, {0}, h)[0] == 1102);
  // Filter 4 (122, -60): (1000 * 122 - 500 * 60 + 32) / 64 = 92032 / 64 = 1438.
  h = {1000, 500};
  CHECK(decode(0x4C, {0}, h)[0] == 1438);
  // "/64" truncates towards zero: filter 1 from old = -999: (-59940 + 32) / 64 = -59908 / 64 = -936.06 -> -936.
  h = {-999, 0};
  CHECK(decode(0x1C, {0}, h)[0] == -936);
  // The sum is clamped: filter 4, shift 0, nibble 7 from old = 32767: 28672 + (32767 * 122 + 32) / 64 = 28672 + 62463.
  h = {32767, 0};
  CHECK(decode(0x40, {7}, h)[0] == 32767);
  h = {-32768, 0};
  CHECK(decode(0x40, {8}, h)[0] == -32768);
}

TEST_CASE("psx ADPCM filters 5 to 7 decode as filter 4", "[psx][spu]") {
  // psx-spx names five filters and says nothing of 5..7; kiln takes them as filter 4 (the last one).
  for (uint8_t f = 5; f <= 7; ++f) {
    AdpcmHistory a{1000, 500}, b{1000, 500};
    CHECK(decode(static_cast<uint8_t>(f << 4 | 0x0C), {3, 2, 1}, a) == decode(0x4C, {3, 2, 1}, b));
  }
}

TEST_CASE("psx Gaussian table holds psx-spx's values and sums", "[psx][spu]") {
  using kiln::psx::spu::gaussian_table;
  // Spot values from the printed table: the first sixteen are -1, entry 0FFh = 12C7h, 100h = 1307h, 1FFh = 59B3h.
  CHECK(gaussian_table[0x000] == -1);
  CHECK(gaussian_table[0x00F] == -1);
  CHECK(gaussian_table[0x010] == 0);
  CHECK(gaussian_table[0x0FF] == 0x12C7);
  CHECK(gaussian_table[0x100] == 0x1307);
  CHECK(gaussian_table[0x1FF] == 0x59B3);
  // "each four values (gauss[000h+i], gauss[0FFh-i], gauss[100h+i], gauss[1FFh-i]) sum up to 7F7Fh..7F81h".
  for (int i = 0; i < 256; ++i) {
    const int sum = gaussian_table[i] + gaussian_table[0xFF - i] + gaussian_table[0x100 + i] + gaussian_table[0x1FF - i];
    INFO("index " << i);
    CHECK(sum >= 0x7F7F);
    CHECK(sum <= 0x7F81);
  }
}
