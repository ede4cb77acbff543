// The f32 multiply-add of every FMA mode (spirv::FmaMode) and the FP64-free directed roundings, run on lavapipe
// over every triple of the edge values plus millions of random triples in one dispatch each, against std::fma
// on the host (correctly rounded) under std::fesetround. Then the cost of each mode on an FMA-heavy kernel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "tests/gpu/compute/compute_dispatch.h"
#include "tests/translator/fma_cases.h"
#include "translator/ir/passes.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

using namespace kiln;
using ir::Op;
using ir::Type;

namespace {

constexpr uint32_t block_size = 64;

enum class Form { fma, multiply, add };

/// out[i] = the form applied to in[3i], in[3i+1], in[3i+2] (f32 bits); `chain` > 0 makes it a loop that feeds the
/// result back as the addend that many times (the timing kernel). Nearest FMA is the IR's FFma, so the FMA mode
/// lowers it; directed forms are ir::rounded_* (integer code in every mode).
ir::Function make_kernel(Form form, ir::Rounding mode, unsigned chain = 0) {
  ir::Function function;
  function.kernel.name = "fma_cases";
  function.kernel.const_bank_bytes = 16;
  ir::Builder b(function);
  const ir::ValueId inputs = b.load(Op::LoadConst, ir::MemoryWidth::B64, b.u32(0));
  const ir::ValueId outputs = b.load(Op::LoadConst, ir::MemoryWidth::B64, b.u32(8));
  const ir::ValueId index = b.op(Op::IAdd, b.op(Op::IMul, b.emit(Op::BlockIdX, Type::U32, {}), b.u32(block_size)), b.emit(Op::ThreadIdX, Type::U32, {}));
  const ir::ValueId index64 = b.convert(Op::ZExt, Type::U64, index);
  std::array<ir::ValueId, 3> operands{};
  for (uint32_t k = 0; k < 3; ++k) {
    const ir::ValueId word = b.op(Op::IAdd, b.op(Op::IMul, index64, b.u64(3)), b.u64(k));
    operands[k] = b.convert(Op::Bitcast, Type::F32, b.load(Op::LoadGlobal, ir::MemoryWidth::B32, b.op(Op::IAdd, inputs, b.op(Op::Shl, word, b.u32(2)))));
  }
  ir::ValueId result = operands[2];
  switch (form) {
  case Form::fma: result = ir::rounded_fma(b, operands[0], operands[1], result, mode); break;
  case Form::multiply: result = ir::rounded_mul(b, operands[0], operands[1], mode); break;
  case Form::add: result = ir::rounded_add(b, operands[0], result, mode); break;
  }
  if (chain > 0) {
    const uint32_t value = b.add_local(Type::F32), count = b.add_local(Type::U32);
    b.store_local(value, result);
    b.store_local(count, b.u32(1));
    b.loop([&](uint32_t loop) {
      b.store_local(value, b.op(Op::FFma, operands[0], operands[1], b.load_local(value)));
      const ir::ValueId next = b.op(Op::IAdd, b.load_local(count), b.u32(1));
      b.store_local(count, next);
      b.if_then(b.op(Op::ULt, next, b.u32(chain)), [&] { b.continue_to(loop); });
    });
    result = b.load_local(value);
  }
  const ir::ValueId out_address = b.op(Op::IAdd, outputs, b.op(Op::Shl, index64, b.u32(2)));
  b.store(Op::StoreGlobal, ir::MemoryWidth::B32, out_address, b.convert(Op::Bitcast, Type::U32, result));
  ir::run_passes(function);
  return function;
}

class Runner {
public:
  explicit Runner(size_t capacity)
      : context_({.validation = true, .synchronization_validation = true}), inputs_(gpu::create_addressable_buffer(context_, capacity * 12)),
        outputs_(gpu::create_addressable_buffer(context_, capacity * 4)) {}

