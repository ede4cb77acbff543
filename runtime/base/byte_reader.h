#pragma once
// A bounds-checked cursor over input bytes: the only way loaders and decoders touch input.
// Every read past the end throws kiln::Error naming the file and the absolute offset.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln {

class ByteReader {
public:
  /// `name` is what errors call the input (usually its path); `base_offset` is where `bytes` starts in it.
  ByteReader(std::span<const uint8_t> bytes, std::string name, Endian endian = Endian::little, uint64_t base_offset = 0);

  size_t size() const { return bytes_.size(); }
  size_t position() const { return position_; }
  size_t remaining() const { return bytes_.size() - position_; }
  Endian endian() const { return endian_; }
  void set_endian(Endian endian) { endian_ = endian; }
  const std::string& name() const { return name_; }
  /// Offset of the cursor inside the whole input (for messages).
  uint64_t absolute_offset() const { return base_offset_ + position_; }

  void seek(size_t position);
  void skip(size_t count);

  uint8_t u8();
  uint16_t u16();
  uint32_t u32();
  uint64_t u64();
  int8_t s8() { return static_cast<int8_t>(u8()); }
  int16_t s16() { return static_cast<int16_t>(u16()); }
  int32_t s32() { return static_cast<int32_t>(u32()); }
  int64_t s64() { return static_cast<int64_t>(u64()); }

  /// Reads at an absolute position inside this reader without moving the cursor.
  template <std::unsigned_integral T>
  T peek_at(size_t position) const {
    require(position, sizeof(T), "value");
    return load<T>(bytes_.data() + position, endian_);
  }

  std::span<const uint8_t> bytes(size_t count);
  /// A NUL-terminated string starting at the cursor (the NUL is consumed).
  std::string_view c_string();
  /// A reader over [position, position+count) of this one, sharing the name; checks the range.
  ByteReader sub_reader(size_t position, size_t count) const;
  /// The same range as a span; checks it.
  std::span<const uint8_t> span_at(size_t position, size_t count) const;

  /// Throws kiln::Error at the current offset with `message` (for format checks by the caller).
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_at(size_t position, const std::string& message) const;

private:
  void require(size_t position, size_t count, std::string_view what) const;

  std::span<const uint8_t> bytes_;
  std::string name_;
  Endian endian_;
  uint64_t base_offset_;
  size_t position_ = 0;
};

} // namespace kiln
