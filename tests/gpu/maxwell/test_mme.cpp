// The MME: hand-written macros whose effects are derived from the instruction rules, then the interpreter and the
// compiled C++ of 120 random macros run side by side with random parameters, then macros through pushbuffers.
#include <catch2/catch.hpp>

#include <optional>
#include <random>

#include "runtime/gpu/maxwell/engine_3d.h"
#include "runtime/gpu/maxwell/mme/interpreter.h"
#include "runtime/gpu/maxwell/mme/macro_registry.h"
#include "runtime/gpu/maxwell/mme/program.h"
#include "tests/gpu/maxwell/maxwell_test_support.h"
#include "tests/gpu/maxwell/mme_assembler.h"

namespace kiln::maxwell::test {
extern const std::vector<std::vector<uint32_t>> generated_test_macros;
}

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;
using namespace kiln::maxwell::test::mme_asm;

namespace {

struct RecordingHost final : mme::MacroHost {
  std::vector<std::pair<uint32_t, uint32_t>> emitted;
  uint32_t read_state(uint32_t method) override { return method * 2654435761u; }
  void emit(uint32_t method, uint32_t value) override { emitted.emplace_back(method, value); }
};

struct Outcome {
  std::vector<std::pair<uint32_t, uint32_t>> emitted;
  uint64_t missing = 0;
  std::optional<std::string> error;
  bool operator==(const Outcome&) const = default;
};

Outcome interpret(const std::vector<uint32_t>& code, const std::vector<uint32_t>& parameters, uint64_t budget = 1 << 22) {
  RecordingHost host;
  mme::MacroContext context(host, parameters, budget);
  Outcome outcome;
  try {
    mme::interpret(code, 0, context);
  } catch (const kiln::Error& error) {
    outcome.error = error.message();
  }
  outcome.emitted = host.emitted;
  outcome.missing = context.parameters_missing();
  return outcome;
}

Outcome run_compiled(CompiledMacro macro, const std::vector<uint32_t>& parameters) {
  RecordingHost host;
  mme::MacroContext context(host, parameters);
  Outcome outcome;
  try {
    macro(context);
  } catch (const kiln::Error& error) {
    outcome.error = error.message();
  }
  outcome.emitted = host.emitted;
  outcome.missing = context.parameters_missing();
  return outcome;
}

} // namespace

TEST_CASE("MME: a macro emits its parameter to the method it selects", "[maxwell][mme]") {
  const std::vector<uint32_t> code = {add_imm(Assign::move_set_method, 0, 0, 0x48d), // method word 0x48d, increment 0
                                      add_imm(Assign::move_send, 0, 1, 0) | exit_flag, nop()};
  const Outcome outcome = interpret(code, {0xdead});
  CHECK_FALSE(outcome.error);
  CHECK(outcome.emitted == std::vector<std::pair<uint32_t, uint32_t>>{{0x1234, 0xdead}});
}

TEST_CASE("MME: a counted loop with a delay slot and an auto-incrementing method", "[maxwell][mme]") {
  const std::vector<uint32_t> code = {
      add_imm(Assign::move_set_method, 0, 0, 0x1000 | 0x100), // method word 0x100, increment 1
      add_imm(Assign::move, 2, 0, 3),                          // r2 = 3
      add_imm(Assign::move_send, 0, 1, 0),                     // loop: send r1
      add_imm(Assign::fetch, 1, 0, 0),                         // r1 = next parameter
      add_imm(Assign::move, 2, 2, -1),                         // r2 -= 1
      branch(true, false, 2, -3),                              // while r2 != 0, back to the send (delayed)
      add_imm(Assign::move, 3, 3, 1),                          // delay slot: r3 += 1
      add_imm(Assign::move_send, 0, 3, 0) | exit_flag,         // send r3
      nop()};
  // Iterations send 10, 20, 30 to 0x400, 0x404, 0x408; r3 counts the two taken delay slots and the final
  // fall-through, so 3 goes to 0x40c.
  const Outcome outcome = interpret(code, {10, 20, 30, 40});
  CHECK_FALSE(outcome.error);
  CHECK(outcome.emitted ==
        std::vector<std::pair<uint32_t, uint32_t>>{{0x400, 10}, {0x404, 20}, {0x408, 30}, {0x40c, 3}});
  CHECK(outcome.missing == 0);
}

