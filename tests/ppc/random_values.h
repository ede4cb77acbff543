#pragma once
// Random operand values for the instruction tests that run random states (the qemu-ppc differential's generator,
// the generated-code test): GPRs from edge values, small numbers and any word; FPRs from special doubles, quiet
// and signaling NaNs, singles, scaled integers and doubles of moderate exponent (so products and sums round
// rather than overflow).
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace kiln::ppc::test {

class RandomValues {
public:
  explicit RandomValues(uint64_t seed) : engine_(seed) {}

  uint64_t bits() { return engine_(); }
  uint32_t word() { return static_cast<uint32_t>(engine_()); }
  /// True with probability 1 / n.
  bool one_in(unsigned n) { return engine_() % n == 0; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[engine_() % v.size()];
  }

  uint32_t gpr() {
    static const std::vector<uint32_t> special = {0, 1, 2, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFF, 0x8000,
                                                  0xFFFF8000, 31, 32, 33, 63, 64};
    switch (bits() % 4) {
      case 0: return pick(special);
      case 1: return static_cast<uint32_t>(bits() % 256);
      default: return static_cast<uint32_t>(bits());
    }
  }

  uint64_t fpr() {
    static const std::vector<double> special = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 1e300, -1e300, 1e-300, DBL_MIN, -DBL_MIN,
                                                DBL_MAX, DBL_TRUE_MIN, INFINITY, -INFINITY, 2147483647.5, -2147483648.5,
                                                4294967296.0, 0.1, FLT_MAX, FLT_MIN, 1.0 + DBL_EPSILON, 1.5, 2.5};
    switch (bits() % 6) {
      case 0: return std::bit_cast<uint64_t>(pick(special));
      case 1: return 0x7FF8000000000000ull | (bits() & 0xFFFFFFFFFFFull); // QNaN
      case 2: return 0x7FF0000000000001ull | (bits() & 0x7FFFFFFFFFFull); // SNaN
      case 3: return std::bit_cast<uint64_t>(static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>((bits() & 0xBFFFFFFF) | 0x30000000))));
      case 4: return std::bit_cast<uint64_t>(std::ldexp(static_cast<double>(bits() % 2000000) - 1000000.0, static_cast<int>(bits() % 40) - 20));
      default: {
        const uint64_t exponent = 1023 - 60 + bits() % 120;
        return (bits() & 0x800FFFFFFFFFFFFFull) | exponent << 52;
      }
    }
  }

private:
  std::mt19937_64 engine_;
};

} // namespace kiln::ppc::test
