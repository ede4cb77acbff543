// appletOE (IApplicationProxyService), appletAE (the library and system applet proxies) and the start-up
// sub-interfaces of their proxies (switchbrew "Applet Manager services"): the common state getter's message queue (one FocusStateChanged, then empty), handheld
// operation mode, in focus; the window controller's applet resource user id; audio volumes; launch parameters
// (none); library applets fail cleanly, naming the applet.
#include <fmt/format.h>

#include <deque>
#include <mutex>

#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/vi.h"

namespace kiln::hos {

namespace {

constexpr uint32_t am_module = 128;
constexpr Result no_messages = make_result(am_module, 3);          ///< 0x680
constexpr Result no_data_in_channel = make_result(am_module, 2);   ///< PopLaunchParameter with nothing to pop
constexpr Result applet_not_provided = make_result(am_module, 35); ///< kiln's choice for a library applet it lacks
constexpr uint32_t message_focus_state_changed = 15;
constexpr uint64_t applet_resource_user_id = 0x51; ///< the process id, as the system assigns it

template <typename T>
Result answer(ipc::Context& c, T value) {
  c.write(value);
  return success;
}

class CommonStateGetter final : public ipc::ServiceObject {
public:
  explicit CommonStateGetter(const SystemSettings& settings) : docked_(settings.docked) {}
  std::string_view name() const override { return "am:ICommonStateGetter"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetEventHandle", ipc::bind<&CommonStateGetter::get_event_handle>},
        {1, "ReceiveMessage", ipc::bind<&CommonStateGetter::receive_message>},
        {5, "GetOperationMode", ipc::bind<&CommonStateGetter::get_operation_mode>},
        {6, "GetPerformanceMode", ipc::bind<&CommonStateGetter::get_performance_mode>},
        {9, "GetCurrentFocusState", ipc::bind<&CommonStateGetter::get_current_focus_state>},
    };
    return table;
  }
  Result get_event_handle(ipc::Context& c) {
    std::lock_guard lock(lock_);
    if (!messages_.empty()) c.kernel().signal(*event_);
    c.push_copy_handle(event_);
    return success;
  }
  Result receive_message(ipc::Context& c) {
    std::lock_guard lock(lock_);
    if (messages_.empty()) return no_messages;
    c.write(messages_.front());
    messages_.pop_front();
    if (messages_.empty()) c.kernel().clear(*event_);
    return success;
  }
  Result get_operation_mode(ipc::Context& c) { return answer<uint8_t>(c, docked_ ? 1 : 0); }
  Result get_performance_mode(ipc::Context& c) { return answer<uint32_t>(c, docked_ ? 1 : 0); }
  Result get_current_focus_state(ipc::Context& c) { return answer<uint8_t>(c, 1); } // InFocus

private:
  bool docked_;
  std::mutex lock_;
  std::deque<uint32_t> messages_{message_focus_state_changed};
  std::shared_ptr<ReadableEvent> event_ = std::make_shared<ReadableEvent>();
};

/// Notification and focus settings the guest makes; kiln accepts them (there is one application, always in focus).
class SelfController final : public ipc::ServiceObject {
public:
  /// `registry`: the process's services, alive as long as any session (null only for the documentation's table).
  explicit SelfController(ServiceRegistry* registry) : registry_(registry) {}
  std::string_view name() const override { return "am:ISelfController"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {1, "LockExit", ipc::bind<&SelfController::accept>},
        {2, "UnlockExit", ipc::bind<&SelfController::accept>},
        {10, "SetScreenShotPermission", ipc::bind<&SelfController::accept>},
        {11, "SetOperationModeChangedNotification", ipc::bind<&SelfController::accept>},
        {12, "SetPerformanceModeChangedNotification", ipc::bind<&SelfController::accept>},
        {13, "SetFocusHandlingMode", ipc::bind<&SelfController::accept>},
        {14, "SetRestartMessageEnabled", ipc::bind<&SelfController::accept>},
        {16, "SetOutOfFocusSuspendingEnabled", ipc::bind<&SelfController::accept>},
        {40, "CreateManagedDisplayLayer", ipc::bind<&SelfController::create_managed_display_layer>},
        {50, "SetHandlesRequestToDisplay", ipc::bind<&SelfController::accept>},
        {62, "SetIdleTimeDetectionExtension", ipc::bind<&SelfController::set_idle_time_detection_extension>},
        {63, "GetIdleTimeDetectionExtension", ipc::bind<&SelfController::get_idle_time_detection_extension>},
        {68, "SetAutoSleepDisabled", ipc::bind<&SelfController::set_auto_sleep_disabled>},
        {69, "IsAutoSleepDisabled", ipc::bind<&SelfController::is_auto_sleep_disabled>},
        {90, "GetAccumulatedSuspendedTickValue", ipc::bind<&SelfController::get_accumulated_suspended_tick_value>},
        {91, "GetAccumulatedSuspendedTickChangedEvent", ipc::bind<&SelfController::get_accumulated_suspended_tick_changed_event>},
    };
    return table;
  }
  Result accept(ipc::Context&) { return success; }
  /// A layer on vi's display (the title's own): IApplicationDisplayService OpenLayer opens it by this id.
  Result create_managed_display_layer(ipc::Context& c) { return answer<uint64_t>(c, hos::create_managed_display_layer(*registry_)); }
  Result set_idle_time_detection_extension(ipc::Context& c) {
    idle_time_detection_extension_ = c.read<uint32_t>();
    return success;
  }
  Result get_idle_time_detection_extension(ipc::Context& c) { return answer(c, idle_time_detection_extension_); }
  Result set_auto_sleep_disabled(ipc::Context& c) {
    auto_sleep_disabled_ = c.read<uint8_t>() != 0;
    return success;
  }
  Result is_auto_sleep_disabled(ipc::Context& c) { return answer<uint8_t>(c, auto_sleep_disabled_); }
  /// kiln's process is never suspended: no ticks accumulate and the event is never signalled.
  Result get_accumulated_suspended_tick_value(ipc::Context& c) { return answer<uint64_t>(c, 0); }
  Result get_accumulated_suspended_tick_changed_event(ipc::Context& c) {
    c.push_copy_handle(suspended_tick_changed_);
    return success;
  }

private:
  ServiceRegistry* registry_;
  uint32_t idle_time_detection_extension_ = 0;
  bool auto_sleep_disabled_ = false;
  std::shared_ptr<ReadableEvent> suspended_tick_changed_ = std::make_shared<ReadableEvent>();
};

