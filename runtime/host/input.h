#pragma once
// Keyboard and game controllers (SDL) read into a PadState through an InputMapping. Controllers are opened as
// they are plugged in and closed as they go: an unplugged controller only stops contributing.
#include <map>
#include <vector>

#include "runtime/host/input_mapping.h"

union SDL_Event;
struct _SDL_GameController;

namespace kiln::host {

class Input {
public:
  /// Needs SDL's game controller subsystem initialised; opens the controllers present now.
  explicit Input(const InputMapping& mapping);
  ~Input();
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  /// Hot-plug events (SDL_CONTROLLERDEVICEADDED/REMOVED); other events are ignored.
  void handle(const SDL_Event& event);
  /// Every bound key or button held, OR-ed; each axis from the controller that deflects it most. A device other
  /// than the combined one reads only the keyboard or only that controller (released when it is not connected).
  PadState state(PadDevice device = {}) const;
  size_t controllers() const { return controllers_.size(); }

private:
  std::array<std::vector<int>, button_count> keys_;               ///< SDL scancodes
  std::array<std::vector<int>, button_count> controller_buttons_; ///< SDL_GameControllerButton values
  std::map<int, _SDL_GameController*> controllers_;               ///< by SDL joystick instance id (grows with each connection)
};

} // namespace kiln::host
