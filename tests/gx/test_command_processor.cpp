// The GX command grammar and the CP/XF/BP banks, driven by streams built from the documented formats.
#include <bit>
#include <random>

#include <catch2/catch.hpp>

#include "tests/gx/gx_harness.h"

using namespace kiln::gx;
using namespace kiln::gx::test;

namespace {
// One direct xy position of s16 per vertex: VAT 0 with format 3 (s16), no fraction.
GxStream& s16_xy_format(GxStream& s) {
  return s.cp(0x50, vcd_lo(1)).cp(0x60, 0).cp(0x70, vat_a(false, 3, 0));
}
GxStream& triangle(GxStream& s) {
  s.primitive(triangles, 0, 3);
  for (int i = 0; i < 3; ++i) s.u16(static_cast<uint16_t>(i)).u16(static_cast<uint16_t>(i * 2));
  return s;
}
} // namespace

TEST_CASE("GX NOPs and LOAD_CP set the vertex descriptors", "[gx]") {
  Gx gx;
  GxStream s;
  s.nop().nop().cp(0x50, 0x00000600).cp(0x60, 0x5).cp(0x73, 0x12345678).cp(0xA4, 0x0FFFFFE0).cp(0xB4, 0x1FF);
  REQUIRE(gx.run(s) == s.bytes.size());
  CHECK(gx.processor.cp().vcd_lo == 0x600);
  CHECK(gx.processor.cp().vcd_hi == 0x5);
  CHECK(gx.processor.cp().vat_a[3] == 0x12345678);
  CHECK(gx.processor.cp().array_base[4] == 0x03FFFFE0); // 26 physical address bits
  CHECK(gx.processor.cp().array_stride[4] == 0xFF);     // 8 bits of stride
  CHECK(gx.processor.diagnostics().empty());
}

TEST_CASE("GX LOAD_CP to an unknown register is reported with its offset", "[gx]") {
  Gx gx;
  GxStream s;
  s.nop().cp(0x78, 1); // VAT A has 8 formats: 0x78 is none of them
  gx.run(s);
  REQUIRE(gx.processor.diagnostics().size() == 1);
  CHECK(gx.processor.diagnostics()[0].offset == 1);
  CHECK(gx.processor.diagnostics()[0].message.find("0x78") != std::string::npos);
}

TEST_CASE("GX LOAD_XF writes matrices and registers and takes at most 16 words", "[gx]") {
  Gx gx;
  GxStream s;
  s.xf_floats(0x0000, {1.0f, 2.0f, 3.0f}).xf(0x1018, {0x2A});
  // A count field of 0x1F: only its low 4 bits count, so 16 words follow.
  s.byte(0x10).u32(0x001F0400);
  for (uint32_t i = 0; i < 16; ++i) s.u32(0x100 + i);
  REQUIRE(gx.run(s) == s.bytes.size());
  CHECK(gx.processor.xf().memory_float(1) == 2.0f);
  CHECK(gx.processor.xf().reg(xf::matrix_index_a) == 0x2A);
  CHECK(gx.processor.xf().memory[0x40F] == 0x10F);
  CHECK(gx.processor.diagnostics().empty());
}

TEST_CASE("GX LOAD_XF crossing from memory into registers writes each word at its address", "[gx]") {
  Gx gx;
  GxStream s;
  s.xf(0x067F, {0x11}).xf(0x0FFF, {0x22, 0x33, 0x44}); // 0x0FFF is not backed; 0x1000-0x1001 are registers
  gx.run(s);
  CHECK(gx.processor.xf().memory[0x067F] == 0x11);
  CHECK(gx.processor.xf().registers[0] == 0x33);
  CHECK(gx.processor.xf().registers[1] == 0x44);
  REQUIRE(gx.processor.diagnostics().size() == 1);
  CHECK(gx.processor.diagnostics()[0].message.find("0x0fff") != std::string::npos);
  CHECK(gx.processor.diagnostics()[0].offset == 9);
}

TEST_CASE("GX LOAD_INDX copies array elements into XF memory", "[gx]") {
  for (uint32_t array = 0; array < 4; ++array) {
    Gx gx;
    gx.poke(0x1000 + 3 * 0x40, {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3});
    GxStream s;
    s.cp(static_cast<uint8_t>(0xAC + array), 0x1000).cp(static_cast<uint8_t>(0xBC + array), 0x40);
    s.indexed_xf(array, 3, 3, 0x0500);
    REQUIRE(gx.run(s) == s.bytes.size());
    CHECK(gx.processor.xf().memory[0x500] == 1);
    CHECK(gx.processor.xf().memory[0x502] == 3);
  }
  Gx gx(0x2000);
  GxStream s;
  s.cp(0xAC, 0x1FF0).cp(0xBC, 4).indexed_xf(0, 0, 8, 0);
  gx.run(s);
  REQUIRE(gx.processor.diagnostics().size() == 1);
  CHECK(gx.processor.diagnostics()[0].message.find("outside guest RAM") != std::string::npos);
}

