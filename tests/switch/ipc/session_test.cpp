// Requests through the kernel: ConnectToNamedPort("sm:"), sm's commands, a test service's commands, control
// requests, domains, TIPC, buffers and handles. Each request is written into the thread's TLS word by word
// from switchbrew's layouts (https://switchbrew.org/wiki/IPC_Marshalling; sm's commands from
// https://switchbrew.org/wiki/Services_API), and each reply is checked at the offsets those layouts give.
#include <catch2/catch.hpp>

#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::Guest;
using kiln::test::peek;
using kiln::test::poke;

constexpr uint32_t svc_close_handle = 0x16;
constexpr uint64_t buffers_at = test::data_base + 0x1000;

/// The test service: 0 Add(u32, u32) -> u32, 1 copies its X buffer 0 into C buffer 0 reversed and returns the
/// size, 2 opens a sub-object, 3 returns a copy handle to a new event's readable end, 4 sums the bytes of A 0
/// into B 0 (u64), 5 returns the pid flag and whether a copy handle came.
class TestService final : public hos::ipc::ServiceObject {
public:
  explicit TestService(int depth = 0) : depth_(depth) {}
  std::string_view name() const override { return depth_ ? "ITestSub" : "kiln:t"; }
  std::span<const hos::ipc::Command> commands() const override {
    static constexpr hos::ipc::Command table[] = {
        {0, "Add", hos::ipc::bind<&TestService::add>}, {1, "Reverse", hos::ipc::bind<&TestService::reverse>},
        {2, "OpenSub", hos::ipc::bind<&TestService::open_sub>}, {3, "GetEvent", hos::ipc::bind<&TestService::get_event>},
        {4, "Sum", hos::ipc::bind<&TestService::sum>}, {5, "Inspect", hos::ipc::bind<&TestService::inspect>},
    };
    return table;
  }
  hos::Result add(hos::ipc::Context& c) {
    const uint32_t a = c.read<uint32_t>(), b = c.read<uint32_t>();
    c.write<uint32_t>(a + b + static_cast<uint32_t>(depth_) * 1000);
    return 0;
  }
  hos::Result reverse(hos::ipc::Context& c) {
    const auto in = c.in_pointer(0), out = c.out_pointer(0);
    const uint64_t n = std::min(in.size, out.size);
    for (uint64_t i = 0; i < n; ++i) out.host()[i] = in.host()[n - 1 - i];
    c.write<uint64_t>(n);
    return 0;
  }
  hos::Result open_sub(hos::ipc::Context& c) {
    c.push_object(std::make_shared<TestService>(depth_ + 1));
    return 0;
  }
  hos::Result get_event(hos::ipc::Context& c) {
    auto event = std::make_shared<hos::ReadableEvent>();
    event->signaled = true;
    c.push_copy_handle(event);
    return 0;
  }
  hos::Result sum(hos::ipc::Context& c) {
    const auto in = c.in_mapped(0), out = c.out_mapped(0);
    uint64_t total = 0;
    for (uint64_t i = 0; i < in.size; ++i) total += in.host()[i];
    if (out.size < 8) return 0x1234;
    std::memcpy(out.host(), &total, 8);
    return 0;
  }
  hos::Result inspect(hos::ipc::Context& c) {
    c.write<uint32_t>(c.has_pid() ? static_cast<uint32_t>(c.pid()) : 0);
    c.write<uint32_t>(static_cast<uint32_t>(c.handles_in.size()));
    return 0;
  }

private:
  int depth_;
};

struct Fixture : test::IpcFixture {
  Fixture() { registry->add("kiln:t", [] { return std::make_shared<TestService>(); }); }
  uint32_t open_test_service() {
    const uint32_t sm = connect_sm();
    sm_initialize(sm);
    const uint32_t session = sm_get_service(sm, 0x743a6e6c696b); // "kiln:t" little-endian
    // Reply: type 0, one raw word block of 4 words (SFCO header) with a handle descriptor of one move handle.
    CHECK(word(1) == 0x80000004);
    CHECK(word(2) == 0x00000020);
    CHECK(word(3) != 0);
    CHECK(peek<uint32_t>(tls + 0x10) == 0x4f434653);
    return session;
  }
};

