// hid through sm and the kernel: the start-up commands of switchbrew's "HID services" page and the shared
// memory layout of its "HID Shared Memory" page (npad entries at 0x9a00, 0x5000 bytes each, No1-No8 then
// Handheld at index 8; in an entry the style set at 0, the FullKey lifo at 0x28 and the Handheld lifo at
// 0x378, 0x350 bytes each: a 0x20-byte header {unused, buffer count, tail, count} and 17 entries of an atomic
// sampling number and the 0x28-byte state {sampling number, buttons, stick L x/y, stick R x/y, attributes}).
#include <thread>

#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/hid.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;

constexpr uint32_t sfci = 0x49434653;
constexpr uint64_t shared_at = 0x3000000000; // in the ASLR region, outside heap, alias and stack (docs/switch.md)
constexpr uint64_t ids_at = test::data_base + 0x2000;

struct Fixture : test::IpcFixture {
  uint32_t hid = 0;
  Fixture() {
    hos::register_default_services(*registry, hos::SystemSettings{});
    hid = open_service(0x646968); // "hid"
    REQUIRE(hid != 0);
  }
  ~Fixture() { hos::set_pad_source([] { return host::PadState{}; }); }
  /// A command with raw words and the PID flag (hid's commands take the aruid with a PID descriptor).
  uint32_t call(uint32_t command, std::vector<uint32_t> args, std::vector<uint32_t> x = {}) {
    std::vector<uint32_t> words = {0x00000004, 0x80000000, 0x00000001, 0, 0};
    if (!x.empty()) { // one X descriptor (type 0x14's pointer): counter 0, size, address bits
      words[0] |= 1u << 16;
      words.push_back(static_cast<uint32_t>(x.size() * 4) << 16 | ((ids_at >> 36) & 7) << 6 | ((ids_at >> 32) & 0xf) << 12);
      words.push_back(static_cast<uint32_t>(ids_at));
      for (size_t i = 0; i < x.size(); ++i) poke<uint32_t>(ids_at + 4 * i, x[i]);
    }
    const size_t raw = words.size();
    while (words.size() % 4) words.push_back(0);
    for (uint32_t w : {sfci, 0u, command, 0u}) words.push_back(w);
    words.insert(words.end(), args.begin(), args.end());
    words[1] |= static_cast<uint32_t>(words.size() - raw + 4);
    message(words);
    REQUIRE(send(hid) == 0);
    return peek<uint32_t>(tls + 0x18);
  }
};

TEST_CASE("hid's shared memory carries the handheld and Pro Controller npads, sampled at 200 Hz from the pad") {
  Fixture f;
  host::PadState pad;
  pad.buttons = 1u << static_cast<unsigned>(host::Button::east); // A on a Pro Controller
  pad.axes = {0x4000, -0x2000, 0, 0};                            // left stick right and up (SDL's y is down)
  hos::set_pad_source([pad] { return pad; });

  // CreateAppletResource(aruid), then IAppletResource GetSharedMemoryHandle: a copy handle.
  REQUIRE(f.call(0, {0x51, 0}) == 0);
  const uint32_t resource = f.word(3);
  f.message({0x00000004, 0x00000008, 0, 0, sfci, 0, 0, 0});
  REQUIRE(f.send(resource) == 0);
  REQUIRE(peek<uint32_t>(f.tls + 0x18) == 0);
  const uint32_t memory = f.word(3);
  // MapSharedMemory(handle, address, size 0x40000, read).
  f.g.cpu().x[0] = memory;
  f.g.cpu().x[1] = shared_at;
  f.g.cpu().x[2] = 0x40000;
  f.g.cpu().x[3] = 1;
  REQUIRE(test::Guest::svc(f.g.cpu(), 0x13) == 0);

  // SetSupportedNpadStyleSet(FullKey | Handheld, aruid), SetSupportedNpadIdType(aruid; X: No1, Handheld),
  // ActivateNpad(aruid).
  CHECK(f.call(100, {0x3, 0, 0x51, 0}) == 0);
  CHECK(f.call(101, {0x51, 0}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0x3);
  CHECK(f.call(102, {0x51, 0}, {0, 0x20}) == 0);
  CHECK(f.call(103, {0x51, 0}) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));

  constexpr uint64_t npad = shared_at + 0x9a00;
  for (const auto& [entry, style, lifo, attributes] :
       {std::tuple{npad + 8 * 0x5000, 2u, 0x378u, 3u}, std::tuple{npad, 1u, 0x28u, 1u}}) {
    CHECK(peek<uint32_t>(entry) == style);
    const uint64_t header = entry + lifo;
    CHECK(peek<uint64_t>(header + 8) == 17);
    const uint64_t tail = peek<uint64_t>(header + 0x10);
    const uint64_t count = peek<uint64_t>(header + 0x18);
    CHECK(count == 16); // 100 ms at 200 Hz filled the ring
    REQUIRE(tail < 17);
    const uint64_t latest = header + 0x20 + tail * 0x30;
    const uint64_t sampling = peek<uint64_t>(latest);
    CHECK(sampling >= 10); // at least half the 20 samples 100 ms hold, on a busy machine
    CHECK(peek<uint64_t>(latest + 8) == sampling);
    const uint64_t buttons = peek<uint64_t>(latest + 0x10);
    CHECK((buttons & 1) == 1);              // A
    CHECK((buttons >> 18 & 1) == 1);        // StickLRight (0x4000 is past a quarter)
    CHECK(peek<int32_t>(latest + 0x18) == 0x4000);
    CHECK(peek<int32_t>(latest + 0x1c) == 0x2000); // up is positive on Horizon
    CHECK(peek<uint32_t>(latest + 0x28) == attributes);
    // The entry before the latest is the previous sample.
    const uint64_t previous = header + 0x20 + ((tail + 16) % 17) * 0x30;
    CHECK(peek<uint64_t>(previous) == sampling - 1);
  }
  CHECK(peek<uint32_t>(npad + 0x5000) == 0); // No2 was not asked for
  CHECK(peek<uint64_t>(shared_at + 0x3800 + 8) == 17); // keyboard lifo header
}

} // namespace