TEST_CASE("GX CALL_DL runs a display list from RAM", "[gx]") {
  Gx gx;
  GxStream list;
  list.bp(0x42, 0x55).bp(0x47, 0x1234);
  list.pad_to_burst();
  gx.poke(0x2000, list.bytes);
  GxStream s;
  s.call_display_list(0x2000 + 5, 32 + 7); // address and size are taken at 32-byte granularity
  REQUIRE(gx.run(s) == 9);
  CHECK(gx.processor.bp().reg(0x42) == 0x55);
  CHECK(gx.count(EventKind::token) == 1);
  CHECK(gx.processor.diagnostics().empty());
}

TEST_CASE("GX CALL_DL inside a display list is reported and not run", "[gx]") {
  Gx gx;
  GxStream inner;
  inner.bp(0x42, 0x77).pad_to_burst();
  gx.poke(0x3000, inner.bytes);
  GxStream list;
  list.call_display_list(0x3000, 32).bp(0x43, 1).pad_to_burst();
  gx.poke(0x2000, list.bytes);
  GxStream s;
  s.call_display_list(0x2000, 32);
  gx.run(s);
  CHECK(gx.processor.bp().reg(0x42) == 0);   // the nested list did not run
  CHECK(gx.processor.bp().reg(0x43) == 1);   // the rest of the outer list did
  REQUIRE(gx.processor.diagnostics().size() == 1);
  CHECK(gx.processor.diagnostics()[0].offset == 0x2000);
  CHECK(gx.processor.diagnostics()[0].message.find("do not nest") != std::string::npos);
}

TEST_CASE("GX CALL_DL outside RAM and a truncated list command are reported", "[gx]") {
  Gx gx(0x4000);
  GxStream s;
  s.call_display_list(0x3FE0, 0x40).bp(0x42, 9);
  gx.run(s);
  CHECK(gx.processor.bp().reg(0x42) == 9); // the stream goes on
  REQUIRE(gx.processor.diagnostics().size() == 1);
  CHECK(gx.processor.diagnostics()[0].offset == 0);
  CHECK(gx.processor.diagnostics()[0].message.find("outside guest RAM") != std::string::npos);

  Gx truncated;
  GxStream list;
  for (int i = 0; i < 29; ++i) list.nop();
  list.byte(0x61).u16(0x4200); // LOAD_BP cut after 3 of its 5 bytes by the end of the 32-byte list
  truncated.poke(0x100, list.bytes);
  GxStream call;
  call.call_display_list(0x100, 32);
  truncated.run(call);
  REQUIRE(truncated.processor.diagnostics().size() == 1);
  CHECK(truncated.processor.diagnostics()[0].offset == 0x100 + 29);
  CHECK(truncated.processor.diagnostics()[0].message.find("past the end") != std::string::npos);
}

TEST_CASE("GX unknown opcodes are reported with the offset and the bytes around", "[gx]") {
  Gx gx;
  GxStream s;
  s.nop().nop().byte(0x27).bp(0x42, 3);
  gx.run(s);
  CHECK(gx.processor.bp().reg(0x42) == 3);
  REQUIRE(gx.processor.diagnostics().size() == 1);
  const Diagnostic& d = gx.processor.diagnostics()[0];
  CHECK(d.offset == 2);
  CHECK(d.context_start == 0);
  REQUIRE(d.context.size() == 8); // two bytes before, the opcode and the five of the LOAD_BP after it
  CHECK(d.context[2] == 0x27);
  CHECK(d.context[3] == 0x61);
  CHECK(d.to_string().find("unknown GX opcode 0x27") != std::string::npos);
}

TEST_CASE("GX a command not yet whole is left unconsumed", "[gx]") {
  Gx gx;
  GxStream s;
  s.nop().bp(0x42, 0xABCDEF);
  for (size_t cut = 2; cut < s.bytes.size(); ++cut) {
    CommandProcessor processor(gx.ram);
    CHECK(processor.run(std::span(s.bytes).first(cut), 0) == 1);
    CHECK(processor.bp().reg(0x42) == 0);
  }
  GxStream xf;
  xf.xf(0x0000, {1, 2, 3});
  CommandProcessor processor(gx.ram);
  CHECK(processor.run(std::span(xf.bytes).first(xf.bytes.size() - 1), 0) == 0);
  CHECK(processor.run(xf.bytes, 0) == xf.bytes.size());
}

TEST_CASE("GX BP 0xFE masks the next write only", "[gx]") {
  Gx gx;
  GxStream s;
  s.bp(0x42, 0x123456).bp(0xFE, 0x0000FF).bp(0x42, 0xABCDEF);
  gx.run(s);
  CHECK(gx.processor.bp().reg(0x42) == 0x1234EF);
  GxStream again;
  again.bp(0x42, 0xABCDEF);
  gx.run(again);
  CHECK(gx.processor.bp().reg(0x42) == 0xABCDEF);
}

