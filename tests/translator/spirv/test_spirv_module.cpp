// The SPIR-V backend's modules pass spirv-val (Vulkan 1.2), invalid ones are never written, GLSL comes out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "runtime/base/error.h"
#include "translator/ir/builder.h"
#include "translator/ir/passes.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

using namespace kiln;
using ir::Op;

namespace {

// Loops nested in a block, with a break and a continue that cross two constructs and an early return.
ir::Function nested_jumps_kernel() {
  ir::Function f;
  f.kernel.const_bank_bytes = 8;
  ir::Builder b(f);
  const uint32_t n = b.add_local(ir::Type::U32);
  b.store_local(n, b.emit(Op::ThreadIdX, ir::Type::U32, {}));
  b.block_construct([&](uint32_t done) {
    b.loop([&](uint32_t outer) {
      b.loop([&](uint32_t inner) {
        const ir::ValueId value = b.load_local(n);
        b.if_then(b.op(Op::IEq, value, b.u32(7)), [&] { b.return_(); });
        b.if_then(b.op(Op::UGt, value, b.u32(100)), [&] { b.break_to(done); });
        b.store_local(n, b.op(Op::IAdd, value, b.u32(3)));
        b.if_then(b.op(Op::IEq, b.op(Op::And, value, b.u32(1)), b.u32(0)), [&] { b.continue_to(outer); },
                  [&] { b.continue_to(inner); });
      });
    });
  });
  b.store(Op::StoreGlobal, ir::MemoryWidth::B32, b.load(Op::LoadConst, ir::MemoryWidth::B64, b.u32(0)), b.load_local(n));
  return f;
}

} // namespace

TEST_CASE("a kernel with jumps across constructs passes spirv-val for Vulkan 1.2", "[spirv]") {
  ir::Function kernel = nested_jumps_kernel();
  ir::run_passes(kernel);
  for (spirv::WarpModel model : {spirv::WarpModel::Emulated, spirv::WarpModel::Subgroup}) {
    const auto module = spirv::emit_compute(kernel, {.warp_model = model});
    const auto messages = spirv::validate(module);
    for (const auto& message : messages) UNSCOPED_INFO(message);
    INFO(spirv::disassemble(module));
    CHECK(messages.empty());
  }
}

TEST_CASE("a module that fails validation is not written", "[spirv]") {
  ir::Function kernel = nested_jumps_kernel();
  std::vector<uint32_t> module = spirv::emit_compute(kernel);
  const auto path = std::filesystem::temp_directory_path() / "kiln_invalid_module.spv";
  std::filesystem::remove(path);
  module.resize(module.size() - 1); // drop OpFunctionEnd
  CHECK_FALSE(spirv::validate(module).empty());
  CHECK_THROWS_AS(spirv::write_validated(path.string(), module, "test kernel"), Error);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("modules start with the SPIR-V 1.5 header and read back as GLSL", "[spirv]") {
  ir::Function kernel = nested_jumps_kernel();
  ir::run_passes(kernel);
  const auto module = spirv::emit_compute(kernel);
  REQUIRE(module.size() > 5);
  CHECK(module[0] == 0x07230203); // magic number (SPIR-V spec 2.3)
  CHECK(module[1] == 0x00010500);
  const std::string glsl = spirv::to_glsl(module);
  CHECK(glsl.find("#version 460") != std::string::npos);
  CHECK(glsl.find("gl_LocalInvocationID") != std::string::npos);
}

namespace {

bool declares(const std::vector<uint32_t>& module, spv::Capability capability) {
  const auto capabilities = spirv::declared_capabilities(module);
  return std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
}

// out[0] = fma(in[0], in[1], in[2]) on f32 (or f64), all of it from guest address 0x1230.
ir::Function fma_kernel(ir::Type type) {
  ir::Function f;
  f.kernel.const_bank_bytes = 16;
  ir::Builder b(f);
  const bool wide = type == ir::Type::F64;
  const ir::MemoryWidth width = wide ? ir::MemoryWidth::B64 : ir::MemoryWidth::B32;
  b.set_guest_address(0x1230);
  const ir::ValueId in = b.load(Op::LoadConst, ir::MemoryWidth::B64, b.u32(0));
  const auto operand = [&](uint64_t k) {
    return b.convert(Op::Bitcast, type, b.load(Op::LoadGlobal, width, b.op(Op::IAdd, in, b.u64(k * (wide ? 8 : 4)))));
  };
  const ir::ValueId x = operand(0), y = operand(1), z = operand(2);
  const ir::ValueId result = b.op(Op::FFma, x, y, z);
  b.store(Op::StoreGlobal, width, b.load(Op::LoadConst, ir::MemoryWidth::B64, b.u32(8)), b.convert(Op::Bitcast, wide ? ir::Type::U64 : ir::Type::U32, result));
  return f;
}

} // namespace

TEST_CASE("f32 FFma needs Float64 only under FMA mode f64, and f64 on a host without it is refused by address", "[spirv][fma]") {
  ir::Function single = fma_kernel(ir::Type::F32);
  ir::run_passes(single);
  const auto exact = spirv::emit_compute(single);
  const auto fused = spirv::emit_compute(single, {.floats = {.fma = spirv::FmaMode::fused}});
  const auto through_f64 = spirv::emit_compute(single, {.floats = {.fma = spirv::FmaMode::exact_f64}});
  for (const auto* module : {&exact, &fused, &through_f64}) CHECK(spirv::validate(*module).empty());
  CHECK_FALSE(declares(exact, spv::Capability::Float64));
  CHECK(declares(exact, spv::Capability::Int64) == declares(fused, spv::Capability::Int64)); // no 64-bit integers added
  CHECK_FALSE(declares(fused, spv::Capability::Float64));
  CHECK(declares(through_f64, spv::Capability::Float64));
  CHECK(spirv::disassemble(fused).find("Fma") != std::string::npos);
  CHECK(spirv::disassemble(exact).find("Fma") == std::string::npos);
  // The integer sequence is what the default costs: far more instructions than one Fma.
  CHECK(exact.size() > fused.size() + 200);

  // Hosts without shaderFloat64: an f32 program still translates; an f64 one names the guest address.
  const spirv::ComputeOptions no_float64{.floats = {.host_float64 = false}};
  CHECK_FALSE(declares(spirv::emit_compute(single, no_float64), spv::Capability::Float64));
  ir::Function wide = fma_kernel(ir::Type::F64);
  ir::run_passes(wide);
  CHECK(declares(spirv::emit_compute(wide), spv::Capability::Float64));
  CHECK_THROWS_WITH(spirv::emit_compute(wide, no_float64), Catch::Contains("0x1230") && Catch::Contains("no shaderFloat64"));
  CHECK_THROWS_WITH(spirv::emit_compute(single, {.floats = {.fma = spirv::FmaMode::exact_f64, .host_float64 = false}}),
                    Catch::Contains("needs shaderFloat64"));
  CHECK(spirv::parse_fma_mode("exact") == spirv::FmaMode::exact_f32);
  CHECK(spirv::parse_fma_mode("fused") == spirv::FmaMode::fused);
  CHECK(spirv::parse_fma_mode("f64") == spirv::FmaMode::exact_f64);
  CHECK_FALSE(spirv::parse_fma_mode("fast").has_value());
}
