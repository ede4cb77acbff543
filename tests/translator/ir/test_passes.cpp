// Verifier, constant folding and dead-code elimination on small hand-built functions.
#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "translator/ir/builder.h"
#include "translator/ir/passes.h"
#include "translator/ir/reference.h"
#include "translator/ir/verifier.h"

using namespace kiln::ir;

namespace {
size_t count_nodes(const Block& block) {
  size_t count = 0;
  for (const Node& node : block.nodes) {
    ++count;
    if (node.body) count += count_nodes(*node.body);
    if (node.else_body) count += count_nodes(*node.else_body);
  }
  return count;
}
} // namespace

TEST_CASE("the verifier rejects use outside the defining construct, bad types and stray jumps", "[ir]") {
  SECTION("a value defined in a branch is not visible after it") {
    Function f;
    Builder b(f);
    ValueId inner = no_value;
    b.if_then(b.boolean(true), [&] { inner = b.u32(1); });
    b.store(Op::StoreGlobal, MemoryWidth::B32, b.u64(0), inner);
    CHECK_THROWS_WITH(verify(f, "test"), Catch::Contains("not defined"));
  }
  SECTION("operand types must match the signature") {
    Function f;
    Builder b(f);
    b.emit(Op::IAdd, Type::U32, {b.u32(1), b.u64(2)});
    CHECK_THROWS_WITH(verify(f, "test"), Catch::Contains("needs (I, I) -> I"));
  }
  SECTION("continue must target an enclosing loop") {
    Function f;
    Builder b(f);
    b.block_construct([&](uint32_t label) { b.continue_to(label); });
    CHECK_THROWS_WITH(verify(f, "test"), Catch::Contains("not a loop"));
  }
  SECTION("a jump ends its block") {
    Function f;
    Builder b(f);
    b.loop([&](uint32_t label) {
      b.break_to(label);
      b.u32(3);
    });
    CHECK_THROWS_WITH(verify(f, "test"), Catch::Contains("not the last node"));
  }
  SECTION("a well-formed function passes") {
    Function f;
    Builder b(f);
    const uint32_t local = b.add_local(Type::U32);
    b.store_local(local, b.u32(0));
    b.loop([&](uint32_t label) {
      const ValueId value = b.op(Op::IAdd, b.load_local(local), b.u32(1));
      b.store_local(local, value);
      b.if_then(b.op(Op::UGe, value, b.u32(10)), [&] { b.break_to(label); });
    });
    CHECK_NOTHROW(verify(f, "test"));
  }
}

TEST_CASE("constant folding evaluates through the CPU reference and forwards locals", "[ir]") {
  Function f;
  Builder b(f);
  const uint32_t local = b.add_local(Type::U32);
  b.store_local(local, b.u32(0xfffffff0));
  const ValueId shifted = b.op(Op::LShr, b.load_local(local), b.u32(4));
  const ValueId product = b.op(Op::UMulHi, shifted, b.u32(0x100));
  b.store(Op::StoreGlobal, MemoryWidth::B32, b.u64(0x1000), product);
  run_passes(f);
  const Inst& stored = f.insts[f.insts[f.body.nodes.back().value].args[1]];
  REQUIRE(stored.op == Op::Const);
  // Independent of the folder: 0xfffffff0 >> 4 = 0x0fffffff; 0x0fffffff * 0x100 = 0xfffffff00, high word 0xf.
  CHECK(stored.immediate == 0xf);
  // Only the constants feeding the store and the store remain.
  CHECK(count_nodes(f.body) == 3);
}

TEST_CASE("folding does not forward a local across a loop that stores it", "[ir]") {
  Function f;
  Builder b(f);
  const uint32_t counter = b.add_local(Type::U32);
  b.store_local(counter, b.u32(0));
  b.loop([&](uint32_t label) {
    const ValueId next = b.op(Op::IAdd, b.load_local(counter), b.u32(1));
    b.store_local(counter, next);
    b.if_then(b.op(Op::IEq, next, b.u32(5)), [&] { b.break_to(label); });
  });
  b.store(Op::StoreGlobal, MemoryWidth::B32, b.u64(0), b.load_local(counter));
  run_passes(f);
  const Inst& stored = f.insts[f.insts[f.body.nodes.back().value].args[1]];
  CHECK(stored.op == Op::LocalLoad); // 5 at run time, but not a constant the folder may assume
}

TEST_CASE("dead-code elimination keeps side effects and removes what nothing uses", "[ir]") {
  Function f;
  Builder b(f);
  const uint32_t unused_local = b.add_local(Type::U32);
  const ValueId address = b.u64(64);
  const ValueId loaded = b.load(Op::LoadGlobal, MemoryWidth::B32, address);
  b.op(Op::IAdd, loaded, b.emit(Op::ThreadIdX, Type::U32, {})); // unused chain
  b.store_local(unused_local, loaded);                           // never loaded
  b.if_then(b.boolean(false), [] {});                             // empty construct
  b.emit(Op::Barrier, Type::Void, {});
  const size_t removed = eliminate_dead_code(f);
  verify(f, "dead-code elimination");
  CHECK(removed >= 5);
  REQUIRE(f.body.nodes.size() == 1);
  CHECK(f.insts[f.body.nodes[0].value].op == Op::Barrier);
}

TEST_CASE("the printer shows constructs and labels", "[ir]") {
  Function f;
  Builder b(f);
  b.loop([&](uint32_t label) { b.break_to(label); });
  const std::string text = to_string(f);
  CHECK(text.find("loop L1 {") != std::string::npos);
  CHECK(text.find("break L1") != std::string::npos);
}
