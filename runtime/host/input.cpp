#include "runtime/host/input.h"

#include <SDL.h>

#include <cstdlib>

#include "runtime/base/log.h"

namespace kiln::host {
namespace {

void open_controller(std::map<int, SDL_GameController*>& controllers, int device_index) {
  if (!SDL_IsGameController(device_index)) return;
  SDL_GameController* controller = SDL_GameControllerOpen(device_index);
  if (!controller) {
    log::warning("host: cannot open controller {}: {}", device_index, SDL_GetError());
    return;
  }
  const int id = SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(controller));
  if (controllers.count(id)) {
    SDL_GameControllerClose(controller); // already open (the added event of a controller found at start)
    return;
  }
  controllers[id] = controller;
  log::info("host: controller connected: {}", SDL_GameControllerName(controller) ? SDL_GameControllerName(controller) : "(unnamed)");
}

} // namespace

Input::Input(const InputMapping& mapping) {
  for (size_t i = 0; i < button_count; ++i) {
    for (const std::string& key : mapping.buttons[i].keys) keys_[i].push_back(SDL_GetScancodeFromName(key.c_str()));
    for (const std::string& button : mapping.buttons[i].controller_buttons)
      controller_buttons_[i].push_back(SDL_GameControllerGetButtonFromString(button.c_str()));
  }
  for (int i = 0; i < SDL_NumJoysticks(); ++i) open_controller(controllers_, i);
}

Input::~Input() {
  for (auto& [id, controller] : controllers_) SDL_GameControllerClose(controller);
}

void Input::handle(const SDL_Event& event) {
  if (event.type == SDL_CONTROLLERDEVICEADDED) {
    open_controller(controllers_, event.cdevice.which);
  } else if (event.type == SDL_CONTROLLERDEVICEREMOVED) {
    const auto found = controllers_.find(event.cdevice.which); // `which` is the instance id here
    if (found == controllers_.end()) return;
    SDL_GameControllerClose(found->second);
    controllers_.erase(found);
    log::info("host: controller disconnected");
  }
}

PadState Input::state(PadDevice device) const {
  PadState pad;
  int key_count = 0;
  const Uint8* keyboard = device.kind == PadDevice::Kind::controller ? nullptr : SDL_GetKeyboardState(&key_count);
  // The controllers this device reads: all of them, none (the keyboard), or the index-th connected.
  std::map<int, SDL_GameController*> controllers;
  if (device.kind == PadDevice::Kind::combined) controllers = controllers_;
  if (device.kind == PadDevice::Kind::controller && device.index < controllers_.size())
    controllers.insert(*std::next(controllers_.begin(), device.index));
  constexpr SDL_GameControllerAxis axes[axis_count] = {SDL_CONTROLLER_AXIS_LEFTX, SDL_CONTROLLER_AXIS_LEFTY,
                                                      SDL_CONTROLLER_AXIS_RIGHTX, SDL_CONTROLLER_AXIS_RIGHTY};
  for (size_t i = 0; i < button_count; ++i) {
    bool held = false;
    if (keyboard)
      for (int key : keys_[i]) held |= key > 0 && key < key_count && keyboard[key];
    for (const auto& [id, controller] : controllers) {
      for (int button : controller_buttons_[i])
        held |= SDL_GameControllerGetButton(controller, static_cast<SDL_GameControllerButton>(button)) != 0;
      // Analog triggers count as pressed past half travel.
      if (static_cast<Button>(i) == Button::left_trigger || static_cast<Button>(i) == Button::right_trigger) {
        const auto axis = static_cast<Button>(i) == Button::left_trigger ? SDL_CONTROLLER_AXIS_TRIGGERLEFT : SDL_CONTROLLER_AXIS_TRIGGERRIGHT;
        held |= SDL_GameControllerGetAxis(controller, axis) > 16384;
      }
    }
    if (held) pad.buttons |= 1u << i;
  }
  for (const auto& [id, controller] : controllers) {
    for (size_t a = 0; a < axis_count; ++a) {
      const int16_t value = SDL_GameControllerGetAxis(controller, axes[a]);
      if (std::abs(value) > std::abs(pad.axes[a])) pad.axes[a] = value;
    }
  }
  return pad;
}

} // namespace kiln::host
