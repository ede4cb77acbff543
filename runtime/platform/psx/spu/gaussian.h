#pragma once
// Pitch interpolation (psx-spx "4-Point Gaussian Interpolation"): the four most recent ADPCM samples weighted by
// a 512-entry table, indexed by bits 4..11 of the voice's pitch counter.
#include <array>
#include <cstdint>

namespace kiln::psx::spu {

extern const std::array<int16_t, 512> gaussian_table;

/// `index` is the 8-bit interpolation index (pitch counter bits 4..11).
int32_t interpolate_gaussian(unsigned index, int16_t oldest, int16_t older, int16_t old, int16_t newest);

} // namespace kiln::psx::spu
