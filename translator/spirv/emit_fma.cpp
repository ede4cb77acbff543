// Fused multiply-add with a single rounding, as FFMA/DFMA compute it, lowered as FloatOptions::fma says:
//   exact_f32 (default): f32 FFma is expanded before emission (translator/ir/integer_fma.h: a short f32 path
//        where it is exact, integer code elsewhere), so no module needs FP64 for it; f64 FFma (a double-precision
//        guest instruction) as under exact_f64.
//   fused: GLSL.std.450 Fma, one rounding on hosts whose profile says so (lavapipe's may round twice).
//   exact_f64: built from exact transformations (Boldo & Melquiond, "Emulation of FMA and correctly rounded
//        sums: proved algorithms using rounding to odd", IEEE TC 2008):
//   f32: the product is exact in f64; the sum is rounded to odd in f64, then to nearest f32.
//   f64: Dekker's exact product and Knuth's TwoSum, a round-to-odd sum of the low parts, one final rounding.
//        Exact unless the product's low part underflows (|a*b| below about 2^-969) or the product is within an
//        ulp of overflowing; non-finite inputs take the plain a*b+c path, which is what fma gives for them.
#include <algorithm>

#include <fmt/format.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "runtime/base/error.h"
#include "translator/ir/passes.h"
#include "translator/spirv/compute_emitter.h"

