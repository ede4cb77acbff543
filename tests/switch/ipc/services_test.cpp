// set, set:sys, apm, csrng and lm through sm, with requests written from switchbrew's layouts and each
// service page's command list (https://switchbrew.org/wiki/Settings_services, /PTM_services#apm,
// /SPL_services#csrng, /Log_services). Expected values are the documented defaults (settings.h).
#include <cstdlib>
#include <ctime>

#include "runtime/platform/switch/services/default_services.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
using kiln::test::poke;

constexpr uint64_t buffer_at = test::data_base + 0x2000;

struct Fixture : test::IpcFixture {
  Fixture() { hos::register_default_services(*registry, hos::SystemSettings{}); }
  /// A command without arguments on a plain session: raw 8 words, SFCI at 0x10.
  uint32_t call(uint32_t session, uint32_t command, std::vector<uint32_t> args = {}, uint16_t type = 4) {
    std::vector<uint32_t> words = {type, 0x00000008, 0, 0, 0x49434653, 0, command, 0};
    words.insert(words.end(), args.begin(), args.end());
    message(words);
    REQUIRE(send(session) == 0);
    return peek<uint32_t>(tls + 0x18);
  }
};

TEST_CASE("set answers the default language and region") {
  Fixture f;
  const uint32_t set = f.open_service(0x746573); // "set"
  REQUIRE(set != 0);
  CHECK(f.call(set, 0) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == 0x53552d6e65); // "en-US" in a u64
  CHECK(f.call(set, 4) == 0);
  CHECK(peek<int32_t>(f.tls + 0x20) == 1); // USA
  CHECK(f.call(set, 2, {0}) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == 0x616a); // "ja"
  CHECK(f.call(set, 2, {18}) == 0x4e269);       // set InvalidLanguage: module 105, description 625
  CHECK(f.call(set, 3) == 0);
  CHECK(peek<int32_t>(f.tls + 0x20) == 18);
  // GetAvailableLanguageCodes2 into a B buffer of 4 codes: one B descriptor (bits 24-27) of 32 bytes at buffer_at
  // (0x7100102000: bits 32-35 = 1 at word 2 bit 28, bits 36-38 = 7 at bit 2); raw at 0x20 after the descriptor.
  f.message({0x01000004, 0x00000008, 32, 0x00102000, 0x1000001c, 0, 0, 0, 0x49434653, 0, 5, 0});
  REQUIRE(f.send(set) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<int32_t>(f.tls + 0x20) == 4);
  CHECK(peek<uint64_t>(buffer_at + 24) == 0x6564); // "de", the fourth
}

TEST_CASE("set:sys GetFirmwareVersion fills the 0x100-byte version into the C buffer") {
  Fixture f;
  const uint32_t setsys = f.open_service(0x7379733a746573); // "set:sys"
  REQUIRE(setsys != 0);
  // Command 4, raw 8 words, C flags 2: one C descriptor after the raw data (0x28): buffer_at, size 0x100.
  f.message({0x00000004, 0x00000808, 0, 0, 0x49434653, 0, 4, 0, 0, 0, 0x00102000, 0x01000071});
  REQUIRE(f.send(setsys) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<uint8_t>(buffer_at) == 16);
  CHECK(peek<uint8_t>(buffer_at + 1) == 0);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(buffer_at + 8))) == "NX");
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(buffer_at + 0x68))) == "16.0.0");
}

