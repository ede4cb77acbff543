// hid (nn::hid::IHidServer, switchbrew "HID services"): the start-up commands a title sends (applet resource,
// activation, supported npad styles and ids, hold type, assignment modes) and the 0x40000-byte shared memory
// it reads input from, in the layout of switchbrew's "HID Shared Memory" page (and libnx's hid.h, which
// spells it out): debug pad 0x0, touch screen 0x400, mouse 0x3400, keyboard 0x3800, ..., npad 0x9a00 (ten
// 0x5000-byte entries: No1-No8, Handheld, Other). A host thread samples the pad source at 200 Hz and appends
// a state to the lifo of each configured npad whose style and id the title enabled (by default a Pro
// Controller as FullKey on No1 and the Handheld pair; kiln.toml adds Joy-Con pairs and single Joy-Cons), plus
// the touch screen's and keyboard's lifos, which stay empty of input.
#include "runtime/platform/switch/services/hid.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <mutex>

#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/periodic_thread.h"

namespace kiln::hos {

namespace {

constexpr uint64_t shared_memory_size = 0x40000;
constexpr uint64_t touch_screen_offset = 0x400, keyboard_offset = 0x3800, npad_offset = 0x9a00, npad_entry_size = 0x5000;
constexpr uint64_t lifo_header_size = 0x20;
constexpr uint64_t lifo_entries = 17;
// Inside an npad entry: style set, Joy-Con assignment mode, colours, then seven common-state lifos of 0x350
// bytes: FullKey, Handheld, JoyDual, JoyLeft, JoyRight, Palma, SystemExt.
constexpr uint64_t npad_assignment_mode = 0x4, npad_lifos = 0x28, npad_lifo_size = 0x350;
constexpr uint64_t npad_common_storage = 0x30; // the atomic sampling number, then the 0x28-byte state
constexpr uint64_t npad_device_type = 0x4188, npad_system_properties = 0x4190, npad_battery_level = 0x419c;
constexpr uint64_t keyboard_storage = 0x30, touch_screen_storage = 0x298;
// NpadDeviceType bits and NpadAttribute bits (switchbrew "HID services").
constexpr uint32_t device_full_key = 1u << 0, device_handheld_left = 1u << 2, device_handheld_right = 1u << 3,
                   device_joy_left = 1u << 4, device_joy_right = 1u << 5;
constexpr uint32_t attribute_connected = 1u << 0, attribute_wired = 1u << 1, attribute_left_connected = 1u << 2,
                   attribute_left_wired = 1u << 3, attribute_right_connected = 1u << 4, attribute_right_wired = 1u << 5;
constexpr uint32_t assignment_dual = 0, assignment_single = 1;
// The NpadButton bits a single Joy-Con has: the left one's d-pad, L, ZL, Minus, stick (click and directions);
// the right one's A, B, X, Y, R, ZR, Plus, stick. (SL/SR, bits 24-27, have no host button.)
constexpr uint64_t left_joy_con_buttons = 1u << 4 | 1u << 6 | 1u << 8 | 1u << 11 | 0xfu << 12 | 0xfu << 16;
constexpr uint64_t right_joy_con_buttons = 0xfu | 1u << 5 | 1u << 7 | 1u << 9 | 1u << 10 | 0xfu << 20;

/// How each style appears in its npad entry: its lifo, device type, attributes and which buttons it reports.
struct StyleLayout {
  uint32_t style;
  uint64_t lifo;            ///< offset in the entry
  uint32_t device, attributes, assignment;
  uint64_t buttons;         ///< the NpadButton bits it has
  bool left_stick, right_stick;
};
constexpr StyleLayout style_layouts[] = {
    {npad_style::full_key, npad_lifos, device_full_key, attribute_connected, assignment_dual, ~uint64_t{0}, true, true},
    {npad_style::handheld, npad_lifos + npad_lifo_size, device_handheld_left | device_handheld_right,
     attribute_connected | attribute_wired | attribute_left_connected | attribute_left_wired | attribute_right_connected | attribute_right_wired,
     assignment_dual, ~uint64_t{0}, true, true},
    {npad_style::joy_dual, npad_lifos + 2 * npad_lifo_size, device_joy_left | device_joy_right,
     attribute_connected | attribute_left_connected | attribute_right_connected, assignment_dual, ~uint64_t{0}, true, true},
    {npad_style::joy_left, npad_lifos + 3 * npad_lifo_size, device_joy_left, attribute_connected | attribute_left_connected,
     assignment_single, left_joy_con_buttons, true, false},
    {npad_style::joy_right, npad_lifos + 4 * npad_lifo_size, device_joy_right, attribute_connected | attribute_right_connected,
     assignment_single, right_joy_con_buttons, false, true},
};
const StyleLayout& layout_of(uint32_t style) {
  for (const StyleLayout& layout : style_layouts)
    if (layout.style == style) return layout;
  return style_layouts[0];
}

constexpr const char* style_names[] = {"FullKey", "Handheld", "JoyDual", "JoyLeft", "JoyRight"};
constexpr std::chrono::microseconds sample_period(5000); // 200 Hz

std::mutex source_lock;
PadSource& pad_source() {
  static PadSource source = [](const host::PadDevice&) { return host::PadState{}; };
  return source;
}

host::PadState sample_pad(const host::PadDevice& device) {
  std::lock_guard guard(source_lock);
  return pad_source()(device);
}

/// HidNpadButton bits from the host pad: the face buttons by position (A right, B bottom, X top, Y left, as
/// on a Pro Controller), shoulders and triggers, sticks, plus/minus, the d-pad, and the left stick's
/// direction bits (16-19) past a quarter of its range.
uint64_t npad_buttons(const host::PadState& pad) {
  using host::Button;
  struct Bit {
    Button button;
    unsigned bit;
  };
  static constexpr Bit map[] = {{Button::east, 0},          {Button::south, 1},          {Button::north, 2},
                                {Button::west, 3},          {Button::left_stick, 4},     {Button::right_stick, 5},
                                {Button::left_shoulder, 6}, {Button::right_shoulder, 7}, {Button::left_trigger, 8},
                                {Button::right_trigger, 9}, {Button::start, 10},         {Button::select, 11},
                                {Button::dpad_left, 12},    {Button::dpad_up, 13},       {Button::dpad_right, 14},
                                {Button::dpad_down, 15}};
  uint64_t buttons = 0;
  for (const Bit& entry : map)
    if (pad.held(entry.button)) buttons |= uint64_t{1} << entry.bit;
  const int x = pad.axes[0], y = -pad.axes[1]; // Horizon's y grows upwards
  constexpr int threshold = 0x2000;
  if (x < -threshold) buttons |= 1u << 16;
  if (y > threshold) buttons |= 1u << 17;
  if (x > threshold) buttons |= 1u << 18;
  if (y < -threshold) buttons |= 1u << 19;
  const int rx = pad.axes[2], ry = -pad.axes[3];
  if (rx < -threshold) buttons |= 1u << 20;
  if (ry > threshold) buttons |= 1u << 21;
  if (rx > threshold) buttons |= 1u << 22;
  if (ry < -threshold) buttons |= 1u << 23;
  return buttons;
}

int32_t stick(int16_t value) { return value == -32768 ? -32767 : value; } // Horizon's range is +-0x7fff

class Shared {
public:
  explicit Shared(std::shared_ptr<SharedMemory> memory) : memory_(std::move(memory)) {
    // Every lifo's header says 17 entries; the touch screen and keyboard lifos get (empty) samples too.
    for (uint64_t lifo : {touch_screen_offset, keyboard_offset}) put<uint64_t>(lifo + 8, lifo_entries);
    for (uint64_t entry = 0; entry < 10; ++entry)
      for (uint64_t lifo = 0; lifo < 7; ++lifo) put<uint64_t>(npad_offset + entry * npad_entry_size + 0x28 + lifo * 0x350 + 8, lifo_entries);
  }
  template <typename T>
  void put(uint64_t offset, T value) { std::memcpy(memory_->host + offset, &value, sizeof(T)); }
  template <typename T>
  T get(uint64_t offset) const {
    T value;
    std::memcpy(&value, memory_->host + offset, sizeof(T));
    return value;
  }
  /// Appends one entry to the lifo at `lifo` (entries of `storage` bytes): `fill` writes the state after the
  /// atomic sampling number; the header's tail and count move last, so a reader never sees a half entry.
  template <typename Fill>
  void append(uint64_t lifo, uint64_t storage, uint64_t sampling_number, Fill&& fill) {
    const uint64_t tail = (get<uint64_t>(lifo + 0x10) + 1) % lifo_entries;
    const uint64_t entry = lifo + lifo_header_size + tail * storage;
    fill(entry + 8);
    put<uint64_t>(entry, sampling_number);
    put<uint64_t>(lifo + 0x10, tail);
    put<uint64_t>(lifo + 0x18, std::min<uint64_t>(get<uint64_t>(lifo + 0x18) + 1, lifo_entries - 1));
  }
  std::shared_ptr<SharedMemory> memory() const { return memory_; }

private:
  std::shared_ptr<SharedMemory> memory_;
};

/// The process's hid state: what the title enabled, the shared memory, and the sampling thread.
class HidState {
public:
  HidState(Kernel& kernel, std::vector<NpadConfig> npads)
      : shared_(kernel.create_shared_memory(shared_memory_size, 1 /* read */)), npads_(std::move(npads)) {}
  std::shared_ptr<SharedMemory> memory() { return shared_.memory(); }

