#pragma once
// Inputs and launch shapes of the float corpus cases (see corpus_inputs.h).
#include <cmath>

#include "tests/translator/cuda/corpus_inputs_common.h"

namespace kiln::test::float_inputs {

constexpr int n = 1000;

inline Launch one_dimensional(std::vector<Argument> arguments) {
  Launch launch;
  launch.grid[0] = div_ceil_u32(n, launch.block[0]);
  launch.arguments = std::move(arguments);
  return launch;
}

// Normal floats over many binades, with sign; a few edge values.
inline std::vector<float> floats(Random& random, bool with_edges = true) {
  return generate<float>(n, [&] {
    if (with_edges && random() % 16 == 0) {
      const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.5f, -2.5f, 0.25f, 3e9f, -3e9f, 1e30f, -1e-30f};
      return edges[random() % std::size(edges)];
    }
    const float sign = (random() & 1) ? -1.0f : 1.0f;
    return sign * std::ldexp(random_float(random, 1.0f, 2.0f), random_int(random, -20, 20));
  });
}
inline std::vector<float> uniform_floats(Random& random, float low, float high) {
  return generate<float>(n, [&] { return random_float(random, low, high); });
}
inline std::vector<double> doubles(Random& random) {
  return generate<double>(n, [&] {
    const double sign = (random() & 1) ? -1.0 : 1.0;
    return sign * std::ldexp(random_double(random, 1.0, 2.0), random_int(random, -30, 70));
  });
}

// IEEE binary16 bits of `value` (normal and subnormal range, no overflow: inputs stay below 65504), rounded to
// nearest even in integer code so that host compilers without _Float16 make the same inputs.
inline uint16_t half_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = (bits & 0x7fffffu) | 0x800000u;   // 24 significant bits
  const int32_t shift = exponent >= 1 ? 13 : 14 - exponent; // subnormal halves drop more bits
  if (shift > 24) return static_cast<uint16_t>(sign);
  const uint32_t kept = mantissa >> shift, rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
  uint32_t rounded = kept + (rest > halfway || (rest == halfway && (kept & 1)) ? 1 : 0);
  // Normal: the implicit bit (bit 10 of `rounded`) becomes part of the exponent field, a carry bumps it.
  const uint32_t magnitude = exponent >= 1 ? (static_cast<uint32_t>(exponent - 1) << 10) + rounded : rounded;
  return static_cast<uint16_t>(sign | magnitude);
}

