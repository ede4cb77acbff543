// apm (performance modes and configurations), psm (the battery: full, on the official charger), csrng (host
// random bytes).
#include <sys/random.h>

#include "runtime/platform/switch/services/audio/audio_destination.h"
#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

namespace {

/// apm ISession: the configuration per performance mode, as the guest set it (kiln's defaults: the
/// handheld 0x00010000 and docked 0x00020003 configurations switchbrew lists as the system's).
class PerformanceSession final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "apm:ISession"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "SetPerformanceConfiguration", ipc::bind<&PerformanceSession::set_configuration>},
        {1, "GetPerformanceConfiguration", ipc::bind<&PerformanceSession::get_configuration>},
    };
    return table;
  }
  Result set_configuration(ipc::Context& c) {
    const uint32_t mode = c.read<uint32_t>(), configuration = c.read<uint32_t>();
    if (mode > 1) return make_result(148, 2); // apm InvalidParameter
    configurations_[mode] = configuration;
    return success;
  }
  Result get_configuration(ipc::Context& c) {
    const uint32_t mode = c.read<uint32_t>();
    if (mode > 1) return make_result(148, 2);
    c.write(configurations_[mode]);
    return success;
  }

private:
  uint32_t configurations_[2] = {0x00010000, 0x00020003};
};

class PerformanceManager final : public ipc::ServiceObject {
public:
  explicit PerformanceManager(bool docked) : docked_(docked) {}
  std::string_view name() const override { return "apm"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "OpenSession", ipc::bind<&PerformanceManager::open_session>},
        {1, "GetPerformanceMode", ipc::bind<&PerformanceManager::get_performance_mode>},
    };
    return table;
  }
  Result open_session(ipc::Context& c) {
    c.push_object(std::make_shared<PerformanceSession>());
    return success;
  }
  Result get_performance_mode(ipc::Context& c) {
    c.write<uint32_t>(docked_ ? 1 : 0);
    return success;
  }

private:
  bool docked_;
};

/// psm's IPsmSession (switchbrew "PTM services"): the state-change event a client binds; kiln's battery never
/// changes state, so the event is never signalled, and the notification switches are accepted.
class PowerStateSession final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "psm:IPsmSession"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "BindStateChangeEvent", ipc::bind<&PowerStateSession::bind_state_change_event>},
        {1, "UnbindStateChangeEvent", ipc::bind<&PowerStateSession::accept>},
        {2, "SetChargerTypeChangeEventEnabled", ipc::bind<&PowerStateSession::accept>},
        {3, "SetPowerSupplyChangeEventEnabled", ipc::bind<&PowerStateSession::accept>},
        {4, "SetBatteryVoltageStateChangeEventEnabled", ipc::bind<&PowerStateSession::accept>},
    };
    return table;
  }
  Result bind_state_change_event(ipc::Context& c) {
    c.push_copy_handle(event_);
    return success;
  }
  Result accept(ipc::Context&) { return success; }

private:
  std::shared_ptr<ReadableEvent> event_ = std::make_shared<ReadableEvent>();
};

/// psm (IPsmServer): a full battery on the official charger, as the host has no battery to report.
class PowerStateServer final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "psm"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetBatteryChargePercentage", ipc::bind<&PowerStateServer::get_battery_charge_percentage>},
        {1, "GetChargerType", ipc::bind<&PowerStateServer::get_charger_type>},
        {7, "OpenSession", ipc::bind<&PowerStateServer::open_session>},
        {12, "GetBatteryVoltageState", ipc::bind<&PowerStateServer::get_battery_voltage_state>},
        {13, "GetRawBatteryChargePercentage", ipc::bind<&PowerStateServer::get_raw_battery_charge_percentage>},
        {14, "IsEnoughPowerSupplied", ipc::bind<&PowerStateServer::is_enough_power_supplied>},
        {15, "GetBatteryAgePercentage", ipc::bind<&PowerStateServer::get_battery_age_percentage>},
    };
    return table;
  }
  Result get_battery_charge_percentage(ipc::Context& c) { return answer<uint32_t>(c, 100); }
  Result get_charger_type(ipc::Context& c) { return answer<uint32_t>(c, 1); }          // EnoughPower: the official charger
  Result get_battery_voltage_state(ipc::Context& c) { return answer<uint32_t>(c, 3); } // Good
  Result get_raw_battery_charge_percentage(ipc::Context& c) { return answer<double>(c, 100.0); }
  Result is_enough_power_supplied(ipc::Context& c) { return answer<uint8_t>(c, 1); }
  Result get_battery_age_percentage(ipc::Context& c) { return answer<double>(c, 100.0); }
  Result open_session(ipc::Context& c) {
    c.push_object(std::make_shared<PowerStateSession>());
    return success;
  }

private:
  template <typename T>
  static Result answer(ipc::Context& c, T value) {
    c.write(value);
    return success;
  }
};

class RandomInterface final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "csrng"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {{0, "GenerateRandomBytes", ipc::bind<&RandomInterface::generate>}};
    return table;
  }
  Result generate(ipc::Context& c) {
    const ipc::GuestBuffer out = c.out_auto(0);
    for (uint64_t done = 0; done < out.size;) {
      const ssize_t n = getrandom(out.host() + done, out.size - done, 0);
      if (n <= 0) return make_result(26, 1); // kiln's choice when the host has no entropy: spl's module
      done += static_cast<uint64_t>(n);
    }
    return success;
  }
};

} // namespace

void register_apm(ServiceRegistry& registry, const SystemSettings& settings) {
  const bool docked = settings.docked;
  registry.add("apm", [docked] { return std::make_shared<PerformanceManager>(docked); });
  registry.add_interface("apm:ISession", [] { return std::make_shared<PerformanceSession>(); });
}

void register_psm(ServiceRegistry& registry) {
  registry.add("psm", [] { return std::make_shared<PowerStateServer>(); });
  registry.add_interface("psm:IPsmSession", [] { return std::make_shared<PowerStateSession>(); });
}

void register_csrng(ServiceRegistry& registry) { registry.add("csrng", [] { return std::make_shared<RandomInterface>(); }); }

void register_default_services(ServiceRegistry& registry, const SystemSettings& settings) {
  register_settings_services(registry, settings);
  register_apm(registry, settings);
  register_psm(registry);
  register_csrng(registry);
  register_lm(registry);
  register_time(registry);
  register_nifm(registry);
  register_shared_font(registry, settings.font_folder);
  register_applet_services(registry, settings);
  register_nvdrv(registry, settings.gpu);
  register_vi(registry);
  register_hid(registry, settings.npads);
  register_file_system(registry, settings.file_systems);
  auto audio = std::make_shared<AudioDestination>(settings.audio); // audout and audren play into one stream
  register_audio_out(registry, audio);
  register_audio_renderer(registry, audio);
}

} // namespace kiln::hos
