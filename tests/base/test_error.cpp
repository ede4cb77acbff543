#include <catch2/catch.hpp>

#include "runtime/base/error.h"

using namespace kiln;

TEST_CASE("errors print the known parts of their location once", "[error]") {
  CHECK(Error("plain").what() == std::string("plain"));
  CHECK(Error({"a.elf", 0x40, std::nullopt}, "bad magic").what() == std::string("a.elf: offset 0x40: bad magic"));
  CHECK(Error({"a.elf", std::nullopt, 0x400000}, "unknown instruction").what() ==
        std::string("a.elf: address 0x400000: unknown instruction"));
  Error e({"s.cubin", 0x10, 0x80}, "x");
  CHECK(e.message() == "x");
  CHECK(e.location().address == 0x80u);
}
