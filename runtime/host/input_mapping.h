#pragma once
// Which keyboard keys and controller buttons press each pad button. Names are SDL's: keys as SDL_GetScancodeName
// spells them ("Left", "X", "Return"), controller buttons as SDL_GameControllerGetStringForButton does ("a",
// "dpleft", "start"). A platform starts from default_input_mapping() or its own; a title's kiln.toml `[input]`
// table replaces the bindings of each button it names (docs/host.md).
#include <array>
#include <string>
#include <vector>

#include "runtime/host/pad_state.h"

namespace kiln::host {

struct InputMapping {
  struct Bindings {
    std::vector<std::string> keys;
    std::vector<std::string> controller_buttons;
  };
  std::array<Bindings, button_count> buttons;

  Bindings& operator[](Button button) { return buttons[static_cast<size_t>(button)]; }
  const Bindings& operator[](Button button) const { return buttons[static_cast<size_t>(button)]; }
};

/// Controller buttons to the same-named pad buttons; arrows to the d-pad, Z X A S to south east west north,
/// Return to start, Right Shift to select, Q W to the shoulders, 1 2 to the triggers.
InputMapping default_input_mapping();

/// Applies the `[input]` table of the TOML file `path` (a title's kiln.toml) to `mapping`. A file without the
/// table changes nothing. Errors name the file and line: an unknown pad button, a key or controller button
/// SDL does not know, a value that is neither a string nor an array of strings.
InputMapping apply_input_table(const std::string& path, InputMapping mapping);
/// The same for TOML text that came from `path` (named in errors).
InputMapping apply_input_text(std::string_view text, const std::string& path, InputMapping mapping);

} // namespace kiln::host
