#pragma once
// Operands and the CPU reference for the single-rounding f32 multiply-add (translator/ir/integer_fma.h), shared by
// the CPU test of the IR sequence and the lavapipe runs of every FMA mode. The reference is the host's std::fma
// (correctly rounded) under std::fesetround; files using it are compiled with -frounding-math.
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "translator/ir/integer_fma.h"

namespace kiln::test {

struct FmaTriple {
  uint32_t a, b, c;
};

/// Values where fused multiply-add goes wrong when done naively: signed zeros, the smallest and largest
/// subnormals and normals, the largest finite value, infinities, NaNs, values just around 1 and 2 (cancellation,
/// half-way products), and powers of two whose products overflow or underflow.
inline std::vector<uint32_t> fma_edge_values() {
  std::vector<uint32_t> values = {0x00000000, 0x00000001, 0x00000002, 0x007fffff, 0x00800000, 0x00800001, 0x3f800000,
                                  0x3f800001, 0x3f7fffff, 0x3fc00000, 0x40000000, 0x3f000001, 0x3effffff, 0x7f7fffff,
                                  0x7f7ffffe, 0x7f000000, 0x1f800000, 0x20000000, 0x5f800000, 0x1a800000, 0x33800000,
                                  0x34000000, 0x0c000000, 0x4b800001, 0x7f800000, 0x7fc00000, 0x7f800001};
  const size_t positive = values.size();
  for (size_t i = 0; i < positive; ++i) values.push_back(values[i] | 0x80000000u);
  return values;
}

/// Every (a, b, c) of the edge values.
inline std::vector<FmaTriple> fma_edge_triples() {
  const std::vector<uint32_t> edges = fma_edge_values();
  std::vector<FmaTriple> triples;
  triples.reserve(edges.size() * edges.size() * edges.size());
  for (uint32_t a : edges) {
    for (uint32_t b : edges) {
      for (uint32_t c : edges) triples.push_back({a, b, c});
    }
  }
  return triples;
}

/// Random triples: uniformly random bits half of the time; otherwise c close to -a*b (cancellation, ties near
/// the rounding point) or exponents chosen so the product lands near the overflow or subnormal range.
inline FmaTriple random_fma_triple(std::mt19937_64& random) {
  const auto bits = [&] { return static_cast<uint32_t>(random()); };
  switch (random() % 6) {
  case 0:
  case 1:
  case 2: return {bits(), bits(), bits()};
  case 3: { // c = -(a*b) rounded, moved by a few ulps: massive cancellation
    const uint32_t a = bits() & 0xbfffffffu | 0x3c000000u, b = bits() & 0xbfffffffu | 0x3c000000u;
    const float product = std::bit_cast<float>(a) * std::bit_cast<float>(b);
    const uint32_t c = (std::bit_cast<uint32_t>(-product) + static_cast<uint32_t>(random() % 9) - 4);
    return {a, b, c};
  }
  case 4: { // product near the overflow threshold or in the subnormal range
    const uint32_t exponent_sum = random() % 2 ? 254 + 127 - static_cast<uint32_t>(random() % 4) : 127 - 149 + static_cast<uint32_t>(random() % 60);
    const uint32_t ea = 1 + static_cast<uint32_t>(random() % 253);
    const uint32_t eb = exponent_sum > ea ? std::min(exponent_sum - ea, 254u) : 1;
    return {(bits() & 0x807fffffu) | ea << 23, (bits() & 0x807fffffu) | eb << 23, bits() & 0x80ffffffu};
  }
  default: // small exponent differences between product and addend
  {
    const uint32_t a = (bits() & 0x807fffffu) | (120 + static_cast<uint32_t>(random() % 16)) << 23;
    const uint32_t b = (bits() & 0x807fffffu) | (120 + static_cast<uint32_t>(random() % 16)) << 23;
    return {a, b, (bits() & 0x807fffffu) | (110 + static_cast<uint32_t>(random() % 40)) << 23};
  }
  }
}

inline int host_rounding(ir::Rounding mode) {
  switch (mode) {
  case ir::Rounding::nearest: return FE_TONEAREST;
  case ir::Rounding::zero: return FE_TOWARDZERO;
  case ir::Rounding::plus_infinity: return FE_UPWARD;
  case ir::Rounding::minus_infinity: return FE_DOWNWARD;
  }
  return FE_TONEAREST;
}

/// The reference: std::fma under `mode` (a product alone as a * b, a sum as a + b), NaNs by integer_fma_f32's
/// rule (a NaN operand's quieted bits, or the canonical NaN).
enum class FmaShape { fma, multiply, add };
[[gnu::noinline]] inline uint32_t reference_fma(FmaTriple t, ir::Rounding mode, FmaShape shape = FmaShape::fma) {
  const int previous = std::fegetround();
  std::fesetround(host_rounding(mode));
  volatile float a = std::bit_cast<float>(t.a), b = std::bit_cast<float>(t.b), c = std::bit_cast<float>(t.c);
  volatile float result = shape == FmaShape::fma ? std::fma(a, b, c) : shape == FmaShape::multiply ? a * b : a + c;
  std::fesetround(previous);
  const uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(result));
  if (shape == FmaShape::multiply) return ir::fma_f32_nan_rule(t.a, t.b, 0, bits);
  if (shape == FmaShape::add) return ir::fma_f32_nan_rule(t.a, 0x3f800000u, t.c, bits);
  return ir::fma_f32_nan_rule(t.a, t.b, t.c, bits);
}

} // namespace kiln::test
