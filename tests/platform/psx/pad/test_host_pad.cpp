// The host pad as a PS1 pad (runtime/platform/psx/host_session.h): each host button sets the one bit psx-spx's
// "Standard Controllers" table gives its PlayStation counterpart, and the axes map -32768..32767 to 00h..FFh.
#include <catch2/catch.hpp>

#include "runtime/platform/psx/host_session.h"

using namespace kiln;
using host::Button;

namespace {
uint16_t bits_for(Button button) {
  host::PadState pad;
  pad.buttons = 1u << static_cast<unsigned>(button);
  return psx::pad_input_from(pad).pressed;
}
} // namespace

TEST_CASE("host pad buttons become the PS1 pad's bits by position", "[psx][pad]") {
  // Halfword bits: 0 select, 1 L3, 2 R3, 3 start, 4 up, 5 right, 6 down, 7 left, 8 L2, 9 R2, 10 L1, 11 R1,
  // 12 triangle, 13 circle, 14 cross, 15 square.
  CHECK(bits_for(Button::south) == 1u << 14);
  CHECK(bits_for(Button::east) == 1u << 13);
  CHECK(bits_for(Button::west) == 1u << 15);
  CHECK(bits_for(Button::north) == 1u << 12);
  CHECK(bits_for(Button::dpad_up) == 1u << 4);
  CHECK(bits_for(Button::dpad_right) == 1u << 5);
  CHECK(bits_for(Button::dpad_down) == 1u << 6);
  CHECK(bits_for(Button::dpad_left) == 1u << 7);
  CHECK(bits_for(Button::start) == 1u << 3);
  CHECK(bits_for(Button::select) == 1u << 0);
  CHECK(bits_for(Button::left_shoulder) == 1u << 10);
  CHECK(bits_for(Button::right_shoulder) == 1u << 11);
  CHECK(bits_for(Button::left_trigger) == 1u << 8);
  CHECK(bits_for(Button::right_trigger) == 1u << 9);
  CHECK(bits_for(Button::left_stick) == 1u << 1);
  CHECK(bits_for(Button::right_stick) == 1u << 2);
  CHECK(psx::pad_input_from({}).pressed == 0);
}

TEST_CASE("host pad axes become 00h..FFh with 80h at rest", "[psx][pad]") {
  host::PadState pad;
  CHECK(psx::pad_input_from(pad).left_x == 0x80);
  pad.axes = {-32768, 32767, 0, -1};
  const psx::PadInput input = psx::pad_input_from(pad);
  CHECK(input.left_x == 0x00);
  CHECK(input.left_y == 0xFF);
  CHECK(input.right_x == 0x80);
  CHECK(input.right_y == 0x7F);
  CHECK_FALSE(input.analog_button);
}
