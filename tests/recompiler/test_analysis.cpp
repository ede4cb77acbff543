#include <catch2/catch.hpp>

#include "recompiler/analysis/program.h"
#include "runtime/base/file_writer.h"

TEST_CASE("analysis finds functions from entry, symbols and code pointers in data", "[analysis]") {
  const std::string path = std::string(KILN_SOURCE_DIR) + "/tests/recompiler/fixtures/tiny.elf";
  const auto bytes = kiln::read_file(path);
  const kiln::elf::ElfFile elf(bytes, path);
  const kiln::a64::Decoder decoder;
  const kiln::analysis::Program program(elf, decoder);
  const auto* start = program.function_at(0x400134);
  REQUIRE(start);
  CHECK(start->name == "_start");
  const auto* classify = program.function_at(0x400120); // reached only through a pointer in .data
  REQUIRE(classify);
  CHECK(classify->end == 0x400134);
  // `blr x1` in _start is the one indirect branch; it is a call, so nothing is unresolved.
  CHECK(program.unresolved_indirect_branches().empty());
}
