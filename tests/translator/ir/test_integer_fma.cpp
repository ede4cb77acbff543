// The f32 multiply-add on integers (translator/ir/integer_fma.h), evaluated on the CPU with the IR's reference
// ops, against std::fma under each rounding mode: every triple of the edge values, then random triples.
#include <catch2/catch.hpp>

#include <array>

#include <fmt/format.h>

#include "tests/translator/fma_cases.h"
#include "translator/ir/reference.h"

using namespace kiln;

namespace {

/// The integer sequence built once over three constant operands, evaluated for any operand bits.
class FmaProgram {
public:
  /// With `fast_path`, what the backend's FFma computes: float_fma_f32 where its operands are in range, else
  /// integer_fma_f32 (as a select: the evaluator runs straight-line code).
  FmaProgram(ir::Rounding mode, test::FmaShape shape, bool fast_path = false) {
    ir::Builder b(function_);
    inputs_ = {b.constant(ir::Type::F32, 1), b.constant(ir::Type::F32, 2), b.constant(ir::Type::F32, 3)};
    if (fast_path) {
      const auto [fast, in_range] = ir::float_fma_f32(b, inputs_[0], inputs_[1], inputs_[2]);
      in_range_ = in_range;
      result_ = b.select(in_range, fast, ir::integer_fma_f32(b, inputs_[0], inputs_[1], inputs_[2], mode));
      values_.resize(function_.insts.size());
      return;
    }
    switch (shape) {
    case test::FmaShape::fma: result_ = ir::integer_fma_f32(b, inputs_[0], inputs_[1], inputs_[2], mode); break;
    case test::FmaShape::multiply: result_ = ir::integer_fma_f32(b, inputs_[0], inputs_[1], std::nullopt, mode); break;
    case test::FmaShape::add: result_ = ir::integer_fma_f32(b, inputs_[0], b.f32(1.0f), inputs_[2], mode); break;
    }
    values_.resize(function_.insts.size());
  }

  size_t size() const { return function_.insts.size(); }

  uint32_t operator()(test::FmaTriple t) {
    function_.insts[inputs_[0]].immediate = t.a;
    function_.insts[inputs_[1]].immediate = t.b;
    function_.insts[inputs_[2]].immediate = t.c;
    for (size_t id = 0; id < function_.insts.size(); ++id) {
      const ir::Inst& inst = function_.insts[id];
      if (inst.op == ir::Op::Const) {
        values_[id] = inst.immediate;
        continue;
      }
      std::array<ir::TypedBits, 3> args{};
      for (unsigned i = 0; i < inst.arg_count; ++i) args[i] = {function_.insts[inst.args[i]].type, values_[inst.args[i]]};
      values_[id] = ir::evaluate(inst.op, inst.type, std::span(args.data(), inst.arg_count)).value();
    }
    if (in_range_ != ir::no_value) fast_path_taken_ += values_[in_range_];
    return static_cast<uint32_t>(values_[result_]);
  }

  size_t fast_path_taken() const { return fast_path_taken_; }

private:
  ir::Function function_;
  std::array<ir::ValueId, 3> inputs_{};
  ir::ValueId result_ = ir::no_value, in_range_ = ir::no_value;
  size_t fast_path_taken_ = 0;
  std::vector<uint64_t> values_;
};

std::string describe(test::FmaTriple t) {
  return fmt::format("({:#010x}, {:#010x}, {:#010x}) = ({}, {}, {})", t.a, t.b, t.c, std::bit_cast<float>(t.a), std::bit_cast<float>(t.b),
                     std::bit_cast<float>(t.c));
}

size_t mismatches(FmaProgram& program, const std::vector<test::FmaTriple>& triples, ir::Rounding mode, test::FmaShape shape) {
  size_t count = 0;
  for (const test::FmaTriple& t : triples) {
    const uint32_t expected = test::reference_fma(t, mode, shape), actual = program(t);
    if (actual != expected && ++count <= 5) {
      UNSCOPED_INFO(fmt::format("{} gives {:#010x} ({}), std::fma {:#010x} ({})", describe(t), actual, std::bit_cast<float>(actual), expected,
                                std::bit_cast<float>(expected)));
    }
  }
  return count;
}

} // namespace

