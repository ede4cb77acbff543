#pragma once
// The text format of every platform's --pad-script: one pad state per line, held from its frame on.
//
//   # comments and blank lines are ignored
//   type dualshock        a setting (the platform names which it knows), before the first state
//   0                     from frame 0: nothing held, sticks at rest
//   30 right cross        from frame 30: these buttons held (the platform's names)
//   60 lx=255 analog      from frame 60: an axis at a value (the platform's names and range)
//
// A state line starts with its frame, increasing from line to line, and gives the whole state from that frame
// on. The platforms (runtime/platform/psx/pad/scripted_pad.h, runtime/platform/switch/scripted_pad.h) give the
// words their meaning; this reads the lines and reports what is wrong with one as "FILE: line N: WHAT".
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln {

struct PadScriptLine {
  unsigned number = 0;             ///< the line in the file, from 1
  std::optional<unsigned> frame;   ///< a state line's frame; empty on a setting line
  std::vector<std::string> words;  ///< a state's words; a setting's name, then its values
};

/// An axis word, NAME=VALUE.
struct PadScriptAxis {
  std::string name;
  int value = 0;
};

class PadScriptText {
public:
  /// Reads `text`'s lines; `settings` are the words that may start a setting line. Throws kiln::Error naming
  /// `file` and the line when a line is neither, a frame does not increase or a setting follows a state.
  PadScriptText(std::string_view text, std::string file, std::span<const std::string_view> settings = {});
  /// The same, from the file at `path`.
  static PadScriptText from_file(const std::string& path, std::span<const std::string_view> settings = {});

  const std::vector<PadScriptLine>& lines() const { return lines_; }
  /// Throws kiln::Error "FILE: line N: WHAT" for `line`.
  [[noreturn]] void fail(const PadScriptLine& line, std::string_view what) const;
  /// `word` as an axis (nullopt when it has no '='); throws unless its value is an integer in low..high.
  std::optional<PadScriptAxis> axis(const PadScriptLine& line, std::string_view word, int low, int high) const;

private:
  std::string file_;
  std::vector<PadScriptLine> lines_;
};

/// The state a script's steps (frame, state; frames increasing) give at `frame`: the last step at or before it,
/// else `rest`.
template <typename State>
State pad_script_state_at(const std::vector<std::pair<unsigned, State>>& steps, unsigned frame, State rest) {
  for (const auto& [from, state] : steps) {
    if (from > frame) break;
    rest = state;
  }
  return rest;
}

} // namespace kiln