TEST_CASE("apm opens a session that keeps the configuration per mode") {
  Fixture f;
  const uint32_t apm = f.open_service(0x6d7061); // "apm"
  REQUIRE(apm != 0);
  CHECK(f.call(apm, 1) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0); // handheld
  CHECK(f.call(apm, 0) == 0);
  const uint32_t session = f.word(3);
  CHECK(f.call(session, 1, {0}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0x00010000);
  CHECK(f.call(session, 0, {1, 0x92220008}) == 0);
  CHECK(f.call(session, 1, {1}) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0x92220008);
  CHECK(f.call(session, 1, {2}) == 0x494); // apm InvalidParameter: module 148 (0x94) | description 2 << 9
}

TEST_CASE("csrng fills the buffer with random bytes") {
  Fixture f;
  const uint32_t csrng = f.open_service(0x676e727363); // "csrng"
  REQUIRE(csrng != 0);
  std::memset(rt::host_pointer(buffer_at), 0, 64);
  f.message({0x01000004, 0x00000008, 64, 0x00102000, 0x1000001c, 0, 0, 0, 0x49434653, 0, 0, 0});
  REQUIRE(f.send(csrng) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  int zero_bytes = 0;
  for (int i = 0; i < 64; ++i) zero_bytes += peek<uint8_t>(buffer_at + i) == 0;
  CHECK(zero_bytes < 16); // 64 random bytes: expect about one zero
}

TEST_CASE("lm turns a log packet into a line of kiln's log") {
  const test::ChildResult child = test::run_in_child([] {
    Fixture f;
    const uint32_t lm = f.open_service(0x6d6c); // "lm"
    f.call(lm, 0, {0, 0});
    const uint32_t logger = f.word(3);
    // Packet: pid, thread id, flags 3 (head + tail), padding, severity 1, verbosity 0, payload size;
    // chunks: TextLog (key 2) "hi lm", LineNumber (3) 42, FileName (4) "m.c".
    const uint8_t packet[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 0, 18, 0, 0, 0,
                              2, 5, 'h', 'i', ' ', 'l', 'm', 3, 4, 42, 0, 0, 0, 4, 3, 'm', '.', 'c'};
    std::memcpy(rt::host_pointer(buffer_at), packet, sizeof packet);
    // Log: one X descriptor (counter 0) of 42 bytes at buffer_at; raw at 0x10.
    f.message({0x00010004, 0x00000008, 0x002a11c0, 0x00102000, 0x49434653, 0, 0, 0});
    std::fprintf(stderr, "send %#x result %#x\n", f.send(logger), peek<uint32_t>(f.tls + 0x18));
    std::fflush(stderr);
    _exit(0);
  });
  CHECK_THAT(child.output, Catch::Contains("kiln: guest lm: hi lm (m.c:42 )"));
  CHECK_THAT(child.output, Catch::Contains("send 0 result 0"));
}

TEST_CASE("time: the host clock in UTC and calendar conversions") {
  Fixture f;
  const uint32_t time = f.open_service(0x753a656d6974); // "time:u"
  REQUIRE(time != 0);
  CHECK(f.call(time, 0) == 0); // GetStandardUserSystemClock
  const uint32_t clock = f.word(3);
  CHECK(f.call(clock, 0) == 0);
  const int64_t now = peek<int64_t>(f.tls + 0x20);
  CHECK(std::llabs(now - static_cast<int64_t>(::time(nullptr))) <= 5);
  CHECK(f.call(time, 3) == 0); // GetTimeZoneService
  const uint32_t zone = f.word(3);
  CHECK(f.call(zone, 0) == 0);
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(f.tls + 0x20))) == "UTC");
  // 1700000000 is Tuesday 14 November 2023, 22:13:20 UTC: day 317 of the year counting from 0.
  CHECK(f.call(zone, 101, {static_cast<uint32_t>(1700000000), 0}) == 0);
  CHECK(peek<int16_t>(f.tls + 0x20) == 2023);
  CHECK(peek<int8_t>(f.tls + 0x22) == 11);
  CHECK(peek<int8_t>(f.tls + 0x23) == 14);
  CHECK(peek<int8_t>(f.tls + 0x24) == 22);
  CHECK(peek<int8_t>(f.tls + 0x25) == 13);
  CHECK(peek<int8_t>(f.tls + 0x26) == 20);
  CHECK(peek<uint32_t>(f.tls + 0x28) == 2);   // day of week
  CHECK(peek<uint32_t>(f.tls + 0x2c) == 317); // day of year
  CHECK(std::string(reinterpret_cast<const char*>(rt::host_pointer(f.tls + 0x30))) == "UTC");
  // ToPosixTimeWithMyRule(2023-11-14 22:13:20): CalendarTime in the input, one s64 into the C buffer at buffer_at.
  f.message({0x00000004, 0x00000808, 0, 0, 0x49434653, 0, 201, 0, 0x0e0b07e7, 0x00140d16, 0x00102000, 0x00080071});
  REQUIRE(f.send(zone) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<int32_t>(f.tls + 0x20) == 1);
  CHECK(peek<int64_t>(buffer_at) == 1700000000);
}

