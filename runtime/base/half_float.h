#pragma once
// IEEE 754 binary16 bit patterns as float: shared by the texture decoders, vertex attribute widening and the
// SASS printer's half-precision immediates.
#include <cmath>
#include <cstdint>

namespace kiln {

inline float half_to_float(uint16_t half) {
  const uint32_t exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
  float magnitude;
  if (exponent == 0) magnitude = std::ldexp(static_cast<float>(mantissa), -24);              // zero, subnormal
  else if (exponent == 31) magnitude = mantissa ? NAN : INFINITY;
  else magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  return half & 0x8000 ? -magnitude : magnitude;
}

} // namespace kiln
