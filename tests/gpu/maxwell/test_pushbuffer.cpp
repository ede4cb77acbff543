// Method header forms, GPFIFO entries and the parser's edge cases. Expected words are composed by hand from the
// field layout in clb06f.h (NVB06F_DMA_* and NVB06F_GP_ENTRY*).
#include <catch2/catch.hpp>

#include "runtime/gpu/maxwell/classes.h"
#include "tests/gpu/maxwell/maxwell_test_support.h"

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;

TEST_CASE("method headers decode every form", "[maxwell][pushbuffer]") {
  // SEC_OP 1 (incrementing), count 3, subchannel 2, method 0x0d78 (word index 0x35e)
  MethodHeader h = MethodHeader::decode((1u << 29) | (3u << 16) | (2u << 13) | 0x35e);
  CHECK(h.kind == HeaderKind::increasing);
  CHECK(h.count == 3);
  CHECK(h.subchannel == 2);
  CHECK(h.method == 0x0d78);
  CHECK(h.encode() == 0x2003435eu);
  CHECK(MethodHeader::decode(0x60010000u | 0x100).kind == HeaderKind::non_increasing); // SEC_OP 3
  CHECK(MethodHeader::decode(0xa0010000u).kind == HeaderKind::increment_once);          // SEC_OP 5
  const MethodHeader immediate = MethodHeader::decode((4u << 29) | (0x1abcu << 16) | (7u << 13) | 0x44);
  CHECK(immediate.kind == HeaderKind::immediate);
  CHECK(immediate.count == 0x1abc);
  CHECK(immediate.subchannel == 7);
  CHECK(immediate.method == 0x110);
  CHECK(MethodHeader::decode(0xe0000000u).kind == HeaderKind::end_segment);
  CHECK(MethodHeader::decode(0xc0000000u).kind == HeaderKind::invalid);
  // Old incrementing form: SEC_OP 0, TERT_OP 0, count at 28:18, byte address at 12:2.
  const MethodHeader old = MethodHeader::decode((5u << 18) | (1u << 13) | 0x1b00);
  CHECK(old.kind == HeaderKind::increasing);
  CHECK(old.count == 5);
  CHECK(old.subchannel == 1);
  CHECK(old.method == 0x1b00);
  CHECK(MethodHeader::decode(0x00000000u).kind == HeaderKind::increasing); // DMA_NOP: no data
  CHECK(MethodHeader::decode(0x00000000u).count == 0);
  CHECK(MethodHeader::decode(1u << 16).kind == HeaderKind::subdevice_mask);
}

TEST_CASE("GPFIFO entries round-trip their fields", "[maxwell][pushbuffer]") {
  const GpfifoEntry entry = GpfifoEntry::decode(0x12345678u, (1u << 31) | (0x100u << 10) | (1u << 9) | 0x2a);
  CHECK(entry.address == 0x2a12345678ull);
  CHECK(entry.length == 0x100);
  CHECK(entry.subroutine);
  CHECK(entry.sync_wait);
  CHECK_FALSE(entry.privileged);
  CHECK(GpfifoEntry::decode(entry.word0(), entry.word1()) == entry);
  const GpfifoEntry control = GpfifoEntry::decode(0, 0x3); // length 0: control entry, opcode PB_CRC
  CHECK(control.length == 0);
  CHECK(control.control_opcode == 3);
}

TEST_CASE("each header form reaches the engine's registers", "[maxwell][pushbuffer]") {
  TestGpu t;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  const uint32_t three[] = {0x11, 0x22, 0x33};
  s.incrementing(0, "SET_COLOR_CLEAR_VALUE", three);          // 0x0d80, 0x0d84, 0x0d88
  s.non_incrementing(0, "SET_Z_CLEAR_VALUE", three);          // 0x0d90 three times: last wins
  s.increment_once(0, "SET_SCISSOR_ENABLE", three, 1);        // 0x0e10, then 0x0e14 twice
  s.immediate(0, "SET_STENCIL_CLEAR_VALUE", 0x1fff);          // 0x0da0
  t.submit(s);
  REQUIRE(t.run().idle);
  Engine* threed = t.engine(0, ClassId::threed);
  REQUIRE(threed != nullptr);
  CHECK(threed->reg(0x0d80) == 0x11);
  CHECK(threed->reg(0x0d84) == 0x22);
  CHECK(threed->reg(0x0d88) == 0x33);
  CHECK(threed->reg(0x0d90) == 0x33);
  CHECK(threed->reg(0x0e10) == 0x11);
  CHECK(threed->reg(0x0e14) == 0x33);
  CHECK(threed->reg(0x0e18) == 0);
  CHECK(threed->reg(0x0da0) == 0x1fff);
  CHECK(t.gpu.diagnostics().empty());
}

