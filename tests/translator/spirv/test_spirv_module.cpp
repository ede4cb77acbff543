// The SPIR-V backend's modules pass spirv-val (Vulkan 1.2), invalid ones are never written, GLSL comes out.
#include <catch2/catch.hpp>

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
