// Threads, events, WaitSynchronization, arbitration and the tick, each through `svc #n` as switchbrew's "SVC"
// page gives the registers. Guest threads run host functions placed in the function table at guest addresses.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <vector>

#include "runtime/platform/switch/kernel/ticks.h"
#include "tests/switch/kernel/guest_harness.h"

namespace {

using namespace kiln;
using kiln::test::eventually;
using kiln::test::Guest;
using kiln::test::peek;
using kiln::test::poke;
using Kind = hos::Kernel::WaitKind;

constexpr uint32_t svc_create_thread = 0x08, svc_start_thread = 0x09, svc_exit_thread = 0x0a, svc_sleep_thread = 0x0b,
                   svc_get_thread_priority = 0x0c, svc_set_thread_priority = 0x0d, svc_get_thread_core_mask = 0x0e,
                   svc_set_thread_core_mask = 0x0f, svc_get_current_processor_number = 0x10, svc_signal_event = 0x11,
                   svc_clear_event = 0x12, svc_close_handle = 0x16, svc_reset_signal = 0x17, svc_wait_synchronization = 0x18,
                   svc_cancel_synchronization = 0x19, svc_arbitrate_lock = 0x1a, svc_arbitrate_unlock = 0x1b,
                   svc_wait_process_wide_key = 0x1c, svc_signal_process_wide_key = 0x1d, svc_get_system_tick = 0x1e,
                   svc_get_thread_id = 0x25, svc_wait_for_address = 0x34, svc_signal_to_address = 0x35, svc_create_event = 0x45;
constexpr uint32_t current_thread = 0xffff8000;
constexpr uint64_t handles_at = test::data_base + 0x100;   // handle arrays for WaitSynchronization
constexpr uint64_t mutex_word = test::data_base + 0x400;
constexpr uint64_t condition_key = test::data_base + 0x404;
constexpr uint64_t arbiter_word = test::data_base + 0x408;
constexpr uint64_t results_at = test::data_base + 0x500;   // what guest threads write back, 8 bytes per slot

// Guest thread bodies: the argument (x0) is a slot index; each writes what it saw into results_at and exits.
std::atomic<uint32_t> event_to_wait{0};
void record_identity(rt::Cpu* c) {
  const uint64_t slot = results_at + c->x[0] * 8;
  poke<uint64_t>(slot, rt::read_system_register(c, 0xde83, 0)); // TPIDRRO_EL0
  c->x[1] = current_thread;
  Guest::svc(*c, svc_get_thread_id);
  poke<uint64_t>(slot + 8, c->x[1]);
  Guest::svc(*c, svc_exit_thread);
}
void wait_on_event(rt::Cpu* c) {
  const uint64_t slot = results_at + c->x[0] * 8;
  poke<uint32_t>(handles_at + 0x80, event_to_wait.load());
  c->x[1] = handles_at + 0x80;
  c->x[2] = 1;
  c->x[3] = ~uint64_t{0};
  poke<uint64_t>(slot, Guest::svc(*c, svc_wait_synchronization));
}
void lock_mutex(rt::Cpu* c) { // argument: slot; the owner handle is in the mutex word (with the listener bit)
  const uint64_t slot = results_at + c->x[0] * 8;
  const uint32_t self = c->x[0] == 1 ? peek<uint32_t>(results_at + 0x40) : peek<uint32_t>(results_at + 0x48);
  c->x[0] = peek<uint32_t>(mutex_word) & ~0x40000000u;
  c->x[1] = mutex_word;
  c->x[2] = self;
  poke<uint64_t>(slot, Guest::svc(*c, svc_arbitrate_lock));
  poke<uint64_t>(slot + 0x20, peek<uint32_t>(mutex_word)); // the word when this thread got the mutex
  c->x[0] = mutex_word; // leave the critical section: the next waiter gets the mutex
  Guest::svc(*c, svc_arbitrate_unlock);
}
void wait_condition(rt::Cpu* c) { // holds the mutex (word = own handle), waits on the key
  const uint32_t self = peek<uint32_t>(results_at + 0x40);
  poke<uint32_t>(mutex_word, self);
  c->x[0] = mutex_word;
  c->x[1] = condition_key;
  c->x[2] = self;
  c->x[3] = ~uint64_t{0};
  poke<uint64_t>(results_at + 8, Guest::svc(*c, svc_wait_process_wide_key));
  poke<uint64_t>(results_at + 0x10, peek<uint32_t>(mutex_word));
}
void wait_address_equal(rt::Cpu* c) {
  const uint64_t slot = results_at + c->x[0] * 8;
  c->x[0] = arbiter_word;
  c->x[1] = 2; // WaitIfEqual
  c->x[2] = 0;
  c->x[3] = ~uint64_t{0};
  poke<uint64_t>(slot, Guest::svc(*c, svc_wait_for_address));
}
void returns_at_once(rt::Cpu* c) { poke<uint64_t>(results_at + c->x[0] * 8, 0x600d); }

constexpr uint64_t entry_record_identity = 0x7100010000, entry_wait_on_event = 0x7100010100, entry_lock_mutex = 0x7100010200,
                   entry_wait_condition = 0x7100010300, entry_wait_address_equal = 0x7100010400, entry_returns_at_once = 0x7100010500;
const rt::FunctionEntry guest_functions[] = {
    {entry_record_identity, record_identity}, {entry_wait_on_event, wait_on_event}, {entry_lock_mutex, lock_mutex},
    {entry_wait_condition, wait_condition}, {entry_wait_address_equal, wait_address_equal}, {entry_returns_at_once, returns_at_once},
};

struct Fixture {
  Guest g;
  Fixture() { rt::set_function_table(guest_functions, std::size(guest_functions)); }
  uint32_t create_thread(uint64_t entry, uint64_t argument, int32_t priority = 0x2c, int32_t core = -2, uint32_t expected = 0) {
    rt::Cpu& c = g.cpu();
    c.x[1] = entry;
    c.x[2] = argument;
    c.x[3] = 0x7100300000 + argument * 0x10000;
    c.x[4] = static_cast<uint32_t>(priority);
    c.x[5] = static_cast<uint32_t>(core);
    CHECK(Guest::svc(c, svc_create_thread) == expected);
    return static_cast<uint32_t>(c.x[1]);
  }
  uint32_t start(uint32_t handle) {
    g.cpu().x[0] = handle;
    return Guest::svc(g.cpu(), svc_start_thread);
  }
  /// WaitSynchronization over `handles`; returns {result, index}.
  std::pair<uint32_t, int32_t> wait(const std::vector<uint32_t>& handles, int64_t timeout) {
    for (size_t i = 0; i < handles.size(); ++i) poke<uint32_t>(handles_at + 4 * i, handles[i]);
    rt::Cpu& c = g.cpu();
    c.x[1] = handles_at;
    c.x[2] = handles.size();
    c.x[3] = static_cast<uint64_t>(timeout);
    const uint32_t r = Guest::svc(c, svc_wait_synchronization);
    return {r, static_cast<int32_t>(c.x[1])};
  }
  std::pair<uint32_t, uint32_t> create_event() {
    REQUIRE(Guest::svc(g.cpu(), svc_create_event) == 0);
    return {static_cast<uint32_t>(g.cpu().x[1]), static_cast<uint32_t>(g.cpu().x[2])};
  }
  uint32_t call(uint32_t svc, uint64_t x0, uint64_t x1 = 0, uint64_t x2 = 0, uint64_t x3 = 0) {
    rt::Cpu& c = g.cpu();
    c.x[0] = x0;
    c.x[1] = x1;
    c.x[2] = x2;
    c.x[3] = x3;
    return Guest::svc(c, svc);
  }
};

TEST_CASE("A guest thread runs on its own host thread with its own TLS block and thread id") {
  Fixture f;
  const uint32_t handle = f.create_thread(entry_record_identity, 0);
  CHECK(f.wait({handle}, 0).first == 0xea01); // not started: not signalled (TimedOut)
  REQUIRE(f.start(handle) == 0);
  CHECK(f.start(handle) == 0xfa01); // InvalidState: already started
  const auto [result, index] = f.wait({handle}, -1);
  CHECK(result == 0);
  CHECK(index == 0);
  const uint64_t tls = peek<uint64_t>(results_at);
  CHECK(tls != f.g.main->tls_address);
  CHECK(tls % 0x200 == 0);
  CHECK(f.g.kernel.memory().query(tls).state == 0xc); // ThreadLocal
  CHECK(rt::read_system_register(&f.g.cpu(), 0xde83, 0) == f.g.main->tls_address);
  f.call(svc_get_thread_id, 0, current_thread);
  const uint64_t main_id = f.g.cpu().x[1];
  CHECK(peek<uint64_t>(results_at + 8) != main_id);
  f.call(svc_get_thread_id, 0, handle);
  CHECK(f.g.cpu().x[1] == peek<uint64_t>(results_at + 8));
}

TEST_CASE("A thread function that returns ends its thread") {
  Fixture f;
  const uint32_t handle = f.create_thread(entry_returns_at_once, 2);
  REQUIRE(f.start(handle) == 0);
  CHECK(f.wait({handle}, 5000000000).first == 0);
  CHECK(peek<uint64_t>(results_at + 16) == 0x600d);
}

TEST_CASE("Thread priorities and core masks are checked against the process's") {
  Fixture f;
  f.create_thread(entry_returns_at_once, 0, 0x10, -2, 0xe001); // above the highest priority 28: InvalidPriority
  f.create_thread(entry_returns_at_once, 0, 0x2c, 3, 0xe201);  // core 3 is not the application's: InvalidCoreId
  const uint32_t handle = f.create_thread(entry_returns_at_once, 0, 0x2c, -2);
  CHECK(f.call(svc_get_thread_core_mask, 0, 0, handle) == 0);
  CHECK(f.g.cpu().x[1] == 0);
  CHECK(f.g.cpu().x[2] == 1);
  CHECK(f.call(svc_set_thread_core_mask, handle, 1, 0x6) == 0);
  f.call(svc_get_thread_core_mask, 0, 0, handle);
  CHECK(f.g.cpu().x[1] == 1);
  CHECK(f.g.cpu().x[2] == 6);
  CHECK(f.call(svc_set_thread_core_mask, handle, 0, 0x6) == 0xe801);               // ideal core outside the mask
  CHECK(f.call(svc_set_thread_core_mask, handle, 1, 0x8) == 0xe201);               // core 3
  CHECK(f.call(svc_set_thread_core_mask, handle, 0xfffffffd, 0x2) == 0);           // -3: keep ideal core 1
  CHECK(f.call(svc_set_thread_core_mask, handle, 0xfffffffe, 0) == 0);             // -2: the process default
  f.call(svc_get_thread_core_mask, 0, 0, handle);
  CHECK(f.g.cpu().x[1] == 0);
  CHECK(f.g.cpu().x[2] == 1);
  CHECK(f.call(svc_set_thread_priority, handle, 0x30) == 0);
  f.call(svc_get_thread_priority, 0, handle);
  CHECK(f.g.cpu().x[1] == 0x30);
  CHECK(f.call(svc_set_thread_priority, handle, 0x3c) == 0xe001);
  CHECK(f.call(svc_get_thread_priority, 0, 0x1234) == 0xe401);
  f.call(svc_get_current_processor_number, 0);
  CHECK(f.g.cpu().x[0] == 0);
}

TEST_CASE("SleepThread yields for 0, -1 and -2 and sleeps at least the time asked") {
  Fixture f;
  for (const uint64_t yield : {uint64_t{0}, ~uint64_t{0}, ~uint64_t{1}}) f.call(svc_sleep_thread, yield);
  const auto started = std::chrono::steady_clock::now();
  f.call(svc_sleep_thread, 20000000);
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(20));
}

