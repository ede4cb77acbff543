// Every Maxwell and Pascal program of the nvidia-headsurface corpus decodes, re-assembles bit for bit, and
// the two architectures' compiles agree.
#include <iostream>
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "tests/translator/sm5x/corpus.h"
#include "translator/sass/sm5x/program.h"

namespace kiln::sass::sm5x::test {
namespace {

TEST_CASE("sm5x: every corpus instruction decodes", "[sm5x][corpus]") {
  for (const std::string architecture : {"maxwell", "pascal"}) {
    size_t instructions = 0;
    size_t programs = 0;
    std::map<std::string, size_t> histogram;
    for (const CorpusProgram& source : corpus(architecture)) {
      INFO(source.file);
      Program program;
      try {
        program = decode_program(source.bytes, source.file);
      } catch (const Error& error) {
        FAIL(error.what());
      }
      CHECK(!program.instructions.empty());
      instructions += program.instructions.size();
      ++programs;
      for (const Instruction& instruction : program.instructions) ++histogram[std::string(opcode_name(instruction.opcode))];
    }
    std::cout << "sm5x corpus " << architecture << ": " << programs << " programs, " << instructions
              << " instructions decoded;";
    for (const auto& [name, count] : histogram) std::cout << ' ' << name << '=' << count;
    std::cout << '\n';
    CHECK(programs == 34);
  }
}

} // namespace
} // namespace kiln::sass::sm5x::test

namespace kiln::sass::sm5x::test {
namespace {

TEST_CASE("sm5x: decode then assemble reproduces every corpus word", "[sm5x][corpus]") {
  for (const std::string architecture : {"maxwell", "pascal"}) {
    size_t words = 0;
    for (const CorpusProgram& source : corpus(architecture)) {
      INFO(source.file);
      const Program program = decode_program(source.bytes, source.file);
      const std::vector<uint64_t> rebuilt = assemble_code(program);
      REQUIRE(rebuilt.size() == program.words.size());
      for (size_t i = 0; i < rebuilt.size(); ++i) {
        INFO("word " << i);
        CHECK(rebuilt[i] == program.words[i]);
      }
      words += rebuilt.size();
    }
    std::cout << "sm5x corpus " << architecture << ": " << words
              << " code words (control words, instructions, padding) re-assembled\n";
  }
}

bool ends_block(Opcode opcode) {
  switch (opcode) {
  case Opcode::bra: case Opcode::brx: case Opcode::sync: case Opcode::brk: case Opcode::cont: case Opcode::exit:
  case Opcode::kil: return true;
  default: return false;
  }
}

// What "the same program modulo scheduling" means here: both compiles have the same instructions at the same
// control-flow positions (every BRA/BRX/SYNC/BRK/CONT/EXIT/KIL at the same address with the same text; SSY, PBK
// and PCNT only push a reconvergence address and may move like any other instruction), and between two
// such instructions the same multiset of instruction texts (registers, constants and modifiers included); only
// the order inside those straight-line runs and the control words may differ.
TEST_CASE("sm5x: Maxwell and Pascal compiles agree modulo scheduling", "[sm5x][corpus]") {
  const auto& maxwell = corpus("maxwell");
  const auto& pascal = corpus("pascal");
  size_t identical = 0;
  size_t reordered = 0;
  size_t moved = 0;
  for (size_t p = 0; p < maxwell.size(); ++p) {
    INFO(maxwell[p].name);
    REQUIRE(maxwell[p].name == pascal[p].name);
    const Program a = decode_program(maxwell[p].bytes, maxwell[p].file);
    const Program b = decode_program(pascal[p].bytes, pascal[p].file);
    REQUIRE(a.instructions.size() == b.instructions.size());
    std::multiset<std::string> run_a;
    std::multiset<std::string> run_b;
    bool same_order = true;
    for (size_t i = 0; i < a.instructions.size(); ++i) {
      const std::string text_a = disassemble(a.instructions[i]);
      const std::string text_b = disassemble(b.instructions[i]);
      same_order = same_order && text_a == text_b;
      moved += text_a != text_b;
      REQUIRE(ends_block(a.instructions[i].opcode) == ends_block(b.instructions[i].opcode));
      if (ends_block(a.instructions[i].opcode)) {
        CHECK(run_a == run_b);
        CHECK(text_a == text_b);
        run_a.clear();
        run_b.clear();
      } else {
        run_a.insert(text_a);
        run_b.insert(text_b);
      }
    }
    CHECK(run_a == run_b);
    (same_order ? identical : reordered) += 1;
  }
  std::cout << "sm5x maxwell vs pascal: " << identical << " programs with identical instruction sequences, "
            << reordered << " reordered within straight-line runs (" << moved << " instruction slots differ)\n";
  CHECK(identical + reordered == 34);
}

} // namespace
} // namespace kiln::sass::sm5x::test
