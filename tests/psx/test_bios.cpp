// The BIOS calls answered in C++ (runtime/platform/psx/bios_hle.cpp), through the jump a program makes: PC at
// A0h/B0h/C0h, the function number in $t1, arguments in $a0..$a3 and on the stack from $sp+10h.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "runtime/platform/psx/machine.h"

using kiln::psx::Machine;

namespace {

constexpr unsigned a0 = 4, a1 = 5, a2 = 6, a3 = 7, v0 = 2, t1 = 9, sp = 29, ra = 31;

struct Fixture {
  std::string printed;
  Machine m{Machine::Options{0, {}, {}, [this](std::string_view s) { printed += s; }}};
  uint32_t call(uint32_t vector, uint32_t number, uint32_t x = 0, uint32_t y = 0, uint32_t z = 0, uint32_t w = 0) {
    m.cpu.gpr[t1] = number;
    m.cpu.gpr[a0] = x;
    m.cpu.gpr[a1] = y;
    m.cpu.gpr[a2] = z;
    m.cpu.gpr[a3] = w;
    m.cpu.gpr[ra] = 0x80010108u;
    m.cpu.gpr[sp] = 0x801FFF00u;
    REQUIRE(m.enter_hle(vector));
    CHECK(m.cpu.pc == 0x80010108u); // back to $ra
    return m.cpu.gpr[v0];
  }
  void put_string(uint32_t address, std::string_view s) {
    for (size_t i = 0; i <= s.size(); ++i) m.write8(address + static_cast<uint32_t>(i), i < s.size() ? s[i] : 0);
  }
};

} // namespace

TEST_CASE("psx BIOS printf formats from registers then the stack", "[psx]") {
  Fixture f;
  f.put_string(0x80020000u, "%d|%5u|%-3x|%04X|%c|%s|%%|%i|%x|%3s|%.2s\n");
  f.put_string(0x80020100u, "str");
  // o32 varargs: the format is argument 0 in $a0; arguments 1-3 in $a1..$a3; argument k >= 4 at $sp + 4k.
  f.m.write32(0x801FFF00u + 0x10, 0x5A);
  f.m.write32(0x801FFF00u + 0x14, 'q');
  f.m.write32(0x801FFF00u + 0x18, 0x80020100u);
  f.m.write32(0x801FFF00u + 0x1C, static_cast<uint32_t>(-7));
  f.m.write32(0x801FFF00u + 0x20, 0xDEADBEEFu);
  f.m.write32(0x801FFF00u + 0x24, 0x80020100u);
  f.m.write32(0x801FFF00u + 0x28, 0x80020100u);
  const uint32_t n = f.call(0xA0, 0x3F, 0x80020000u, static_cast<uint32_t>(-12), 42, 0xAB);
  CHECK(f.printed == "-12|   42|ab |005A|q|str|%|-7|deadbeef|str|st\n");
  CHECK(n == f.printed.size());
}

TEST_CASE("psx BIOS puts and putchar print without adding a newline", "[psx]") {
  Fixture f;
  f.put_string(0x80020000u, "abc");
  f.call(0xB0, 0x3F, 0x80020000u);
  f.call(0xA0, 0x3C, 'x');
  f.call(0xB0, 0x3D, '\n');
  f.call(0xA0, 0x3E, 0); // a null pointer prints <NULL> (psx-spx)
  CHECK(f.printed == "abcx\n<NULL>");
}

TEST_CASE("psx BIOS memory and string functions", "[psx]") {
  Fixture f;
  f.put_string(0x80020000u, "hello");
  CHECK(f.call(0xA0, 0x1B, 0x80020000u) == 5);                         // strlen
  CHECK(f.call(0xA0, 0x2A, 0x80020100u, 0x80020000u, 6) == 0x80020100u); // memcpy returns dst
  CHECK(f.call(0xA0, 0x17, 0x80020100u, 0x80020000u) == 0);             // strcmp equal
  CHECK(f.call(0xA0, 0x2B, 0x80020100u, 'z', 3) == 0x80020100u);        // memset
  CHECK(f.m.read32(0x80020100u) == 0x6C7A7A7Au);                        // "zzzl"
  CHECK(static_cast<int32_t>(f.call(0xA0, 0x17, 0x80020000u, 0x80020100u)) < 0); // 'h' < 'z'
  CHECK(f.call(0xA0, 0x1E, 0x80020000u, 'l') == 0x80020002u);           // strchr
  CHECK(f.call(0xA0, 0x1F, 0x80020000u, 'l') == 0x80020003u);           // strrchr
  f.put_string(0x80020200u, "  -123x");
  CHECK(f.call(0xA0, 0x10, 0x80020200u) == static_cast<uint32_t>(-123)); // atoi
}