namespace kiln::spirv {

namespace {

constexpr uint64_t f64_bits(double value) { return std::bit_cast<uint64_t>(value); }

/// The first instruction of `block` (nested constructs included) with an f64 result, or nullptr.
const ir::Inst* first_double(const ir::Function& function, const ir::Block& block) {
  for (const ir::Node& node : block.nodes) {
    if (node.kind == ir::NodeKind::Inst && function.insts[node.value].type == ir::Type::F64) return &function.insts[node.value];
    for (const ir::Block* inner : {node.body.get(), node.else_body.get()}) {
      if (!inner) continue;
      if (const ir::Inst* found = first_double(function, *inner)) return found;
    }
  }
  return nullptr;
}

} // namespace

std::optional<FmaMode> parse_fma_mode(std::string_view text) {
  if (text == "exact") return FmaMode::exact_f32;
  if (text == "fused") return FmaMode::fused;
  if (text == "f64") return FmaMode::exact_f64;
  return std::nullopt;
}

std::string_view fma_mode_name(FmaMode mode) {
  switch (mode) {
  case FmaMode::exact_f32: return "exact";
  case FmaMode::fused: return "fused";
  case FmaMode::exact_f64: return "f64";
  }
  return "?";
}

const ir::Function& lower_float_modes(const ir::Function& function, const FloatOptions& options, std::optional<ir::Function>& storage) {
  if (!options.host_float64) {
    if (options.fma == FmaMode::exact_f64) throw Error("FMA mode f64 needs shaderFloat64, which this host lacks");
    if (const ir::Inst* inst = first_double(function, function.body)) {
      throw Error(fmt::format("double-precision guest instruction at {:#x} ({} on f64): this host has no shaderFloat64 and "
                              "f64 is not emulated",
                              inst->guest_address, ir::op_name(inst->op)));
    }
  }
  if (options.fma != FmaMode::exact_f32) return function;
  const bool has_f32_fma = std::any_of(function.insts.begin(), function.insts.end(),
                                       [](const ir::Inst& inst) { return inst.op == ir::Op::FFma && inst.type == ir::Type::F32; });
  if (!has_f32_fma) return function;
  storage = ir::clone(function);
  ir::expand_f32_fma(*storage);
  return *storage;
}

uint32_t ComputeEmitter::exact(spv::Op opcode, uint32_t type, uint32_t a, uint32_t b) {
  const uint32_t result = binary(opcode, type, a, b);
  builder_.decorate(result, spv::Decoration::NoContraction);
  return result;
}

std::pair<uint32_t, uint32_t> ComputeEmitter::two_sum(uint32_t a, uint32_t b) {
  const uint32_t f64 = builder_.type_float(64);
  const uint32_t sum = exact(spv::Op::OpFAdd, f64, a, b);
  const uint32_t b_virtual = exact(spv::Op::OpFSub, f64, sum, a);
  const uint32_t a_virtual = exact(spv::Op::OpFSub, f64, sum, b_virtual);
  const uint32_t error = exact(spv::Op::OpFAdd, f64, exact(spv::Op::OpFSub, f64, a, a_virtual), exact(spv::Op::OpFSub, f64, b, b_virtual));
  return {sum, error};
}

uint32_t ComputeEmitter::add_round_to_odd(uint32_t a, uint32_t b) {
  // Round to nearest, then if inexact and the last bit is even, step one unit towards the exact sum.
  const uint32_t f64 = builder_.type_float(64);
  const auto [sum, error] = two_sum(a, b);
  const uint32_t bits = builder_.op(spv::Op::OpBitcast, u64_type(), {sum});
  const uint32_t inexact = binary(spv::Op::OpFOrdNotEqual, bool_type(), error, const_of(ir::Type::F64, 0));
  const uint32_t even = binary(spv::Op::OpIEqual, bool_type(), binary(spv::Op::OpBitwiseAnd, u64_type(), bits, const_u64(1)), const_u64(0));
  const uint32_t same_sign = binary(spv::Op::OpLogicalEqual, bool_type(),
                                    binary(spv::Op::OpFOrdLessThan, bool_type(), error, const_of(ir::Type::F64, 0)),
                                    binary(spv::Op::OpFOrdLessThan, bool_type(), sum, const_of(ir::Type::F64, 0)));
  const uint32_t stepped = select(u64_type(), same_sign, binary(spv::Op::OpIAdd, u64_type(), bits, const_u64(1)),
                                  binary(spv::Op::OpISub, u64_type(), bits, const_u64(1)));
  const uint32_t adjust = binary(spv::Op::OpLogicalAnd, bool_type(), inexact, even);
  return builder_.op(spv::Op::OpBitcast, f64, {select(u64_type(), adjust, stepped, bits)});
}

uint32_t ComputeEmitter::ext_abs(uint32_t x) {
  const uint32_t bits = builder_.op(spv::Op::OpBitcast, u64_type(), {x});
  return builder_.op(spv::Op::OpBitcast, builder_.type_float(64), {binary(spv::Op::OpBitwiseAnd, u64_type(), bits, const_u64(0x7fffffffffffffff))});
}

uint32_t ComputeEmitter::emit_fma(const ir::Inst& inst) {
  const uint32_t a = value(inst.args[0]), b = value(inst.args[1]), c = value(inst.args[2]);
  if (options_.floats.fma == FmaMode::fused) return builder_.ext(type_of(inst.type), GLSLstd450Fma, {a, b, c});
  if (inst.type == ir::Type::F32 && options_.floats.fma == FmaMode::exact_f32) {
    throw Error("SPIR-V backend: f32 FFma reached the emitter unexpanded under FMA mode exact");
  }
  const uint32_t f64 = builder_.type_float(64);
  if (inst.type == ir::Type::F32) {
    const uint32_t product = exact(spv::Op::OpFMul, f64, builder_.op(spv::Op::OpFConvert, f64, {a}), builder_.op(spv::Op::OpFConvert, f64, {b}));
    const uint32_t sum = add_round_to_odd(product, builder_.op(spv::Op::OpFConvert, f64, {c}));
    return builder_.op(spv::Op::OpFConvert, type_of(ir::Type::F32), {sum});
  }
  const auto split = [&](uint32_t x) {
    // Veltkamp's split; operands beyond 2^995 are split scaled down by 2^60 (exactly) so 2^27 * x cannot overflow.
    const uint32_t big = binary(spv::Op::OpFOrdGreaterThan, bool_type(), ext_abs(x), const_of(ir::Type::F64, f64_bits(0x1p995)));
    const uint32_t operand = select(f64, big, exact(spv::Op::OpFMul, f64, x, const_of(ir::Type::F64, f64_bits(0x1p-60))), x);
    const uint32_t scaled = exact(spv::Op::OpFMul, f64, operand, const_of(ir::Type::F64, f64_bits(134217729.0))); // 2^27 + 1
    const uint32_t high = exact(spv::Op::OpFSub, f64, scaled, exact(spv::Op::OpFSub, f64, scaled, operand));
    const uint32_t low = exact(spv::Op::OpFSub, f64, operand, high);
    const uint32_t up = const_of(ir::Type::F64, f64_bits(0x1p60));
    return std::pair{select(f64, big, exact(spv::Op::OpFMul, f64, high, up), high), select(f64, big, exact(spv::Op::OpFMul, f64, low, up), low)};
  };
  const uint32_t product = exact(spv::Op::OpFMul, f64, a, b);
  const auto [a_high, a_low] = split(a);
  const auto [b_high, b_low] = split(b);
  uint32_t product_error = exact(spv::Op::OpFSub, f64, exact(spv::Op::OpFMul, f64, a_high, b_high), product);
  product_error = exact(spv::Op::OpFAdd, f64, product_error, exact(spv::Op::OpFMul, f64, a_high, b_low));
  product_error = exact(spv::Op::OpFAdd, f64, product_error, exact(spv::Op::OpFMul, f64, a_low, b_high));
  product_error = exact(spv::Op::OpFAdd, f64, product_error, exact(spv::Op::OpFMul, f64, a_low, b_low));
  const auto [sum_high, sum_low] = two_sum(c, product);
  const uint32_t low = add_round_to_odd(sum_low, product_error);
  const uint32_t fused = exact(spv::Op::OpFAdd, f64, sum_high, low);
  // Infinities and NaNs (in the inputs or the product) break the exact transformations.
  const uint32_t plain = exact(spv::Op::OpFAdd, f64, product, c);
  const auto is_finite = [&](uint32_t x) {
    const uint32_t magnitude = binary(spv::Op::OpBitwiseAnd, u64_type(), builder_.op(spv::Op::OpBitcast, u64_type(), {x}), const_u64(0x7fffffffffffffff));
    return binary(spv::Op::OpULessThan, bool_type(), magnitude, const_u64(0x7ff0000000000000));
  };
  // A zero result takes its sign from the plain sum (-0 only for -0 + -0), which is then exact.
  const uint32_t zero = binary(spv::Op::OpFOrdEqual, bool_type(), fused, const_of(ir::Type::F64, 0));
  const uint32_t finite = binary(spv::Op::OpLogicalAnd, bool_type(), is_finite(product), is_finite(c));
  const uint32_t use_fused = binary(spv::Op::OpLogicalAnd, bool_type(), finite, builder_.op(spv::Op::OpLogicalNot, bool_type(), {zero}));
  return select(f64, use_fused, fused, plain);
}

} // namespace kiln::spirv
