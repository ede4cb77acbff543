#pragma once
// The GTE's perspective division H / SZ3: an unsigned Newton-Raphson reciprocal seeded from the 257-entry
// "UNR" table, as psx-spx documents it, saturating at 1FFFFh.
#include <cstdint>

namespace kiln::psx {

/// unr_table[i] = max(0, (40000h / (i + 100h) + 1) / 2 - 101h), i = 0..100h.
uint8_t unr_table_entry(unsigned index);

struct DivisionResult {
  uint32_t quotient;  ///< (H * 20000h / SZ3 + 1) / 2 in effect, at most 1FFFFh
  bool overflow;      ///< H >= 2 * SZ3: FLAG bit 17
};

DivisionResult gte_divide(uint16_t h, uint16_t sz3);

} // namespace kiln::psx
