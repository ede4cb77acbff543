#include "runtime/platform/psx/pad/controller.h"

#include "runtime/base/log.h"

namespace kiln::psx {
namespace {

constexpr uint8_t address_controller = 0x01, hi_z = 0xFF, id_high = 0x5A;
constexpr uint8_t id_digital = 0x41, id_analog = 0x73, id_config = 0xF3;
constexpr uint8_t read_buttons = 0x42, config_switch = 0x43, set_led = 0x44, get_led = 0x45, response_a = 0x46,
                  constants = 0x47, unknown_48 = 0x48, response_b = 0x4C, rumble_protocol = 0x4D;

} // namespace

Controller::Reply Controller::exchange(uint8_t sent, unsigned frame) {
  const unsigned index = index_++;
  if (index == 0) {
    ignoring_ = sent != address_controller; // a memory card (81h) or another device: not us
    return {hi_z, !ignoring_};
  }
  if (ignoring_) return {};
  if (index == 1) {
    start_command(sent, frame);
    if (ignoring_) return {response_[0], false};
    return {response_[0], length_ > 1};
  }
  if (index > length_) return {};
  take_parameter(index, sent);
  return {response_[index - 1], index < length_};
}

void Controller::start_command(uint8_t command, unsigned frame) {
  command_ = command;
  const PadInput input = source_.poll(frame);
  if (kind_ == PadKind::dualshock && input.analog_button && !analog_button_held_ && !analog_locked_) analog_ = !analog_;
  analog_button_held_ = input.analog_button;

  const bool known = command == read_buttons || (kind_ == PadKind::dualshock && command == config_switch) ||
                     (config_ && (command & 0xF0) == 0x40);
  response_.fill(0);
  response_[0] = config_ ? id_config : analog_ ? id_analog : id_digital;
  response_[1] = id_high;
  if (!known) {
    log::verbose("psx: pad command {:#04x} not answered ({} mode)", command, config_ ? "config" : analog_ ? "analog" : "digital");
    ignoring_ = true;
    return;
  }
  // Buttons are active low; L3/R3 read as released outside analog responses.
  const bool analog_reply = analog_ || (config_ && command == read_buttons);
  uint16_t buttons = static_cast<uint16_t>(~input.pressed);
  if (!analog_reply) buttons |= pad_button::l3 | pad_button::r3;
  length_ = config_ || analog_ ? 8 : 4;
  const bool button_reply = command == read_buttons || (!config_ && command == config_switch);
  if (button_reply) {
    response_[2] = static_cast<uint8_t>(buttons);
    response_[3] = static_cast<uint8_t>(buttons >> 8);
    if (analog_reply) {
      response_[4] = input.right_x;
      response_[5] = input.right_y;
      response_[6] = input.left_x;
      response_[7] = input.left_y;
    }
  } else if (command == get_led) {
    response_[2] = 0x01; // type: PSX analog pad
    response_[3] = 0x02;
    response_[4] = analog_ ? 1 : 0;
    response_[5] = 0x02;
    response_[6] = 0x01;
  } else if (command == constants) {
    response_[4] = 0x02;
    response_[6] = 0x01;
  } else if (command == rumble_protocol) {
    for (unsigned k = 0; k < 6; ++k) response_[2 + k] = rumble_map_[k]; // the old mapping comes back
  }
  motor_bytes_.fill(0);
}

void Controller::take_parameter(unsigned index, uint8_t value) {
  // Parameters are the console's bytes 3.. (after address, command and TAP).
  if (index < 3) return;
  const unsigned p = index - 3;
  switch (command_) {
    case read_buttons: {
      if (p < motor_bytes_.size()) motor_bytes_[p] = value;
      if (index != length_) return;
      uint8_t small = 0, large = 0;
      if (rumble_map_ == std::array<uint8_t, 6>{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}) {
        // Old method: one motor, on when xx is 40h..7Fh and yy has bit 0 set.
        if ((motor_bytes_[0] & 0xC0) == 0x40 && (motor_bytes_[1] & 1)) small = 0xFF;
      } else {
        for (unsigned k = 0; k < 6; ++k) {
          if (rumble_map_[k] == 0x00) small = motor_bytes_[k] & 1 ? 0xFF : 0;
          if (rumble_map_[k] == 0x01) large = motor_bytes_[k];
        }
      }
      if (kind_ == PadKind::dualshock) source_.rumble(small, large);
      return;
    }
    case config_switch:
      if (p == 0) config_ = value == 0x01;
      return;
    case set_led:
      if (p == 0 && value <= 1) analog_ = value == 1;
      if (p == 1) analog_locked_ = (value & 3) == 3;
      return;
    case response_a:
      if (p == 0 && value <= 1) {
        const uint8_t values[2][4] = {{0x01, 0x02, 0x00, 0x0A}, {0x01, 0x01, 0x01, 0x14}};
        for (unsigned k = 0; k < 4; ++k) response_[4 + k] = values[value][k];
      }
      return;
    case unknown_48:
      if (p == 0) response_[6] = value <= 1 ? 0x01 : 0x00;
      return;
    case response_b:
      if (p == 0) response_[5] = value == 0 ? 0x04 : value == 1 ? 0x07 : 0x00;
      return;
    case rumble_protocol:
      if (p < rumble_map_.size()) rumble_map_[p] = value;
      return;
    default: return;
  }
}

} // namespace kiln::psx
