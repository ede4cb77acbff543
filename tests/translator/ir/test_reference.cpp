// The CPU reference against facts stated in documentation (CUDA PTX ISA, IEEE 754, GLSL.std.450), derived by hand.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "translator/ir/reference.h"

using namespace kiln::ir;

namespace {
uint64_t eval(Op op, Type result, std::initializer_list<TypedBits> args) {
  return evaluate(op, result, std::span(args.begin(), args.size())).value();
}
TypedBits f32(float v) { return {Type::F32, std::bit_cast<uint32_t>(v)}; }
TypedBits u32(uint32_t v) { return {Type::U32, v}; }
uint64_t bits(float v) { return std::bit_cast<uint32_t>(v); }
} // namespace

TEST_CASE("integer reference: wrap-around, high products, clamped shifts", "[ir]") {
  CHECK(eval(Op::IAdd, Type::U32, {u32(0xffffffff), u32(2)}) == 1);
  CHECK(eval(Op::UMulHi, Type::U32, {u32(0xffffffff), u32(0xffffffff)}) == 0xfffffffe); // (2^32-1)^2 = 2^64 - 2^33 + 1
  CHECK(eval(Op::SMulHi, Type::U32, {u32(0xffffffff), u32(0xffffffff)}) == 0);          // (-1)*(-1) = 1
  CHECK(eval(Op::SMulHi, Type::U32, {u32(0x80000000), u32(2)}) == 0xffffffff);          // -2^32 >> 32 = -1
  CHECK(eval(Op::UMulHi, Type::U64, {{Type::U64, 1ull << 63}, {Type::U64, 4}}) == 2);
  // SHF clamps the shift amount: shifting by the width or more shifts everything out.
  CHECK(eval(Op::Shl, Type::U32, {u32(1), u32(32)}) == 0);
  CHECK(eval(Op::LShr, Type::U32, {u32(0x80000000), u32(31)}) == 1);
  CHECK(eval(Op::AShr, Type::U32, {u32(0x80000000), u32(40)}) == 0xffffffff);
  CHECK(eval(Op::Shl, Type::U64, {{Type::U64, 1}, u32(63)}) == 1ull << 63);
  CHECK(eval(Op::SMin, Type::U32, {u32(0xffffffff), u32(1)}) == 0xffffffff);
  CHECK(eval(Op::UMin, Type::U32, {u32(0xffffffff), u32(1)}) == 1);
  CHECK(eval(Op::BitReverse, Type::U32, {u32(1)}) == 0x80000000);
  CHECK(eval(Op::PopCount, Type::U32, {u32(0xf0f0)}) == 8);
  // FLO / FindUMsb / FindSMsb: -1 (all ones) when no bit qualifies.
  CHECK(eval(Op::FindMsbU, Type::U32, {u32(0)}) == 0xffffffff);
  CHECK(eval(Op::FindMsbU, Type::U32, {u32(0x00010000)}) == 16);
  CHECK(eval(Op::FindMsbS, Type::U32, {u32(0xffffffff)}) == 0xffffffff);
  CHECK(eval(Op::FindMsbS, Type::U32, {u32(0x80000000)}) == 30);
}

TEST_CASE("float reference: NVIDIA min/max, saturation, flush, conversions", "[ir]") {
  CHECK(eval(Op::FMin, Type::F32, {f32(-0.0f), f32(0.0f)}) == bits(-0.0f));
  CHECK(eval(Op::FMin, Type::F32, {f32(0.0f), f32(-0.0f)}) == bits(-0.0f));
  CHECK(eval(Op::FMax, Type::F32, {f32(-0.0f), f32(0.0f)}) == bits(0.0f));
  CHECK(eval(Op::FMax, Type::F32, {f32(NAN), f32(1.0f)}) == bits(1.0f));
  CHECK(eval(Op::FMin, Type::F32, {f32(2.0f), f32(NAN)}) == bits(2.0f));
  CHECK(eval(Op::FSaturate, Type::F32, {f32(NAN)}) == bits(0.0f));
  CHECK(eval(Op::FSaturate, Type::F32, {f32(-0.0f)}) == bits(0.0f));
  CHECK(eval(Op::FSaturate, Type::F32, {f32(1.5f)}) == bits(1.0f));
  CHECK(eval(Op::FFlushDenormal, Type::F32, {f32(-1e-40f)}) == bits(-0.0f));
  CHECK(eval(Op::FFlushDenormal, Type::F32, {f32(1.17549435e-38f)}) == bits(1.17549435e-38f)); // smallest normal stays
  // cvt.rzi.s32.f32 saturates, NaN converts to 0 (PTX ISA, cvt).
  CHECK(eval(Op::FToS, Type::U32, {f32(NAN)}) == 0);
  CHECK(eval(Op::FToS, Type::U32, {f32(3e9f)}) == 0x7fffffff);
  CHECK(eval(Op::FToS, Type::U32, {f32(-3e9f)}) == 0x80000000);
  CHECK(eval(Op::FToS, Type::U32, {f32(-2.75f)}) == static_cast<uint32_t>(-2));
  CHECK(eval(Op::FToU, Type::U32, {f32(-1.5f)}) == 0);
  CHECK(eval(Op::FToU, Type::U32, {f32(5e9f)}) == 0xffffffff);
  CHECK(eval(Op::FRoundEven, Type::F32, {f32(2.5f)}) == bits(2.0f));
  CHECK(eval(Op::UToF, Type::F32, {u32(16777217)}) == bits(16777216.0f)); // 2^24+1 rounds to even
  // A product that a separate multiply would round: fma keeps it exact. (1+2^-23)^2 - 1 = 2^-22 + 2^-46.
  const float x = 1.0f + 0x1p-23f;
  CHECK(eval(Op::FFma, Type::F32, {f32(x), f32(x), f32(-1.0f)}) == bits(0x1p-22f + 0x1p-46f));
  CHECK(eval(Op::FOrdLt, Type::Bool, {f32(NAN), f32(1.0f)}) == 0);
  CHECK(eval(Op::FUnordLt, Type::Bool, {f32(NAN), f32(1.0f)}) == 1);
}

TEST_CASE("ops without a computable result have no reference", "[ir]") {
  CHECK_FALSE(evaluate(Op::LoadGlobal, Type::U32, std::span<const TypedBits>()).has_value());
  CHECK_FALSE(evaluate(Op::ThreadIdX, Type::U32, std::span<const TypedBits>()).has_value());
}
