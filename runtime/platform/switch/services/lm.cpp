// lm (ILogService, ILogger): the guest's log packets become lines of kiln's log. A packet (switchbrew "Log
// services") is a 0x18-byte header (pid u64, thread id u64, flags u8 with bit 0 head and bit 1 tail,
// padding, severity u8, verbosity u8, payload size u32) and chunks of key u8, ULEB128 size, data; a message
// may span packets from head to tail.
#include <fmt/format.h>

#include <cstring>

#include "runtime/base/log.h"
#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

namespace {

constexpr uint8_t key_text = 2, key_line = 3, key_file = 4, key_function = 5;
constexpr uint8_t flag_head = 1, flag_tail = 2;

class Logger final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "lm:ILogger"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "Log", ipc::bind<&Logger::log_packet>},
        {1, "SetDestination", ipc::bind<&Logger::set_destination>},
    };
    return table;
  }
  Result log_packet(ipc::Context& c) {
    const ipc::GuestBuffer in = c.in_auto(0);
    if (in.size < 0x18) return success; // nothing to log
    const uint8_t* p = in.host();
    const uint8_t flags = p[16], severity = p[18];
    uint32_t payload;
    std::memcpy(&payload, p + 20, 4);
    const uint64_t end = std::min<uint64_t>(in.size, 0x18 + uint64_t{payload});
    if (flags & flag_head) pending_ = {};
    for (uint64_t at = 0x18; at < end;) {
      const uint8_t key = p[at++];
      uint64_t size = 0;
      for (int shift = 0; at < end && shift < 63; shift += 7) {
        const uint8_t byte = p[at++];
        size |= uint64_t{byte & 0x7fu} << shift;
        if (!(byte & 0x80)) break;
      }
      if (size > end - at) break; // a chunk past the packet: the rest is ignored, never read out of bounds
      const std::string_view data(reinterpret_cast<const char*>(p + at), size);
      if (key == key_text) pending_.text += data;
      else if (key == key_file) pending_.file = data;
      else if (key == key_function) pending_.function = data;
      else if (key == key_line && size >= 4) std::memcpy(&pending_.line, p + at, 4);
      at += size;
    }
    if (flags & flag_tail) emit(severity);
    return success;
  }
  Result set_destination(ipc::Context&) { return success; }

private:
  struct Message {
    std::string text, file, function;
    uint32_t line = 0;
  };
  void emit(uint8_t severity) {
    std::string_view text = pending_.text;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.remove_suffix(1);
    const std::string where = pending_.file.empty() ? "" : fmt::format(" ({}:{} {})", pending_.file, pending_.line, pending_.function);
    if (severity >= 3) log::error("guest lm: {}{}", text, where);
    else if (severity == 2) log::warning("guest lm: {}{}", text, where);
    else log::info("guest lm: {}{}", text, where);
    pending_ = {};
  }
  Message pending_;
};

class LogService final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "lm"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {{0, "OpenLogger", ipc::bind<&LogService::open_logger>}};
    return table;
  }
  Result open_logger(ipc::Context& c) {
    c.push_object(std::make_shared<Logger>());
    return success;
  }
};

} // namespace

void register_lm(ServiceRegistry& registry) {
  registry.add("lm", [] { return std::make_shared<LogService>(); });
  registry.add_interface("lm:ILogger", [] { return std::make_shared<Logger>(); });
}

} // namespace kiln::hos