TEST_CASE("integer f32 fma: hand-derived cases", "[ir][fma]") {
  FmaProgram fma(ir::Rounding::nearest, test::FmaShape::fma);
  // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46: exact only with one rounding (two roundings give 0).
  CHECK(fma({0x3f800001, 0x3f7ffffe, 0xbf800000}) == std::bit_cast<uint32_t>(-0x1p-46f));
  // 2^-126 x 2^-24 = 2^-150 is half the smallest subnormal: a tie, to even (+0); with a tiny addend it rounds up.
  CHECK(fma({0x00800000, 0x33800000, 0x00000000}) == 0x00000000);
  CHECK(fma({0x00800000, 0x33c00000, 0x00000000}) == 0x00000001);
  // max x 2 - max = max (the product overflows f32 but the sum does not).
  CHECK(fma({0x7f7fffff, 0x40000000, 0xff7fffff}) == 0x7f7fffff);
  // 0 x inf is invalid: NVIDIA's canonical NaN; a NaN operand propagates quieted.
  CHECK(fma({0x00000000, 0x7f800000, 0x3f800000}) == 0x7fffffff);
  CHECK(fma({0x3f800000, 0x7f800001, 0x3f800000}) == 0x7fc00001);
  // -0 + -0 keeps its sign; x - x is +0 to nearest and -0 rounding down.
  CHECK(fma({0x80000000, 0x3f800000, 0x80000000}) == 0x80000000);
  CHECK(fma({0x3f800000, 0x3f800000, 0xbf800000}) == 0x00000000);
  FmaProgram down(ir::Rounding::minus_infinity, test::FmaShape::fma);
  CHECK(down({0x3f800000, 0x3f800000, 0xbf800000}) == 0x80000000);
  FmaProgram towards_zero(ir::Rounding::zero, test::FmaShape::multiply);
  CHECK(towards_zero({0x7f7fffff, 0x40000000, 0}) == 0x7f7fffff); // overflow saturates to the largest finite
}

TEST_CASE("integer f32 fma matches std::fma on every edge triple and random triples, all rounding modes", "[ir][fma]") {
  const std::vector<test::FmaTriple> edges = test::fma_edge_triples();
  const uint64_t seed = std::random_device()() ^ (uint64_t{std::random_device()()} << 32);
  INFO("seed " << seed);
  std::mt19937_64 random(seed);
  std::vector<test::FmaTriple> randoms(100000);
  for (test::FmaTriple& t : randoms) t = test::random_fma_triple(random);
  for (const ir::Rounding mode : {ir::Rounding::nearest, ir::Rounding::zero, ir::Rounding::plus_infinity, ir::Rounding::minus_infinity}) {
    for (const test::FmaShape shape : {test::FmaShape::fma, test::FmaShape::multiply, test::FmaShape::add}) {
      INFO("rounding " << static_cast<int>(mode) << " shape " << static_cast<int>(shape));
      FmaProgram program(mode, shape);
      CHECK(mismatches(program, shape == test::FmaShape::fma ? edges : std::vector(edges.begin(), edges.begin() + 20000), mode, shape) == 0);
      CHECK(mismatches(program, randoms, mode, shape) == 0);
    }
  }
}

TEST_CASE("the f32 fast path of the default FFma is exact wherever it claims its range", "[ir][fma]") {
  const uint64_t seed = std::random_device()() ^ (uint64_t{std::random_device()()} << 32);
  INFO("seed " << seed);
  std::mt19937_64 random(seed);
  std::vector<test::FmaTriple> triples = test::fma_edge_triples();
  for (int i = 0; i < 300000; ++i) triples.push_back(test::random_fma_triple(random));
  FmaProgram program(ir::Rounding::nearest, test::FmaShape::fma, true);
  CHECK(mismatches(program, triples, ir::Rounding::nearest, test::FmaShape::fma) == 0);
  // The fast path must carry the common case (it is what makes the default cheap), the integer code the rest.
  WARN(program.fast_path_taken() << " of " << triples.size() << " triples on the f32 fast path");
  CHECK(program.fast_path_taken() > triples.size() / 5);
  CHECK(program.fast_path_taken() < triples.size() * 4 / 5);
}
