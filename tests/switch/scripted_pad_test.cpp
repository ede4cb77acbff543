// The Switch's pad script (runtime/platform/switch/scripted_pad.h): each state held from its frame on, the
// Switch's button names on the host buttons hid reports them from, Horizon's stick values (y up) on the host
// pad's axes (y down), and errors naming the file and line.
#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "runtime/platform/switch/scripted_pad.h"

namespace {

using kiln::hos::ScriptedPad;
using kiln::host::Axis;
using kiln::host::Button;

int16_t axis(const kiln::host::PadState& state, Axis which) { return state.axes[static_cast<size_t>(which)]; }

std::string message(const char* text) {
  try {
    ScriptedPad pad(text, "input.pad");
  } catch (const kiln::Error& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("switch pad script holds each state from its frame on", "[switch][pad]") {
  const ScriptedPad pad("# a test\n2 a zr up   # three buttons\n5 lx=32767 ly=32767 rx=-32767 ry=-100 minus\n", "test.pad");
  CHECK(pad.state(0) == kiln::host::PadState{});
  CHECK(pad.state(1) == kiln::host::PadState{});
  const auto held = pad.state(4);
  CHECK(held.held(Button::east)); // A is the right face button
  CHECK(held.held(Button::right_trigger));
  CHECK(held.held(Button::dpad_up));
  CHECK_FALSE(held.held(Button::south));
  CHECK(axis(held, Axis::left_x) == 0);
  const auto late = pad.state(1000);
  CHECK(late.buttons == 1u << static_cast<unsigned>(Button::select));
  CHECK(axis(late, Axis::left_x) == 32767);
  CHECK(axis(late, Axis::left_y) == -32767); // up on the stick is up the host pad's y axis
  CHECK(axis(late, Axis::right_x) == -32767);
  CHECK(axis(late, Axis::right_y) == 100);
}

TEST_CASE("switch pad script errors name the file and line", "[switch][pad]") {
  CHECK(message("0\n3 jump\n") ==
        "input.pad: line 2: unknown button 'jump' (known: a b x y l r zl zr plus minus lstick rstick up down left right)");
  CHECK(message("5\n5 a\n") == "input.pad: line 2: frame 5 does not come after frame 5");
  CHECK(message("1 lx=32768\n") == "input.pad: line 1: 'lx=32768': an axis takes -32767..32767");
  CHECK(message("1 ly=up\n") == "input.pad: line 1: 'ly=up': an axis takes -32767..32767");
  CHECK(message("1 lz=3\n") == "input.pad: line 1: unknown axis 'lz' (known: lx ly rx ry)");
  CHECK(message("type dualshock\n") == "input.pad: line 1: 'type' is not a frame number");
}
