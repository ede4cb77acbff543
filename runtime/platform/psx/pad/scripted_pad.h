#pragma once
// A PadSource that plays a script, for headless runs and tests. The script is text in the format every
// platform's --pad-script shares (runtime/base/pad_script.h), one state per line:
//
//   # comments and blank lines are ignored
//   type dualshock            optional, before the first state: digital (default) or dualshock
//   0                         from frame 0: nothing pressed, sticks centred
//   30 right cross            from frame 30: Right and Cross held
//   60 lx=255 ly=128 analog   from frame 60: left stick right, the Analog button held
//
// A line names a frame (VBLANKs so far, increasing from line to line) and the whole state from that frame
// on: buttons select l3 r3 start up right down left l2 r2 l1 r1 triangle circle cross square, the Analog
// button `analog`, and axes lx ly rx ry = 0..255 (unnamed axes are centred, 128).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/platform/psx/pad/pad_source.h"

namespace kiln {
class PadScriptText;
}

namespace kiln::psx {

class ScriptedPad final : public PadSource {
public:
  /// Parses `text`; throws kiln::Error naming `file` and the line of anything it does not understand.
  ScriptedPad(std::string_view text, const std::string& file);
  static ScriptedPad from_file(const std::string& path);
  explicit ScriptedPad(const PadScriptText& script);

  PadInput poll(unsigned frame) override;
  PadKind kind() const { return kind_; }

private:
  PadKind kind_ = PadKind::digital;
  std::vector<std::pair<unsigned, PadInput>> steps_; ///< each state from its frame on
};

} // namespace kiln::psx
