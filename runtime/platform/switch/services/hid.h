#pragma once
// Where hid's npad states come from: a process-wide source polled by hid's 200 Hz thread, and which npads kiln
// presents (id, style, the host device each reads: kiln.toml [[switch.input.npad]], docs/switch.md).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/host/pad_state.h"

namespace kiln::hos {

/// The pad of a host device now, in the host shell's terms (runtime/host/pad_state.h). The default reports
/// nothing held: a headless run has no input. Setting it takes effect at the next sample.
using PadSource = std::function<host::PadState(const host::PadDevice&)>;
void set_pad_source(PadSource source);

/// NpadStyleTag bits (switchbrew "HID services") of the styles kiln presents.
namespace npad_style {
constexpr uint32_t full_key = 1u << 0, handheld = 1u << 1, joy_dual = 1u << 2, joy_left = 1u << 3, joy_right = 1u << 4;
} // namespace npad_style
/// NpadIdType values: No1-No8 are 0-7, Handheld 0x20.
constexpr uint32_t npad_id_handheld = 0x20;

struct NpadConfig {
  uint32_t id;       ///< NpadIdType
  uint32_t style;    ///< one npad_style bit
  host::PadDevice device;
};
/// A Pro Controller (FullKey) on No1 and the Handheld pair, both reading the combined host pad.
std::vector<NpadConfig> default_npads();
/// "No1".."No8", "Handheld"; "FullKey", "Handheld", "JoyDual", "JoyLeft", "JoyRight".
std::optional<uint32_t> npad_id_from_name(std::string_view name);
std::optional<uint32_t> npad_style_from_name(std::string_view name);
std::string npad_id_name(uint32_t id);
std::string npad_style_name(uint32_t style);

} // namespace kiln::hos
