// References for float_arithmetic.cu, transcendental.cu and the double kernels of half_double.cu. Where ptxas
// contracted a multiply and an add into FFMA/DFMA (visible in the committed nvdisasm listings), the reference
// uses std::fma at the same place. Directed rounding uses the host's rounding modes (compiled -frounding-math).
#include <cfenv>
#include <cmath>
#include <cstring>
#include <numbers>

#include "tests/translator/run/corpus_case.h"

namespace kiln::test {

using namespace float_inputs; // n, block sizes and helpers the inputs were made with
namespace {

__extension__ typedef _Float16 half; // GCC's IEEE binary16, rounding to nearest even: an independent reference

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
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float a = l.arguments[0].as<float>()[i], b = l.arguments[1].as<float>()[i], c = l.arguments[2].as<float>()[i];
                       l.arguments[3].as<float>()[i] = -b + std::fma(a, 0.5f, std::fma(a, b, c)); // FFMA, FFMA, FADD
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_rounding_modes",
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
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float a = l.arguments[0].as<float>()[i], b = l.arguments[1].as<float>()[i];
                       l.arguments[2].as<float>()[2 * i] = a / b; // IEEE division and square root: exact
                       l.arguments[2].as<float>()[2 * i + 1] = std::sqrt(std::fabs(a));
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_min_max_compare",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float x = l.arguments[0].as<float>()[i], y = l.arguments[1].as<float>()[i];
                       const float m = nv_min(x, y) + nv_max(x, -y);
                       l.arguments[2].as<float>()[i] = (x > 0.25f && y <= x) ? m : (std::isnan(y) ? -1.0f : std::fabs(x - y));
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_to_int_conversions",
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
                   [](Launch& l) {
                     const float c0 = scalar_value<float>(l.arguments[3]), c1 = scalar_value<float>(l.arguments[4]);
                     const float c2 = scalar_value<float>(l.arguments[5]), c3 = scalar_value<float>(l.arguments[6]);
                     for (int i = 0; i < n; ++i) {
                       const float v = l.arguments[0].as<float>()[i];
                       l.arguments[1].as<float>()[i] = std::fma(v, std::fma(v, std::fma(v, c3, c2), c1), c0);
                     }
                   }});
  cases.push_back({"float_arithmetic", "float_saxpy",
                   [](Launch& l) {
                     const float alpha = scalar_value<float>(l.arguments[0]);
                     for (int i = 0; i < n; ++i) l.arguments[2].as<float>()[i] = std::fma(l.arguments[1].as<float>()[i], alpha, l.arguments[2].as<float>()[i]);
                   }});

  // MUFU: bounds are the Vulkan precision requirements of the SPIR-V the backend emits for each MUFU function
  // (sin/cos: 2^-11 absolute on [-pi, pi]; exp2: 3 + 2|x| ulps; log2: 3 ulps, 2^-21 absolute near 1;
  // inverse sqrt: 2 ulps; division: 2.5 ulps) added to CUDA's documented bound for the intrinsic.
  cases.push_back({"transcendental", "transcendental_fast",
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
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float a = l.arguments[0].as<float>()[i];
                       l.arguments[1].as<float>()[2 * i] = static_cast<float>(std::exp2(static_cast<double>(a)));
                       l.arguments[1].as<float>()[2 * i + 1] = static_cast<float>(std::log2(static_cast<double>(std::fabs(a) + 1e-3f)));
                     }
                   }});

  cases.push_back({"transcendental", "transcendental_accurate",
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
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const half h = static_cast<half>(l.arguments[0].as<float>()[i]);
                       std::memcpy(&l.arguments[1].as<uint16_t>()[i], &h, 2);
                       l.arguments[2].as<float>()[i] = static_cast<float>(static_cast<half>(h * h));
                     }
                   }});
  cases.push_back({"half_double", "half2_arithmetic",
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
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const double x = l.arguments[0].as<double>()[i], y = l.arguments[1].as<double>()[i];
                       l.arguments[2].as<double>()[2 * i] = std::fma(x, y, x + y) * 0.25;
                       l.arguments[2].as<double>()[2 * i + 1] = (x < y) ? x - y : x * y;
                     }
                   }});
  cases.push_back({"half_double", "double_divide_sqrt",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const double a = l.arguments[0].as<double>()[i], b = l.arguments[1].as<double>()[i];
                       l.arguments[2].as<double>()[2 * i] = a / b; // IEEE: exact
                       l.arguments[2].as<double>()[2 * i + 1] = std::sqrt(std::fabs(a));
                     }
                   }});
  cases.push_back({"half_double", "double_convert",
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