TEST_CASE("sm Initialize and GetService give a session whose commands run") {
  Fixture f;
  const uint32_t session = f.open_test_service();
  uint32_t result = 1;
  CHECK(f.add(session, 2, 40, &result) == 42);
  CHECK(result == 0);
  CHECK(f.word(0) == 0);
  CHECK(f.word(1) == 0x00000007); // 8 bytes of padding + SFCO (16) + the u32: 28 bytes = 7 words
  CHECK(f.word(4) == 0x4f434653);
}

TEST_CASE("sm refuses GetService before Initialize and names an unknown service") {
  Fixture f;
  const uint32_t sm = f.connect_sm();
  f.sm_get_service(sm, 0x743a6e6c696b);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0x415); // sm InvalidClient (module 21, description 2)
  const test::ChildResult child = test::run_in_child([] {
    Fixture c;
    const uint32_t s = c.connect_sm();
    c.sm_initialize(s);
    c.sm_get_service(s, 0x686375736f6e); // "nosuch"
    std::fprintf(stderr, "result %#x\n", peek<uint32_t>(c.tls + 0x18));
    c.sm_get_service(s, 0x686375736f6e);
    std::fflush(stderr);
    _exit(0);
  });
  CHECK_THAT(child.output, Catch::Contains("GetService(\"nosuch\") at guest address 0x7100000084: kiln has no service 'nosuch'; replying 0xe15"));
  CHECK_THAT(child.output, Catch::Contains("result 0xe15")); // sm NotRegistered (module 21, description 7)
  const std::string report = "kiln has no service 'nosuch'";
  CHECK(child.output.find(report) == child.output.rfind(report)); // reported once
}

TEST_CASE("An unknown command replies 2010-0221 and is reported once with service, id and address") {
  const test::ChildResult child = test::run_in_child([] {
    Fixture c;
    const uint32_t session = c.open_test_service();
    for (int i = 0; i < 2; ++i) {
      c.message({0x00000004, 0x00000008, 0, 0, 0x49434653, 0, 99, 0});
      if (c.send(session) != 0) std::fputs("send failed\n", stderr);
      std::fprintf(stderr, "result %#x\n", peek<uint32_t>(c.tls + 0x18));
    }
    std::fflush(stderr);
    _exit(0);
  });
  const std::string report = "service 'kiln:t' has no command 99 (called at guest address 0x7100000084); replying 0x1ba0a";
  CHECK_THAT(child.output, Catch::Contains(report));
  CHECK(child.output.find(report) == child.output.rfind(report));
  CHECK_THAT(child.output, Catch::Contains("result 0x1ba0a\nresult 0x1ba0a"));
}

TEST_CASE("X and C buffers: the service reads the X buffer and writes the C buffer") {
  Fixture f;
  const uint32_t session = f.open_test_service();
  std::memcpy(rt::host_pointer(buffers_at), "abcdef", 6);
  // type 4 with one X (bits 16-19); raw 8 words; C flags 2 (one C descriptor).
  // X at 0x8: counter 0, address 0x7100101000 (bits 32-35 = 1 -> 0x1000 in word 0, bits 36-38 = 7 -> 0x1c0), size 6.
  // raw at 0x10 (aligned): SFCI, command 1. C after the raw data at 0x10 + 32 = 0x30: address 0x7100101100, size 0x10.
  f.message({0x00010004, 0x00000808, 0x000611c0, 0x00101000, 0x49434653, 0, 1, 0, 0, 0, 0, 0, 0x00101100, 0x00100071});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == 6);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(buffers_at + 0x100)), 6) == "fedcba");
  // The same with the X buffer at address 0x1000, unmapped: the kernel refuses the request (InvalidCurrentMemory).
  f.message({0x00010004, 0x00000808, 0x00060000, 0x00001000, 0x49434653, 0, 1, 0, 0, 0, 0, 0, 0x00101100, 0x00100071});
  CHECK(f.send(session) == 0xd401);
}

