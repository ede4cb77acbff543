// The pad script (runtime/platform/psx/pad/scripted_pad.h): states by frame, and errors naming the line.
#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "runtime/platform/psx/pad/scripted_pad.h"

using kiln::psx::ScriptedPad;
namespace button = kiln::psx::pad_button;

TEST_CASE("psx pad script holds each state from its frame on", "[psx][pad]") {
  ScriptedPad pad("# a test\ntype dualshock\n\n0\n2 right cross   # two buttons\n5 lx=255 ry=0 analog\n", "test.pad");
  CHECK(pad.kind() == kiln::psx::PadKind::dualshock);
  CHECK(pad.poll(0).pressed == 0);
  CHECK(pad.poll(1).pressed == 0);
  CHECK(pad.poll(2).pressed == (button::right | button::cross));
  CHECK(pad.poll(4).pressed == (button::right | button::cross));
  const auto late = pad.poll(100);
  CHECK(late.pressed == 0);
  CHECK(late.left_x == 255);
  CHECK(late.left_y == 128);
  CHECK(late.right_y == 0);
  CHECK(late.analog_button);
}

TEST_CASE("psx pad script errors name the file and line", "[psx][pad]") {
  auto message = [](const char* text) {
    try {
      ScriptedPad pad(text, "input.pad");
    } catch (const kiln::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message("0\n3 jump\n") == "input.pad: line 2: unknown button 'jump'");
  CHECK(message("5\n3 up\n") == "input.pad: line 2: frame 3 does not come after frame 5");
  CHECK(message("1 lx=300\n") == "input.pad: line 1: 'lx=300': an axis takes 0..255");
  CHECK(message("1 zz=3\n") == "input.pad: line 1: unknown axis 'zz' (known: lx ly rx ry)");
  CHECK(message("type wheel\n") == "input.pad: line 1: unknown pad type 'wheel' (known: digital, dualshock)");
  CHECK(message("0\ntype digital\n") == "input.pad: line 2: 'type' must come before the first state");
  CHECK(message("x\n") == "input.pad: line 1: 'x' is not a frame number or 'type'");
}