  /// Runs `module` over `triples` (a multiple of block_size), one invocation each; the results' bits.
  std::vector<uint32_t> run(const std::vector<uint32_t>& module, const std::vector<test::FmaTriple>& triples, size_t invocations = 0) {
    if (invocations == 0) invocations = triples.size();
    std::memcpy(inputs_.mapped, triples.data(), triples.size() * sizeof(test::FmaTriple));
    std::memset(outputs_.mapped, 0xa5, invocations * 4); // poison: a lane that writes nothing cannot pass
    const std::array<uint64_t, 2> bank{inputs_.address, outputs_.address};
    gpu::run_compute(context_, {.spirv = module, .entry_point = "fma_cases", .block = {block_size, 1, 1},
                                .grid = {static_cast<uint32_t>(invocations / block_size), 1, 1},
                                .constant_bank = std::span(reinterpret_cast<const uint8_t*>(bank.data()), sizeof(bank))});
    std::vector<uint32_t> results(invocations);
    std::memcpy(results.data(), outputs_.mapped, invocations * 4);
    return results;
  }

  std::vector<std::string> validation_messages() const { return context_.validation_log().messages(); }
  std::string device_name() const { return context_.device_name(); }

private:
  vulkan::Context context_;
  gpu::AddressableBuffer inputs_, outputs_;
};

bool is_nan(uint32_t bits) { return (bits & 0x7fffffffu) > 0x7f800000u; }

std::vector<test::FmaTriple> test_triples(size_t random_count) {
  std::vector<test::FmaTriple> triples = test::fma_edge_triples();
  const uint64_t seed = std::random_device()() ^ (uint64_t{std::random_device()()} << 32);
  UNSCOPED_INFO("seed " << seed);
  std::mt19937_64 random(seed);
  for (size_t i = 0; i < random_count; ++i) triples.push_back(test::random_fma_triple(random));
  while (triples.size() % block_size != 0) triples.push_back({0, 0, 0});
  return triples;
}

/// Mismatches against the reference; with `host_nans` any NaN matches any NaN (the host's own NaN rules).
size_t mismatches(const std::vector<test::FmaTriple>& triples, const std::vector<uint32_t>& results, ir::Rounding mode, Form form, bool host_nans) {
  const test::FmaShape shape = form == Form::fma ? test::FmaShape::fma : form == Form::multiply ? test::FmaShape::multiply : test::FmaShape::add;
  size_t count = 0;
  for (size_t i = 0; i < triples.size(); ++i) {
    const test::FmaTriple t = triples[i];
    const uint32_t expected = test::reference_fma(t, mode, shape);
    if (results[i] == expected || (host_nans && is_nan(results[i]) && is_nan(expected))) continue;
    if (++count <= 4) {
      UNSCOPED_INFO(fmt::format("({:#010x}, {:#010x}, {:#010x}) = ({}, {}, {}): {:#010x} on lavapipe, reference {:#010x}", t.a, t.b, t.c,
                                std::bit_cast<float>(t.a), std::bit_cast<float>(t.b), std::bit_cast<float>(t.c), results[i], expected));
    }
  }
  return count;
}

bool declares_float64(const std::vector<uint32_t>& module) {
  const auto capabilities = spirv::declared_capabilities(module);
  return std::find(capabilities.begin(), capabilities.end(), spv::Capability::Float64) != capabilities.end();
}

} // namespace

TEST_CASE("f32 FMA on lavapipe: every FMA mode and the directed roundings against std::fma, edge and random triples", "[gpu][fma]") {
  const std::vector<test::FmaTriple> triples = test_triples(size_t{1} << 21);
  Runner runner(triples.size());
  const ir::Function nearest = make_kernel(Form::fma, ir::Rounding::nearest);
  for (const spirv::FmaMode fma : {spirv::FmaMode::exact_f32, spirv::FmaMode::exact_f64, spirv::FmaMode::fused}) {
    INFO("--fma " << spirv::fma_mode_name(fma));
    const std::vector<uint32_t> module = spirv::emit_compute(nearest, {.floats = {.fma = fma}});
    REQUIRE(spirv::validate(module).empty());
    CHECK(declares_float64(module) == (fma == spirv::FmaMode::exact_f64));
    const size_t wrong = mismatches(triples, runner.run(module, triples), ir::Rounding::nearest, Form::fma, fma != spirv::FmaMode::exact_f32);
    if (fma == spirv::FmaMode::fused) {
      // The host's Fma: one rounding only where its profile says so; lavapipe's may round twice.
      WARN(fmt::format("--fma fused on {}: {} of {} results differ from the correctly rounded fma", runner.device_name(), wrong, triples.size()));
    } else {
      CHECK(wrong == 0);
    }
  }
  // Directed rounding (FFMA/FMUL/FADD .RZ/.RM/.RP) is integer code in every mode, without Float64.
  for (const ir::Rounding mode : {ir::Rounding::zero, ir::Rounding::plus_infinity, ir::Rounding::minus_infinity}) {
    for (const Form form : {Form::fma, Form::multiply, Form::add}) {
      INFO("rounding " << static_cast<int>(mode) << " form " << static_cast<int>(form));
      const std::vector<uint32_t> module = spirv::emit_compute(make_kernel(form, mode));
      REQUIRE(spirv::validate(module).empty());
      CHECK_FALSE(declares_float64(module));
      CHECK(mismatches(triples, runner.run(module, triples), mode, form, false) == 0);
    }
  }
  const auto messages = runner.validation_messages();
  for (const auto& message : messages) UNSCOPED_INFO(message);
  CHECK(messages.empty());
}

