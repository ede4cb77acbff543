// Every computing IR op, compiled to SPIR-V by the backend and run on lavapipe over random operands, must give
// its CPU reference's result: bit-exact, or within approximation_bound() for MUFU-like ops.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "tests/gpu/compute/compute_dispatch.h"
#include "tests/translator/run/op_kernels.h"
#include "translator/ir/passes.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

using namespace kiln;

namespace {

constexpr uint32_t block_size = 64;
constexpr uint32_t blocks = 8;
constexpr uint32_t invocations = block_size * blocks;

int64_t ordered_bits(ir::Type type, uint64_t bits) {
  // Maps float bits to integers whose difference counts representable values in between (ULPs).
  if (type == ir::Type::F32) {
    const auto value = static_cast<int32_t>(static_cast<uint32_t>(bits));
    return value < 0 ? INT32_MIN - static_cast<int64_t>(value) : value;
  }
  const auto value = static_cast<int64_t>(bits);
  return value < 0 ? INT64_MIN - value : value;
}

double as_double(ir::Type type, uint64_t bits) {
  return type == ir::Type::F32 ? std::bit_cast<float>(static_cast<uint32_t>(bits)) : std::bit_cast<double>(bits);
}

bool within_bound(ir::Op op, ir::Type type, uint64_t expected, uint64_t actual) {
  const ir::ApproximationBound bound = ir::approximation_bound(op);
  const double e = as_double(type, expected), a = as_double(type, actual);
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return e == a;
  if (std::abs(e - a) <= bound.absolute) return true;
  return std::abs(ordered_bits(type, expected) - ordered_bits(type, actual)) <= bound.ulps;
}

std::string describe(ir::Type type, uint64_t bits) {
  if (ir::is_float(type)) return fmt::format("{:#x} ({})", bits, as_double(type, bits));
  return fmt::format("{:#x}", bits);
}

} // namespace

TEST_CASE("every computing IR op on lavapipe matches its CPU reference", "[gpu][ir]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const uint64_t seed = std::random_device()() ^ (uint64_t{std::random_device()()} << 32);
  INFO("seed " << seed);
  std::mt19937_64 random(seed);
  gpu::AddressableBuffer inputs = gpu::create_addressable_buffer(context, invocations * 3 * 8);
  gpu::AddressableBuffer outputs = gpu::create_addressable_buffer(context, invocations * 8);
  std::array<uint64_t, 2> bank{inputs.address, outputs.address};

  size_t cases_run = 0;
  for (const test::OpCase& op_case : test::computing_op_cases()) {
    const std::string name = fmt::format("{} -> {}", ir::op_name(op_case.op), ir::type_name(op_case.result));
    INFO(name);
    ir::Function kernel = test::make_op_kernel(op_case);
    ir::run_passes(kernel);
    const std::vector<uint32_t> module = spirv::emit_compute(kernel);
    const auto messages = spirv::validate(module);
    for (const auto& message : messages) UNSCOPED_INFO(message);
    REQUIRE(messages.empty());

    std::vector<uint64_t> operands(invocations * 3, 0);
    for (uint32_t i = 0; i < invocations; ++i) {
      for (size_t k = 0; k < op_case.operands.size(); ++k) operands[i * 3 + k] = test::random_operand(random, op_case.op, op_case.operands[k], static_cast<unsigned>(k));
    }
    std::memcpy(inputs.mapped, operands.data(), operands.size() * 8);
    std::memset(outputs.mapped, 0xa5, invocations * 8); // poison: a lane that writes nothing cannot pass
    gpu::run_compute(context, {.spirv = module, .entry_point = kernel.kernel.name, .block = {block_size, 1, 1}, .grid = {blocks, 1, 1},
                               .constant_bank = std::span(reinterpret_cast<const uint8_t*>(bank.data()), sizeof(bank))});
    const bool approximate = ir::op_info(op_case.op).effect == ir::Effect::Approximate;
    size_t mismatches = 0;
    for (uint32_t i = 0; i < invocations; ++i) {
      std::vector<ir::TypedBits> args;
      for (size_t k = 0; k < op_case.operands.size(); ++k) args.push_back({op_case.operands[k], operands[i * 3 + k]});
      const uint64_t expected = *ir::evaluate(op_case.op, op_case.result, args);
      uint64_t actual = 0;
      std::memcpy(&actual, outputs.mapped + i * 8, ir::bit_width(op_case.result) == 64 ? 8 : 4);
      const bool ok = approximate ? within_bound(op_case.op, op_case.result, expected, actual) : actual == expected;
      if (!ok && ++mismatches <= 3) {
        std::string operand_text;
        for (const auto& arg : args) operand_text += describe(arg.type, arg.bits) + " ";
        UNSCOPED_INFO(fmt::format("{}({}) = {} on lavapipe, reference {}", name, operand_text, describe(op_case.result, actual),
                                  describe(op_case.result, expected)));
      }
    }
    CHECK(mismatches == 0);
    ++cases_run;
  }
  CHECK(cases_run > 100);
  const auto messages = context.validation_log().messages();
  for (const auto& message : messages) UNSCOPED_INFO(message);
  CHECK(messages.empty());
}