class WindowController final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "am:IWindowController"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {1, "GetAppletResourceUserId", ipc::bind<&WindowController::get_applet_resource_user_id>},
        {10, "AcquireForegroundRights", ipc::bind<&WindowController::acquire_foreground_rights>},
    };
    return table;
  }
  Result get_applet_resource_user_id(ipc::Context& c) { return answer(c, applet_resource_user_id); }
  Result acquire_foreground_rights(ipc::Context&) { return success; }
};

class AudioController final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "am:IAudioController"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "SetExpectedMasterVolume", ipc::bind<&AudioController::set_expected_master_volume>},
        {1, "GetMainAppletExpectedMasterVolume", ipc::bind<&AudioController::get_main_volume>},
        {2, "GetLibraryAppletExpectedMasterVolume", ipc::bind<&AudioController::get_library_volume>},
    };
    return table;
  }
  Result set_expected_master_volume(ipc::Context& c) {
    main_volume_ = c.read<float>();
    library_volume_ = c.read<float>();
    return success;
  }
  Result get_main_volume(ipc::Context& c) { return answer(c, main_volume_); }
  Result get_library_volume(ipc::Context& c) { return answer(c, library_volume_); }

private:
  float main_volume_ = 1.0f, library_volume_ = 1.0f;
};

/// Interfaces libnx opens at start-up without calling them: their tables are empty, so any call is reported.
class EmptyInterface final : public ipc::ServiceObject {
public:
  explicit EmptyInterface(const char* name) : name_(name) {}
  std::string_view name() const override { return name_; }
  std::span<const ipc::Command> commands() const override { return {}; }

private:
  const char* name_;
};

