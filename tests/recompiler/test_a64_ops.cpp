#include <catch2/catch.hpp>

#include "runtime/core/aarch64/ops.h"

// Flag results derived by hand from the Arm ARM's AddWithCarry pseudocode.
TEST_CASE("add_flags computes NZCV as AddWithCarry", "[a64ops]") {
  uint32_t n, z, c, v;
  CHECK(kiln::rt::add_flags<uint32_t>(0x7fffffff, 1, 0, n, z, c, v) == 0x80000000u);
  CHECK((n == 1 && z == 0 && c == 0 && v == 1));
  CHECK(kiln::rt::add_flags<uint32_t>(0xffffffff, 1, 0, n, z, c, v) == 0);
  CHECK((n == 0 && z == 1 && c == 1 && v == 0));
  // SUBS 0 - 1 = 0 + ~1 + 1: borrow, so C = 0
  CHECK(kiln::rt::add_flags<uint64_t>(0, ~uint64_t{1}, 1, n, z, c, v) == ~uint64_t{0});
  CHECK((n == 1 && z == 0 && c == 0 && v == 0));
  // SUBS 5 - 5: C = 1 (no borrow), Z = 1
  CHECK(kiln::rt::add_flags<uint64_t>(5, ~uint64_t{5}, 1, n, z, c, v) == 0);
  CHECK((n == 0 && z == 1 && c == 1 && v == 0));
}

TEST_CASE("bitfield moves match UBFX/SBFX/BFI/LSL", "[a64ops]") {
  using kiln::rt::bitfield_move;
  CHECK(bitfield_move<uint32_t>(0, 0xabcd, 8, 15, false, false) == 0xab);         // UBFX w, #8, #8
  CHECK(bitfield_move<uint32_t>(0, 0x80, 4, 7, true, false) == 0xfffffff8u);     // SBFX w, #4, #4
  CHECK(bitfield_move<uint32_t>(0xffffffff, 0x0, 24, 7, false, true) == 0xffff00ffu); // BFI w, wzr, #8, #8
  CHECK(bitfield_move<uint64_t>(0, 1, 63, 62, false, false) == 2);               // LSL x, #1 = UBFM #63, #62
  CHECK(bitfield_move<uint64_t>(0, 0xff, 60, 3, true, false) == 0xfffffffffffffff0ull); // SBFIZ x, #4, #4: 0xf is -1
}

TEST_CASE("division and conversions follow AArch64, not x86", "[a64ops]") {
  CHECK(kiln::rt::udiv<uint32_t>(7, 0) == 0);
  CHECK(kiln::rt::sdiv<uint64_t>(0x8000000000000000ull, ~uint64_t{0}) == 0x8000000000000000ull);
  CHECK(kiln::rt::fp_to_int<int32_t>(1e20) == 2147483647);
  CHECK(kiln::rt::fp_to_int<int32_t>(-1e20) == -2147483647 - 1);
  CHECK(kiln::rt::fp_to_int<uint32_t>(-5.0) == 0);
  CHECK(kiln::rt::fp_to_int<int64_t>(std::nan("")) == 0);
  // 0/0 gives the positive default NaN on AArch64
  volatile double zero = 0.0;
  CHECK_FALSE(std::signbit(kiln::rt::fp_default_nan(zero / zero, zero, zero)));
}
