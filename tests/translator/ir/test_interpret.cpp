// The IR interpreter: structured control flow, locals, stage inputs/outputs and constant banks, with results
// worked out by hand.
#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "translator/ir/builder.h"
#include "translator/ir/interpret.h"

using namespace kiln::ir;

TEST_CASE("IR interpreter runs a loop with continue and break", "[ir]") {
  // sum = 0; i = 0; loop { i += 1; if (i == 3) continue; sum += i; if (i == 5) break; } -> 1 + 2 + 4 + 5 = 12
  Function f;
  Builder b(f);
  const uint32_t sum = b.add_local(Type::U32), i = b.add_local(Type::U32);
  b.store_local(sum, b.u32(0));
  b.store_local(i, b.u32(0));
  b.loop([&](uint32_t label) {
    b.store_local(i, b.op(Op::IAdd, b.load_local(i), b.u32(1)));
    b.if_then(b.op(Op::IEq, b.load_local(i), b.u32(3)), [&] { b.continue_to(label); });
    b.store_local(sum, b.op(Op::IAdd, b.load_local(sum), b.load_local(i)));
    b.if_then(b.op(Op::IEq, b.load_local(i), b.u32(5)), [&] { b.break_to(label); });
    b.continue_to(label);
  });
  b.emit(Op::StoreAttribute, Type::Void, {b.load_local(sum)}, 7);
  const InterpretResult result = interpret(f, {});
  CHECK(result.outputs.at(7) == 12);
  CHECK_FALSE(result.demoted);
}

TEST_CASE("IR interpreter reads inputs and banks and demotes", "[ir]") {
  Function f;
  Builder b(f);
  const ValueId x = b.emit(Op::LoadAttribute, Type::U32, {}, 0x84);
  const ValueId k = b.emit(Op::LoadConstBank, Type::U32, {b.u32(8)}, 2);
  b.emit(Op::StoreAttribute, Type::Void, {b.op(Op::IMul, x, k)}, 0);
  b.if_then(b.op(Op::UGt, x, b.u32(10)), [&] { b.emit(Op::Demote, Type::Void, {}); });
  InterpretEnvironment env;
  uint32_t input = 3;
  env.attribute = [&](uint32_t address) { return address == 0x84 ? input : 0u; };
  env.const_bank = [](uint32_t bank, uint32_t offset) { return bank == 2 && offset == 8 ? 7u : 0u; };
  CHECK(interpret(f, env).outputs.at(0) == 21);
  input = 11;
  const InterpretResult discarded = interpret(f, env);
  CHECK(discarded.demoted);
  CHECK(discarded.outputs.empty());
}

TEST_CASE("IR interpreter stops a runaway loop and refuses memory ops", "[ir]") {
  Function f;
  Builder b(f);
  b.loop([&](uint32_t label) { b.continue_to(label); });
  InterpretEnvironment env;
  env.step_limit = 1000;
  CHECK_THROWS_WITH(interpret(f, env), Catch::Contains("more than 1000 steps"));

  Function g;
  Builder c(g);
  c.load(Op::LoadGlobal, MemoryWidth::B32, c.u64(0x1000));
  CHECK_THROWS_WITH(interpret(g, {}), Catch::Contains("LoadGlobal"));
}
