// References for float_arithmetic.cu, transcendental.cu and the double kernels of half_double.cu. Where ptxas
// contracted a multiply and an add into FFMA/DFMA (visible in the committed nvdisasm listings), the reference
// uses std::fma at the same place. Directed rounding uses the host's rounding modes (compiled -frounding-math).
#include <cfenv>
#include <cmath>
#include <cstring>
#include <numbers>

#include "tests/translator/run/corpus_case.h"

namespace kiln::test {
namespace {

__extension__ typedef _Float16 half; // GCC's IEEE binary16, rounding to nearest even: an independent reference

constexpr int n = 1000;

Launch one_dimensional(std::vector<Argument> arguments) {
  Launch launch;
  launch.grid[0] = div_ceil_u32(n, launch.block[0]);
  launch.arguments = std::move(arguments);
  return launch;
}

// Normal floats over many binades, with sign; a few edge values.
std::vector<float> floats(std::mt19937_64& random, bool with_edges = true) {
  return generate<float>(n, [&] {
    if (with_edges && random() % 16 == 0) {
      const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.5f, -2.5f, 0.25f, 3e9f, -3e9f, 1e30f, -1e-30f};
      return edges[random() % std::size(edges)];
    }
    const float sign = (random() & 1) ? -1.0f : 1.0f;
    return sign * std::ldexp(random_float(random, 1.0f, 2.0f), random_int(random, -20, 20));
  });
}
std::vector<float> uniform_floats(std::mt19937_64& random, float low, float high) {
  return generate<float>(n, [&] { return random_float(random, low, high); });
}
std::vector<double> doubles(std::mt19937_64& random) {
  return generate<double>(n, [&] {
    const double sign = (random() & 1) ? -1.0 : 1.0;
    return sign * std::ldexp(std::uniform_real_distribution<double>(1.0, 2.0)(random), random_int(random, -30, 70));
  });
}

// NVIDIA FMNMX semantics (translator/ir/reference.cpp documents them; written again here from the PTX ISA:
// a NaN operand yields the other, -0 < +0).
float nv_min(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float nv_max(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
// cvt.rni/rzi.s32.f32 saturate; NaN converts to 0.
int32_t to_int_saturated(float value) {
  if (std::isnan(value)) return 0;
  if (value >= 2147483648.0f) return INT32_MAX;
  if (value < -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(value);
}
uint32_t to_uint_saturated(float value) {
  if (std::isnan(value) || value <= 0) return 0;
  if (value >= 4294967296.0f) return UINT32_MAX;
  return static_cast<uint32_t>(value);
}
// Out of line, so the arithmetic cannot move across the rounding-mode changes.
[[gnu::noinline]] float add_rounded(float a, float b, int mode) {
  std::fesetround(mode);
  volatile float result = a + b;
  std::fesetround(FE_TONEAREST);
  return result;
}
[[gnu::noinline]] float multiply_rounded(float a, float b, int mode) {
  std::fesetround(mode);
  volatile float result = a * b;
  std::fesetround(FE_TONEAREST);
  return result;
}
[[gnu::noinline]] float fma_rounded(float a, float b, float c, int mode) {
  std::fesetround(mode);
  volatile float result = std::fma(a, b, c);
  std::fesetround(FE_TONEAREST);
  return result;
}

} // namespace

void add_float_cases(std::vector<CorpusCase>& cases) {
  cases.push_back({"float_arithmetic", "float_add_mul_fma",
                   [](auto& r) { return one_dimensional({input(floats(r)), input(floats(r)), input(floats(r)), output<float>(n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float a = l.arguments[0].as<float>()[i], b = l.arguments[1].as<float>()[i], c = l.arguments[2].as<float>()[i];
                       l.arguments[3].as<float>()[i] = -b + std::fma(a, 0.5f, std::fma(a, b, c)); // FFMA, FFMA, FADD
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_rounding_modes",
                   [](auto& r) { return one_dimensional({input(floats(r, false)), input(floats(r, false)), output<float>(4 * n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float a = l.arguments[0].as<float>()[i], b = l.arguments[1].as<float>()[i];
                       auto out = l.arguments[2].as<float>();
                       out[4 * i] = add_rounded(a, b, FE_TOWARDZERO);
                       out[4 * i + 1] = multiply_rounded(a, b, FE_DOWNWARD);
                       out[4 * i + 2] = fma_rounded(a, b, 1.0f, FE_UPWARD);
                       const float product = a * b;
                       out[4 * i + 3] = product > 0 ? std::min(product, 1.0f) : 0.0f;
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_divide_sqrt",
                   [](auto& r) { return one_dimensional({input(floats(r)), input(floats(r)), output<float>(2 * n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float a = l.arguments[0].as<float>()[i], b = l.arguments[1].as<float>()[i];
                       l.arguments[2].as<float>()[2 * i] = a / b; // IEEE division and square root: exact
                       l.arguments[2].as<float>()[2 * i + 1] = std::sqrt(std::fabs(a));
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_min_max_compare",
                   [](auto& r) {
                     auto b = floats(r);
                     for (int i = 0; i < n; i += 13) b[i] = NAN;
                     return one_dimensional({input(floats(r)), input(b), output<float>(n), scalar(n)});
                   },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float x = l.arguments[0].as<float>()[i], y = l.arguments[1].as<float>()[i];
                       const float m = nv_min(x, y) + nv_max(x, -y);
                       l.arguments[2].as<float>()[i] = (x > 0.25f && y <= x) ? m : (std::isnan(y) ? -1.0f : std::fabs(x - y));
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_to_int_conversions",
                   [](auto& r) {
                     auto a = generate<float>(n, [&] { return random_float(r, -1e6f, 1e6f); });
                     for (int i = 0; i < n; i += 17) a[i] = (i & 32) ? 5e9f : -5e9f;
                     for (int i = 5; i < n; i += 31) a[i] = static_cast<float>(random_int(r, -50, 50)) + 0.5f; // ties
                     return one_dimensional({input(a), output<int32_t>(n), output<uint32_t>(n), output<float>(2 * n), scalar(n)});
                   },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float x = l.arguments[0].as<float>()[i];
                       const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(to_int_saturated(std::nearbyint(x))) +
                                                                static_cast<uint32_t>(to_int_saturated(std::trunc(x))));
                       l.arguments[1].as<int32_t>()[i] = sum;
                       l.arguments[2].as<uint32_t>()[i] = to_uint_saturated(std::fabs(x));
                       l.arguments[3].as<float>()[2 * i] = static_cast<float>(sum) + static_cast<float>(static_cast<uint32_t>(i) * 977u);
                       l.arguments[3].as<float>()[2 * i + 1] = std::fma(std::nearbyint(x), 8.0f, std::fma(std::trunc(x), 4.0f, std::fma(std::ceil(x), 2.0f, std::floor(x))));
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_polynomial",
                   [](auto& r) {
                     return one_dimensional({input(uniform_floats(r, -4.0f, 4.0f)), output<float>(n), scalar(n), scalar(random_float(r, -2, 2)),
                                             scalar(random_float(r, -2, 2)), scalar(random_float(r, -2, 2)), scalar(random_float(r, -2, 2))});
                   },
                   [](Launch& l) {
                     const float c0 = scalar_value<float>(l.arguments[3]), c1 = scalar_value<float>(l.arguments[4]);
                     const float c2 = scalar_value<float>(l.arguments[5]), c3 = scalar_value<float>(l.arguments[6]);
                     for (int i = 0; i < n; ++i) {
                       const float v = l.arguments[0].as<float>()[i];
                       l.arguments[1].as<float>()[i] = std::fma(v, std::fma(v, std::fma(v, c3, c2), c1), c0);
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_saxpy",
                   [](auto& r) { return one_dimensional({scalar(random_float(r, -3, 3)), input(floats(r)), in_out(floats(r)), scalar(n)}); },
                   [](Launch& l) {
                     const float alpha = scalar_value<float>(l.arguments[0]);
                     for (int i = 0; i < n; ++i) l.arguments[2].as<float>()[i] = std::fma(l.arguments[1].as<float>()[i], alpha, l.arguments[2].as<float>()[i]);
                   }});

  // MUFU: bounds are the Vulkan precision requirements of the SPIR-V the backend emits for each MUFU function
  // (sin/cos: 2^-11 absolute on [-pi, pi]; exp2: 3 + 2|x| ulps; log2: 3 ulps, 2^-21 absolute near 1;
  // inverse sqrt: 2 ulps; division: 2.5 ulps) added to CUDA's documented bound for the intrinsic.
  cases.push_back({"transcendental", "transcendental_fast",
                   [](auto& r) { return one_dimensional({input(uniform_floats(r, -3.14159f, 3.14159f)), output<float>(6 * n, {Comparison::Kind::Float32, 8, 0x1p-11}), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const double x = l.arguments[0].as<float>()[i];
                       auto out = l.arguments[1].as<float>();
                       out[6 * i] = static_cast<float>(std::sin(x));
                       out[6 * i + 1] = static_cast<float>(std::cos(x));
                       out[6 * i + 2] = static_cast<float>(std::exp(static_cast<double>(static_cast<float>(x) * 0.125f)));
                       out[6 * i + 3] = static_cast<float>(std::log(static_cast<double>(std::fabs(static_cast<float>(x)) + 1.0f)));
                       out[6 * i + 4] = static_cast<float>(1.0 / std::sqrt(static_cast<double>(std::fabs(static_cast<float>(x)) + 0.5f)));
                       out[6 * i + 5] = static_cast<float>(1.0 / static_cast<double>(static_cast<float>(x) + 3.0f));
                     }
                   }});
  cases.push_back({"transcendental", "transcendental_exp2_log2",
                   [](auto& r) { return one_dimensional({input(uniform_floats(r, -10.0f, 10.0f)), output<float>(2 * n, {Comparison::Kind::Float32, 26, 0x1p-21}), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float a = l.arguments[0].as<float>()[i];
                       l.arguments[1].as<float>()[2 * i] = static_cast<float>(std::exp2(static_cast<double>(a)));
                       l.arguments[1].as<float>()[2 * i + 1] = static_cast<float>(std::log2(static_cast<double>(std::fabs(a) + 1e-3f)));
                     }
                   }});

  cases.push_back({"transcendental", "transcendental_accurate",
                   [](auto& r) {
                     // One in four beyond 105615, where sinf's range reduction (Payne-Hanek) reads its 2/pi table
                     // through constant bank 4.
                     auto a = generate<float>(n, [&] {
                       if (r() % 4 != 0) return random_float(r, -10.0f, 10.0f);
                       return ((r() & 1) ? -1.0f : 1.0f) * std::ldexp(random_float(r, 1.0f, 2.0f), random_int(r, 17, 120));
                     });
                     return one_dimensional({input(a), output<float>(3 * n, {Comparison::Kind::Float32, 4, 0}), scalar(n)});
                   },
                   [](Launch& l) {
                     // CUDA's documented maximum errors: sinf, expf, tanhf 2 ulps each (CUDA C Programming Guide,
                     // mathematical functions) against correctly rounded results; expf goes through MUFU.EX2, which
                     // Vulkan's exp2 approximates (measured: 3 ulps at most on lavapipe), hence 4 ulps.
                     for (int i = 0; i < n; ++i) {
                       const float x = l.arguments[0].as<float>()[i];
                       auto out = l.arguments[1].as<float>();
                       out[3 * i] = static_cast<float>(std::sin(static_cast<double>(x)));
                       out[3 * i + 1] = static_cast<float>(std::exp(static_cast<double>(x * 0.25f)));
                       out[3 * i + 2] = static_cast<float>(std::tanh(static_cast<double>(x)));
                     }
                   }});

  cases.push_back({"half_double", "half_convert",
                   [](auto& r) {
                     auto a = generate<float>(n, [&] {
                       const float sign = (r() & 1) ? -1.0f : 1.0f;
                       return sign * std::ldexp(random_float(r, 1.0f, 2.0f), random_int(r, -27, 17)); // subnormal halves to overflow
                     });
                     for (int i = 0; i < n; i += 23) a[i] = static_cast<float>(random_int(r, 0, 2047)) + 0.5f; // ties
                     return one_dimensional({input(a), output<uint16_t>(n), output<float>(n), scalar(n)});
                   },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const half h = static_cast<half>(l.arguments[0].as<float>()[i]);
                       std::memcpy(&l.arguments[1].as<uint16_t>()[i], &h, 2);
                       l.arguments[2].as<float>()[i] = static_cast<float>(static_cast<half>(h * h));
                     }
                   }});
  cases.push_back({"half_double", "half2_arithmetic",
                   [](auto& r) {
                     const auto halves = [&] {
                       return generate<uint32_t>(n, [&] {
                         const auto lane = [&] {
                           const half h = static_cast<half>(random_float(r, -300.0f, 300.0f));
                           uint16_t bits;
                           std::memcpy(&bits, &h, 2);
                           return uint32_t{bits};
                         };
                         return lane() | (lane() << 16);
                       });
                     };
                     return one_dimensional({input(halves()), input(halves()), output<uint32_t>(n), scalar(n)});
                   },
                   [](Launch& l) {
                     const auto lane = [](uint32_t bits, int index) {
                       const auto value = static_cast<uint16_t>(bits >> (16 * index));
                       half h;
                       std::memcpy(&h, &value, 2);
                       return h;
                     };
                     for (int i = 0; i < n; ++i) {
                       uint32_t result = 0;
                       for (int k = 0; k < 2; ++k) {
                         const half x = lane(l.arguments[0].as<uint32_t>()[i], k), y = lane(l.arguments[1].as<uint32_t>()[i], k);
                         const half t = static_cast<half>(x + static_cast<half>(0.5f));
                         // __hfma2 rounds once: x*y + t is exact in double, then one conversion to half.
                         const half fused = static_cast<half>(static_cast<double>(x) * static_cast<double>(y) + static_cast<double>(t));
                         uint16_t bits;
                         std::memcpy(&bits, &fused, 2);
                         result |= uint32_t{bits} << (16 * k);
                       }
                       l.arguments[2].as<uint32_t>()[i] = result;
                     }
                   }});
  cases.push_back({"half_double", "double_arithmetic",
                   [](auto& r) { return one_dimensional({input(doubles(r)), input(doubles(r)), output<double>(2 * n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const double x = l.arguments[0].as<double>()[i], y = l.arguments[1].as<double>()[i];
                       l.arguments[2].as<double>()[2 * i] = std::fma(x, y, x + y) * 0.25;
                       l.arguments[2].as<double>()[2 * i + 1] = (x < y) ? x - y : x * y;
                     }
                   }});
  cases.push_back({"half_double", "double_divide_sqrt",
                   [](auto& r) {
                     auto a = doubles(r), b = doubles(r);
                     // Extreme exponents send some divisions and square roots down the slow paths. Results stay out
                     // of the subnormal range, where the emulated DFMA can be an ulp off (docs/translator.md).
                     const double dividends[] = {1e300, -1.7e308, 0.0, -0.0, 3.0};
                     const double divisors[] = {-1e-300, 2.2e-308, 0.0, -0.0, 3.0};
                     for (int i = 0; i < n; i += 11) a[i] = dividends[r() % std::size(dividends)], b[i + 5] = divisors[r() % std::size(divisors)];
                     return one_dimensional({input(a), input(b), output<double>(2 * n), scalar(n)});
                   },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const double a = l.arguments[0].as<double>()[i], b = l.arguments[1].as<double>()[i];
                       l.arguments[2].as<double>()[2 * i] = a / b; // IEEE: exact
                       l.arguments[2].as<double>()[2 * i + 1] = std::sqrt(std::fabs(a));
                     }
                   }});
  cases.push_back({"half_double", "double_convert",
                   [](auto& r) {
                     auto a = doubles(r);
                     for (int i = 0; i < n; i += 19) a[i] = (i & 1) ? 1e25 : -1e25; // saturating conversions
                     return one_dimensional({input(a), output<float>(n), output<int64_t>(n), output<double>(n), scalar(n)});
                   },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const double a = l.arguments[0].as<double>()[i];
                       l.arguments[1].as<float>()[i] = static_cast<float>(a);
                       const double t = std::trunc(a);
                       l.arguments[2].as<int64_t>()[i] = t >= 9223372036854775808.0 ? INT64_MAX : t < -9223372036854775808.0 ? INT64_MIN : static_cast<int64_t>(t);
                       l.arguments[3].as<double>()[i] = static_cast<double>(static_cast<float>(a) * 2.0f) + static_cast<double>(i);
                     }
                   }});
}

} // namespace kiln::test
