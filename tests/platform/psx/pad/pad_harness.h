#pragma once
// Talking to a controller the way a program's pad driver does (psx-spx "Controller and Memory Card Overview"):
// JOY_CTRL selects port 1 with TX and the /ACK interrupt enabled, each byte is written to JOY_DATA, the reply is
// read once JOY_STAT says RX is not empty, and the driver waits (bounded) for the /ACK interrupt (JOY_STAT bit
// 9) before the next byte, acknowledging it with JOY_CTRL bit 4 and I_STAT bit 7.
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/platform/psx/machine.h"

namespace pad_test {

constexpr uint32_t joy_data = 0x1F801040u, joy_stat = 0x1F801044u, joy_mode = 0x1F801048u, joy_ctrl = 0x1F80104Au,
                   joy_baud = 0x1F80104Eu, i_stat = 0x1F801070u;
constexpr uint16_t ctrl_port1 = 0x1003;  // TX enable, /CS low, DSR (/ACK) interrupt enable
constexpr uint16_t ctrl_acknowledge = 0x0010;

/// A source whose state the test sets, recording what the console asks of the motors.
struct TestSource final : kiln::psx::PadSource {
  kiln::psx::PadInput input;
  unsigned polls = 0, last_frame = 0;
  uint8_t small = 0, large = 0;
  kiln::psx::PadInput poll(unsigned frame) override {
    ++polls;
    last_frame = frame;
    return input;
  }
  void rumble(uint8_t s, uint8_t l) override {
    small = s;
    large = l;
  }
};

struct Reply {
  uint8_t byte;
  bool acked;
  bool operator==(const Reply&) const = default;
};
inline std::ostream& operator<<(std::ostream& os, const Reply& r) {
  return os << std::hex << unsigned{r.byte} << (r.acked ? "+ack" : "");
}

struct Port {
  kiln::psx::Machine m{kiln::psx::Machine::Options{0, {}, {}, [](std::string_view) {}}};
  unsigned budget = 1000; ///< reads a driver waits before giving up

  Port() {
    m.write16(joy_mode, 0x000D); // 8 bits, factor 1
    m.write16(joy_baud, 0x0088); // the kernel's ~250 kHz
  }
  /// One exchange: /CS low, the bytes, /CS high.
  std::vector<Reply> exchange(const std::vector<uint8_t>& sent, uint16_t ctrl = ctrl_port1) {
    m.write16(joy_ctrl, ctrl);
    std::vector<Reply> replies;
    for (uint8_t b : sent) {
      m.write8(joy_data, b);
      for (unsigned i = 0; i < budget && !(m.read16(joy_stat) & 0x2); ++i) {
      }
      const uint8_t byte = m.read8(joy_data);
      bool acked = false;
      for (unsigned i = 0; i < 40 && !acked; ++i) acked = (m.read16(joy_stat) & 0x200) != 0;
      if (acked) {
        m.write16(joy_ctrl, ctrl | ctrl_acknowledge);
        m.write32(i_stat, ~kiln::psx::irq::controller);
      }
      replies.push_back({byte, acked});
      if (!acked) break; // no /ACK: the device wants no more bytes
    }
    m.write16(joy_ctrl, 0);
    return replies;
  }
};

/// A controller of `kind` on port 1, fed by a TestSource.
struct Connected {
  Port p;
  TestSource source;
  kiln::psx::Controller pad;
  explicit Connected(kiln::psx::PadKind kind) : pad(kind, source) { p.m.sio0.connect(0, &pad); }
  /// Selects port 1 and sends the address byte, leaving the port's clock at that write.
  void start_byte() {
    p.m.write16(joy_ctrl, ctrl_port1);
    p.m.write8(joy_data, 0x01);
  }
};

} // namespace pad_test
