// Integer, CR, branch and system semantics against the PEM's definitions (chapter 8, each instruction) and the
// 750CL UM where the 750CL decides what the architecture leaves open.
#include <catch2/catch.hpp>

#include "tests/ppc/test_bus.h"

using namespace kiln::ppc;
using test::run;

TEST_CASE("ppc semantics: every opcode runs from a reset state", "[ppc][semantics]") {
  for (const Encoding& row : encodings()) {
    Cpu c = test::gekko();
    test::Bus bus;
    c.pc = 0x100;
    for (auto& r : c.gpr) r = 0x200;
    INFO(row.mnemonic);
    uint32_t word = row.match;
    if (row.opcode == Opcode::lmw || row.opcode == Opcode::stmw) word |= 5u << 21 | 1u << 16;
    if (valid_form(row, word)) CHECK_NOTHROW(step(c, bus, row.opcode, word));
  }
}