/// One lock-free object of the time shared memory read as switchbrew's "Glue services" page describes it (and
/// libnx reads it): a u32 counter at `offset`, then two copies of the value from offset + 8; the counter's low
/// bit names the current one.
template <typename T>
T read_lock_free(const uint8_t* memory, uint64_t offset) {
  uint32_t counter;
  std::memcpy(&counter, memory + offset, 4);
  T value;
  std::memcpy(&value, memory + offset + 8 + (counter & 1) * sizeof(T), sizeof(T));
  return value;
}

TEST_CASE("time: the shared memory a title on 6.0.0+ reads its clocks from") {
  Fixture f;
  const uint32_t time = f.open_service(0x753a656d6974); // "time:u"
  REQUIRE(time != 0);
  CHECK(f.call(time, 20) == 0); // GetSharedMemoryNativeHandle: one copy handle
  CHECK(f.word(2) == 0x2);
  const auto memory = f.g.kernel.lookup_as<hos::SharedMemory>(f.word(3));
  REQUIRE(memory);
  CHECK(memory->size == 0x1000);
  CHECK((memory->guest_permission & 2) == 0); // the title maps it read-only

  // Steady clock at 0x00: s64 base time in ns, 16-byte source id. System clock contexts at 0x38 (user) and 0x80
  // (network): s64 offset, then the steady time point it was taken at (s64 seconds, the same source id).
  struct SteadyClock {
    int64_t base_time_ns;
    uint8_t source_id[16];
  };
  struct ClockContext {
    int64_t offset, time_point_seconds;
    uint8_t source_id[16];
  };
  const SteadyClock steady = read_lock_free<SteadyClock>(memory->host, 0x00);
  // The title's steady time is base + its system tick (19.2 MHz, svcGetSystemTick) in ns.
  f.g.cpu().x[0] = 0;
  test::Guest::svc(f.g.cpu(), 0x1e);
  const int64_t tick_ns = static_cast<int64_t>(f.g.cpu().x[0] / 192 * 10000 + f.g.cpu().x[0] % 192 * 10000 / 192);
  const int64_t steady_seconds = (steady.base_time_ns + tick_ns) / 1000000000;
  for (const uint64_t offset : {0x38, 0x80}) {
    const ClockContext context = read_lock_free<ClockContext>(memory->host, offset);
    CHECK(std::memcmp(context.source_id, steady.source_id, 16) == 0); // else libnx fails with 116-102
    CHECK(std::llabs(context.offset + steady_seconds - static_cast<int64_t>(::time(nullptr))) <= 5);
    CHECK(std::llabs(context.time_point_seconds - steady_seconds) <= 5);
  }
  // The steady clock ISteadyClock reports is the same clock.
  CHECK(f.call(time, 2) == 0);
  const uint32_t steady_clock = f.word(3);
  CHECK(f.call(steady_clock, 0) == 0);
  CHECK(std::llabs(peek<int64_t>(f.tls + 0x20) - steady_seconds) <= 1);
  CHECK(std::memcmp(rt::host_pointer(f.tls + 0x28), steady.source_id, 16) == 0);
  // time:s hands out the same memory.
  const uint32_t time_s = f.open_service(0x733a656d6974); // "time:s"
  REQUIRE(time_s != 0);
  CHECK(f.call(time_s, 20) == 0);
  CHECK(f.g.kernel.lookup_as<hos::SharedMemory>(f.word(3)) == memory);
}