TEST_CASE("FMA modes side by side: translation size and lavapipe time of an FMA-heavy kernel", "[gpu][fma][timing]") {
  // 2^18 invocations, each a loop of 256 dependent FFmas (KILN_FMA_TIMING_CHAIN overrides the count, for fast
  // GPUs). Pipeline creation (the driver compiles the shader then) is timed on a one-block dispatch; execution is
  // the full dispatch minus that.
  const char* chain_text = std::getenv("KILN_FMA_TIMING_CHAIN");
  const unsigned chain = chain_text ? static_cast<unsigned>(std::max(2, std::atoi(chain_text))) : 256;
  constexpr size_t invocations = size_t{1} << 18;
  std::mt19937_64 random(19);
  std::vector<test::FmaTriple> triples(invocations);
  std::uniform_real_distribution<float> unit(0.5f, 1.0f);
  for (auto& t : triples) t = {std::bit_cast<uint32_t>(unit(random)), std::bit_cast<uint32_t>(unit(random) * 0.5f), std::bit_cast<uint32_t>(unit(random))};
  Runner runner(invocations);
  const ir::Function kernel = make_kernel(Form::fma, ir::Rounding::nearest, chain);
  std::vector<uint32_t> exact_results;
  std::string table = fmt::format("{}, {} invocations x {} FFmas\n", runner.device_name(), invocations, chain);
  table += fmt::format("{:<7} {:>9} {:>10} {:>12} {:>12} {:>9}\n", "--fma", "words", "emit us", "compile ms", "execute ms", "ns/fma");
  for (const spirv::FmaMode fma : {spirv::FmaMode::exact_f32, spirv::FmaMode::fused, spirv::FmaMode::exact_f64}) {
    const auto emit_start = std::chrono::steady_clock::now();
    const std::vector<uint32_t> module = spirv::emit_compute(kernel, {.floats = {.fma = fma}});
    const double emit_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - emit_start).count();
    REQUIRE(spirv::validate(module).empty());
    const auto time_ms = [&](size_t count) {
      double best = 1e30;
      std::vector<uint32_t> results;
      for (int round = 0; round < 2; ++round) {
        const auto start = std::chrono::steady_clock::now();
        results = runner.run(module, triples, count);
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      }
      return std::pair{best, results};
    };
    const double compile_ms = time_ms(block_size).first;
    const auto [total_ms, results] = time_ms(invocations);
    const double execute_ms = std::max(0.0, total_ms - compile_ms);
    table += fmt::format("{:<7} {:>9} {:>10.0f} {:>12.1f} {:>12.1f} {:>9.2f}\n", spirv::fma_mode_name(fma), module.size(), emit_us, compile_ms, execute_ms,
                         execute_ms * 1e6 / (static_cast<double>(invocations) * chain));
    // The exact modes agree bit for bit (the chain stays finite: each step adds a product below 0.5).
    if (fma == spirv::FmaMode::exact_f32) exact_results = results;
    if (fma == spirv::FmaMode::exact_f64) CHECK(results == exact_results);
  }
  WARN(table);
}