  void set_supported_styles(uint32_t styles) {
    std::lock_guard guard(lock_);
    styles_ = styles;
  }
  uint32_t supported_styles() {
    std::lock_guard guard(lock_);
    return styles_;
  }
  void set_supported_ids(std::vector<uint32_t> ids) {
    std::lock_guard guard(lock_);
    ids_ = std::move(ids);
  }
  /// Activate*: one sample now (the console's hid samples all along, so a title that reads its lifo right after
  /// activating finds a state), and the sampling thread starts (once).
  void activate() {
    const auto take_sample = [this] {
      std::vector<host::PadState> pads;
      for (const NpadConfig& npad : npads_) pads.push_back(sample_pad(npad.device));
      std::lock_guard guard(lock_);
      sample(pads, ++sampling_number_);
    };
    take_sample();
    sampling_clock_.start(sample_period, take_sample);
  }

private:
  bool supports(uint32_t id) const { return std::find(ids_.begin(), ids_.end(), id) != ids_.end(); }

  /// One sample: the configured npads the title enabled (style and id), then the touch screen and keyboard.
  void sample(const std::vector<host::PadState>& pads, uint64_t n) {
    for (size_t i = 0; i < npads_.size(); ++i) {
      const NpadConfig& npad = npads_[i];
      const StyleLayout& layout = layout_of(npad.style);
      const host::PadState& pad = pads[i];
      const uint64_t entry = npad_offset + npad_entry_index(npad.id) * npad_entry_size;
      const bool enabled = (styles_ & npad.style) && supports(npad.id);
      shared_.put<uint32_t>(entry, enabled ? npad.style : 0);
      if (!enabled) continue;
      shared_.put<uint32_t>(entry + npad_assignment_mode, layout.assignment);
      shared_.put<uint32_t>(entry + npad_device_type, layout.device);
      // Powered, ABXY-oriented, plus, minus and the d-pad available; batteries full (4).
      shared_.put<uint64_t>(entry + npad_system_properties, 0x7 << 3 | 1u << 11 | 1u << 13 | 1u << 14 | 1u << 15);
      for (int b = 0; b < 3; ++b) shared_.put<uint32_t>(entry + npad_battery_level + 4 * b, 4);
      shared_.append(entry + layout.lifo, npad_common_storage, n, [&](uint64_t state) {
        shared_.put<uint64_t>(state, n);
        shared_.put<uint64_t>(state + 8, npad_buttons(pad) & layout.buttons);
        shared_.put<int32_t>(state + 0x10, layout.left_stick ? stick(pad.axes[0]) : 0);
        shared_.put<int32_t>(state + 0x14, layout.left_stick ? -stick(pad.axes[1]) : 0);
        shared_.put<int32_t>(state + 0x18, layout.right_stick ? stick(pad.axes[2]) : 0);
        shared_.put<int32_t>(state + 0x1c, layout.right_stick ? -stick(pad.axes[3]) : 0);
        shared_.put<uint32_t>(state + 0x20, layout.attributes);
      });
    }
    shared_.append(touch_screen_offset, touch_screen_storage, n, [&](uint64_t state) {
      shared_.put<uint64_t>(state, n);
      shared_.put<int32_t>(state + 8, 0); // no touches
    });
    shared_.append(keyboard_offset, keyboard_storage, n, [&](uint64_t state) { shared_.put<uint64_t>(state, n); });
  }
  static uint64_t npad_entry_index(uint32_t id) { return id == npad_id_handheld ? 8 : id == 0x10 ? 9 : id; }

