#pragma once
// The 750CL's reciprocal and reciprocal-square-root estimates (fres, ps_res, frsqrte, ps_rsqrte). The 750CL UM
// only bounds their error (1/4096 for fres, 1/32 for frsqrte); these are the processor's own values: the
// leading significand bits choose one of 32 segments of a piecewise-linear table (for frsqrte the exponent's
// parity chooses the half), each given by its value at the segment start and its slope, and the next bits the
// position on it. The segment constants are hardware facts measured on a Wii's Broadway (the Gekko's
// successor, same FPU) and checked there over every single-precision input by Dolphin's hwtests; the result's
// exponent is exact. Special inputs follow the 750CL UM's tables for fres and frsqrte.
#include <array>
#include <bit>
#include <cstdint>

namespace kiln::ppc::estimate {

struct Segment {
  uint32_t start, slope;
};
// fres: 32 segments of 1024 positions; the slope is applied at half its value, rounded.
inline constexpr std::array<Segment, 32> reciprocal_segments{{
    {0x7ff800, 0x3e1}, {0x783800, 0x3a7}, {0x70ea00, 0x371}, {0x6a0800, 0x340}, {0x638800, 0x313},
    {0x5d6200, 0x2ea}, {0x579000, 0x2c4}, {0x520800, 0x2a0}, {0x4cc800, 0x27f}, {0x47ca00, 0x261},
    {0x430800, 0x245}, {0x3e8000, 0x22a}, {0x3a2c00, 0x212}, {0x360800, 0x1fb}, {0x321400, 0x1e5},
    {0x2e4a00, 0x1d1}, {0x2aa800, 0x1be}, {0x272c00, 0x1ac}, {0x23d600, 0x19b}, {0x209e00, 0x18b},
    {0x1d8800, 0x17c}, {0x1a9000, 0x16e}, {0x17ae00, 0x15b}, {0x14f800, 0x15b}, {0x124400, 0x143},
    {0x0fbe00, 0x143}, {0x0d3800, 0x12d}, {0x0ade00, 0x12d}, {0x088400, 0x11a}, {0x065000, 0x11a},
    {0x041c00, 0x108}, {0x020c00, 0x106},
}};
// frsqrte: 16 segments of 2048 positions for an odd biased exponent, then 16 for an even one.
inline constexpr std::array<Segment, 32> rsqrt_segments{{
    {0x3ffa000, 0x7a4}, {0x3c29000, 0x700}, {0x38aa000, 0x670}, {0x3572000, 0x5f2}, {0x3279000, 0x584},
    {0x2fb7000, 0x524}, {0x2d26000, 0x4cc}, {0x2ac0000, 0x47e}, {0x2881000, 0x43a}, {0x2665000, 0x3fa},
    {0x2468000, 0x3c2}, {0x2287000, 0x38e}, {0x20c1000, 0x35e}, {0x1f12000, 0x332}, {0x1d79000, 0x30a},
    {0x1bf4000, 0x2e6}, {0x1a7e800, 0x568}, {0x17cb800, 0x4f3}, {0x1552800, 0x48d}, {0x130c000, 0x435},
    {0x10f2000, 0x3e7}, {0x0eff000, 0x3a2}, {0x0d2e000, 0x365}, {0x0b7c000, 0x32e}, {0x09e5000, 0x2fc},
    {0x0867000, 0x2d0}, {0x06ff000, 0x2a8}, {0x05ab800, 0x283}, {0x046a000, 0x261}, {0x0339800, 0x243},
    {0x0218800, 0x226}, {0x0105800, 0x20b},
}};

constexpr uint64_t sign_bit = 1ull << 63, exponent_bits = 0x7FFull << 52, fraction_bits = (1ull << 52) - 1;
constexpr uint64_t quiet_bit = 1ull << 51;
constexpr uint64_t default_nan = 0x7FF8000000000000ull;

/// fres's value for a double operand (bit patterns in and out): ±0 -> ±inf, ±inf -> ±0, a NaN quieted;
/// magnitudes below 2^-128 give the largest single, from 2^126 up zero (the result leaves the single range).
constexpr uint64_t reciprocal(uint64_t x) {
  const uint64_t sign = x & sign_bit, exponent = (x & exponent_bits) >> 52, fraction = x & fraction_bits;
  if (exponent == 0 && fraction == 0) return sign | exponent_bits;
  if (exponent == 0x7FF) return fraction == 0 ? sign : x | quiet_bit;
  if (exponent < 895) return sign | 0x47EFFFFFE0000000ull; // FLT_MAX as a double
  if (exponent >= 1149) return sign;
  const auto position = static_cast<uint32_t>(fraction >> 37); // 15 bits
  const Segment& s = reciprocal_segments[position / 1024];
  const uint64_t significand = s.start - (s.slope * (position % 1024) + 1) / 2;
  return sign | (0x7FDull - exponent) << 52 | significand << 29;
}

/// frsqrte's value (bit patterns): ±0 -> ±inf, +inf -> +0, a negative number or -inf -> the default NaN,
/// a NaN quieted; denormal operands are normalized first.
constexpr uint64_t reciprocal_sqrt(uint64_t x) {
  const uint64_t sign = x & sign_bit;
  int64_t exponent = static_cast<int64_t>((x & exponent_bits) >> 52);
  uint64_t fraction = x & fraction_bits;
  if (exponent == 0 && fraction == 0) return sign | exponent_bits;
  if (exponent == 0x7FF) {
    if (fraction != 0) return x | quiet_bit;
    return sign ? default_nan : 0;
  }
  if (sign) return default_nan;
  if (exponent == 0) { // denormal: shift the leading 1 up to the implicit position
    while (!(fraction & (1ull << 52))) {
      fraction <<= 1;
      --exponent;
    }
    fraction &= fraction_bits;
    ++exponent;
  }
  const bool even_exponent = (exponent & 1) == 0;
  // The exponent of 1/sqrt(x): (1023 - (e - 1023) / 2) rounded down, i.e. (3068 - e) / 2 with e biased.
  const auto result_exponent = static_cast<uint64_t>((0xBFC - exponent) >> 1) & 0x7FF;
  const auto position = static_cast<uint32_t>(fraction >> 37); // 15 bits
  const Segment& s = rsqrt_segments[position / 2048 + (even_exponent ? 16 : 0)];
  const uint64_t significand = s.start - s.slope * (position % 2048);
  return result_exponent << 52 | significand << 26;
}

} // namespace kiln::ppc::estimate