class LibraryAppletCreator final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "am:ILibraryAppletCreator"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {{0, "CreateLibraryApplet", ipc::bind<&LibraryAppletCreator::create_library_applet>}};
    return table;
  }
  Result create_library_applet(ipc::Context& c) {
    const uint32_t applet = c.read<uint32_t>(), mode = c.read<uint32_t>();
    c.kernel().report_once(fmt::format("library applet {}", applet),
                           fmt::format("CreateLibraryApplet(applet id {:#x}, mode {}) at guest address {:#x}: kiln provides no library "
                                       "applets; replying {:#x}", applet, mode, c.pc(), applet_not_provided));
    return applet_not_provided;
  }
};

class ApplicationFunctions final : public ipc::ServiceObject {
public:
  explicit ApplicationFunctions(const SystemSettings& settings) : settings_(settings) {}
  std::string_view name() const override { return "am:IApplicationFunctions"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {1, "PopLaunchParameter", ipc::bind<&ApplicationFunctions::pop_launch_parameter>},
        {21, "GetDesiredLanguage", ipc::bind<&ApplicationFunctions::get_desired_language>},
        {22, "SetTerminateResult", ipc::bind<&ApplicationFunctions::set_terminate_result>},
        {40, "NotifyRunning", ipc::bind<&ApplicationFunctions::notify_running>},
    };
    return table;
  }
  Result pop_launch_parameter(ipc::Context&) { return no_data_in_channel; } // kiln starts titles without launch parameters
  Result get_desired_language(ipc::Context& c) {
    uint64_t code = 0;
    const char* text = language_codes[settings_.language];
    for (int i = 0; i < 8 && text[i]; ++i) code |= uint64_t{static_cast<uint8_t>(text[i])} << (8 * i);
    return answer(c, code);
  }
  Result set_terminate_result(ipc::Context& c) {
    terminate_result_ = c.read<uint32_t>();
    return success;
  }
  Result notify_running(ipc::Context& c) { return answer<uint8_t>(c, 0); }

private:
  SystemSettings settings_;
  uint32_t terminate_result_ = 0;
};

/// The proxies appletOE and appletAE hand out: one implementation, each kind with its table. They share the
/// sub-interfaces (0-4, 11, 1000); the application proxy adds IApplicationFunctions (20). The library and
/// system applet proxies' own interfaces (process winding, self accessor, home menu...) are not there: a call
/// takes the unknown-command path.
class AppletProxy final : public ipc::ServiceObject {
public:
  enum class Kind { application, library_applet, system_applet };
  AppletProxy(Kind kind, const SystemSettings& settings, ServiceRegistry* registry) : kind_(kind), settings_(settings), registry_(registry) {}
  std::string_view name() const override {
    return kind_ == Kind::application ? "am:IApplicationProxy" : kind_ == Kind::library_applet ? "am:ILibraryAppletProxy" : "am:ISystemAppletProxy";
  }
  std::span<const ipc::Command> commands() const override {
#define KILN_COMMON_PROXY_COMMANDS                                                              \
  {0, "GetCommonStateGetter", ipc::bind<&AppletProxy::common_state_getter>},                    \
      {1, "GetSelfController", ipc::bind<&AppletProxy::self_controller>},                       \
      {2, "GetWindowController", ipc::bind<&AppletProxy::window_controller>},                   \
      {3, "GetAudioController", ipc::bind<&AppletProxy::audio_controller>},                     \
      {4, "GetDisplayController", ipc::bind<&AppletProxy::display_controller>},                 \
      {11, "GetLibraryAppletCreator", ipc::bind<&AppletProxy::library_applet_creator>}
    static constexpr ipc::Command application[] = {
        KILN_COMMON_PROXY_COMMANDS,
        {20, "GetApplicationFunctions", ipc::bind<&AppletProxy::application_functions>},
        {1000, "GetDebugFunctions", ipc::bind<&AppletProxy::debug_functions>},
    };
    static constexpr ipc::Command applet[] = {
        KILN_COMMON_PROXY_COMMANDS,
        {1000, "GetDebugFunctions", ipc::bind<&AppletProxy::debug_functions>},
    };
#undef KILN_COMMON_PROXY_COMMANDS
    if (kind_ == Kind::application) return application;
    return applet;
  }
  Result common_state_getter(ipc::Context& c) { return give(c, common_state_getter_); }
  Result self_controller(ipc::Context& c) { return give(c, std::make_shared<SelfController>(registry_)); }
  Result window_controller(ipc::Context& c) { return give(c, std::make_shared<WindowController>()); }
  Result audio_controller(ipc::Context& c) { return give(c, std::make_shared<AudioController>()); }
  Result display_controller(ipc::Context& c) { return give(c, std::make_shared<EmptyInterface>("am:IDisplayController")); }
  Result library_applet_creator(ipc::Context& c) { return give(c, std::make_shared<LibraryAppletCreator>()); }
  Result application_functions(ipc::Context& c) { return give(c, std::make_shared<ApplicationFunctions>(settings_)); }
  Result debug_functions(ipc::Context& c) { return give(c, std::make_shared<EmptyInterface>("am:IDebugFunctions")); }

private:
  static Result give(ipc::Context& c, std::shared_ptr<ipc::ServiceObject> object) {
    c.push_object(std::move(object));
    return success;
  }
  Kind kind_;
  SystemSettings settings_;
  ServiceRegistry* registry_;
  std::shared_ptr<CommonStateGetter> common_state_getter_ = std::make_shared<CommonStateGetter>(settings_);
};

