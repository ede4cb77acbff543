// apm (performance modes and configurations), csrng (host random bytes).
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

void register_csrng(ServiceRegistry& registry) { registry.add("csrng", [] { return std::make_shared<RandomInterface>(); }); }

void register_default_services(ServiceRegistry& registry, const SystemSettings& settings) {
  register_settings_services(registry, settings);
  register_apm(registry, settings);
  register_csrng(registry);
  register_lm(registry);
  register_time(registry);
  register_applet_services(registry, settings);
  register_nvdrv(registry);
  register_vi(registry);
  register_hid(registry);
  register_file_system(registry, settings.file_systems);
  auto audio = std::make_shared<AudioDestination>(settings.audio); // audout and audren play into one stream
  register_audio_out(registry, audio);
  register_audio_renderer(registry, audio);
}

} // namespace kiln::hos
