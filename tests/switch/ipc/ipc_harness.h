#pragma once
// A process with sm: installed and helpers that write requests into the main thread's TLS word by word
// (https://switchbrew.org/wiki/IPC_Marshalling; sm's commands from https://switchbrew.org/wiki/Services_API).
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "runtime/platform/switch/ipc/session.h"
#include "runtime/platform/switch/services/registry.h"
#include "tests/switch/kernel/guest_harness.h"

namespace kiln::test {

constexpr uint32_t svc_connect_to_named_port = 0x1f, svc_send_sync_request = 0x21;
constexpr uint64_t name_at = data_base + 0x200;

struct IpcFixture {
  Guest g;
  uint64_t tls = g.main->tls_address;
  std::shared_ptr<hos::ServiceRegistry> registry = std::make_shared<hos::ServiceRegistry>();
  IpcFixture() { hos::install_service_manager(g.kernel, registry); }
  void message(const std::vector<uint32_t>& words) {
    std::memset(rt::host_pointer(tls), 0xcc, 0x100);
    for (size_t i = 0; i < words.size(); ++i) poke<uint32_t>(tls + 4 * i, words[i]);
  }
  uint32_t word(size_t i) { return peek<uint32_t>(tls + 4 * i); }
  uint32_t send(uint32_t handle) {
    g.cpu().x[0] = handle;
    return Guest::svc(g.cpu(), svc_send_sync_request);
  }
  uint32_t connect_sm() {
    std::memcpy(rt::host_pointer(name_at), "sm:", 4);
    g.cpu().x[1] = name_at;
    REQUIRE(Guest::svc(g.cpu(), svc_connect_to_named_port) == 0);
    return static_cast<uint32_t>(g.cpu().x[1]);
  }
  /// sm Initialize: type 4, 10 raw words, handle descriptor with only the PID flag; the PID (8 bytes) at 0xc,
  /// raw data at 0x14, SFCI at 0x20: command 0 and its u64 placeholder.
  void sm_initialize(uint32_t sm) {
    message({0x00000004, 0x8000000a, 0x00000001, 0, 0, 0, 0, 0, 0x49434653, 0, 0, 0, 0, 0});
    REQUIRE(send(sm) == 0);
    CHECK(peek<uint32_t>(tls + 0x10) == 0x4f434653); // "SFCO" at the first 16-byte boundary after the header
    CHECK(peek<uint32_t>(tls + 0x18) == 0);          // result
  }
  /// sm GetService("kiln:t"): type 4, 8 raw words from 0x8, SFCI at 0x10, command 1, the name as a u64 at 0x20.
  uint32_t sm_get_service(uint32_t sm, uint64_t name) {
    message({0x00000004, 0x00000008, 0, 0, 0x49434653, 0, 1, 0, static_cast<uint32_t>(name), static_cast<uint32_t>(name >> 32)});
    REQUIRE(send(sm) == 0);
    return peek<uint32_t>(tls + 0x18) == 0 ? word(3) : 0;
  }
  /// sm Initialize then GetService(name); the session handle (0 if sm refused).
  uint32_t open_service(uint64_t name) {
    const uint32_t sm = connect_sm();
    sm_initialize(sm);
    return sm_get_service(sm, name);
  }
  /// appletOE OpenApplicationProxy: the PID flag and one copy handle (the current process, 0xffff8001), u64
  /// reserved; the IApplicationProxy session.
  uint32_t open_application_proxy() {
    const uint32_t oe = open_service(0x454f74656c707061); // "appletOE"
    REQUIRE(oe != 0);
    message({0x00000004, 0x80000008, 0x00000003, 0, 0, 0xffff8001, 0, 0, 0x49434653, 0, 0, 0, 0, 0});
    REQUIRE(send(oe) == 0);
    REQUIRE(peek<uint32_t>(tls + 0x18) == 0);
    return word(3);
  }
  struct Buffer {
    uint64_t address;
    uint32_t size;
  };
  /// A CMIF request (type 4): a handle descriptor when `pid` or copy handles are sent (bit 31 of word 1; then
  /// bit 0 pid, bits 1-4 the copy count, the pid's 2 words, the handles); X descriptors (2 words: index in bits
  /// 0-5, address bits 36-38 at 6-8, bits 32-35 at 12-15, size at 16-31; then address bits 0-31), A then B
  /// descriptors (3 words: size, address bits 0-31, then address bits 36-38 at 2-4 and 32-35 at 28-31); raw data
  /// at the next 16-byte boundary: "SFCI", version 0, command id, token 0, then the input. The raw size counts
  /// 16 bytes for that alignment. Returns the reply's result (at 0x18 when the reply carries one handle or none).
  uint32_t request(uint32_t session, uint32_t command, const std::vector<uint32_t>& input, const std::vector<Buffer>& x = {},
                   const std::vector<Buffer>& a = {}, const std::vector<Buffer>& b = {}, bool pid = false,
                   const std::vector<uint32_t>& copy_handles = {}) {
    const bool handles = pid || !copy_handles.empty();
    std::vector<uint32_t> w = {4u | uint32_t(x.size()) << 16 | uint32_t(a.size()) << 20 | uint32_t(b.size()) << 24,
                               uint32_t(8 + input.size()) | (handles ? 0x80000000u : 0)};
    if (handles) {
      w.push_back(uint32_t(pid) | uint32_t(copy_handles.size()) << 1);
      if (pid) w.insert(w.end(), {0, 0});
      w.insert(w.end(), copy_handles.begin(), copy_handles.end());
    }
    for (size_t i = 0; i < x.size(); ++i)
      w.insert(w.end(), {uint32_t(i) | uint32_t((x[i].address >> 36) & 7) << 6 | uint32_t((x[i].address >> 32) & 0xf) << 12 | x[i].size << 16,
                         uint32_t(x[i].address)});
    for (const auto* list : {&a, &b})
      for (const Buffer& d : *list)
        w.insert(w.end(), {d.size, uint32_t(d.address), uint32_t((d.address >> 36) & 7) << 2 | uint32_t((d.address >> 32) & 0xf) << 28});
    while (w.size() % 4) w.push_back(0);
    w.insert(w.end(), {0x49434653, 0, command, 0});
    w.insert(w.end(), input.begin(), input.end());
    message(w);
    REQUIRE(send(session) == 0);
    return peek<uint32_t>(tls + 0x18);
  }
  /// Add(a, b) on a non-domain session: SFCI at 0x10, command 0, a at 0x20, b at 0x24; 8 raw words.
  uint32_t add(uint32_t session, uint32_t a, uint32_t b, uint32_t* result) {
    message({0x00000004, 0x00000008, 0, 0, 0x49434653, 0, 0, 0, a, b});
    REQUIRE(send(session) == 0);
    *result = peek<uint32_t>(tls + 0x18);
    return peek<uint32_t>(tls + 0x20);
  }
};


} // namespace kiln::test
