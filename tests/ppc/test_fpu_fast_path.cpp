// The FPU's round-to-nearest fast path (fpu_ops.h: nearest_with_error, from_nearest, round_to_single) against
// the mode-switching path on random operations: every add, sub, mul, div, madd and msub to double and to single,
// and frsp, with operands drawn to reach what the fast path must get right or leave to the other path: NaNs,
// infinities, zeros, denormals, the underflow and overflow edges, exact ties and near-ties of double and of
// single rounding, cancellation in madd/msub. Both results, their exception bits, FR and FI, and the FPSCR after
// the result is committed must be identical. Fixed seed.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <iostream>

#include "runtime/core/ppc/ops.h"
#include "tests/ppc/random_values.h"

using namespace kiln::ppc;

namespace {

class Operands {
public:
  explicit Operands(uint64_t seed) : r_(seed) {}

  double any() {
    static const std::vector<double> special = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, DBL_MIN, -DBL_MIN, DBL_MAX,
                                                -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN, FLT_MIN, FLT_MAX, 0x1p-960, 0x1p-961,
                                                0x1p-1022 * 1.5, 0x1p1023 * 1.75};
    switch (r_.bits() % 9) {
      case 0: return r_.pick(special);
      case 1: return std::bit_cast<double>(r_.bits()); // any pattern, NaNs included
      case 2: return std::bit_cast<double>(r_.bits() & 0x800FFFFFFFFFFFFFull); // a denormal
      case 3: return scaled(static_cast<int>(r_.bits() % 60) - 1082); // around the smallest normal and below
      case 4: return scaled(static_cast<int>(r_.bits() % 80) - 1000); // around the fast path's limit (2^-960)
      case 5: return scaled(static_cast<int>(r_.bits() % 40) + 985);  // near overflow
      case 6: return std::bit_cast<float>(r_.word()); // a single (NaNs too)
      case 7: return scaled(static_cast<int>(r_.bits() % 280) - 150); // singles' range and its edges
      default: return scaled(static_cast<int>(r_.bits() % 40) - 20);
    }
  }
  /// Few significand bits: their sums and products land on or next to ties.
  double scaled(int exponent) {
    const unsigned width = 1 + static_cast<unsigned>(r_.bits() % 53);
    const uint64_t significand = (r_.bits() >> (64 - width)) | uint64_t{1} << (width - 1);
    const double v = std::ldexp(static_cast<double>(significand), exponent - static_cast<int>(width) + 1);
    return r_.one_in(2) ? -v : v;
  }
  /// An addend for `product`-like value `x`: half an ulp of double or single precision (a tie), give or take
  /// a little, or its negation (cancellation), or anything.
  double near_tie(double x) {
    if (!std::isfinite(x) || x == 0) return any();
    int e;
    std::frexp(x, &e);
    const int half_ulp = r_.one_in(2) ? e - 54 : e - 25; // double or single precision
    double t = std::ldexp(r_.one_in(2) ? 1.0 : -1.0, half_ulp);
    if (r_.one_in(2)) t += std::ldexp(r_.one_in(2) ? 1.0 : -1.0, half_ulp - 1 - static_cast<int>(r_.bits() % 60));
    switch (r_.bits() % 4) {
      case 0: return t;
      case 1: return -x + t;
      case 2: return -x;
      default: return any();
    }
  }
  test::RandomValues& random() { return r_; }

private:
  test::RandomValues r_;
};

struct Counts {
  size_t operations = 0, decided = 0, inexact = 0, rounded_up = 0, single_ties = 0;
};

std::string describe(fpu::Arith op, bool single, double x, double y, double z) {
  static const char* const names[] = {"add", "sub", "mul", "div", "madd", "msub"};
  return fmt::format("{}{} a={:#018x} b={:#018x} c={:#018x}", names[static_cast<int>(op)], single ? "s" : "",
                     std::bit_cast<uint64_t>(x), std::bit_cast<uint64_t>(y), std::bit_cast<uint64_t>(z));
}

/// The FPSCR after `r` is committed as an instruction's result (with Rc = 0, MSR[FE0/FE1] clear).
uint32_t committed_fpscr(uint32_t fpscr, const fpu::Result& r, bool single) {
  Cpu c;
  c.fpscr = fpscr;
  fpu::commit(c, 0, 0, r, single, [](uint64_t) {});
  return c.fpscr;
}

} // namespace

