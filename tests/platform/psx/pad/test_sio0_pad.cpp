// SIO0 and the digital pad: the byte sequences of psx-spx "Controllers - Communication Sequence" and
// "Standard Controllers", the /ACK timing and IRQ7, and the frame rule for programs that poll I_STAT.
#include <catch2/catch.hpp>

#include "tests/platform/psx/pad/pad_harness.h"

using namespace pad_test;
using kiln::psx::Controller;
using kiln::psx::PadKind;
namespace button = kiln::psx::pad_button;

TEST_CASE("psx digital pad answers 01h 42h with its ID and active-low buttons", "[psx][pad]") {
  Connected c(PadKind::digital);
  Port& p = c.p;
  TestSource& source = c.source;
  source.input.pressed = button::start | button::cross;
  // Send 01h 42h 00h 00h 00h; reply Hi-Z, 41h, 5Ah, then the switches: Start (bit 3) and Cross (bit 14) read
  // 0, everything else 1 (L3/R3 too, in digital mode): ~4008h = BFF7h, low byte first. /ACK after every byte
  // but the last.
  const auto r = p.exchange({0x01, 0x42, 0x00, 0x00, 0x00});
  const std::vector<Reply> expected{{0xFF, true}, {0x41, true}, {0x5A, true}, {0xF7, true}, {0xBF, false}};
  CHECK(r == expected);
  CHECK(source.polls == 1);
  source.input.pressed = button::up | button::l1 | button::square; // bits 4, 10, 15: ~8410h = 7BEFh
  const auto again = p.exchange({0x01, 0x42, 0x00, 0x00, 0x00});
  REQUIRE(again.size() == 5);
  CHECK(again[3] == Reply{0xEF, true});
  CHECK(again[4] == Reply{0x7B, false});
}

TEST_CASE("psx SIO0 without a device, or addressed as a memory card, never asserts /ACK", "[psx][pad]") {
  Port p;
  // Nothing connected: the line floats high, FFh, no /ACK.
  CHECK(p.exchange({0x01, 0x42}) == std::vector<Reply>{{0xFF, false}});
  TestSource source;
  Controller pad(PadKind::digital, source);
  p.m.sio0.connect(0, &pad);
  // 81h addresses the memory card: the pad stays silent (and kiln has no memory card).
  CHECK(p.exchange({0x81, 0x52}) == std::vector<Reply>{{0xFF, false}});
  // Port 2 selected (JOY_CTRL bit 13): the pad on port 1 is not asked.
  CHECK(p.exchange({0x01, 0x42}, ctrl_port1 | 0x2000) == std::vector<Reply>{{0xFF, false}});
  CHECK(source.polls == 0);
  // A digital pad knows only 42h: 43h gets the ID byte (sent while the command arrives) and no /ACK.
  CHECK(p.exchange({0x01, 0x43, 0x00}) == std::vector<Reply>{{0xFF, true}, {0x41, false}});
}

TEST_CASE("psx SIO0 byte timing: RX after 8 bit times, /ACK about 100 cycles later, IRQ7 with it", "[psx][pad]") {
  Connected c(PadKind::digital);
  Port& p = c.p;
  // BAUD 88h with factor 1: 88h cycles per bit, 1088 per byte. The port's clock moves 16 cycles per access, so
  // the byte is in at the 1088 / 16 = 68th read after the write; /ACK goes low 128 cycles after the byte (at
  // 1216: the 76th read) for 100 cycles (until 1316: low through the 82nd read, high again at the 83rd).
  c.start_byte();
  std::vector<uint16_t> stat;
  for (int i = 0; i < 90; ++i) stat.push_back(p.m.read16(joy_stat));
  for (int k = 0; k < 90; ++k) {
    const int read = k + 1;
    INFO("read " << read);
    CHECK(((stat[k] & 0x2) != 0) == (read >= 68));
    CHECK(((stat[k] & 0x4) != 0) == (read >= 68)); // TX idle once the byte is out
    CHECK(((stat[k] & 0x80) != 0) == (read >= 76 && read <= 82));
    CHECK(((stat[k] & 0x200) != 0) == (read >= 76)); // sticky until acknowledged
  }
  CHECK((p.m.io.i_stat & kiln::psx::irq::controller) != 0);
  p.m.write16(joy_ctrl, ctrl_port1 | ctrl_acknowledge);
  CHECK((p.m.read16(joy_stat) & 0x200) == 0);
  CHECK(p.m.read8(joy_data) == 0xFF);
  CHECK((p.m.read16(joy_stat) & 0x2) == 0); // the FIFO is empty again
}

TEST_CASE("psx polling I_STAT for IRQ7 does not end frames while a byte is on the wire", "[psx][pad]") {
  Connected c(PadKind::digital);
  Port& p = c.p;
  c.start_byte();
  unsigned polls = 0;
  while (!(p.m.read32(i_stat) & kiln::psx::irq::controller) && polls < 1000) ++polls;
  CHECK(p.m.frames() == 0);
  CHECK(polls == 75); // the 76th read after the write brings the /ACK
  p.m.write32(i_stat, ~kiln::psx::irq::controller);
  // Nothing in flight and nothing new: the next poll is a program waiting for VBLANK.
  CHECK((p.m.read32(i_stat) & kiln::psx::irq::vblank) != 0);
  CHECK(p.m.frames() == 1);
  // The pad source sees the frame number at the next command byte.
  p.exchange({0x01, 0x42, 0x00, 0x00, 0x00});
  CHECK(c.source.last_frame == 1);
}
