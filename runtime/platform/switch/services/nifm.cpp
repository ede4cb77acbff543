// nifm:u, nifm:s, nifm:a (switchbrew "Network Interface services"): kiln is offline. A request to bring the
// network up is accepted, and once submitted it fails at once: its state goes back to Free (1, "not yet
// submitted or error"), its event is signalled and GetResult answers "unable to connect to the internet".
#include <mutex>

#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

namespace {

constexpr uint32_t nifm_module = 110;
/// 2110-3127, the code Nintendo's support pages give for "unable to connect to the internet".
constexpr Result no_internet_connection = make_result(nifm_module, 3127);
constexpr uint32_t request_state_free = 1;
constexpr uint32_t client_id = 1; ///< kiln has one client per process

class NetworkRequest final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "nifm:IRequest"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetRequestState", ipc::bind<&NetworkRequest::get_request_state>},
        {1, "GetResult", ipc::bind<&NetworkRequest::get_result>},
        {2, "GetSystemEventReadableHandles", ipc::bind<&NetworkRequest::get_system_event_readable_handles>},
        {3, "Cancel", ipc::bind<&NetworkRequest::cancel>},
        {4, "Submit", ipc::bind<&NetworkRequest::submit>},
        {6, "SetRequirementPreset", ipc::bind<&NetworkRequest::accept>},
        {11, "SetConnectionConfirmationOption", ipc::bind<&NetworkRequest::accept>},
        {12, "SetPersistent", ipc::bind<&NetworkRequest::accept>},
    };
    return table;
  }
  Result get_request_state(ipc::Context& c) {
    c.write(request_state_free);
    return success;
  }
  /// Before a Submit nothing has failed; after it, the network could not be brought up.
  Result get_result(ipc::Context&) {
    std::lock_guard lock(lock_);
    return submitted_ ? no_internet_connection : success;
  }
  Result get_system_event_readable_handles(ipc::Context& c) {
    c.push_copy_handle(state_changed_);
    c.push_copy_handle(unused_event_);
    return success;
  }
  Result cancel(ipc::Context& c) {
    std::lock_guard lock(lock_);
    submitted_ = false;
    c.kernel().clear(*state_changed_);
    return success;
  }
  Result submit(ipc::Context& c) {
    std::lock_guard lock(lock_);
    submitted_ = true;
    c.kernel().signal(*state_changed_); // the request "ended" at once: its state is Free again, with an error
    return success;
  }
  Result accept(ipc::Context&) { return success; }

private:
  std::mutex lock_;
  bool submitted_ = false;
  std::shared_ptr<ReadableEvent> state_changed_ = std::make_shared<ReadableEvent>();
  std::shared_ptr<ReadableEvent> unused_event_ = std::make_shared<ReadableEvent>(); ///< the second event, never signalled
};

class GeneralService final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "nifm:IGeneralService"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {1, "GetClientId", ipc::bind<&GeneralService::get_client_id>},
        {4, "CreateRequest", ipc::bind<&GeneralService::create_request>},
        {12, "GetCurrentIpAddress", ipc::bind<&GeneralService::offline>},
        {18, "GetInternetConnectionStatus", ipc::bind<&GeneralService::offline>},
        {21, "IsAnyInternetRequestAccepted", ipc::bind<&GeneralService::is_any_internet_request_accepted>},
    };
    return table;
  }
  /// The ClientId (a u32) into the C buffer.
  Result get_client_id(ipc::Context& c) {
    const ipc::GuestBuffer out = c.out_pointer(0);
    if (out.size < sizeof client_id) return make_result(nifm_module, 1); // kiln's choice: the buffer is too small
    std::memcpy(out.host(), &client_id, sizeof client_id);
    return success;
  }
  Result create_request(ipc::Context& c) {
    c.push_object(std::make_shared<NetworkRequest>());
    return success;
  }
  Result offline(ipc::Context&) { return no_internet_connection; }
  Result is_any_internet_request_accepted(ipc::Context& c) {
    c.write<uint8_t>(0);
    return success;
  }
};

/// IStaticService, the same for the user, system and admin names.
class NetworkStaticService final : public ipc::ServiceObject {
public:
  explicit NetworkStaticService(const char* name) : name_(name) {}
  std::string_view name() const override { return name_; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {4, "CreateGeneralServiceOld", ipc::bind<&NetworkStaticService::create_general_service>},
        {5, "CreateGeneralService", ipc::bind<&NetworkStaticService::create_general_service>},
    };
    return table;
  }
  Result create_general_service(ipc::Context& c) {
    c.push_object(std::make_shared<GeneralService>());
    return success;
  }

private:
  const char* name_;
};

} // namespace

void register_nifm(ServiceRegistry& registry) {
  for (const char* name : {"nifm:u", "nifm:s", "nifm:a"})
    registry.add(name, [name] { return std::make_shared<NetworkStaticService>(name); });
  registry.add_interface("nifm:IGeneralService", [] { return std::make_shared<GeneralService>(); });
  registry.add_interface("nifm:IRequest", [] { return std::make_shared<NetworkRequest>(); });
}

} // namespace kiln::hos
