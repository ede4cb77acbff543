// Shapes the structurizer produces for small CFGs, and the error for irreducible control flow.
#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "translator/ir/builder.h"
#include "translator/ir/structurize.h"
#include "translator/ir/verifier.h"

using namespace kiln::ir;

namespace {
CfgBlock jump(uint32_t target) { return CfgBlock{.exit = CfgBlock::Exit::Jump, .target = target}; }
CfgBlock ret() { return CfgBlock{.exit = CfgBlock::Exit::Return}; }
CfgBlock branch(ValueId condition, uint32_t taken, uint32_t not_taken) {
  return CfgBlock{.exit = CfgBlock::Exit::Branch, .condition = condition, .target = taken, .fallthrough = not_taken};
}
template <typename... Blocks>
std::vector<CfgBlock> blocks_of(Blocks... blocks) {
  std::vector<CfgBlock> result;
  (result.push_back(std::move(blocks)), ...);
  return result;
}
} // namespace

TEST_CASE("a diamond becomes a block construct with breaks to its merge", "[ir]") {
  Function f;
  Builder b(f);
  Block scratch;
  b.set_block(&scratch);
  const ValueId condition = b.boolean(true);
  std::vector<CfgBlock> blocks = blocks_of(branch(condition, 1, 2), jump(3), jump(3), ret());
  blocks[0].body = std::move(scratch.nodes);
  structurize(f, std::move(blocks), "diamond");
  verify(f, "structurize");
  const std::string text = to_string(f);
  INFO(text);
  CHECK(text.find("block L1 {") != std::string::npos);
  CHECK(text.find("break L1") != std::string::npos);
  CHECK(text.find("loop") == std::string::npos);
}

TEST_CASE("a back edge becomes a loop with continue, its exit a break", "[ir]") {
  Function f;
  Builder b(f);
  Block scratch;
  b.set_block(&scratch);
  const ValueId condition = b.boolean(true);
  // 0 -> 1; 1: if c goto 1 else 2; 2: return
  std::vector<CfgBlock> blocks = blocks_of(jump(1), branch(condition, 1, 2), ret());
  blocks[1].body = std::move(scratch.nodes);
  structurize(f, std::move(blocks), "loop");
  verify(f, "structurize");
  const std::string text = to_string(f);
  INFO(text);
  CHECK(text.find("loop L1 {") != std::string::npos);
  CHECK(text.find("continue L1") != std::string::npos);
}

TEST_CASE("a loop entered in two places is reported as irreducible, with the guest address", "[ir]") {
  Function f;
  Builder b(f);
  Block scratch;
  b.set_block(&scratch);
  const ValueId condition = b.boolean(true);
  std::vector<CfgBlock> blocks = blocks_of(branch(condition, 1, 2), jump(2), jump(1));
  blocks[0].body = std::move(scratch.nodes);
  for (size_t i = 0; i < blocks.size(); ++i) blocks[i].guest_address = 0x100 + i * 0x10;
  CHECK_THROWS_WITH(structurize(f, std::move(blocks), "kernel.cubin"),
                    Catch::Contains("irreducible") && Catch::Contains("kernel.cubin"));
}
