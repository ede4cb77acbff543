// hid through sm and the kernel: the start-up commands of switchbrew's "HID services" page and the shared
// memory layout of its "HID Shared Memory" page (npad entries at 0x9a00, 0x5000 bytes each, No1-No8 then
// Handheld at index 8; in an entry the style set at 0, the FullKey lifo at 0x28 and the Handheld lifo at
// 0x378, 0x350 bytes each: a 0x20-byte header {unused, buffer count, tail, count} and 17 entries of an atomic
// sampling number and the 0x28-byte state {sampling number, buttons, stick L x/y, stick R x/y, attributes}).
// The Joy-Con styles: NpadStyleTag bits 2-4 (JoyDual, JoyLeft, JoyRight), their lifos the third to fifth
// (0x6c8, 0xa18, 0xd68), the assignment mode at 4 (0 dual, 1 single), the device type at 0x4188 (bits 4, 5:
// JoyLeft, JoyRight) and NpadAttribute bits 0 connected, 1 wired, 2/3 left connected/wired, 4/5 right.
#include <filesystem>
#include <fstream>
#include <thread>

#include "runtime/base/error.h"
#include "runtime/platform/switch/services/title_config.h"

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
  explicit Fixture(const hos::SystemSettings& settings = {}) {
    hos::register_default_services(*registry, settings);
    hid = open_service(0x646968); // "hid"
    REQUIRE(hid != 0);
  }
  ~Fixture() { hos::set_pad_source([](const host::PadDevice&) { return host::PadState{}; }); }
  /// CreateAppletResource, GetSharedMemoryHandle, MapSharedMemory at shared_at (read).
  void map_shared_memory() {
    REQUIRE(call(0, {0x51, 0}) == 0);
    const uint32_t resource = word(3);
    message({0x00000004, 0x00000008, 0, 0, sfci, 0, 0, 0});
    REQUIRE(send(resource) == 0);
    REQUIRE(peek<uint32_t>(tls + 0x18) == 0);
    g.cpu().x[0] = word(3);
    g.cpu().x[1] = shared_at;
    g.cpu().x[2] = 0x40000;
    g.cpu().x[3] = 1;
    REQUIRE(test::Guest::svc(g.cpu(), 0x13) == 0);
  }
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
  hos::set_pad_source([pad](const host::PadDevice&) { return pad; });
  f.map_shared_memory();

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
       {std::tuple{npad + 8 * 0x5000, 2u, 0x378u, 0x3fu}, std::tuple{npad, 1u, 0x28u, 1u}}) {
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

/// Writes `text` as a kiln.toml and loads it into settings.
hos::SystemSettings settings_from(const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / ("kiln-hid-test-" + std::to_string(getpid()) + ".toml")).string();
  std::ofstream(path) << text;
  hos::SystemSettings settings;
  try {
    hos::load_title_config(path, settings);
  } catch (...) {
    std::filesystem::remove(path);
    throw;
  }
  std::filesystem::remove(path);
  return settings;
}

/// The latest state in the lifo at `lifo` of npad entry `index`: {buttons, lx, ly, rx, ry, attributes}.
struct NpadSample {
  uint64_t buttons;
  int32_t lx, ly, rx, ry;
  uint32_t attributes;
};
NpadSample latest(uint64_t index, uint64_t lifo) {
  const uint64_t header = shared_at + 0x9a00 + index * 0x5000 + lifo;
  CHECK(peek<uint64_t>(header + 0x18) >= 1);
  const uint64_t state = header + 0x20 + peek<uint64_t>(header + 0x10) * 0x30 + 8;
  return {peek<uint64_t>(state + 8), peek<int32_t>(state + 0x10), peek<int32_t>(state + 0x14), peek<int32_t>(state + 0x18),
          peek<int32_t>(state + 0x1c), peek<uint32_t>(state + 0x20)};
}

