#include <catch2/catch.hpp>

#include "runtime/base/bits.h"

using namespace kiln;

TEST_CASE("byteswap reverses byte order for every width", "[bits]") {
  CHECK(byteswap<uint8_t>(0x12) == 0x12);
  CHECK(byteswap<uint16_t>(0x1234) == 0x3412);
  CHECK(byteswap<uint32_t>(0x12345678u) == 0x78563412u);
  CHECK(byteswap<uint64_t>(0x0102030405060708ull) == 0x0807060504030201ull);
}

TEST_CASE("load and store honour the requested byte order on unaligned memory", "[bits]") {
  const uint8_t bytes[] = {0xAA, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  CHECK(load<uint32_t>(bytes + 1, Endian::little) == 0x04030201u);
  CHECK(load<uint32_t>(bytes + 1, Endian::big) == 0x01020304u);
  CHECK(load<uint64_t>(bytes + 1, Endian::big) == 0x0102030405060708ull);
  CHECK(load<uint16_t>(bytes + 1, Endian::little) == 0x0201);

  uint8_t out[5] = {};
  store<uint32_t>(out + 1, 0xDEADBEEFu, Endian::big);
  CHECK(out[1] == 0xDE);
  CHECK(out[4] == 0xEF);
  store<uint32_t>(out + 1, 0xDEADBEEFu, Endian::little);
  CHECK(out[1] == 0xEF);
  CHECK(out[4] == 0xDE);
  CHECK(out[0] == 0);
}

TEST_CASE("bit fields extract, insert and sign-extend", "[bits]") {
  CHECK(extract_bits<uint32_t>(0xABCD1234u, 8, 8) == 0x12u);
  CHECK(extract_bits<uint64_t>(~0ull, 0, 64) == ~0ull);
  CHECK(insert_bits<uint32_t>(0xFFFFFFFFu, 4, 8, 0) == 0xFFFFF00Fu);
  CHECK(insert_bits<uint32_t>(0, 28, 4, 0xFFu) == 0xF0000000u); // field truncated to its width
  CHECK(sign_extend(0x80, 8) == -128);
  CHECK(sign_extend(0x7F, 8) == 127);
  CHECK(sign_extend(0x3FFFFFF, 26) == -1);
  CHECK(sign_extend(0x1FFFFFF, 26) == 0x1FFFFFF);
  CHECK(sign_extend(0x8000000000000000ull, 64) == INT64_MIN);
  CHECK(low_mask<uint32_t>(32) == 0xFFFFFFFFu);
  CHECK(low_mask<uint32_t>(0) == 0u);
}

TEST_CASE("alignment helpers", "[bits]") {
  CHECK(align_up(0, 64) == 0);
  CHECK(align_up(1, 64) == 64);
  CHECK(align_up(64, 64) == 64);
  CHECK(div_ceil(65, 64) == 2);
  CHECK(is_power_of_two(1));
  CHECK(is_power_of_two(4096));
  CHECK_FALSE(is_power_of_two(0));
  CHECK_FALSE(is_power_of_two(96));
}