TEST_CASE("Events: signal, wait without clearing, clear, reset, and the handle checks") {
  Fixture f;
  const auto [writable, readable] = f.create_event();
  CHECK(f.wait({readable}, 0).first == 0xea01);
  CHECK(f.call(svc_reset_signal, readable) == 0xfa01); // not signalled: InvalidState
  CHECK(f.call(svc_signal_event, readable) == 0xe401); // only the writable end signals
  CHECK(f.call(svc_signal_event, writable) == 0);
  CHECK(f.wait({readable}, 0) == std::pair<uint32_t, int32_t>{0, 0});
  CHECK(f.wait({readable}, 0).first == 0); // waiting does not clear it
  CHECK(f.call(svc_clear_event, writable) == 0);
  CHECK(f.wait({readable}, 0).first == 0xea01);
  f.call(svc_signal_event, writable);
  CHECK(f.call(svc_reset_signal, readable) == 0);
  CHECK(f.wait({readable}, 0).first == 0xea01);
  CHECK(f.wait({writable}, 0).first == 0xe401); // the writable end cannot be waited on
  const auto started = std::chrono::steady_clock::now();
  CHECK(f.wait({readable}, 30000000).first == 0xea01);
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(30));
  CHECK(f.call(svc_close_handle, writable) == 0);
  CHECK(f.call(svc_close_handle, readable) == 0);
  CHECK(f.call(svc_close_handle, readable) == 0xe401);
}