TEST_CASE("MME: ALU carry and borrow, MERGE, BFE_LSL and STATE reads", "[maxwell][mme]") {
  const std::vector<uint32_t> code = {
      add_imm(Assign::move_set_method, 0, 0, 0x1000 | 0x200),
      add_imm(Assign::move, 2, 0, -1),                          // r2 = 0xffffffff
      alu(Assign::move_send, 3, AluOp::add, 2, 2),              // 0xfffffffe, carry
      alu(Assign::move_send, 4, AluOp::add_carry, 0, 0),        // 0 + 0 + carry = 1
      alu(Assign::move_send, 5, AluOp::subtract, 0, 2),         // 0 - 0xffffffff = 1, borrow
      alu(Assign::move_send, 6, AluOp::subtract_borrow, 0, 0),  // 0 - 0 - borrow = 0xffffffff
      add_imm(Assign::fetch, 2, 0, 0),                          // r2 = 0xabcd (second parameter)
      bitfield(2, Assign::move_send, 0, 1, 2, 4, 8, 16),        // MERGE r1 with (r2 >> 4) & 0xff at bit 16
      add_imm(Assign::move, 3, 0, 8),                           // r3 = 8
      bitfield(3, Assign::move_send, 0, 3, 2, 0, 4, 20),        // ((r2 >> r3) & 0xf) << 20 = 0xb00000
      bitfield(4, Assign::move_send, 0, 3, 2, 4, 4, 0),         // ((r2 >> 4) & 0xf) << r3 = 0xc00
      read_state(Assign::move_send, 0, 3, 0x10) | exit_flag,    // STATE[8 + 0x10]
      nop()};
  const Outcome outcome = interpret(code, {0x12345678, 0xabcd});
  CHECK_FALSE(outcome.error);
  const std::vector<std::pair<uint32_t, uint32_t>> expected = {
      {0x800, 0xfffffffe}, {0x804, 1}, {0x808, 1}, {0x80c, 0xffffffff},
      {0x810, 0x12bc5678}, {0x814, 0xb00000}, {0x818, 0xc00}, {0x81c, 0x18 * 2654435761u}};
  CHECK(outcome.emitted == expected);
}

TEST_CASE("MME: no-delay branches skip their next instruction, missing parameters read 0", "[maxwell][mme]") {
  const std::vector<uint32_t> code = {add_imm(Assign::move_set_method, 0, 0, 0x1000 | 0x300),
                                      branch(false, true, 0, 2),              // r0 == 0: taken, no delay slot
                                      add_imm(Assign::move_send, 0, 0, 1),    // skipped
                                      add_imm(Assign::fetch_send, 2, 0, 7),   // send 7, r2 = missing parameter
                                      alu(Assign::move_send, 0, AluOp::bit_or, 2, 2) | exit_flag, nop()};
  const Outcome outcome = interpret(code, {1});
  CHECK_FALSE(outcome.error);
  CHECK(outcome.emitted == std::vector<std::pair<uint32_t, uint32_t>>{{0xc00, 7}, {0xc04, 0}});
  CHECK(outcome.missing == 1);
}

TEST_CASE("MME: macros that never end, branch in a delay slot and running off the code are errors", "[maxwell][mme]") {
  const Outcome forever = interpret({branch(false, true, 0, 0), nop() | exit_flag, nop()}, {0}, 1000);
  REQUIRE(forever.error);
  CHECK(forever.error->find("never ends") != std::string::npos);
  const Outcome delay = interpret({branch(false, false, 0, 2), branch(false, false, 0, 1), nop() | exit_flag, nop()}, {0});
  REQUIRE(delay.error);
  CHECK(delay.error->find("delay slot") != std::string::npos);
  const Outcome off = interpret({nop(), nop()}, {0});
  REQUIRE(off.error);
  CHECK(off.error->find("past the end") != std::string::npos);
}

