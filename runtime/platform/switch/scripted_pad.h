#pragma once
// A pad script for hid (--pad-script FILE): the format every platform shares (runtime/base/pad_script.h) with
// the Switch's names, one state per line, held from the frame vi has presented so many of:
//
//   0                          from the first frame: nothing held, sticks at rest
//   30 a right                 from frame 30: A and the d-pad's Right held
//   60 lx=32767 ly=-16384 zr   from frame 60: left stick fully right and half down, ZR held
//
// Buttons: a b x y l r zl zr plus minus lstick rstick up down left right (the d-pad). Axes lx ly rx ry take
// Horizon's stick values, -32767..32767, y up (unnamed axes rest at 0).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/host/pad_state.h"

namespace kiln {
class PadScriptText;
}

namespace kiln::hos {

class ScriptedPad {
public:
  /// Parses `text`; throws kiln::Error naming `file` and the line of anything it does not understand.
  ScriptedPad(std::string_view text, const std::string& file);
  static ScriptedPad from_file(const std::string& path);
  explicit ScriptedPad(const PadScriptText& script);

  /// The state once `frame` frames have been presented, in the host shell's terms (hid's pad source).
  host::PadState state(uint64_t frame) const;

private:
  std::vector<std::pair<unsigned, host::PadState>> steps_; ///< each state from its frame on
};

} // namespace kiln::hos
