#include <catch2/catch.hpp>

#include <vector>

#include "runtime/base/byte_reader.h"

using namespace kiln;

namespace {
const std::vector<uint8_t> sample = {0x7F, 'E', 'L', 'F', 0x01, 0x02, 0x03, 0x04, 'h', 'i', 0, 0xFF};
}

TEST_CASE("reads values in the reader's byte order and advances", "[byte_reader]") {
  ByteReader reader(sample, "sample.bin");
  CHECK(reader.u8() == 0x7F);
  CHECK(reader.u8() == 'E');
  reader.seek(4);
  CHECK(reader.u32() == 0x04030201u);
  reader.set_endian(Endian::big);
  reader.seek(4);
  CHECK(reader.u16() == 0x0102);
  CHECK(reader.position() == 6);
  CHECK(reader.remaining() == sample.size() - 6);
  reader.seek(8);
  CHECK(reader.c_string() == "hi");
  CHECK(reader.s8() == -1);
  CHECK(reader.remaining() == 0);
}

TEST_CASE("reading past the end throws an error naming the file and absolute offset", "[byte_reader]") {
  ByteReader reader(sample, "game.elf", Endian::little, 0x1000);
  reader.seek(10);
  try {
    (void)reader.u32();
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.location().file == "game.elf");
    REQUIRE(e.location().offset.has_value());
    CHECK(*e.location().offset == 0x100A);
    CHECK(std::string(e.what()).find("game.elf: offset 0x100a:") == 0);
    CHECK(std::string(e.what()).find("expected 4 bytes") != std::string::npos);
  }
  CHECK(reader.position() == 10); // a failed read does not move the cursor
}

TEST_CASE("bounds are checked for seeks, skips, spans and sub-readers without overflow", "[byte_reader]") {
  ByteReader reader(sample, "x");
  CHECK_THROWS_AS(reader.seek(sample.size() + 1), Error);
  CHECK_NOTHROW(reader.seek(sample.size()));
  reader.seek(0);
  CHECK_THROWS_AS(reader.skip(SIZE_MAX), Error);
  CHECK_THROWS_AS(reader.span_at(4, SIZE_MAX - 2), Error);
  CHECK_THROWS_AS(reader.sub_reader(SIZE_MAX, 1), Error);

  ByteReader sub = reader.sub_reader(4, 4);
  CHECK(sub.size() == 4);
  CHECK(sub.absolute_offset() == 4);
  CHECK(sub.u32() == 0x04030201u);
  try {
    (void)sub.u8();
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(*e.location().offset == 8);
  }
}

TEST_CASE("an unterminated string is an error, not a read past the end", "[byte_reader]") {
  const std::vector<uint8_t> bytes = {'a', 'b', 'c'};
  ByteReader reader(bytes, "strings");
  CHECK_THROWS_WITH(reader.c_string(), Catch::Contains("NUL-terminated"));
}

TEST_CASE("peek_at reads without moving and checks its range", "[byte_reader]") {
  ByteReader reader(sample, "x");
  CHECK(reader.peek_at<uint16_t>(2) == 0x464C);
  CHECK(reader.position() == 0);
  CHECK_THROWS_AS(reader.peek_at<uint64_t>(sample.size() - 4), Error);
}