/// appletOE (IApplicationProxyService) and appletAE (IAllSystemAppletProxiesService): the proxy of the kind
/// each open command names. Their inputs (the process handle, the reserved u64, appletAE's AppletAttribute)
/// are not needed: kiln runs one process.
class AppletProxyService final : public ipc::ServiceObject {
public:
  AppletProxyService(const char* name, const SystemSettings& settings, ServiceRegistry* registry)
      : name_(name), settings_(settings), registry_(registry) {}
  std::string_view name() const override { return name_; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command oe[] = {{0, "OpenApplicationProxy", ipc::bind<&AppletProxyService::open_application_proxy>}};
    static constexpr ipc::Command ae[] = {
        {100, "OpenSystemAppletProxy", ipc::bind<&AppletProxyService::open_system_applet_proxy>},
        {200, "OpenLibraryAppletProxyOld", ipc::bind<&AppletProxyService::open_library_applet_proxy>},
        {201, "OpenLibraryAppletProxy", ipc::bind<&AppletProxyService::open_library_applet_proxy>},
    };
    if (std::string_view(name_) == "appletOE") return oe;
    return ae;
  }
  Result open_application_proxy(ipc::Context& c) { return open(c, AppletProxy::Kind::application); }
  Result open_system_applet_proxy(ipc::Context& c) { return open(c, AppletProxy::Kind::system_applet); }
  Result open_library_applet_proxy(ipc::Context& c) { return open(c, AppletProxy::Kind::library_applet); }

private:
  Result open(ipc::Context& c, AppletProxy::Kind kind) {
    c.push_object(std::make_shared<AppletProxy>(kind, settings_, registry_));
    return success;
  }
  const char* name_;
  SystemSettings settings_;
  ServiceRegistry* registry_;
};

} // namespace

void register_applet_services(ServiceRegistry& registry, const SystemSettings& settings) {
  // The proxies keep the registry for am's managed display layers, which live on vi's display.
  ServiceRegistry* services = &registry;
  for (const char* name : {"appletOE", "appletAE"})
    registry.add(name, [name, settings, services] { return std::make_shared<AppletProxyService>(name, settings, services); });
  using Kind = AppletProxy::Kind;
  for (const Kind kind : {Kind::application, Kind::library_applet, Kind::system_applet})
    registry.add_interface(std::string(AppletProxy(kind, settings, nullptr).name()),
                           [kind, settings] { return std::make_shared<AppletProxy>(kind, settings, nullptr); });
  registry.add_interface("am:ICommonStateGetter", [settings] { return std::make_shared<CommonStateGetter>(settings); });
  registry.add_interface("am:ISelfController", [] { return std::make_shared<SelfController>(nullptr); });
  registry.add_interface("am:IWindowController", [] { return std::make_shared<WindowController>(); });
  registry.add_interface("am:IAudioController", [] { return std::make_shared<AudioController>(); });
  registry.add_interface("am:ILibraryAppletCreator", [] { return std::make_shared<LibraryAppletCreator>(); });
  registry.add_interface("am:IApplicationFunctions", [settings] { return std::make_shared<ApplicationFunctions>(settings); });
}

} // namespace kiln::hos
