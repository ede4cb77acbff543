// The float -> half conversion of the .F16 texture result forms (translator/ir/half_bits.h), evaluated with the IR's
// CPU reference and compared with the compiler's own IEEE conversion (_Float16, or F16C under clang 14: round to nearest even).
#include <catch2/catch.hpp>

#if defined(__clang__) && __clang_major__ < 15
#include <immintrin.h>
#endif

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "translator/ir/builder.h"
#include "translator/ir/reference.h"
#include "translator/ir/half_bits.h"

namespace {

using namespace kiln;

/// Evaluates the straight-line function in instruction order; the value of `result`.
uint32_t evaluate_bits(const ir::Function& function, ir::ValueId result) {
  std::vector<uint64_t> values(function.insts.size());
  for (size_t id = 0; id < function.insts.size(); ++id) {
    const ir::Inst& inst = function.insts[id];
    if (inst.op == ir::Op::Const) {
      values[id] = inst.immediate;
      continue;
    }
    std::vector<ir::TypedBits> args;
    for (ir::ValueId arg : inst.args) {
      if (arg != ir::no_value) args.push_back({function.insts[arg].type, values[arg]});
    }
    const auto value = ir::evaluate(inst.op, inst.type, args);
    REQUIRE(value.has_value());
    values[id] = *value;
  }
  return static_cast<uint32_t>(values.at(result));
}

uint32_t converted(uint32_t float_bits) {
  ir::Function function;
  ir::Builder b(function);
  const ir::ValueId result = ir::half_bits(b, b.u32(float_bits));
  return evaluate_bits(function, result);
}

#if defined(__clang__) && __clang_major__ < 15
// clang 14 has no _Float16 on x86: the F16C instruction's conversion (round to nearest even) is the reference.
__attribute__((target("f16c"))) uint32_t reference(uint32_t float_bits) {
  return static_cast<uint16_t>(_cvtss_sh(std::bit_cast<float>(float_bits), _MM_FROUND_TO_NEAREST_INT));
}
#else
uint32_t reference(uint32_t float_bits) {
  const float value = std::bit_cast<float>(float_bits);
  const _Float16 half = static_cast<_Float16>(value);
  uint16_t bits = 0;
  std::memcpy(&bits, &half, sizeof(bits));
  return bits;
}
#endif

} // namespace

TEST_CASE("float to half bits: round to nearest even, subnormals, overflow, NaN", "[sm5x][lower][half]") {
  // Hand-derived anchors: 1.0 -> 0x3c00, -2.0 -> 0xc000, 65504 (largest half) -> 0x7bff, 65520 (half-way to
  // 65536) -> infinity, 2^-24 (smallest subnormal) -> 0x0001, 2^-25 (half of it: a tie, to even) -> 0,
  // 1.5 * 2^-25 -> 0x0001, infinity -> 0x7c00, NaN -> 0x7e00.
  CHECK(converted(0x3f800000) == 0x3c00);
  CHECK(converted(0xc0000000) == 0xc000);
  CHECK(converted(std::bit_cast<uint32_t>(65504.0f)) == 0x7bff);
  CHECK(converted(std::bit_cast<uint32_t>(65520.0f)) == 0x7c00);
  CHECK(converted(std::bit_cast<uint32_t>(0x1p-24f)) == 0x0001);
  CHECK(converted(std::bit_cast<uint32_t>(0x1p-25f)) == 0x0000);
  CHECK(converted(std::bit_cast<uint32_t>(0x1.8p-25f)) == 0x0001);
  CHECK(converted(0x7f800000) == 0x7c00);
  CHECK(converted(0x7fc00000) == 0x7e00);
  // Every other value against the compiler's conversion: random bit patterns and a sweep of the exponents
  // where halves change form (subnormal, normal, overflow), NaNs excepted (their payloads differ by host).
  std::mt19937 random(5);
  size_t compared = 0;
  for (int i = 0; i < 20000; ++i) {
    uint32_t bits = random();
    if (i % 2 == 0) bits = (bits & 0x807fffffu) | ((100u + static_cast<uint32_t>(i / 2) % 48u) << 23);
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0) continue;
    INFO("float bits " << std::hex << bits);
    REQUIRE(converted(bits) == reference(bits));
    ++compared;
  }
  CHECK(compared > 19000);
}