TEST_CASE("WaitSynchronization takes up to 64 handles and returns the signalled one's index") {
  Fixture f;
  std::vector<uint32_t> readable, writable;
  for (int i = 0; i < 65; ++i) {
    const auto [w, r] = f.create_event();
    writable.push_back(w);
    readable.push_back(r);
  }
  CHECK(f.wait(readable, 0).first == 0xee01); // 65 handles: OutOfRange
  readable.pop_back();
  f.call(svc_signal_event, writable[63]);
  CHECK(f.wait(readable, -1) == std::pair<uint32_t, int32_t>{0, 63});
  f.call(svc_signal_event, writable[17]);
  CHECK(f.wait(readable, -1) == std::pair<uint32_t, int32_t>{0, 17}); // the lowest signalled index
  CHECK(f.wait({}, 1000000).first == 0xea01); // no handles: a timed sleep
}

TEST_CASE("A waiting thread wakes when another thread signals, and CancelSynchronization ends a wait") {
  Fixture f;
  const auto [writable, readable] = f.create_event();
  event_to_wait = readable;
  const uint32_t signalled = f.create_thread(entry_wait_on_event, 0);
  const uint32_t cancelled = f.create_thread(entry_wait_on_event, 1);
  poke<uint64_t>(results_at, 1);
  poke<uint64_t>(results_at + 8, 1);
  f.start(signalled);
  f.start(cancelled);
  auto thread = [&](uint32_t handle) { return f.g.kernel.thread_for(handle); };
  REQUIRE(eventually([&] { return thread(signalled)->in_synchronization && thread(cancelled)->in_synchronization; }));
  CHECK(f.call(svc_cancel_synchronization, cancelled) == 0);
  CHECK(f.wait({cancelled}, -1).first == 0);
  CHECK(peek<uint64_t>(results_at + 8) == 0xec01); // Cancelled
  CHECK(peek<uint64_t>(results_at) == 1);         // the other still waits
  f.call(svc_signal_event, writable);
  CHECK(f.wait({signalled}, -1).first == 0);
  CHECK(peek<uint64_t>(results_at) == 0);
  // Cancelling a thread that is not waiting makes its next wait return Cancelled at once.
  CHECK(f.call(svc_cancel_synchronization, current_thread) == 0);
  CHECK(f.wait({readable}, -1).first == 0xec01);
}