TEST_CASE("MME: a macro's extent ends at the exit no forward branch passes", "[maxwell][mme]") {
  const std::vector<uint32_t> code = {branch(false, false, 0, 3), nop() | exit_flag, nop(), nop(), nop() | exit_flag, nop(), nop()};
  CHECK(mme::macro_length(code, 0) == 6u);  // the branch to 3 passes the first exit
  CHECK(mme::macro_length(code, 1) == 2u);
  CHECK_FALSE(mme::macro_length(std::vector<uint32_t>{nop(), nop()}, 0).has_value());
}

TEST_CASE("MME: compiled macros behave exactly like the interpreter on random macros and parameters",
          "[maxwell][mme]") {
  REQUIRE(generated_test_macros.size() == 120);
  std::mt19937 random(7);
  size_t compared = 0, errors = 0;
  for (const auto& macro : generated_test_macros) {
    const CompiledMacro compiled = MacroRegistry::global().find(mme::macro_hash(macro));
    REQUIRE(compiled != nullptr); // every random macro is compilable by construction
    for (int run = 0; run < 8; ++run) {
      std::vector<uint32_t> parameters(1 + random() % 12);
      for (uint32_t& parameter : parameters) parameter = static_cast<uint32_t>(random());
      const Outcome interpreted = interpret(macro, parameters);
      const Outcome native = run_compiled(compiled, parameters);
      INFO("macro " << compared / 8 << " run " << run);
      REQUIRE(native == interpreted);
      errors += interpreted.error.has_value();
      ++compared;
    }
  }
  CHECK(compared == 960);
  CHECK(errors * 4 < compared); // most runs complete (errors come from branches in delay slots)
}

TEST_CASE("MME through the pushbuffer: upload, call, native when registered, interpreted otherwise",
          "[maxwell][mme]") {
  const std::vector<uint32_t>& macro = generated_test_macros[3];
  auto run_with = [&](const MacroRegistry* registry, uint64_t& native, uint64_t& interpreted) {
    TestGpu t;
    t.gpu.set_macro_registry(registry);
    StreamBuilder s;
    s.bind(0, ClassId::threed);
    s.upload_macro(0, 5, 0x40, macro);
    const uint32_t parameters[] = {3, 0x1111, 0x2222, 0x3333};
    s.call_macro(0, 5, parameters);
    t.submit(s);
    t.run();
    native = t.gpu.macros_native;
    interpreted = t.gpu.macros_interpreted;
    auto registers = t.engine(0, ClassId::threed)->registers();
    return std::make_pair(registers, t.gpu.diagnostics().size());
  };
  MacroRegistry empty;
  uint64_t native_a = 0, interpreted_a = 0, native_b = 0, interpreted_b = 0;
  const auto with_native = run_with(&MacroRegistry::global(), native_a, interpreted_a);
  const auto without = run_with(&empty, native_b, interpreted_b);
  CHECK(native_a == 1);
  CHECK(interpreted_a == 0);
  CHECK(native_b == 0);
  CHECK(interpreted_b == 1);
  CHECK(with_native == without);
}

TEST_CASE("MME through the pushbuffer: a macro's methods reach the 3D class", "[maxwell][mme]") {
  TestGpu t;
  // Writes parameter 1 to SET_STENCIL_CLEAR_VALUE (0x0da0, word 0x368) and parameter 2 to SET_Z_CLEAR_VALUE.
  const std::vector<uint32_t> macro = {add_imm(Assign::move_set_method, 0, 0, 0x368),
                                       add_imm(Assign::move_send, 0, 1, 0),
                                       add_imm(Assign::move_set_method, 0, 0, 0x364),
                                       add_imm(Assign::fetch_send, 0, 0, 0),      // sends 0? no: sends r0+0 = 0
                                       add_imm(Assign::fetch, 2, 0, 0),
                                       add_imm(Assign::move_send, 0, 2, 0) | exit_flag, nop()};
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.upload_macro(0, 0, 0, macro);
  const uint32_t parameters[] = {0x77, 0x88, 0x99};
  s.call_macro(0, 0, parameters);
  t.submit(s);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.diagnostics().empty());
  CHECK(t.engine(0, ClassId::threed)->reg(0x0da0) == 0x77);
  // 0x0d90 got 0 (the FETCH_EMIT sent its ALU result, r0 + 0) and then parameter 3 (0x99); parameter 2 went to r0.
  CHECK(t.engine(0, ClassId::threed)->reg(0x0d90) == 0x99);
}