TEST_CASE("A and B buffers are bounds-checked against guest memory") {
  Fixture f;
  const uint32_t session = f.open_test_service();
  for (int i = 0; i < 16; ++i) poke<uint8_t>(buffers_at + i, static_cast<uint8_t>(i + 1));
  // type 4, one A and one B (bits 20-23, 24-27). A at 0x8: size 16, address 0x7100101000 -> word 2: flags 0,
  // bits 36-38 = 7 (<< 2 = 0x1c), address bits 32-35 = 1 (<< 28). B at 0x14: size 8, address 0x7100101200.
  // raw 8 words at 0x20 (aligned): SFCI, command 4.
  f.message({0x01100004, 0x00000008, 16, 0x00101000, 0x1000001c, 8, 0x00101200, 0x1000001c, 0x49434653, 0, 4, 0});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<uint64_t>(buffers_at + 0x200) == 136); // 1 + 2 + ... + 16
  // A buffer reaching past the mapped data pages (0x10000 bytes from 0x7100100000).
  f.message({0x01100004, 0x00000008, 0x10000, 0x00101000, 0x1000001c, 8, 0x00101200, 0x1000001c, 0x49434653, 0, 4, 0});
  CHECK(f.send(session) == 0xd401);
  // A B buffer in read-only memory: the code page is read/write in this harness, so use a page made read-only.
  const uint64_t heap = f.g.heap(0x200000);
  f.g.kernel.memory().set_permission(heap, 0x1000, hos::permission::read);
  const uint32_t low = static_cast<uint32_t>(heap), bits = static_cast<uint32_t>(((heap >> 32) & 0xf) << 28 | ((heap >> 36) & 7) << 2);
  f.message({0x01100004, 0x00000008, 16, 0x00101000, 0x1000001c, 8, low, bits, 0x49434653, 0, 4, 0});
  CHECK(f.send(session) == 0xd401);
}

TEST_CASE("Copy handles out become handles in the client's table, and bad handles in are refused") {
  Fixture f;
  const uint32_t session = f.open_test_service();
  f.message({0x00000004, 0x00000008, 0, 0, 0x49434653, 0, 3, 0});
  REQUIRE(f.send(session) == 0);
  CHECK(f.word(1) == 0x80000004);
  CHECK(f.word(2) == 0x00000002); // one copy handle (bits 1-4)
  const uint32_t event = f.word(3);
  CHECK(f.g.kernel.lookup_as<hos::ReadableEvent>(event) != nullptr);
  // Inspect with the PID flag and one copy handle: type 4, handle descriptor 0x3 (pid + 1 copy), PID, the handle.
  f.message({0x00000004, 0x80000008, 0x00000003, 0, 0, event, 0, 0, 0x49434653, 0, 5, 0});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0x51); // the process id the kernel reports
  CHECK(peek<uint32_t>(f.tls + 0x24) == 1);
  f.message({0x00000004, 0x80000008, 0x00000003, 0, 0, 0x7777, 0, 0, 0x49434653, 0, 5, 0});
  CHECK(f.send(session) == 0xe401); // InvalidHandle
  f.message({0x00000004, 0x00000008, 0, 0, 0x49434653, 0, 0, 0});
  CHECK(f.send(0x7777) == 0xe401);
}