TEST_CASE("GX BP side-effect writes act even when the value does not change", "[gx]") {
  Gx gx;
  GxStream s;
  s.bp(0x47, 7).bp(0x47, 7).bp(0x45, 2).bp(0x45, 2).bp(0x52, 0x4003).bp(0x52, 0x4003).bp(0x64, 0x1000).bp(0x65, 3)
      .bp(0x65, 3).bp(0x63, 1).bp(0x66, 0).bp(0x66, 0).bp(0x55, 0).bp(0x57, 0).bp(0x48, 1);
  gx.run(s);
  CHECK(gx.count(EventKind::token) == 2);
  CHECK(gx.count(EventKind::draw_done) == 2);
  CHECK(gx.count(EventKind::efb_copy) == 2);
  CHECK(gx.count(EventKind::tlut_load) == 2);
  CHECK(gx.count(EventKind::tmem_preload) == 1);
  CHECK(gx.count(EventKind::texture_invalidate) == 2);
  CHECK(gx.count(EventKind::clear_bounding_box) == 1);
  CHECK(gx.count(EventKind::clear_pixel_perf) == 1);
  CHECK(gx.count(EventKind::token_interrupt) == 1);
  // The TLUT event carries the source register as it was at the load.
  for (const Event& e : gx.events) {
    if (e.kind == EventKind::tlut_load) CHECK(e.bp->reg(0x64) == 0x1000);
  }
}

TEST_CASE("GX a state change ends the batch drawn with the old state", "[gx]") {
  Gx gx;
  GxStream s;
  s16_xy_format(s);
  triangle(s);
  triangle(s);       // same state: same batch
  s.bp(0x42, 0);     // unchanged value: no flush
  triangle(s);
  s.bp(0x42, 1);     // changed: the batch ends before it
  triangle(s);
  s.xf(0x0000, {0}); // unchanged XF word
  triangle(s);
  s.xf(0x0000, {std::bit_cast<uint32_t>(1.0f)});
  triangle(s);
  s.cp(0xB0, 4);     // array stride change
  triangle(s);
  s.bp(0x47, 5);     // a token: the draws before it come first
  triangle(s);
  gx.run(s);
  const auto draws = gx.draws();
  REQUIRE(draws.size() == 5);
  CHECK(draws[0]->primitive_commands == 3);
  CHECK(draws[0]->bp.reg(0x42) == 0);
  CHECK(draws[1]->primitive_commands == 2);
  CHECK(draws[1]->bp.reg(0x42) == 1);
  CHECK(draws[2]->xf.memory_float(0) == 1.0f);
  CHECK(draws[3]->cp.array_stride[0] == 4);
  // Event order: the fourth draw precedes the token, the fifth follows it.
  size_t token_at = 0, fourth_at = 0, fifth_at = 0;
  for (size_t i = 0; i < gx.events.size(); ++i) {
    if (gx.events[i].kind == EventKind::token) token_at = i;
    if (gx.events[i].draw.get() == draws[3]) fourth_at = i;
    if (gx.events[i].draw.get() == draws[4]) fifth_at = i;
  }
  CHECK(fourth_at < token_at);
  CHECK(token_at < fifth_at);
}

TEST_CASE("GX draw snapshots do not change with later state", "[gx]") {
  Gx gx;
  GxStream s;
  s16_xy_format(s);
  s.bp(0xC0, 0x123);
  triangle(s);
  s.bp(0xC0, 0x456);
  gx.run(s);
  const auto draws = gx.draws();
  REQUIRE(draws.size() == 1);
  CHECK(draws[0]->bp.reg(0xC0) == 0x123);
  CHECK(gx.processor.bp().reg(0xC0) == 0x456);
}

TEST_CASE("GX a stream of random bytes is consumed or kept and the diagnostics stay bounded", "[gx]") {
  std::mt19937 random(2026);
  std::uniform_int_distribution<int> byte(0, 255);
  // Arrays and display lists read garbage too; RAM is small so each CALL_DL runs at most 32 KiB of it.
  Gx gx(0x8000);
  for (uint8_t& b : gx.ram) b = static_cast<uint8_t>(byte(random));
  GxStream s;
  for (int i = 0; i < 0x10000; ++i) s.byte(static_cast<uint8_t>(byte(random)));
  size_t offset = 0;
  // Feed it in bursts as the FIFO does; what is left at the end is one incomplete command.
  std::vector<uint8_t> pending;
  for (size_t at = 0; at < s.bytes.size(); at += 32) {
    pending.insert(pending.end(), s.bytes.begin() + static_cast<ptrdiff_t>(at), s.bytes.begin() + static_cast<ptrdiff_t>(at + 32));
    const size_t used = gx.processor.run(pending, offset);
    pending.erase(pending.begin(), pending.begin() + static_cast<ptrdiff_t>(used));
    offset += used;
    (void)gx.processor.take_events(); // a renderer consumes draws as they come
  }
  gx.processor.flush();
  CHECK(offset + pending.size() == s.bytes.size());
  CHECK(gx.processor.diagnostic_count() > 0);
  CHECK(gx.processor.diagnostics().size() <= CommandProcessor::max_diagnostics);
  for (const Diagnostic& d : gx.processor.diagnostics()) CHECK_FALSE(d.message.empty());
}
