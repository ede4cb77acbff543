#pragma once
// A controller on a SIO0 port (psx-spx "Controllers - Communication Sequence", "Configuration Commands",
// "Vibration/Rumble Control"): a digital pad (ID 5A41h) or a DualShock (5A41h in digital mode, 5A73h in
// analog mode, 5AF3h in config mode), answering one byte for each byte the console sends while /CS is low.
#include <array>
#include <cstdint>

#include "runtime/platform/psx/pad/pad_source.h"

namespace kiln::psx {

class Controller {
public:
  Controller(PadKind kind, PadSource& source) : kind_(kind), source_(source) {}

  struct Reply {
    uint8_t byte = 0xFF;
    bool ack = false; ///< the controller pulls /ACK low afterwards: it expects another byte
  };
  /// The console sends `sent`; `frame` is passed to the pad source when the command byte arrives.
  Reply exchange(uint8_t sent, unsigned frame);
  /// /CS went high: the next byte is an address again.
  void deselect() { index_ = 0; }

  bool analog() const { return analog_; }
  bool config_mode() const { return config_; }

private:
  void start_command(uint8_t command, unsigned frame);
  void take_parameter(unsigned index, uint8_t value);

  PadKind kind_;
  PadSource& source_;
  bool analog_ = false, config_ = false, analog_locked_ = false, analog_button_held_ = false;
  std::array<uint8_t, 6> rumble_map_{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  std::array<uint8_t, 6> motor_bytes_{};
  unsigned index_ = 0;  ///< bytes of this exchange so far (0: the address comes next)
  bool ignoring_ = false; ///< not addressed, or an unknown command: silent until /CS goes high
  uint8_t command_ = 0;
  unsigned length_ = 0; ///< reply bytes after the address
  std::array<uint8_t, 8> response_{};
};

} // namespace kiln::psx