  Shared shared_;
  const std::vector<NpadConfig> npads_;
  std::mutex lock_;
  uint32_t styles_ = 0;
  std::vector<uint32_t> ids_;
  uint64_t sampling_number_ = 0;
  PeriodicThread sampling_clock_; // last: stopped before the shared memory and state its tick writes go
};

class AppletResource final : public ipc::ServiceObject {
public:
  explicit AppletResource(std::shared_ptr<HidState> state) : state_(std::move(state)) {}
  std::string_view name() const override { return "hid:IAppletResource"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {{0, "GetSharedMemoryHandle", ipc::bind<&AppletResource::shared_memory_handle>}};
    return table;
  }
  Result shared_memory_handle(ipc::Context& c) {
    c.push_copy_handle(state_->memory());
    return success;
  }

private:
  std::shared_ptr<HidState> state_;
};

class HidServer final : public ipc::ServiceObject {
public:
  explicit HidServer(std::vector<NpadConfig> npads) : npads_(std::move(npads)) {}
  std::string_view name() const override { return "hid"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "CreateAppletResource", ipc::bind<&HidServer::create_applet_resource>},
        {1, "ActivateDebugPad", ipc::bind<&HidServer::accept>},
        {11, "ActivateTouchScreen", ipc::bind<&HidServer::activate>},
        {21, "ActivateMouse", ipc::bind<&HidServer::accept>},
        {31, "ActivateKeyboard", ipc::bind<&HidServer::activate>},
        {100, "SetSupportedNpadStyleSet", ipc::bind<&HidServer::set_supported_npad_style_set>},
        {101, "GetSupportedNpadStyleSet", ipc::bind<&HidServer::get_supported_npad_style_set>},
        {102, "SetSupportedNpadIdType", ipc::bind<&HidServer::set_supported_npad_id_type>},
        {103, "ActivateNpad", ipc::bind<&HidServer::activate>},
        {106, "AcquireNpadStyleSetUpdateEventHandle", ipc::bind<&HidServer::style_set_update_event>},
        {109, "ActivateNpadWithRevision", ipc::bind<&HidServer::activate>},
        {120, "SetNpadJoyHoldType", ipc::bind<&HidServer::set_npad_joy_hold_type>},
        {121, "GetNpadJoyHoldType", ipc::bind<&HidServer::get_npad_joy_hold_type>},
        {122, "SetNpadJoyAssignmentModeSingleByDefault", ipc::bind<&HidServer::accept>},
        {124, "SetNpadJoyAssignmentModeDual", ipc::bind<&HidServer::accept>},
    };
    return table;
  }

private:
  HidState& state(ipc::Context& c) {
    std::lock_guard guard(lock_);
    if (!state_) state_ = std::make_shared<HidState>(c.kernel(), npads_);
    return *state_;
  }
  Result create_applet_resource(ipc::Context& c) {
    state(c);
    c.push_object(std::make_shared<AppletResource>(state_));
    return success;
  }
  Result activate(ipc::Context& c) {
    state(c).activate();
    return success;
  }
  /// Debug pad, mouse, Joy-Con assignment: kiln's npads are fixed by its configuration (a pair stays a pair).
  Result accept(ipc::Context&) { return success; }
  Result set_supported_npad_style_set(ipc::Context& c) {
    state(c).set_supported_styles(c.read<uint32_t>());
    return success;
  }
  Result get_supported_npad_style_set(ipc::Context& c) {
    c.write(state(c).supported_styles());
    return success;
  }
  /// The ids arrive as a u32 array in the X (pointer) buffer.
  Result set_supported_npad_id_type(ipc::Context& c) {
    const ipc::GuestBuffer ids = c.in_auto(0);
    std::vector<uint32_t> list(ids.size / 4);
    if (!list.empty()) std::memcpy(list.data(), ids.host(), list.size() * 4);
    state(c).set_supported_ids(std::move(list));
    return success;
  }
  Result style_set_update_event(ipc::Context& c) {
    auto event = std::make_shared<ReadableEvent>();
    c.kernel().signal(*event); // the styles are set once, at start-up: signalled from the first request
    c.push_copy_handle(event);
    return success;
  }
  Result set_npad_joy_hold_type(ipc::Context& c) {
    c.read<uint64_t>(); // aruid
    hold_type_ = c.read<uint64_t>();
    return success;
  }
  Result get_npad_joy_hold_type(ipc::Context& c) {
    c.write(hold_type_);
    return success;
  }