TEST_CASE("psx BIOS heap allocates inside InitHeap's area and reuses freed blocks", "[psx]") {
  Fixture f;
  f.call(0xA0, 0x39, 0x80100000u, 0x1000); // InitHeap
  const uint32_t a = f.call(0xA0, 0x33, 100);
  const uint32_t b = f.call(0xA0, 0x33, 16);
  CHECK(a == 0x80100000u);
  CHECK(b == 0x80100000u + 104); // 100 rounded up to 8
  f.call(0xA0, 0x34, a);
  CHECK(f.call(0xA0, 0x33, 64) == a); // first fit reuses the freed block
  CHECK(f.call(0xA0, 0x33, 0x2000) == 0); // does not fit
  const uint32_t c = f.call(0xA0, 0x37, 4, 4); // calloc: zeroed
  f.m.write32(c, 0);
  CHECK(c != 0);
}

TEST_CASE("psx BIOS exit stops the program with its code", "[psx]") {
  Fixture f;
  f.m.cpu.gpr[t1] = 0x06;
  f.m.cpu.gpr[a0] = 3;
  try {
    f.m.enter_hle(0xA0);
    FAIL("exit() returned");
  } catch (const kiln::psx::ProgramStop& stop) {
    CHECK(stop.exit_code == 3);
  }
  f.m.cpu.gpr[v0] = 9;
  try {
    f.m.enter_hle(kiln::psx::exit_address);
    FAIL("returning from the entry point did not stop");
  } catch (const kiln::psx::ProgramStop& stop) {
    CHECK(stop.exit_code == 9);
  }
}

TEST_CASE("psx BIOS unknown calls answer 0 and are not fatal", "[psx]") {
  Fixture f;
  f.m.cpu.gpr[v0] = 1234;
  CHECK(f.call(0xC0, 0x7F) == 0);
  CHECK(f.call(0xB0, 0xF0) == 0);
}

TEST_CASE("psx BIOS VBLANK events: TestEvent and WaitEvent reach the next frame", "[psx]") {
  Fixture f;
  const uint32_t handle = f.call(0xB0, 0x08, 0xF2000003u, 2, 0x1000, 0); // OpenEvent(RCnt3, interrupt, ...)
  CHECK(handle == 0xF1000000u);
  f.call(0xB0, 0x0C, handle);                                             // EnableEvent
  CHECK(f.call(0xB0, 0x0B, handle) == 1);                                 // TestEvent
  CHECK(f.m.frames() == 1);
  CHECK(f.call(0xB0, 0x0A, handle) == 1);                                 // WaitEvent
  CHECK(f.m.frames() == 2);
  const uint32_t other = f.call(0xB0, 0x08, 0xF0000009u, 0x20, 0x2000, 0);
  CHECK(f.call(0xB0, 0x0B, other) == 0);                                  // nothing delivered
  f.call(0xB0, 0x07, 0xF0000009u, 0x20);                                  // DeliverEvent
  CHECK(f.call(0xB0, 0x0B, other) == 1);
}

TEST_CASE("psx BIOS VBLANK events: mode 2000h marks ready, mode 1000h runs the handler with state restored", "[psx]") {
  Fixture f;
  const uint32_t ready = f.call(0xB0, 0x08, 0xF2000003u, 2, 0x2000, 0);
  const uint32_t callback = f.call(0xB0, 0x08, 0xF2000003u, 2, 0x1000, 0x80012340u);
  f.call(0xB0, 0x0C, ready);
  f.call(0xB0, 0x0C, callback);
  std::vector<uint32_t> ran;
  f.m.run_callback = [&](Machine& m) {
    ran.push_back(m.cpu.pc);
    CHECK(m.cpu.gpr[ra] == kiln::psx::callback_return_address);
    CHECK(m.cpu.gpr[sp] == 0x801FFF00u - 0x100);
    m.cpu.gpr[16] = 0xBAD;                           // the handler clobbers a register ...
    m.cpu.pc = kiln::psx::callback_return_address;
  };
  f.m.cpu.gpr[16] = 0x5555;
  f.m.vblank();
  CHECK(ran == std::vector<uint32_t>{0x80012340u});
  CHECK(f.m.cpu.gpr[16] == 0x5555);                  // ... which the BIOS restores
  CHECK(f.m.cpu.pc == 0x80010108u);
  CHECK(f.call(0xB0, 0x0B, ready) == 1);             // already ready: no new frame
  CHECK(f.m.frames() == 1);
}

