// sm: (switchbrew "Services API"): 0 Initialize (RegisterClient), 1 GetService, 2 RegisterService,
// 3 UnregisterService, over CMIF or TIPC (libnx uses TIPC from 12.0.0).
#include <fmt/format.h>

#include "runtime/platform/switch/ipc/session.h"
#include "runtime/platform/switch/services/registry.h"

namespace kiln::hos {

void ServiceRegistry::add(const std::string& name, Factory factory) {
  std::lock_guard lock(lock_);
  factories_[name] = std::move(factory);
}

std::shared_ptr<ipc::ServiceObject> ServiceRegistry::create(const std::string& name) const {
  Factory factory;
  {
    std::lock_guard lock(lock_);
    const auto it = factories_.find(name);
    if (it == factories_.end()) return nullptr;
    factory = it->second;
  }
  return factory();
}

std::vector<std::string> ServiceRegistry::names() const {
  std::lock_guard lock(lock_);
  std::vector<std::string> out;
  for (const auto& [name, factory] : factories_) out.push_back(name);
  return out;
}

void ServiceRegistry::add_interface(const std::string& name, Factory factory) {
  std::lock_guard lock(lock_);
  interfaces_[name] = std::move(factory);
}

std::vector<std::shared_ptr<ipc::ServiceObject>> ServiceRegistry::interfaces() const {
  std::lock_guard lock(lock_);
  std::vector<std::shared_ptr<ipc::ServiceObject>> out;
  for (const auto& [name, factory] : interfaces_) out.push_back(factory());
  return out;
}

bool ServiceRegistry::register_guest_service(const std::string& name, std::shared_ptr<ServerPort> port) {
  std::lock_guard lock(lock_);
  if (factories_.count(name) || guest_ports_.count(name)) return false;
  guest_ports_[name] = std::move(port);
  return true;
}

bool ServiceRegistry::unregister_guest_service(const std::string& name) {
  std::lock_guard lock(lock_);
  return guest_ports_.erase(name) != 0;
}

bool ServiceRegistry::guest_service(const std::string& name) const {
  std::lock_guard lock(lock_);
  return guest_ports_.count(name) != 0;
}

namespace {

/// A service name as sm takes it: up to 8 characters in a u64, NUL-padded; a NUL followed by more is invalid.
bool decode_name(uint64_t encoded, std::string* name) {
  name->clear();
  bool ended = false;
  for (int i = 0; i < 8; ++i) {
    const char c = static_cast<char>(encoded >> (8 * i));
    if (!c) ended = true;
    else if (ended) return false;
    else *name += c;
  }
  return !name->empty();
}

class ServiceManager final : public ipc::ServiceObject {
public:
  ServiceManager(std::shared_ptr<ServiceRegistry> registry, AllowedServices allowed) : registry_(std::move(registry)), allowed_(std::move(allowed)) {}
  std::string_view name() const override { return "sm:"; }
  bool accepts_tipc() const override { return true; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "Initialize", ipc::bind<&ServiceManager::initialize>},
        {1, "GetService", ipc::bind<&ServiceManager::get_service>},
        {2, "RegisterService", ipc::bind<&ServiceManager::register_service>},
        {3, "UnregisterService", ipc::bind<&ServiceManager::unregister_service>},
    };
    return table;
  }

  Result initialize(ipc::Context&) {
    initialized_ = true;
    return success;
  }
  Result get_service(ipc::Context& c) {
    if (!initialized_) return sm_result::invalid_client;
    std::string service;
    if (!decode_name(c.read<uint64_t>(), &service)) return sm_result::invalid_service_name;
    if (!service_allowed(allowed_, service)) {
      c.kernel().report_once("service " + service, fmt::format("GetService(\"{}\") at guest address {:#x}: '{}' is not in the title's service access "
                                                               "control (main.npdm); replying {:#x}", service, c.pc(), service, sm_result::not_allowed));
      return sm_result::not_allowed;
    }
    if (auto object = registry_->create(service)) {
      c.push_object(std::move(object));
      return success;
    }
    const bool hosted = registry_->guest_service(service);
    c.kernel().report_once("service " + service,
                           hosted ? fmt::format("GetService(\"{}\") at guest address {:#x}: the guest registered it, and kiln does not yet "
                                                "run guest servers; replying {:#x}", service, c.pc(), sm_result::not_registered)
                                  : fmt::format("GetService(\"{}\") at guest address {:#x}: kiln has no service '{}'; replying {:#x}",
                                                service, c.pc(), service, sm_result::not_registered));
    return sm_result::not_registered;
  }
  Result register_service(ipc::Context& c) {
    if (!initialized_) return sm_result::invalid_client;
    std::string service;
    if (!decode_name(c.read<uint64_t>(), &service)) return sm_result::invalid_service_name;
    auto port = std::make_shared<ServerPort>();
    if (!registry_->register_guest_service(service, port)) return sm_result::already_registered;
    c.push_move_handle(port);
    return success;
  }
  Result unregister_service(ipc::Context& c) {
    if (!initialized_) return sm_result::invalid_client;
    std::string service;
    if (!decode_name(c.read<uint64_t>(), &service)) return sm_result::invalid_service_name;
    return registry_->unregister_guest_service(service) ? success : sm_result::not_registered;
  }

private:
  std::shared_ptr<ServiceRegistry> registry_;
  AllowedServices allowed_;
  bool initialized_ = false;
};

} // namespace

bool service_allowed(const AllowedServices& allowed, const std::string& service) {
  if (!allowed) return true;
  for (const std::string& entry : *allowed) {
    if (entry == service) return true;
    if (!entry.empty() && entry.back() == '*' && service.compare(0, entry.size() - 1, entry, 0, entry.size() - 1) == 0) return true;
  }
  return false;
}

std::shared_ptr<ipc::ServiceObject> make_service_manager(std::shared_ptr<ServiceRegistry> registry, AllowedServices allowed) {
  return std::make_shared<ServiceManager>(std::move(registry), std::move(allowed));
}

void install_service_manager(Kernel& kernel, std::shared_ptr<ServiceRegistry> registry, AllowedServices allowed) {
  kernel.register_named_port("sm:", [registry, allowed] { return std::make_shared<ipc::Session>(make_service_manager(registry, allowed)); });
}

} // namespace kiln::hos
