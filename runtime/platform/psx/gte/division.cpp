#include "runtime/platform/psx/gte/division.h"

#include <algorithm>
#include <array>
#include <bit>

namespace kiln::psx {
namespace {

constexpr std::array<uint8_t, 0x101> make_unr_table() {
  std::array<uint8_t, 0x101> table{};
  for (int i = 0; i <= 0x100; ++i) table[static_cast<size_t>(i)] = static_cast<uint8_t>(std::max(0, (0x40000 / (i + 0x100) + 1) / 2 - 0x101));
  return table;
}

constexpr std::array<uint8_t, 0x101> unr_table = make_unr_table();

} // namespace

uint8_t unr_table_entry(unsigned index) { return unr_table.at(index); }

DivisionResult gte_divide(uint16_t h, uint16_t sz3) {
  if (uint32_t{h} >= uint32_t{sz3} * 2) return {0x1FFFF, true};
  const int shift = std::countl_zero(sz3);   // normalise the divisor to 8000h..FFFFh
  const uint64_t n = uint64_t{h} << shift;
  const uint32_t d = uint32_t{sz3} << shift;
  const uint32_t u = unr_table[(d - 0x7FC0) >> 7] + 0x101u;  // reciprocal seed, 101h..200h
  const uint32_t d1 = (0x2000080 - d * u) >> 8;               // one Newton-Raphson step
  const uint32_t d2 = (0x0000080 + d1 * u) >> 8;
  return {static_cast<uint32_t>(std::min<uint64_t>(0x1FFFF, (n * d2 + 0x8000) >> 16)), false};
}

} // namespace kiln::psx
