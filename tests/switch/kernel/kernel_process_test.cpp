// How a guest process ends: ExitProcess, Break (reason and address reported), an SVC kiln does not implement
// (number, name and address reported once), ReturnFromException; and OutputDebugString into kiln's log. Each
// runs in a forked child, since stopping the process is the behaviour under test.
#include <catch2/catch.hpp>

#include "tests/switch/kernel/guest_harness.h"

namespace {

using namespace kiln;
using kiln::test::Guest;
using kiln::test::poke;
using kiln::test::run_in_child;

TEST_CASE("An unimplemented SVC is reported with its number, name and guest address, and the process stops") {
  const test::ChildResult child = run_in_child([] {
    Guest g;
    Guest::svc(g.cpu(), 0x7f);
  });
  CHECK(child.status == 75);
  CHECK_THAT(child.output, Catch::Contains("unimplemented SVC 0x7f (CallSecureMonitor) called at guest address 0x71000001fc"));
  const test::ChildResult unnamed = run_in_child([] {
    Guest g;
    Guest::svc(g.cpu(), 0x3b);
  });
  CHECK(unnamed.status == 75);
  CHECK_THAT(unnamed.output, Catch::Contains("unimplemented SVC 0x3b (unknown) called at guest address 0x71000000ec"));
}

TEST_CASE("Break reports its reason, the guest address and the result it was given, and stops the process") {
  const test::ChildResult child = run_in_child([] {
    Guest g;
    poke<uint32_t>(test::data_base, 0x2a4); // libnx passes the failing result, 4 bytes
    g.cpu().x[0] = 0;                        // Panic
    g.cpu().x[1] = test::data_base;
    g.cpu().x[2] = 4;
    Guest::svc(g.cpu(), 0x26);
  });
  CHECK(child.status == 74);
  CHECK_THAT(child.output, Catch::Contains("guest Break (Panic 0x0) at guest address 0x7100000098, argument 0x7100100000 size 0x4, value 0x2a4"));
}

TEST_CASE("A Break with the notification bit returns, and ExitProcess ends the process with status 0") {
  const test::ChildResult child = run_in_child([] {
    Guest g;
    g.cpu().x[0] = 0x80000003; // notification only (a module load)
    if (Guest::svc(g.cpu(), 0x26) == 0) std::fputs("break returned\n", stderr);
    Guest::svc(g.cpu(), 0x07);
  });
  CHECK(child.status == 0);
  CHECK_THAT(child.output, Catch::Contains("break returned"));
}

TEST_CASE("OutputDebugString writes the guest's text into kiln's log") {
  const test::ChildResult child = run_in_child([] {
    Guest g;
    std::memcpy(rt::host_pointer(test::data_base), "hello from the guest\n", 21);
    g.cpu().x[0] = test::data_base;
    g.cpu().x[1] = 21;
    if (Guest::svc(g.cpu(), 0x27) != 0) std::fputs("failed\n", stderr);
    g.cpu().x[0] = 0x10;
    g.cpu().x[1] = 4;
    std::fprintf(stderr, "unmapped: %#x\n", Guest::svc(g.cpu(), 0x27));
    Guest::svc(g.cpu(), 0x07);
  });
  CHECK(child.status == 0);
  CHECK_THAT(child.output, Catch::Contains("kiln: guest: hello from the guest\n"));
  CHECK_THAT(child.output, Catch::Contains("unmapped: 0xd401"));
}

TEST_CASE("ReturnFromException stops the process with a message") {
  const test::ChildResult child = run_in_child([] {
    Guest g;
    g.cpu().x[0] = 0x1234;
    Guest::svc(g.cpu(), 0x28);
  });
  CHECK(child.status == 74);
  CHECK_THAT(child.output, Catch::Contains("ReturnFromException(0x1234) at guest address 0x71000000a0"));
}

} // namespace