TEST_CASE("ArbitrateLock queues behind the owner and ArbitrateUnlock hands the mutex over by priority") {
  Fixture f;
  const uint32_t low = f.create_thread(entry_lock_mutex, 1, 0x30);
  const uint32_t high = f.create_thread(entry_lock_mutex, 2, 0x2c);
  poke<uint64_t>(results_at + 0x40, low);
  poke<uint64_t>(results_at + 0x48, high);
  // The main thread owns the mutex and others wait: its handle with the listener bit (0x40000000).
  poke<uint32_t>(mutex_word, f.g.main_handle() | 0x40000000);
  f.start(low);
  REQUIRE(eventually([&] { return f.g.kernel.waiting_threads(Kind::mutex, f.g.main_handle()) == 1; }));
  f.start(high);
  REQUIRE(eventually([&] { return f.g.kernel.waiting_threads(Kind::mutex, f.g.main_handle()) == 2; }));
  CHECK(f.call(svc_arbitrate_unlock, mutex_word) == 0);
  CHECK(f.wait({high}, -1).first == 0);
  CHECK(f.wait({low}, -1).first == 0);
  CHECK(peek<uint64_t>(results_at + 16) == 0);
  CHECK(peek<uint64_t>(results_at + 16 + 0x20) == (high | 0x40000000)); // priority 0x2c first, while the other waited
  CHECK(peek<uint64_t>(results_at + 8) == 0);
  CHECK(peek<uint64_t>(results_at + 8 + 0x20) == low); // handed over by the high thread's unlock, nobody behind it
  CHECK(peek<uint32_t>(mutex_word) == 0);              // the last unlock with no waiters frees the word
  CHECK(f.call(svc_arbitrate_unlock, mutex_word + 1) == 0xcc01); // InvalidAddress
  CHECK(f.call(svc_arbitrate_lock, f.g.main_handle(), 0x10, f.g.main_handle()) == 0xd401); // unmapped
  // A lock whose word no longer says "owner with listeners" returns at once.
  poke<uint32_t>(mutex_word + 8, 0);
  CHECK(f.call(svc_arbitrate_lock, high, mutex_word + 8, f.g.main_handle()) == 0);
  CHECK(f.call(svc_arbitrate_lock, 0x1234, mutex_word, f.g.main_handle()) == 0); // the word does not name 0x1234
}