TEST_CASE("Control requests: pointer buffer size, clone, conversion to a domain and domain objects") {
  Fixture f;
  const uint32_t session = f.open_test_service();
  // type 5 (Control), SFCI command 3: QueryPointerBufferSize -> u16.
  f.message({0x00000005, 0x00000008, 0, 0, 0x49434653, 0, 3, 0});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint16_t>(f.tls + 0x20) == 0x8000);
  // Command 2: CloneCurrentObject -> a move handle to the same object.
  f.message({0x00000005, 0x00000008, 0, 0, 0x49434653, 0, 2, 0});
  REQUIRE(f.send(session) == 0);
  CHECK(f.word(2) == 0x20);
  const uint32_t clone = f.word(3);
  uint32_t result = 1;
  CHECK(f.add(clone, 5, 6, &result) == 11);
  // Command 0: ConvertCurrentObjectToDomain -> object id 1.
  f.message({0x00000005, 0x00000008, 0, 0, 0x49434653, 0, 0, 0});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1);
  // A domain request: domain header at 0x10 {type 1, 0 objects, data 0x18 bytes, object 1}, SFCI at 0x20, Add(7, 8).
  f.message({0x00000004, 0x0000000c, 0, 0, 0x00180001, 1, 0, 0, 0x49434653, 0, 0, 0, 7, 8});
  REQUIRE(f.send(session) == 0);
  // Reply: domain out header (0 objects) at 0x10, SFCO at 0x20, result at 0x28, output at 0x30.
  CHECK(peek<uint32_t>(f.tls + 0x10) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0x4f434653);
  CHECK(peek<uint32_t>(f.tls + 0x28) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x30) == 15);
  // OpenSub on object 1: the new object's id follows the (empty) output data.
  f.message({0x00000004, 0x0000000c, 0, 0, 0x00100001, 1, 0, 0, 0x49434653, 0, 2, 0});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x10) == 1);
  const uint32_t sub = peek<uint32_t>(f.tls + 0x30);
  CHECK(sub == 2);
  f.message({0x00000004, 0x0000000c, 0, 0, 0x00180001, sub, 0, 0, 0x49434653, 0, 0, 0, 7, 8});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x30) == 1015); // the sub-object answered
  // CopyFromCurrentDomain(sub): a plain session to that object.
  f.message({0x00000005, 0x00000009, 0, 0, 0x49434653, 0, 1, 0, sub});
  REQUIRE(f.send(session) == 0);
  const uint32_t copied = f.word(3);
  CHECK(f.add(copied, 1, 1, &result) == 1002);
  // Close the sub-object (domain header type 2), then a request to it: InvalidDomainObject in the SFCO.
  f.message({0x00000004, 0x00000008, 0, 0, 0x00000002, sub, 0, 0});
  REQUIRE(f.send(session) == 0);
  f.message({0x00000004, 0x0000000c, 0, 0, 0x00180001, sub, 0, 0, 0x49434653, 0, 0, 0, 7, 8});
  REQUIRE(f.send(session) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x28) == 0x20a0a);
}

TEST_CASE("sm over TIPC, and a closed session refuses further requests") {
  Fixture f;
  const uint32_t sm = f.connect_sm();
  // TIPC Initialize: type 16 + 0, handle descriptor with the PID flag, 2 raw words (the placeholder).
  f.message({0x00000010, 0x80000002, 0x00000001, 0, 0, 0, 0});
  REQUIRE(f.send(sm) == 0);
  CHECK(f.word(1) == 0x00000001); // one raw word: the result, right after the header
  CHECK(f.word(2) == 0);
  // TIPC GetService: type 16 + 1, 2 raw words holding the name; the result is the first raw word of the reply.
  f.message({0x00000011, 0x00000002, 0x006c696b, 0}); // "kil": no such service, no handle descriptor
  REQUIRE(f.send(sm) == 0);
  CHECK(f.word(1) == 0x00000001);
  CHECK(f.word(2) == 0xe15);
  f.message({0x00000011, 0x00000002, 0x6e6c696b, 0x0000743a}); // "kiln:t"
  REQUIRE(f.send(sm) == 0);
  CHECK(f.word(1) == 0x80000001);
  CHECK(f.word(2) == 0x20);
  CHECK(f.word(4) == 0);
  uint32_t result = 1;
  CHECK(f.add(f.word(3), 20, 22, &result) == 42);
  // Close (type 2): the session ends; a further request gets SessionClosed.
  f.message({0x00000002, 0});
  CHECK(f.send(sm) == 0);
  f.message({0x00000011, 0x00000002, 0, 0});
  CHECK(f.send(sm) == 0xf601);
  f.g.cpu().x[0] = sm;
  CHECK(Guest::svc(f.g.cpu(), svc_close_handle) == 0);
}

} // namespace