  const std::vector<NpadConfig> npads_;
  std::mutex lock_;
  std::shared_ptr<HidState> state_;
  uint64_t hold_type_ = 1; // horizontal
};

} // namespace

void set_pad_source(PadSource source) {
  std::lock_guard guard(source_lock);
  pad_source() = std::move(source);
}

std::vector<NpadConfig> default_npads() {
  return {{0, npad_style::full_key, {}}, {npad_id_handheld, npad_style::handheld, {}}};
}

std::optional<uint32_t> npad_id_from_name(std::string_view name) {
  if (name == "Handheld") return npad_id_handheld;
  if (name.size() == 3 && name.starts_with("No") && name[2] >= '1' && name[2] <= '8') return static_cast<uint32_t>(name[2] - '1');
  return std::nullopt;
}

std::optional<uint32_t> npad_style_from_name(std::string_view name) {
  for (size_t i = 0; i < std::size(style_names); ++i)
    if (name == style_names[i]) return 1u << i;
  return std::nullopt;
}

std::string npad_id_name(uint32_t id) { return id == npad_id_handheld ? "Handheld" : fmt::format("No{}", id + 1); }

std::string npad_style_name(uint32_t style) {
  for (size_t i = 0; i < std::size(style_names); ++i)
    if (style == 1u << i) return style_names[i];
  return fmt::format("style {:#x}", style);
}

void register_hid(ServiceRegistry& registry, std::vector<NpadConfig> npads) {
  // One server per process, so every session shares the shared memory and its sampling thread.
  auto server = std::make_shared<HidServer>(std::move(npads));
  registry.add("hid", [server] { return server; });
  registry.add_interface("hid:IAppletResource", [] { return std::make_shared<AppletResource>(nullptr); });
}

} // namespace kiln::hos