TEST_CASE("appletOE: the application proxy's start-up interfaces") {
  Fixture f;
  const uint32_t proxy = f.open_application_proxy();
  CHECK(f.call(proxy, 0) == 0); // GetCommonStateGetter
  const uint32_t state = f.word(3);
  CHECK(f.call(state, 0) == 0); // GetEventHandle: a copy handle, signalled while a message waits
  CHECK(f.word(2) == 0x2);
  const auto event = f.g.kernel.lookup_as<hos::ReadableEvent>(f.word(3));
  REQUIRE(event);
  CHECK(event->signaled);
  CHECK(f.call(state, 1) == 0); // ReceiveMessage: FocusStateChanged
  CHECK(peek<uint32_t>(f.tls + 0x20) == 15);
  CHECK(f.call(state, 1) == 0x680); // no more messages (am module 128, description 3)
  CHECK_FALSE(event->signaled);
  CHECK(f.call(state, 5) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 0); // handheld
  CHECK(f.call(state, 9) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 1); // in focus
  CHECK(f.call(proxy, 2) == 0); // GetWindowController
  const uint32_t window = f.word(3);
  CHECK(f.call(window, 1) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == 0x51);
  CHECK(f.call(proxy, 20) == 0); // GetApplicationFunctions
  const uint32_t functions = f.word(3);
  CHECK(f.call(functions, 1, {1}) == 0x480); // PopLaunchParameter: nothing to pop (module 128, description 2)
  CHECK(f.call(functions, 21) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == 0x53552d6e65); // "en-US"
  CHECK(f.call(proxy, 11) == 0); // GetLibraryAppletCreator
  const uint32_t creator = f.word(3);
  CHECK(f.call(creator, 0, {0x12, 0}) == 0x4680); // no library applets: module 128 | 35 << 9
}

} // namespace

namespace {

// switchbrew "PTM services", psm: GetBatteryChargePercentage (0) u32, GetChargerType (1) u32 ChargerType (1 =
// EnoughPower, the official charger), OpenSession (7) IPsmSession, GetBatteryVoltageState (12, 3 = Good),
// GetRawBatteryChargePercentage (13) double, IsEnoughPowerSupplied (14) bool, GetBatteryAgePercentage (15).
TEST_CASE("psm: a full battery on the official charger") {
  Fixture f;
  const uint32_t psm = f.open_service(0x6d7370); // "psm"
  REQUIRE(psm != 0);
  CHECK(f.call(psm, 0) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 100);
  CHECK(f.call(psm, 1) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1);
  CHECK(f.call(psm, 12) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 3);
  CHECK(f.call(psm, 13) == 0);
  CHECK(peek<double>(f.tls + 0x20) == 100.0);
  CHECK(f.call(psm, 14) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 1);
  CHECK(f.call(psm, 15) == 0);
  CHECK(peek<double>(f.tls + 0x20) == 100.0);
  CHECK(f.call(psm, 7) == 0); // OpenSession
  const uint32_t session = f.word(3);
  CHECK(f.call(session, 0) == 0); // BindStateChangeEvent: one copy handle (descriptor bits 1-4 = 1)
  CHECK(f.word(2) == 0x2);
  const auto event = f.g.kernel.lookup_as<hos::ReadableEvent>(f.word(3));
  REQUIRE(event);
  CHECK_FALSE(event->signaled);
  CHECK(f.call(session, 2, {1}) == 0); // SetChargerTypeChangeEventEnabled(true)
  CHECK(f.call(session, 1) == 0);      // UnbindStateChangeEvent
}

// switchbrew "Network Interface services": IStaticService CreateGeneralServiceOld (4) / CreateGeneralService
// (5, PID and a u64); IGeneralService GetClientId (1, a ClientId u32 into a type-0x1A C buffer), CreateRequest
// (4, s32 RequirementPreset), GetCurrentIpAddress (12), IsAnyInternetRequestAccepted (21, the ClientId in a
// type-0x19 X buffer, a bool out); IRequest GetRequestState (0, RequestState 1 = Free: not submitted or error),
// GetResult (1), GetSystemEventReadableHandles (2, two handles), Cancel (3), Submit (4),
// SetConnectionConfirmationOption (11). Offline, the result is 2110-3127: module 110 | 3127 << 9 = 0x186e6e.
TEST_CASE("nifm: requests to bring the network up fail, kiln is offline") {
  Fixture f;
  const uint32_t nifm = f.open_service(0x753a6d66696e); // "nifm:u"
  REQUIRE(nifm != 0);
  CHECK(f.call(nifm, 4) == 0); // CreateGeneralServiceOld
  CHECK(f.request(nifm, 5, {0, 0}, {}, {}, {}, true) == 0); // CreateGeneralService: the PID flag, u64 reserved
  const uint32_t general = f.word(3);
  // GetClientId: raw 8 words, C flags 2 (one descriptor after the raw data, at 0x28): buffer_at, 4 bytes.
  std::memset(rt::host_pointer(buffer_at), 0, 4);
  f.message({0x00000004, 0x00000808, 0, 0, 0x49434653, 0, 1, 0, 0, 0, 0x00102000, 0x00040071});
  REQUIRE(f.send(general) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x18) == 0);
  CHECK(peek<uint32_t>(buffer_at) != 0);
  CHECK(f.call(general, 12) == 0x186e6e); // GetCurrentIpAddress: no address while offline
  CHECK(f.request(general, 21, {}, {{buffer_at, 4}}) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 0); // no internet request accepted
  CHECK(f.call(general, 4, {2}) == 0);     // CreateRequest(preset 2)
  const uint32_t request = f.word(3);
  CHECK(f.call(request, 0) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1);
  CHECK(f.call(request, 1) == 0); // nothing has failed before a Submit
  CHECK(f.call(request, 2) == 0); // two copy handles: descriptor bits 1-4 = 2
  CHECK(f.word(2) == 0x4);
  const auto state_changed = f.g.kernel.lookup_as<hos::ReadableEvent>(f.word(3));
  REQUIRE(state_changed);
  REQUIRE(f.g.kernel.lookup_as<hos::ReadableEvent>(f.word(4)));
  CHECK_FALSE(state_changed->signaled);
  CHECK(f.call(request, 11, {1}) == 0); // SetConnectionConfirmationOption
  CHECK(f.call(request, 4) == 0);       // Submit
  CHECK(state_changed->signaled);
  CHECK(f.call(request, 0) == 0);
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1); // Free again: the request ended with an error
  CHECK(f.call(request, 1) == 0x186e6e);
  CHECK(f.call(request, 3) == 0); // Cancel
  CHECK_FALSE(state_changed->signaled);
  for (uint64_t name : {0x733a6d66696eull, 0x613a6d66696eull}) CHECK(f.open_service(name) != 0); // nifm:s, nifm:a
}

