// Which registers emitted C++ assigns (recompiler/emit/spill_sets.h): a spill stores only registers that may
// differ from Cpu, so a missed write would lose a guest register. Expectations follow from the C++ forms the
// AArch64 semantics emit (handlers.h write(): `xN = ...`, `sp = ...`; flags passed by reference to helpers).
#include <catch2/catch.hpp>

#include "recompiler/emit/spill_sets.h"

using kiln::emit::flags_bit;
using kiln::emit::RegisterMask;
using kiln::emit::written_registers;

namespace {
RegisterMask x(int index) { return RegisterMask{1} << index; }
} // namespace

TEST_CASE("spill sets: register assignments count as writes") {
  CHECK(written_registers("x5 = (uint64_t)(x3 + 1);") == x(5));
  CHECK(written_registers("x30 = 0x400100ull;") == x(30));
  CHECK(written_registers("sp = (uint64_t)(sp + 0x10ull);") == x(31));
  CHECK(written_registers("{ const uint64_t address = sp + 0x10ull; x19 = (uint64_t)(kiln::rt::load<uint64_t>(m, address)); x20 = 0; }") == (x(19) | x(20)));
}

TEST_CASE("spill sets: reads, comparisons and Cpu slots are not writes") {
  CHECK(written_registers("if (x1 == 0) goto L_400100;") == 0);
  CHECK(written_registers("c->x[3] = x3; c->sp = sp;") == 0);
  CHECK(written_registers("const uint64_t entry_sp_ = sp; kiln::rt::store<uint64_t>(m, sp + 8, x19);") == 0);
  CHECK(written_registers("x31 = 1; xa = 2; max1 = x2;") == 0); // no such registers; `max1` is not x1
}

TEST_CASE("spill sets: flags written by assignment or through a helper") {
  CHECK(written_registers("(void)(kiln::rt::add_flags<uint64_t>(x1, ~x2, 1, n, z, cf, vf));") == flags_bit);
  CHECK(written_registers("{ const uint64_t f = x3; n = (f >> 31) & 1; z = (f >> 30) & 1; cf = (f >> 29) & 1; vf = (f >> 28) & 1; }") == flags_bit);
  CHECK(written_registers("if ((n == vf)) goto L_400100;") == 0);
}