TEST_CASE("psx BIOS interrupt chains: SysEnqIntRP elements run by priority when the CPU takes the VBLANK IRQ", "[psx]") {
  Fixture f;
  // Elements {+0 next, +4 handler, +8 verifier, +C 0} (psx-spx "BIOS Interrupt/Exception Handling").
  constexpr uint32_t a = 0x80030000u, b = 0x80030010u, c = 0x80030020u;
  constexpr uint32_t verify_a = 0x80013000u, handle_a = 0x80013100u, verify_b = 0x80013200u, verify_c = 0x80013300u,
                     handle_c = 0x80013400u;
  f.m.write32(a + 4, handle_a);
  f.m.write32(a + 8, verify_a);
  f.m.write32(b + 4, 0); // a verifier without a handler
  f.m.write32(b + 8, verify_b);
  f.m.write32(c + 4, handle_c);
  f.m.write32(c + 8, verify_c);
  CHECK(f.call(0xC0, 0x02, 0, a) == 1);
  CHECK(f.call(0xC0, 0x02, 0, b) == 1); // queued in front of a
  CHECK(f.call(0xC0, 0x02, 1, c) == 1);
  CHECK(f.m.read32(b) == a);
  CHECK(f.m.read32(a) == 0);

  std::vector<std::pair<uint32_t, uint32_t>> ran; // (address, $a0)
  const std::map<uint32_t, uint32_t> returns{{verify_a, 0x77}, {verify_b, 5}, {verify_c, 0}};
  f.m.run_callback = [&](Machine& m) {
    ran.emplace_back(m.cpu.pc, m.cpu.gpr[a0]);
    const auto r = returns.find(m.cpu.pc);
    m.cpu.gpr[v0] = r == returns.end() ? 0xBAD : r->second;
    m.cpu.pc = kiln::psx::callback_return_address;
  };
  f.m.io.i_mask = 1;
  f.m.vblank(); // Status.IEc is clear: the CPU does not take the interrupt
  CHECK(ran.empty());

  f.m.cpu.cop0[kiln::r3000::cop0::status] = 1u | (1u << 10);
  f.m.cpu.gpr[a0] = 0x1234;
  f.m.vblank();
  using Calls = std::vector<std::pair<uint32_t, uint32_t>>;
  // Priority 0 from its head (b, then a), then priority 1; a handler gets its verifier's result in $a0; c's
  // verifier answers 0, so its handler does not run.
  CHECK(ran == Calls{{verify_b, 0}, {verify_a, 0}, {handle_a, 0x77}, {verify_c, 0}});
  CHECK(f.m.cpu.gpr[a0] == 0x1234); // the interrupted code's registers are back

  // ReturnFromException in a handler resumes the interrupted code: the rest of the walk is skipped.
  ran.clear();
  f.m.run_callback = [&](Machine& m) {
    ran.emplace_back(m.cpu.pc, m.cpu.gpr[a0]);
    m.cpu.gpr[v0] = m.cpu.pc == verify_a ? 1 : 0;
    if (m.cpu.pc == handle_a) {
      m.cpu.gpr[t1] = 0x17;
      m.enter_hle(0xB0);
    }
    m.cpu.pc = kiln::psx::callback_return_address;
  };
  f.m.vblank();
  CHECK(ran == Calls{{verify_b, 0}, {verify_a, 0}, {handle_a, 1}});
  CHECK(f.m.cpu.pc == 0x80010108u);

  // SysDeqIntRP unlinks an element wherever it is; an element that is not queued is answered with 0.
  CHECK(f.call(0xC0, 0x03, 0, a) == a);
  CHECK(f.m.read32(b) == 0);
  CHECK(f.call(0xC0, 0x03, 0, a) == 0);
  ran.clear();
  f.m.vblank();
  CHECK(ran == Calls{{verify_b, 0}, {verify_c, 0}});
}

TEST_CASE("psx SYSCALL EnterCriticalSection and ExitCriticalSection", "[psx]") {
  Fixture f;
  auto syscall = [&](uint32_t function) {
    f.m.cpu.gpr[a0] = function;
    kiln::r3000::raise_exception(f.m.cpu, kiln::r3000::ExceptionCode::syscall, 0x0000000Cu, 0x80010010u);
    f.m.handle_exception(0x80010010u);
    CHECK(f.m.cpu.pc == 0x80010014u);
    return f.m.cpu.gpr[v0];
  };
  f.m.cpu.cop0[kiln::r3000::cop0::status] = 0x40000401u; // IEc and IM2 set
  CHECK(syscall(1) == 1);
  CHECK(f.m.cpu.cop0[kiln::r3000::cop0::status] == 0x40000000u);
  CHECK(syscall(1) == 0);
  syscall(2);
  CHECK(f.m.cpu.cop0[kiln::r3000::cop0::status] == 0x40000401u);
}

TEST_CASE("psx exceptions other than SYSCALL stop with the address and cause", "[psx]") {
  Fixture f;
  kiln::r3000::raise_exception(f.m.cpu, kiln::r3000::ExceptionCode::overflow, 0x00851020u, 0x80010020u);
  CHECK_THROWS_WITH(f.m.handle_exception(0x80010020u), Catch::Contains("arithmetic overflow at guest pc 0x80010020"));
}
