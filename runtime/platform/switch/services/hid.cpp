// hid (nn::hid::IHidServer, switchbrew "HID services"): the start-up commands a title sends (applet resource,
// activation, supported npad styles and ids, hold type, assignment modes) and the 0x40000-byte shared memory
// it reads input from, in the layout of switchbrew's "HID Shared Memory" page (and libnx's hid.h, which
// spells it out): debug pad 0x0, touch screen 0x400, mouse 0x3400, keyboard 0x3800, ..., npad 0x9a00 (ten
// 0x5000-byte entries: No1-No8, Handheld, Other). A host thread samples the pad source at 200 Hz and appends
// a state to the lifo of every style the title enabled (Pro Controller as FullKey on No1, and Handheld),
// plus the touch screen's and keyboard's lifos, which stay empty of input.
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
// Inside an npad entry: style set, assignment mode, colours, then seven common-state lifos of 0x350 bytes.
constexpr uint64_t npad_full_key_lifo = 0x28, npad_handheld_lifo = 0x28 + 0x350;
constexpr uint64_t npad_common_storage = 0x30; // the atomic sampling number, then the 0x28-byte state
constexpr uint64_t npad_device_type = 0x4188, npad_system_properties = 0x4190, npad_battery_level = 0x419c;
constexpr uint64_t keyboard_storage = 0x30, touch_screen_storage = 0x298;
constexpr uint32_t style_full_key = 1u << 0, style_handheld = 1u << 1;
constexpr uint32_t npad_id_no1 = 0, npad_id_handheld = 0x20;
constexpr uint32_t device_full_key = 1u << 0, device_handheld_left = 1u << 2, device_handheld_right = 1u << 3;
constexpr uint32_t attribute_connected = 1u << 0, attribute_wired = 1u << 1;
constexpr std::chrono::microseconds sample_period(5000); // 200 Hz

std::mutex source_lock;
PadSource& pad_source() {
  static PadSource source = [] { return host::PadState{}; };
  return source;
}

host::PadState sample_pad() {
  std::lock_guard guard(source_lock);
  return pad_source()();
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
  explicit HidState(Kernel& kernel) : shared_(kernel.create_shared_memory(shared_memory_size, 1 /* read */)) {}
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
      const host::PadState pad = sample_pad();
      std::lock_guard guard(lock_);
      sample(pad, ++sampling_number_);
    };
    take_sample();
    sampling_clock_.start(sample_period, take_sample);
  }

private:
  bool supports(uint32_t id) const { return std::find(ids_.begin(), ids_.end(), id) != ids_.end(); }

  /// One sample: the npads the title enabled (style and id), then the touch screen and keyboard.
  void sample(const host::PadState& pad, uint64_t n) {
    struct Npad {
      uint32_t id, style;
      uint64_t lifo;
      uint32_t device, attributes;
    };
    const Npad npads[] = {
        {npad_id_no1, style_full_key, npad_full_key_lifo, device_full_key, attribute_connected},
        {npad_id_handheld, style_handheld, npad_handheld_lifo, device_handheld_left | device_handheld_right,
         attribute_connected | attribute_wired},
    };
    for (const Npad& npad : npads) {
      const uint64_t entry = npad_offset + npad_entry_index(npad.id) * npad_entry_size;
      const bool enabled = (styles_ & npad.style) && supports(npad.id);
      shared_.put<uint32_t>(entry, enabled ? npad.style : 0);
      if (!enabled) continue;
      shared_.put<uint32_t>(entry + npad_device_type, npad.device);
      // Powered, ABXY-oriented, plus, minus and the d-pad available; batteries full (4).
      shared_.put<uint64_t>(entry + npad_system_properties, 0x7 << 3 | 1u << 11 | 1u << 13 | 1u << 14 | 1u << 15);
      for (int i = 0; i < 3; ++i) shared_.put<uint32_t>(entry + npad_battery_level + 4 * i, 4);
      shared_.append(entry + npad.lifo, npad_common_storage, n, [&](uint64_t state) {
        shared_.put<uint64_t>(state, n);
        shared_.put<uint64_t>(state + 8, npad_buttons(pad));
        shared_.put<int32_t>(state + 0x10, stick(pad.axes[0]));
        shared_.put<int32_t>(state + 0x14, -stick(pad.axes[1]));
        shared_.put<int32_t>(state + 0x18, stick(pad.axes[2]));
        shared_.put<int32_t>(state + 0x1c, -stick(pad.axes[3]));
        shared_.put<uint32_t>(state + 0x20, npad.attributes);
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
    if (!state_) state_ = std::make_shared<HidState>(c.kernel());
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
  /// Debug pad, mouse, Joy-Con assignment: kiln's npads are a Pro Controller and the handheld pair.
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

  std::mutex lock_;
  std::shared_ptr<HidState> state_;
  uint64_t hold_type_ = 1; // horizontal
};

} // namespace

void set_pad_source(PadSource source) {
  std::lock_guard guard(source_lock);
  pad_source() = std::move(source);
}

void register_hid(ServiceRegistry& registry) {
  // One server per process, so every session shares the shared memory and its sampling thread.
  auto server = std::make_shared<HidServer>();
  registry.add("hid", [server] { return server; });
  registry.add_interface("hid:IAppletResource", [] { return std::make_shared<AppletResource>(nullptr); });
}

} // namespace kiln::hos