TEST_CASE("a header's data continues across GPFIFO entries, zero-length entries and END_PB_SEGMENT",
          "[maxwell][pushbuffer]") {
  TestGpu t;
  StreamBuilder first;
  first.bind(0, ClassId::threed);
  first.header(HeaderKind::increasing, 0, 0x0d80, 4).word(1).word(2); // two of four words here
  StreamBuilder second;
  second.word(3).word(4);                                              // the other two in the next entry
  second.header(HeaderKind::end_segment, 0, 0, 0);
  second.header(HeaderKind::immediate, 0, 0x0da0, 5);                  // skipped: after END_PB_SEGMENT
  t.submit(first);
  t.gpu.submit(0, GpfifoEntry{});                                      // a control NOP between them
  t.submit(second);
  REQUIRE(t.run().idle);
  Engine* threed = t.engine(0, ClassId::threed);
  CHECK(threed->reg(0x0d80) == 1);
  CHECK(threed->reg(0x0d84) == 2);
  CHECK(threed->reg(0x0d88) == 3);
  CHECK(threed->reg(0x0d8c) == 4);
  CHECK(threed->reg(0x0da0) == 0);
}

TEST_CASE("malformed streams are reported with channel, GPU address and method", "[maxwell][pushbuffer]") {
  SECTION("method to an unbound subchannel") {
    TestGpu t;
    StreamBuilder s;
    s.bind(0, ClassId::threed);
    s.header(HeaderKind::immediate, 3, 0x0da0, 1);
    const GpfifoEntry entry = t.submit(s);
    t.run();
    REQUIRE(t.gpu.diagnostics().size() == 1);
    const Diagnostic& d = t.gpu.diagnostics()[0];
    CHECK(d.channel == 0);
    CHECK(d.gpu_address == entry.address + 8); // third word: SET_OBJECT header, class, then this header
    CHECK(d.method == 0x0da0);
    CHECK(d.message.find("subchannel 3") != std::string::npos);
    CHECK(t.gpu.channel(0).state() == Channel::State::faulted);
  }
  SECTION("reserved header form") {
    TestGpu t;
    StreamBuilder s;
    s.word(0xc0000000u);
    const GpfifoEntry entry = t.submit(s);
    t.run();
    REQUIRE(t.gpu.diagnostics().size() == 1);
    CHECK(t.gpu.diagnostics()[0].gpu_address == entry.address);
    CHECK(t.gpu.diagnostics()[0].message.find("invalid method header") != std::string::npos);
  }
  SECTION("GPFIFO entry past mapped memory") {
    TestGpu t;
    t.gpu.create_channel();
    t.gpu.submit(0, GpfifoEntry::commands(arena + arena_size - 8, 4)); // 16 bytes, 8 of them unmapped
    t.run();
    REQUIRE(t.gpu.diagnostics().size() == 1);
    CHECK(t.gpu.diagnostics()[0].gpu_address == arena + arena_size - 8);
    CHECK(t.gpu.diagnostics()[0].message.find("not in mapped GPU memory") != std::string::npos);
  }
  SECTION("unknown class") {
    TestGpu t;
    StreamBuilder s;
    s.header(HeaderKind::increasing, 1, 0, 1).word(0xc397); // a class kiln does not implement
    t.submit(s);
    t.run();
    REQUIRE(t.gpu.diagnostics().size() == 1);
    CHECK(t.gpu.diagnostics()[0].message.find("class 0xc397") != std::string::npos);
  }
}

TEST_CASE("method names come from the class headers", "[maxwell][pushbuffer]") {
  CHECK(method_name(0xb197, 0x1b0c) == "SET_REPORT_SEMAPHORE_D");
  CHECK(method_name(0xb197, 0x0810 + 3 * 64) == "SET_COLOR_TARGET_FORMAT(3)");
  CHECK(method_name(0xb197, 0x3808) == "CALL_MME_MACRO(1)");
  CHECK(method_name(0xb06f, 0x1c) == "SEMAPHORED");
  CHECK(method_name(0xb0b5, 0x300) == "LAUNCH_DMA");
  CHECK(find_method(0xb197, "SET_SCISSOR_HORIZONTAL", 2) == 0x0e24u);
  CHECK_FALSE(find_method(0xb197, "NO_SUCH_METHOD").has_value());
  StreamBuilder s;
  s.bind(0, ClassId::copy);
  CHECK_THROWS(s.method(0, "SET_VIEWPORT_SCALE_X", 1)); // a 3D name on the copy class
}