TEST_CASE("WaitProcessWideKeyAtomic releases the mutex and SignalProcessWideKey gives it back") {
  Fixture f;
  const uint32_t waiter = f.create_thread(entry_wait_condition, 1);
  poke<uint64_t>(results_at + 0x40, waiter);
  poke<uint32_t>(mutex_word, 0);
  poke<uint32_t>(condition_key, 0);
  poke<uint64_t>(results_at + 8, 1);
  f.start(waiter);
  REQUIRE(eventually([&] { return f.g.kernel.waiting_threads(Kind::condition, condition_key) == 1; }));
  CHECK(peek<uint32_t>(mutex_word) == 0);    // released on the waiter's way in
  CHECK(peek<uint32_t>(condition_key) == 1); // the key says a thread waits
  // The main thread takes the mutex, then signals: the waiter now waits for the mutex behind it.
  poke<uint32_t>(mutex_word, f.g.main_handle());
  CHECK(f.call(svc_signal_process_wide_key, condition_key, 1) == 0);
  CHECK(peek<uint32_t>(condition_key) == 0);
  CHECK(peek<uint32_t>(mutex_word) == (f.g.main_handle() | 0x40000000));
  CHECK(f.g.kernel.waiting_threads(Kind::mutex, f.g.main_handle()) == 1);
  CHECK(peek<uint64_t>(results_at + 8) == 1); // still asleep
  CHECK(f.call(svc_arbitrate_unlock, mutex_word) == 0);
  CHECK(f.wait({waiter}, -1).first == 0);
  CHECK(peek<uint64_t>(results_at + 8) == 0);
  CHECK(peek<uint64_t>(results_at + 0x10) == waiter); // it holds the mutex, nobody else waits
  // A timed wait that nobody signals returns TimedOut with the mutex released.
  poke<uint32_t>(mutex_word, f.g.main_handle());
  CHECK(f.call(svc_wait_process_wide_key, mutex_word, condition_key, f.g.main_handle(), 2000000) == 0xea01);
  CHECK(peek<uint32_t>(mutex_word) == 0);
  CHECK(f.g.kernel.waiting_threads(Kind::condition, condition_key) == 0);
  CHECK(f.call(svc_wait_process_wide_key, mutex_word + 2, condition_key, 0, 0) == 0xcc01);
}

TEST_CASE("WaitForAddress checks each arbitration type's condition") {
  Fixture f;
  auto wait = [&](uint32_t type, int64_t value, int64_t timeout) { return f.call(svc_wait_for_address, arbiter_word, type, static_cast<uint64_t>(value), static_cast<uint64_t>(timeout)); };
  poke<int32_t>(arbiter_word, 5);
  CHECK(wait(0, 3, 0) == 0xfa01);  // WaitIfLessThan: 5 < 3 fails -> InvalidState
  CHECK(wait(0, 10, 0) == 0xea01); // condition holds, timeout 0 -> TimedOut
  CHECK(wait(1, 10, 0) == 0xea01); // DecrementAndWaitIfLessThan: decremented, then TimedOut
  CHECK(peek<int32_t>(arbiter_word) == 4);
  CHECK(wait(1, 4, 0) == 0xfa01);  // 4 < 4 fails: no decrement
  CHECK(peek<int32_t>(arbiter_word) == 4);
  CHECK(wait(2, 5, 0) == 0xfa01);  // WaitIfEqual
  CHECK(wait(2, 4, 1000000) == 0xea01);
  poke<int64_t>(arbiter_word, 0x100000004);
  CHECK(wait(3, 0x100000004, 0) == 0xea01); // WaitIfEqual64 compares all 64 bits
  CHECK(wait(3, 4, 0) == 0xfa01);
  CHECK(wait(4, 0, 0) == 0xf001); // InvalidEnumValue
  CHECK(f.call(svc_wait_for_address, arbiter_word + 2, 0, 0, 0) == 0xcc01);
  CHECK(f.call(svc_wait_for_address, 0x10, 0, 0, 0) == 0xd401);
}

