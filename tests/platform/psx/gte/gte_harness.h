#pragma once
// Helpers to load GTE registers by name (register numbers from psx-spx's GTE register list).
#include <cstdint>

#include "runtime/platform/psx/gte/gte.h"

namespace kiln::psx::test {

// Command words: opcode | sf << 19 | mx << 17 | v << 15 | cv << 13 | lm << 10.
constexpr uint32_t sf = 1u << 19;
constexpr uint32_t lm = 1u << 10;
constexpr uint32_t mvmva(unsigned mx, unsigned v, unsigned cv) { return 0x12 | mx << 17 | v << 15 | cv << 13; }

// FLAG bits.
constexpr uint32_t flag_error = 1u << 31;
constexpr uint32_t flag_mac1_positive = 1u << 30;
constexpr uint32_t flag_ir1 = 1u << 24, flag_ir2 = 1u << 23, flag_ir3 = 1u << 22;
constexpr uint32_t flag_colour_r = 1u << 21;
constexpr uint32_t flag_sz_otz = 1u << 18;
constexpr uint32_t flag_divide = 1u << 17;
constexpr uint32_t flag_sx = 1u << 14;
constexpr uint32_t flag_ir0 = 1u << 12;

inline uint32_t pair(int32_t low, int32_t high) {
  return static_cast<uint16_t>(low) | static_cast<uint32_t>(static_cast<uint16_t>(high)) << 16;
}

/// Writes a 3x3 matrix at control register `base` (0 rotation, 8 light, 16 colour), row by row, two per register.
inline void set_matrix(Gte& gte, unsigned base, const int16_t (&m)[9]) {
  for (unsigned i = 0; i < 4; ++i) gte.write_control(base + i, pair(m[2 * i], m[2 * i + 1]));
  gte.write_control(base + 4, static_cast<uint16_t>(m[8]));
}
inline void set_vector(Gte& gte, unsigned base, int32_t x, int32_t y, int32_t z) {
  gte.write_control(base, static_cast<uint32_t>(x));
  gte.write_control(base + 1, static_cast<uint32_t>(y));
  gte.write_control(base + 2, static_cast<uint32_t>(z));
}
inline void set_vertex(Gte& gte, unsigned index, int16_t x, int16_t y, int16_t z) {
  gte.write_data(2 * index, pair(x, y));
  gte.write_data(2 * index + 1, static_cast<uint16_t>(z));
}
inline void set_ir(Gte& gte, int16_t ir1, int16_t ir2, int16_t ir3) {
  gte.write_data(9, static_cast<uint16_t>(ir1));
  gte.write_data(10, static_cast<uint16_t>(ir2));
  gte.write_data(11, static_cast<uint16_t>(ir3));
}
inline int32_t mac(const Gte& gte, unsigned i) { return static_cast<int32_t>(gte.read_data(24 + i)); }
inline int32_t ir(const Gte& gte, unsigned i) { return static_cast<int32_t>(gte.read_data(8 + i)); }

constexpr unsigned rotation = 0, light = 8, colour = 16;
constexpr unsigned translation = 5, background = 13, far_colour = 21;
constexpr unsigned ofx = 24, ofy = 25, h = 26, dqa = 27, dqb = 28, zsf3 = 29, zsf4 = 30;

} // namespace kiln::psx::test
