#pragma once
// The services sm hands out: name -> a factory making the service object for a new session.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <typeindex>
#include <vector>

#include "runtime/platform/switch/ipc/service.h"

namespace kiln::hos {

class ServiceRegistry {
public:
  using Factory = std::function<std::shared_ptr<ipc::ServiceObject>()>;
  void add(const std::string& name, Factory factory);
  /// A new object for `name`, or nullptr when kiln has no such service.
  std::shared_ptr<ipc::ServiceObject> create(const std::string& name) const;
  std::vector<std::string> names() const;
  /// Interfaces that commands hand out (not served by sm), listed for documentation: "apm:ISession"...
  void add_interface(const std::string& name, Factory factory);
  std::vector<std::shared_ptr<ipc::ServiceObject>> interfaces() const;

  /// Names a guest registered with sm (RegisterService), with their ports.
  bool register_guest_service(const std::string& name, std::shared_ptr<ServerPort> port);
  bool unregister_guest_service(const std::string& name);
  bool guest_service(const std::string& name) const;

  /// The process's one `T`, made at first use: state that several services share (vi's display, whose layers
  /// am's ISelfController also creates), whichever registers first.
  template <typename T>
  std::shared_ptr<T> shared_state() {
    std::lock_guard guard(lock_);
    std::shared_ptr<void>& state = shared_states_[std::type_index(typeid(T))];
    if (!state) state = std::make_shared<T>();
    return std::static_pointer_cast<T>(state);
  }

private:
  mutable std::mutex lock_;
  std::map<std::string, Factory> factories_, interfaces_;
  std::map<std::string, std::shared_ptr<ServerPort>> guest_ports_;
  std::map<std::type_index, std::shared_ptr<void>> shared_states_;
};

/// The services a title may get from sm (main.npdm's service access control: names, "x*" every name starting
/// with "x"); absent: every service (a homebrew module has no npdm).
using AllowedServices = std::optional<std::vector<std::string>>;
/// Whether `allowed` lets the title have `service`.
bool service_allowed(const AllowedServices& allowed, const std::string& service);

/// sm itself, serving the names in `registry` (GetService of a name outside `allowed`: NotAllowed, logged).
std::shared_ptr<ipc::ServiceObject> make_service_manager(std::shared_ptr<ServiceRegistry> registry, AllowedServices allowed = std::nullopt);
/// Makes "sm:" a named port of `kernel`, serving the names in `registry`.
void install_service_manager(Kernel& kernel, std::shared_ptr<ServiceRegistry> registry, AllowedServices allowed = std::nullopt);

/// sm's results (module 21).
namespace sm_result {
constexpr uint32_t module = 21;
constexpr Result invalid_client = make_result(module, 2);    ///< a request before Initialize
constexpr Result already_registered = make_result(module, 4);
constexpr Result invalid_service_name = make_result(module, 6);
constexpr Result not_registered = make_result(module, 7);
constexpr Result not_allowed = make_result(module, 8); ///< 0x1015: outside the title's service access control
} // namespace sm_result

} // namespace kiln::hos
