#include "runtime/base/byte_reader.h"

#include <fmt/format.h>

namespace kiln {

ByteReader::ByteReader(std::span<const uint8_t> bytes, std::string name, Endian endian, uint64_t base_offset)
    : bytes_(bytes), name_(std::move(name)), endian_(endian), base_offset_(base_offset) {}

void ByteReader::require(size_t position, size_t count, std::string_view what) const {
  if (position > bytes_.size() || count > bytes_.size() - position) {
    fail_at(position, fmt::format("expected {} byte{} of {}, but the input ends at offset {:#x}", count,
                                  count == 1 ? "" : "s", what, base_offset_ + bytes_.size()));
  }
}

void ByteReader::fail(const std::string& message) const { fail_at(position_, message); }

void ByteReader::fail_at(size_t position, const std::string& message) const {
  throw Error(ErrorLocation{name_, base_offset_ + position, std::nullopt}, message);
}

void ByteReader::seek(size_t position) {
  require(position, 0, "seek target");
  position_ = position;
}

void ByteReader::skip(size_t count) {
  require(position_, count, "skipped data");
  position_ += count;
}

uint8_t ByteReader::u8() {
  require(position_, 1, "u8");
  return bytes_[position_++];
}

uint16_t ByteReader::u16() {
  const uint16_t value = peek_at<uint16_t>(position_);
  position_ += 2;
  return value;
}

uint32_t ByteReader::u32() {
  const uint32_t value = peek_at<uint32_t>(position_);
  position_ += 4;
  return value;
}

uint64_t ByteReader::u64() {
  const uint64_t value = peek_at<uint64_t>(position_);
  position_ += 8;
  return value;
}

std::span<const uint8_t> ByteReader::bytes(size_t count) {
  auto result = span_at(position_, count);
  position_ += count;
  return result;
}

std::string_view ByteReader::c_string() {
  for (size_t end = position_; end < bytes_.size(); ++end) {
    if (bytes_[end] == 0) {
      std::string_view text(reinterpret_cast<const char*>(bytes_.data() + position_), end - position_);
      position_ = end + 1;
      return text;
    }
  }
  fail("expected a NUL-terminated string, but the input ends first");
}

ByteReader ByteReader::sub_reader(size_t position, size_t count) const {
  return ByteReader(span_at(position, count), name_, endian_, base_offset_ + position);
}

std::span<const uint8_t> ByteReader::span_at(size_t position, size_t count) const {
  require(position, count, "data");
  return bytes_.subspan(position, count);
}

} // namespace kiln
