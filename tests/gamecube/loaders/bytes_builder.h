#pragma once
// Big-endian test inputs written field by field at the offsets the format documents give.
#include <cstdint>
#include <string_view>
#include <vector>

#include "runtime/base/bits.h"

namespace kiln::gamecube::testing {

struct Bytes {
  std::vector<uint8_t> data;
  explicit Bytes(size_t size) : data(size, 0) {}
  Bytes& u8(size_t at, uint8_t v) { grow(at + 1), data[at] = v; return *this; }
  Bytes& u16(size_t at, uint16_t v) { grow(at + 2), store<uint16_t>(data.data() + at, v, Endian::big); return *this; }
  Bytes& u32(size_t at, uint32_t v) { grow(at + 4), store<uint32_t>(data.data() + at, v, Endian::big); return *this; }
  Bytes& text(size_t at, std::string_view s) {
    grow(at + s.size());
    for (size_t i = 0; i < s.size(); ++i) data[at + i] = static_cast<uint8_t>(s[i]);
    return *this;
  }
  Bytes& bytes(size_t at, const std::vector<uint8_t>& b) {
    grow(at + b.size());
    for (size_t i = 0; i < b.size(); ++i) data[at + i] = b[i];
    return *this;
  }
  void grow(size_t size) {
    if (data.size() < size) data.resize(size, 0);
  }
};

} // namespace kiln::gamecube::testing