TEST_CASE("SignalToAddress wakes waiters by priority and updates the word as each signal type says") {
  Fixture f;
  poke<int32_t>(arbiter_word, 0);
  std::vector<uint32_t> threads;
  for (uint64_t slot = 0; slot < 3; ++slot) {
    poke<uint64_t>(results_at + slot * 8, 1);
    threads.push_back(f.create_thread(entry_wait_address_equal, slot, static_cast<int32_t>(0x30 - slot))); // slot 2 highest
    f.start(threads.back());
    REQUIRE(eventually([&] { return f.g.kernel.waiting_threads(Kind::address, arbiter_word) == slot + 1; }));
  }
  // SignalAndModifyByWaitingCountIfEqual with 3 waiters and count 1: more wait than are woken -> value stays.
  CHECK(f.call(svc_signal_to_address, arbiter_word, 2, 1, 1) == 0xfa01); // the word is 0, not 1
  CHECK(f.call(svc_signal_to_address, arbiter_word, 2, 0, 1) == 0);
  CHECK(peek<int32_t>(arbiter_word) == 0);
  CHECK(f.wait({threads[2]}, -1).first == 0); // the highest priority went first
  CHECK(peek<uint64_t>(results_at + 16) == 0);
  CHECK(f.g.kernel.waiting_threads(Kind::address, arbiter_word) == 2);
  // Two waiters, count 2: all are woken -> value - 1.
  CHECK(f.call(svc_signal_to_address, arbiter_word, 2, 0, 2) == 0);
  CHECK(peek<int32_t>(arbiter_word) == -1);
  CHECK(f.wait({threads[0], threads[1]}, -1).first == 0);
  REQUIRE(eventually([&] { return peek<uint64_t>(results_at) == 0 && peek<uint64_t>(results_at + 8) == 0; }));
  // No waiters: SignalAndIncrementIfEqual and the modify type both add one.
  CHECK(f.call(svc_signal_to_address, arbiter_word, 1, 7, 1) == 0xfa01);
  CHECK(f.call(svc_signal_to_address, arbiter_word, 1, static_cast<uint32_t>(-1), 1) == 0);
  CHECK(peek<int32_t>(arbiter_word) == 0);
  CHECK(f.call(svc_signal_to_address, arbiter_word, 2, 0, 0) == 0);
  CHECK(peek<int32_t>(arbiter_word) == 1);
  CHECK(f.call(svc_signal_to_address, arbiter_word, 0, 0, 0) == 0); // plain Signal leaves the word alone
  CHECK(peek<int32_t>(arbiter_word) == 1);
  CHECK(f.call(svc_signal_to_address, arbiter_word, 3, 0, 0) == 0xf001);
}

TEST_CASE("SignalAndModifyByWaitingCountIfEqual with count 0 wakes all and subtracts two") {
  Fixture f;
  poke<int32_t>(arbiter_word, 0);
  poke<uint64_t>(results_at, 1);
  const uint32_t thread = f.create_thread(entry_wait_address_equal, 0);
  f.start(thread);
  REQUIRE(eventually([&] { return f.g.kernel.waiting_threads(Kind::address, arbiter_word) == 1; }));
  CHECK(f.call(svc_signal_to_address, arbiter_word, 2, 0, 0) == 0);
  CHECK(peek<int32_t>(arbiter_word) == -2);
  CHECK(f.wait({thread}, -1).first == 0);
}

TEST_CASE("GetSystemTick, CNTPCT_EL0 and CNTVCT_EL0 count at CNTFRQ_EL0 = 19.2 MHz") {
  Fixture f;
  CHECK(rt::read_system_register(&f.g.cpu(), 0xdf00, 0) == 19200000);
  CHECK(hos::ticks_from_nanoseconds(1000000000) == 19200000);
  CHECK(hos::ticks_from_nanoseconds(1000) == 19); // 19.2 ticks per microsecond, truncated
  CHECK(hos::ticks_from_nanoseconds(uint64_t{1} << 62) == 88544371553805847); // floor(2^62 * 0.0192), without overflow
  f.call(svc_get_system_tick, 0);
  const uint64_t first = f.g.cpu().x[0];
  const uint64_t counter = rt::read_system_register(&f.g.cpu(), 0xdf01, 0);
  CHECK(counter >= first);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const uint64_t virtual_counter = rt::read_system_register(&f.g.cpu(), 0xdf02, 0);
  CHECK(virtual_counter - first >= 960000); // 50 ms at 19.2 MHz
}

} // namespace