inline void add(std::vector<CorpusInput>& inputs) {
  inputs.push_back({"float_arithmetic", "float_add_mul_fma",
                    [](Random& r) { return one_dimensional({input(floats(r)), input(floats(r)), input(floats(r)), output<float>(n), scalar(n)}); }});
  inputs.push_back({"float_arithmetic", "float_rounding_modes",
                    [](Random& r) { return one_dimensional({input(floats(r, false)), input(floats(r, false)), output<float>(4 * n), scalar(n)}); }});
  inputs.push_back({"float_arithmetic", "float_divide_sqrt",
                    [](Random& r) { return one_dimensional({input(floats(r)), input(floats(r)), output<float>(2 * n), scalar(n)}); }});
  inputs.push_back({"float_arithmetic", "float_min_max_compare",
                    [](Random& r) {
                     auto b = floats(r);
                     for (int i = 0; i < n; i += 13) b[i] = NAN;
                     return one_dimensional({input(floats(r)), input(b), output<float>(n), scalar(n)});
                   }});
  inputs.push_back({"float_arithmetic", "float_to_int_conversions",
                    [](Random& r) {
                     auto a = generate<float>(n, [&] { return random_float(r, -1e6f, 1e6f); });
                     for (int i = 0; i < n; i += 17) a[i] = (i & 32) ? 5e9f : -5e9f;
                     for (int i = 5; i < n; i += 31) a[i] = static_cast<float>(random_int(r, -50, 50)) + 0.5f; // ties
                     return one_dimensional({input(a), output<int32_t>(n), output<uint32_t>(n), output<float>(2 * n), scalar(n)});
                   }});
  inputs.push_back({"float_arithmetic", "float_polynomial",
                    [](Random& r) {
                     return one_dimensional({input(uniform_floats(r, -4.0f, 4.0f)), output<float>(n), scalar(n), scalar(random_float(r, -2, 2)),
                                             scalar(random_float(r, -2, 2)), scalar(random_float(r, -2, 2)), scalar(random_float(r, -2, 2))});
                   }});
  inputs.push_back({"float_arithmetic", "float_saxpy",
                    [](Random& r) { return one_dimensional({scalar(random_float(r, -3, 3)), input(floats(r)), in_out(floats(r)), scalar(n)}); }});

  // MUFU: bounds are the Vulkan precision requirements of the SPIR-V the backend emits for each MUFU function
  // (sin/cos: 2^-11 absolute on [-pi, pi]; exp2: 3 + 2|x| ulps; log2: 3 ulps, 2^-21 absolute near 1;
  // inverse sqrt: 2 ulps; division: 2.5 ulps) added to CUDA's documented bound for the intrinsic.
  inputs.push_back({"transcendental", "transcendental_fast",
                    [](Random& r) { return one_dimensional({input(uniform_floats(r, -3.14159f, 3.14159f)), output<float>(6 * n, {Comparison::Kind::Float32, 8, 0x1p-11}), scalar(n)}); }});
  inputs.push_back({"transcendental", "transcendental_exp2_log2",
                    [](Random& r) { return one_dimensional({input(uniform_floats(r, -10.0f, 10.0f)), output<float>(2 * n, {Comparison::Kind::Float32, 26, 0x1p-21}), scalar(n)}); }});

  inputs.push_back({"transcendental", "transcendental_accurate",
                    [](Random& r) {
                     // One in four beyond 105615, where sinf's range reduction (Payne-Hanek) reads its 2/pi table
                     // through constant bank 4.
                     auto a = generate<float>(n, [&] {
                       if (r() % 4 != 0) return random_float(r, -10.0f, 10.0f);
                       return ((r() & 1) ? -1.0f : 1.0f) * std::ldexp(random_float(r, 1.0f, 2.0f), random_int(r, 17, 120));
                     });
                     return one_dimensional({input(a), output<float>(3 * n, {Comparison::Kind::Float32, 4, 0}), scalar(n)});
                   }});

  inputs.push_back({"half_double", "half_convert",
                    [](Random& r) {
                     auto a = generate<float>(n, [&] {
                       const float sign = (r() & 1) ? -1.0f : 1.0f;
                       return sign * std::ldexp(random_float(r, 1.0f, 2.0f), random_int(r, -27, 17)); // subnormal halves to overflow
                     });
                     for (int i = 0; i < n; i += 23) a[i] = static_cast<float>(random_int(r, 0, 2047)) + 0.5f; // ties
                     return one_dimensional({input(a), output<uint16_t>(n), output<float>(n), scalar(n)});
                   }});
  inputs.push_back({"half_double", "half2_arithmetic",
                    [](Random& r) {
                     const auto halves = [&] {
                       return generate<uint32_t>(n, [&] {
                         const auto lane = [&] {
                           return uint32_t{half_bits(random_float(r, -300.0f, 300.0f))};
                         };
                         return lane() | (lane() << 16);
                       });
                     };
                     return one_dimensional({input(halves()), input(halves()), output<uint32_t>(n), scalar(n)});
                   }});
  inputs.push_back({"half_double", "double_arithmetic",
                    [](Random& r) { return one_dimensional({input(doubles(r)), input(doubles(r)), output<double>(2 * n), scalar(n)}); }});
  inputs.push_back({"half_double", "double_divide_sqrt",
                    [](Random& r) {
                     auto a = doubles(r), b = doubles(r);
                     // Extreme exponents send some divisions and square roots down the slow paths. Results stay out
                     // of the subnormal range, where the emulated DFMA can be an ulp off (docs/translator.md).
                     const double dividends[] = {1e300, -1.7e308, 0.0, -0.0, 3.0};
                     const double divisors[] = {-1e-300, 2.2e-308, 0.0, -0.0, 3.0};
                     for (int i = 0; i < n; i += 11) a[i] = dividends[r() % std::size(dividends)], b[i + 5] = divisors[r() % std::size(divisors)];
                     return one_dimensional({input(a), input(b), output<double>(2 * n), scalar(n)});
                   }});
  inputs.push_back({"half_double", "double_convert",
                    [](Random& r) {
                     auto a = doubles(r);
                     for (int i = 0; i < n; i += 19) a[i] = (i & 1) ? 1e25 : -1e25; // saturating conversions
                     return one_dimensional({input(a), output<float>(n), output<int64_t>(n), output<double>(n), scalar(n)});
                   }});
}

} // namespace kiln::test::float_inputs