// switchbrew "Applet Manager services", appletAE: OpenSystemAppletProxy (100: PID, u64 reserved, the process
// handle), OpenLibraryAppletProxy (201: PID, the process handle, u64 reserved, an A buffer AppletAttribute of
// 0x80 bytes); ILibraryAppletProxy and ISystemAppletProxy: GetCommonStateGetter (0), GetWindowController (2),
// GetLibraryAppletCreator (11), GetDebugFunctions (1000), as IApplicationProxy; no IApplicationFunctions (20).
TEST_CASE("appletAE: the library and system applet proxies give the application proxy's interfaces") {
  Fixture f;
  const uint32_t ae = f.open_service(0x454174656c707061); // "appletAE"
  REQUIRE(ae != 0);
  CHECK(f.request(ae, 201, {0, 0}, {}, {{buffer_at, 0x80}}, {}, true, {0xffff8001}) == 0);
  const uint32_t library = f.word(3);
  CHECK(f.call(library, 0) == 0); // GetCommonStateGetter
  const uint32_t state = f.word(3);
  CHECK(f.call(state, 1) == 0); // ReceiveMessage: FocusStateChanged
  CHECK(peek<uint32_t>(f.tls + 0x20) == 15);
  CHECK(f.call(library, 11) == 0); // GetLibraryAppletCreator
  CHECK(f.call(f.word(3), 0, {0x12, 0}) == 0x4680);
  CHECK(f.call(library, 20) == 0x1ba0a); // not an applet proxy's command: cmif unknown command (10, 221)
  CHECK(f.request(ae, 100, {0, 0}, {}, {}, {}, true, {0xffff8001}) == 0);
  const uint32_t system = f.word(3);
  CHECK(f.call(system, 2) == 0); // GetWindowController
  CHECK(f.call(f.word(3), 1) == 0);
  CHECK(peek<uint64_t>(f.tls + 0x20) == 0x51);
  CHECK(f.call(system, 1000) == 0); // GetDebugFunctions
}

} // namespace