TEST_CASE("kiln.toml maps host devices to a Joy-Con pair and single Joy-Cons") {
  const hos::SystemSettings settings = settings_from(R"toml(
[[switch.input.npad]]
id = "No1"
style = "JoyDual"
device = "controller0"

[[switch.input.npad]]
id = "No2"
style = "JoyLeft"
device = "keyboard"

[[switch.input.npad]]
id = "No3"
style = "JoyRight"
device = "controller1"
)toml");
  REQUIRE(settings.npads.size() == 3);
  Fixture f(settings);
  using host::Button;
  const auto bit = [](Button b) { return 1u << static_cast<unsigned>(b); };
  hos::set_pad_source([bit](const host::PadDevice& device) {
    host::PadState pad;
    if (device == host::PadDevice{host::PadDevice::Kind::controller, 0}) { // A, left stick right
      pad.buttons = bit(Button::east);
      pad.axes = {0x6000, 0, 0, 0};
    } else if (device == host::PadDevice{host::PadDevice::Kind::keyboard, 0}) { // d-pad left and A; right stick
      pad.buttons = bit(Button::dpad_left) | bit(Button::east);
      pad.axes = {-0x3000, 0, 0x5000, 0};
    } else if (device == host::PadDevice{host::PadDevice::Kind::controller, 1}) { // B, X, minus; both sticks
      pad.buttons = bit(Button::south) | bit(Button::north) | bit(Button::select);
      pad.axes = {0x1000, 0, 0, -0x7000};
    }
    return pad;
  });
  f.map_shared_memory();
  // SetSupportedNpadStyleSet(JoyDual | JoyLeft | JoyRight | Handheld), ids No1-No3 and Handheld, ActivateNpad.
  CHECK(f.call(100, {0x1e, 0, 0x51, 0}) == 0);
  CHECK(f.call(102, {0x51, 0}, {0, 1, 2, 0x20}) == 0);
  CHECK(f.call(103, {0x51, 0}) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));

  const uint64_t npad = shared_at + 0x9a00;
  // No1: a Joy-Con pair (dual assignment), everything of controller 0.
  CHECK(peek<uint32_t>(npad) == 0x4);
  CHECK(peek<uint32_t>(npad + 4) == 0);
  CHECK(peek<uint32_t>(npad + 0x4188) == 0x30);
  NpadSample s = latest(0, 0x6c8);
  CHECK(s.buttons == (1u | 1u << 18)); // A, StickLRight
  CHECK(s.lx == 0x6000);
  CHECK(s.attributes == 0x15);
  CHECK(peek<uint64_t>(npad + 0x28 + 0x18) == 0); // the FullKey lifo stays empty
  // No2: the left Joy-Con alone (single assignment): its d-pad and stick, not A nor the right stick.
  CHECK(peek<uint32_t>(npad + 0x5000) == 0x8);
  CHECK(peek<uint32_t>(npad + 0x5000 + 4) == 1);
  CHECK(peek<uint32_t>(npad + 0x5000 + 0x4188) == 0x10);
  s = latest(1, 0xa18);
  CHECK(s.buttons == (1u << 12 | 1u << 16)); // Left, StickLLeft
  CHECK(s.lx == -0x3000);
  CHECK(s.rx == 0);
  CHECK(s.attributes == 0x5);
  // No3: the right Joy-Con alone: B, X and its stick up, not Minus nor the left stick.
  CHECK(peek<uint32_t>(npad + 2 * 0x5000) == 0x10);
  CHECK(peek<uint32_t>(npad + 2 * 0x5000 + 4) == 1);
  CHECK(peek<uint32_t>(npad + 2 * 0x5000 + 0x4188) == 0x20);
  s = latest(2, 0xd68);
  CHECK(s.buttons == (1u << 1 | 1u << 2 | 1u << 21)); // B, X, StickRUp
  CHECK(s.lx == 0);
  CHECK(s.ry == 0x7000);
  CHECK(s.attributes == 0x11);
  // Handheld is enabled by the title but not configured: absent.
  CHECK(peek<uint32_t>(npad + 8 * 0x5000) == 0);
}

TEST_CASE("kiln.toml npad errors name the file's line") {
  auto error_of = [](const std::string& text) {
    try {
      settings_from(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("[[switch.input.npad]]\nid = \"No1\"\nstyle = \"Dual\"\n"),
             Catch::Contains(":3: [switch.input.npad] style 'Dual' is not one kiln presents"));
  CHECK_THAT(error_of("[[switch.input.npad]]\nid = \"No9\"\nstyle = \"FullKey\"\n"),
             Catch::Contains(":2: [switch.input.npad] id 'No9' is not an npad"));
  CHECK_THAT(error_of("[[switch.input.npad]]\nid = \"No1\"\nstyle = \"FullKey\"\ndevice = \"joystick\"\n"),
             Catch::Contains(":4: [switch.input.npad] device 'joystick' is not a host device"));
  CHECK_THAT(error_of("[[switch.input.npad]]\nid = \"Handheld\"\nstyle = \"JoyDual\"\n"),
             Catch::Contains("the Handheld style belongs to the Handheld id"));
  CHECK_THAT(error_of("[[switch.input.npad]]\nid = \"No1\"\nstyle = \"FullKey\"\n[[switch.input.npad]]\nid = \"No1\"\nstyle = \"JoyDual\"\n"),
             Catch::Contains("npad No1 is given twice"));
  CHECK_THAT(error_of("[switch.input]\npads = 1\n"), Catch::Contains(":2: [switch.input] 'pads' is not a key (keys: npad)"));
}

} // namespace
