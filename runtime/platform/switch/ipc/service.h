#pragma once
// The service framework: a service object declares its commands in one table (command id, name, handler);
// a Context gives the handler its input data, buffers, handles and objects and collects its outputs. An
// unknown command replies cmif_result::unknown_command_id and is reported once with the service's name,
// the command id and the guest address of the request.
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/platform/switch/ipc/hipc.h"
#include "runtime/platform/switch/kernel/kernel.h"

namespace kiln::hos::ipc {

class Context;
class ServiceObject;

using CommandHandler = Result (*)(ServiceObject& self, Context& context);
struct Command {
  uint32_t id;
  const char* name;
  CommandHandler handler;
};

namespace detail {
template <typename T>
struct member_class;
template <typename C, typename R, typename... A>
struct member_class<R (C::*)(A...)> {
  using type = C;
};
} // namespace detail
/// A table entry's handler from a member function `Result S::f(Context&)`.
template <auto Method>
Result bind(ServiceObject& self, Context& context) {
  using Service = typename detail::member_class<decltype(Method)>::type;
  return (static_cast<Service&>(self).*Method)(context);
}

class ServiceObject {
public:
  virtual ~ServiceObject() = default;
  /// The name in reports: the sm name for services, the interface name for sub-objects ("IApplicationProxy").
  virtual std::string_view name() const = 0;
  virtual std::span<const Command> commands() const = 0;
  /// Whether requests come as TIPC (sm: from 12.0.0) besides CMIF.
  virtual bool accepts_tipc() const { return false; }
};

/// One guest buffer a descriptor names, already checked to lie in guest memory with the access it needs.
struct GuestBuffer {
  uint64_t address = 0;
  uint64_t size = 0;
  uint8_t* host() const;
};

class Context {
public:
  Context(Kernel& kernel, const HipcMessage& message, std::span<const uint8_t> input, uint64_t pc, uint32_t command_id)
      : kernel_(kernel), message_(message), input_(input), pc_(pc), command_id_(command_id) {}

  Kernel& kernel() { return kernel_; }
  uint64_t pc() const { return pc_; }
  uint32_t command_id() const { return command_id_; }

  /// The next input parameter at its natural alignment; false (and a zero value) when the input is too short.
  template <typename T>
  T read() {
    input_at_ = (input_at_ + alignof(T) - 1) & ~(alignof(T) - 1);
    T value{};
    if (input_at_ + sizeof(T) <= input_.size()) std::memcpy(&value, input_.data() + input_at_, sizeof(T));
    else input_short_ = true;
    input_at_ += sizeof(T);
    return value;
  }
  bool input_short() const { return input_short_; }
  template <typename T>
  void write(const T& value) {
    output_.resize((output_.size() + alignof(T) - 1) & ~(alignof(T) - 1));
    const size_t at = output_.size();
    output_.resize(at + sizeof(T));
    std::memcpy(output_.data() + at, &value, sizeof(T));
  }
  void write_bytes(std::span<const uint8_t> bytes) { output_.insert(output_.end(), bytes.begin(), bytes.end()); }

  // Buffers (switchbrew names): A send, B receive, X pointer in, C receive list (pointer out). The "auto"
  // forms take whichever of the pair the client filled (libnx sends both, one of them empty).
  GuestBuffer in_mapped(size_t i) const { return i < message_.a.size() ? GuestBuffer{message_.a[i].address, message_.a[i].size} : GuestBuffer{}; }
  GuestBuffer out_mapped(size_t i) const { return i < message_.b.size() ? GuestBuffer{message_.b[i].address, message_.b[i].size} : GuestBuffer{}; }
  GuestBuffer in_pointer(size_t index) const;
  GuestBuffer out_pointer(size_t i) const { return i < message_.c.size() ? GuestBuffer{message_.c[i].address, message_.c[i].size} : GuestBuffer{}; }
  GuestBuffer in_auto(size_t i) const { return in_mapped(i).size ? in_mapped(i) : in_pointer(i); }
  GuestBuffer out_auto(size_t i) const { return out_mapped(i).size ? out_mapped(i) : out_pointer(i); }

  bool has_pid() const { return message_.send_pid; }
  uint64_t pid() const { return kernel_.config().process_id; }
  /// Objects behind the request's copy/move handles (already taken from the client's table for moves).
  std::vector<std::shared_ptr<KObject>> handles_in;
  std::vector<std::shared_ptr<ServiceObject>> objects_in; ///< domain input objects

  /// Replies with a new object: a new session handle, or an object id on a domain session.
  void push_object(std::shared_ptr<ServiceObject> object) { objects_out_.push_back(std::move(object)); }
  void push_copy_handle(std::shared_ptr<KObject> object) { copy_out_.push_back(std::move(object)); }
  void push_move_handle(std::shared_ptr<KObject> object) { move_out_.push_back(std::move(object)); }

  const std::vector<uint8_t>& output() const { return output_; }
  std::vector<std::shared_ptr<ServiceObject>>& objects_out() { return objects_out_; }
  std::vector<std::shared_ptr<KObject>>& copy_out() { return copy_out_; }
  std::vector<std::shared_ptr<KObject>>& move_out() { return move_out_; }

private:
  Kernel& kernel_;
  const HipcMessage& message_;
  std::span<const uint8_t> input_;
  size_t input_at_ = 0;
  bool input_short_ = false;
  uint64_t pc_;
  uint32_t command_id_;
  std::vector<uint8_t> output_;
  std::vector<std::shared_ptr<ServiceObject>> objects_out_;
  std::vector<std::shared_ptr<KObject>> copy_out_, move_out_;
};

/// Finds a command in a service's table and runs it, or reports the unknown command once.
Result dispatch_command(ServiceObject& service, Context& context);

/// Every (service, command) a guest called that has no handler, for reports and tests.
void report_unknown_command(Kernel& kernel, std::string_view service, uint32_t command_id, uint64_t pc);

} // namespace kiln::hos::ipc
