#pragma once
// Where a controller's state comes from: buttons and analog axes, asked for whenever the console reads the pad.
// The host layer adapts SDL input to this; headless runs use a script (scripted_pad.h).
#include <cstdint>

namespace kiln::psx {

/// Button bits as the pad reports them (psx-spx "Standard Controllers", halfword 1); here 1 = pressed.
namespace pad_button {
constexpr uint16_t select = 1u << 0, l3 = 1u << 1, r3 = 1u << 2, start = 1u << 3, up = 1u << 4, right = 1u << 5,
                   down = 1u << 6, left = 1u << 7, l2 = 1u << 8, r2 = 1u << 9, l1 = 1u << 10, r1 = 1u << 11,
                   triangle = 1u << 12, circle = 1u << 13, cross = 1u << 14, square = 1u << 15;
}

struct PadInput {
  uint16_t pressed = 0;                  ///< pad_button bits
  uint8_t right_x = 0x80, right_y = 0x80; ///< 00h = left/up, 80h = centre, FFh = right/down
  uint8_t left_x = 0x80, left_y = 0x80;
  bool analog_button = false;            ///< the DualShock's Analog button is held (a press toggles the mode)
};

enum class PadKind { digital, dualshock };

class PadSource {
public:
  virtual ~PadSource() = default;
  /// The state now; `frame` is the number of VBLANKs so far.
  virtual PadInput poll(unsigned frame) = 0;
  /// The motors the console asks for (DualShock): small is on/off (00h/FFh), large 00h..FFh.
  virtual void rumble(uint8_t /*small*/, uint8_t /*large*/) {}
};

} // namespace kiln::psx
