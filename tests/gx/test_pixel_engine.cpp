// The PE's draw-done and token interrupts, raised by the stream in order and acknowledged through its registers
// (YAGCD 5.3: PE 0x0A bits 0/1 enable the token/finish interrupts, bits 2/3 are their status, written 1 to clear;
// PE 0x0E is the token).
#include <catch2/catch.hpp>

#include "runtime/gpu/gx/pixel_engine.h"
#include "tests/gx/gx_harness.h"

namespace kiln::gx::test {

TEST_CASE("PE: tokens and draw done raise their interrupts where enabled, acknowledged by writing 1", "[gx]") {
  Gx gx;
  GxStream s;
  s.bp(0x47, 0x1234);         // token, no interrupt
  gx.run(s);
  PixelEngine pe;
  for (const Event& e : gx.events) pe.consume(e);
  uint16_t value = 0;
  REQUIRE(pe.read16(0x0E, value));
  CHECK(value == 0x1234);
  REQUIRE(pe.read16(0x0A, value));
  CHECK(value == 0);

  REQUIRE(pe.write16(0x0A, 0x3)); // both interrupts enabled
  GxStream t;
  t.bp(0x48, 0xFBEEF).bp(0x45, 0x02); // token interrupt (the token is the low 16 bits), then draw done
  gx.events.clear();
  gx.run(t);
  for (const Event& e : gx.events) pe.consume(e);
  CHECK(pe.token() == 0xBEEF);
  CHECK(pe.token_interrupt());
  CHECK(pe.finish_interrupt());
  REQUIRE(pe.read16(0x0A, value));
  CHECK(value == 0xF);

  REQUIRE(pe.write16(0x0A, 0x3 | 0x4)); // acknowledge the token only
  CHECK_FALSE(pe.token_interrupt());
  CHECK(pe.finish_interrupt());
  REQUIRE(pe.write16(0x0A, 0x1 | 0x8)); // acknowledge finish and disable its interrupt
  CHECK_FALSE(pe.finish_interrupt());
  REQUIRE(pe.read16(0x0A, value));
  CHECK(value == 0x1);

  // A raised status stays pending while its interrupt is disabled, and asserts once enabled.
  GxStream u;
  u.bp(0x45, 0x02);
  gx.events.clear();
  gx.run(u);
  for (const Event& e : gx.events) pe.consume(e);
  CHECK_FALSE(pe.finish_interrupt());
  pe.write16(0x0A, 0x3);
  CHECK(pe.finish_interrupt());
  CHECK(pe.finishes() == 2);
  CHECK(pe.errors().empty());
}

TEST_CASE("PE: the draw-done event follows the draws sent before it", "[gx]") {
  Gx gx;
  GxStream s;
  s.cp(0x50, vcd_lo(1)).cp(0x70, vat_a(false, 4, 0));
  s.primitive(triangles, 0, 3).f32(0).f32(0).f32(1).f32(0).f32(0).f32(1);
  s.bp(0x45, 0x02);
  gx.run(s);
  REQUIRE(gx.events.size() == 2);
  CHECK(gx.events[0].kind == EventKind::draw);
  CHECK(gx.events[1].kind == EventKind::draw_done);
}

TEST_CASE("PE: an unknown draw-done value is reported with its offset", "[gx]") {
  Gx gx;
  GxStream s;
  s.nop().bp(0x45, 0x07);
  gx.run(s);
  PixelEngine pe;
  for (const Event& e : gx.events) pe.consume(e);
  REQUIRE(pe.errors().size() == 1);
  CHECK(pe.errors()[0].find("offset 0x1") != std::string::npos);
  CHECK(pe.finishes() == 0);
}

} // namespace kiln::gx::test