TEST_CASE("ppc fpu fast path: round to nearest without a mode switch matches the mode-switching path", "[ppc][fpu]") {
  Operands operands(0x750C1F);
  Counts counts;
  std::vector<std::string> failures;
  constexpr int operations = 400000;
  for (int n = 0; n < operations; ++n) {
    const auto op = static_cast<fpu::Arith>(operands.random().bits() % 6);
    const bool single = operands.random().one_in(2);
    const double x = operands.any(), z = operands.any();
    double y = operands.any();
    if (op == fpu::Arith::add || op == fpu::Arith::sub) y = operands.near_tie(op == fpu::Arith::sub ? -x : x);
    if (op == fpu::Arith::madd || op == fpu::Arith::msub) {
      const double product = x * z;
      y = operands.near_tie(op == fpu::Arith::msub ? -product : product);
    }
    // RN = 0; the enables and NI random (UE changes UX, NI flushes tiny results).
    const uint32_t fpscr = operands.random().word() & ~(3u | fpu::reserved | fpu::fex | fpu::vx);
    const uint64_t a = fpu::bits(x), b = fpu::bits(y), c = fpu::bits(z);
    const fpu::Result fast = fpu::arithmetic(fpscr, op, a, b, c, single, fpu::Path::fast);
    const fpu::Result reference = fpu::arithmetic(fpscr, op, a, b, c, single, fpu::Path::mode_switching);
    ++counts.operations;
    if (!fpu::is_nan(a) && !fpu::is_nan(b) && !fpu::is_nan(c))
      if (const auto decided = fpu::nearest_with_error(op, x, y, z)) {
        ++counts.decided;
        counts.inexact += decided->error_sign != 0;
        counts.rounded_up += reference.rounded_up;
        const uint64_t low = fpu::bits(decided->value) & 0x1FFFFFFF;
        counts.single_ties += single && decided->error_sign != 0 && low == 0x10000000;
      }
    const uint32_t fast_fpscr = committed_fpscr(fpscr, fast, single), reference_fpscr = committed_fpscr(fpscr, reference, single);
    if (fast.value != reference.value || fast.exceptions != reference.exceptions || fast.rounded_up != reference.rounded_up ||
        fast.inexact != reference.inexact || fast_fpscr != reference_fpscr) {
      if (failures.size() < 20)
        failures.push_back(fmt::format("{}: value {:#018x} / {:#018x}, exceptions {:#x} / {:#x}, FR {} / {}, FI {} / {}, fpscr {:#010x} / {:#010x}",
                                       describe(op, single, x, y, z), fast.value, reference.value, fast.exceptions,
                                       reference.exceptions, fast.rounded_up, reference.rounded_up, fast.inexact,
                                       reference.inexact, fast_fpscr, reference_fpscr));
      else
        failures.back() = "... and more";
    }
  }
  std::cout << fmt::format("ppc fpu fast path: {} operations, {} decided without a mode switch ({} inexact, {} rounded up, "
                           "{} single results at a single tie of the double result)\n",
                           counts.operations, counts.decided, counts.inexact, counts.rounded_up, counts.single_ties);
  for (const std::string& f : failures) std::cout << "  " << f << "\n";
  CHECK(failures.empty());
  // The operands reach both sides: most operations are decided fast, many of them inexact either way, and
  // double rounding's hard case (a double result on a single tie) occurs.
  CHECK(counts.decided > counts.operations / 2);
  CHECK(counts.inexact > counts.decided / 4);
  CHECK(counts.rounded_up > counts.inexact / 8);
  CHECK(counts.single_ties > 100);
}

TEST_CASE("ppc fpu fast path: frsp's conversion to single matches the mode-switching path", "[ppc][fpu]") {
  Operands operands(0xF125);
  size_t differ = 0, inexact = 0;
  for (int n = 0; n < 200000; ++n) {
    const double v = operands.any();
    if (std::isnan(v)) continue; // frsp quiets and truncates NaNs itself
    const fpu::Rounded fast = fpu::round_to_single(0, v, fpu::Path::fast);
    const fpu::Rounded reference = fpu::round_to_single(0, v, fpu::Path::mode_switching);
    inexact += reference.inexact;
    const bool same = std::bit_cast<uint64_t>(fast.value) == std::bit_cast<uint64_t>(reference.value) &&
                      fast.inexact == reference.inexact && fast.rounded_up == reference.rounded_up &&
                      fast.overflow == reference.overflow && fast.tiny == reference.tiny;
    if (!same && ++differ <= 10) std::cout << fmt::format("  frsp {:#018x} differs\n", std::bit_cast<uint64_t>(v));
  }
  CHECK(differ == 0);
  CHECK(inexact > 20000);
}
