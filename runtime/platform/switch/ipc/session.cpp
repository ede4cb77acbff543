#include "runtime/platform/switch/ipc/session.h"

#include <fmt/format.h>

#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/ipc/cmif.h"

namespace kiln::hos::ipc {

namespace kr = kernel_result;

namespace {

template <typename T>
T read_at(std::span<const uint8_t> bytes, size_t offset) {
  T value{};
  if (offset + sizeof(T) <= bytes.size()) std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}
template <typename T>
void append(std::vector<uint8_t>& out, const T& value) {
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

/// The request's buffers must lie in guest memory with the access the server needs.
Result check_buffers(Kernel& k, const HipcMessage& m) {
  auto ok = [&](const std::vector<BufferDescriptor>& list, uint32_t access) {
    for (const BufferDescriptor& d : list)
      if (d.size && !k.memory().accessible(d.address, d.size, access)) return false;
    return true;
  };
  if (!ok(m.a, permission::read) || !ok(m.x, permission::read) || !ok(m.b, permission::read_write) || !ok(m.w, permission::read_write) ||
      !ok(m.c, permission::read_write))
    return kr::invalid_current_memory;
  return success;
}

class Reply {
public:
  Reply(Kernel& k, SessionState& state) : kernel_(k), state_(state) {}

  /// Turns a context's outputs into handles/object ids and the CMIF (or TIPC) data.
  Result build(Result result, Context* context, bool domain, bool tipc, HipcReply* out) {
    out->align_raw = !tipc;
    std::vector<uint32_t> object_ids;
    if (result == success && context) {
      for (auto& object : context->objects_out()) {
        if (domain) {
          const uint32_t id = state_.next_object_id++;
          state_.domain_objects[id] = object;
          object_ids.push_back(id);
        } else {
          uint32_t handle = 0;
          if (const Result r = kernel_.add_handle(std::make_shared<Session>(object), &handle); r != success) return r;
          out->move_handles.push_back(handle);
        }
      }
      for (auto& object : context->copy_out()) {
        uint32_t handle = 0;
        if (const Result r = kernel_.add_handle(object, &handle); r != success) return r;
        out->copy_handles.push_back(handle);
      }
      for (auto& object : context->move_out()) {
        uint32_t handle = 0;
        if (const Result r = kernel_.add_handle(object, &handle); r != success) return r;
        out->move_handles.push_back(handle);
      }
    }
    if (tipc) {
      append(out->raw, result);
    } else {
      if (domain) append(out->raw, DomainOutHeader{static_cast<uint32_t>(object_ids.size()), {}});
      append(out->raw, CmifOutHeader{response_magic, 0, result, 0});
    }
    if (result == success && context) out->raw.insert(out->raw.end(), context->output().begin(), context->output().end());
    for (uint32_t id : object_ids) append(out->raw, id);
    return success;
  }

private:
  Kernel& kernel_;
  SessionState& state_;
};

} // namespace

Session::Session(std::shared_ptr<ServiceObject> object) : state_(std::make_shared<SessionState>()) { state_->object = std::move(object); }

Result Session::send_sync_request(Thread&, uint64_t message, uint64_t size, uint64_t pc) {
  Kernel& k = *active_kernel();
  SessionState& state = *state_;
  std::lock_guard lock(state.lock);
  const std::string_view service = state.object->name();
  if (state.closed) return kr::session_closed;
  std::vector<uint8_t> bytes(size);
  std::memcpy(bytes.data(), rt::host_pointer(message), size);
  std::string error;
  const std::optional<HipcMessage> decoded = decode_hipc(bytes, &error);
  if (!decoded) {
    k.report_once(fmt::format("malformed {}", service), fmt::format("malformed IPC message to '{}' at guest address {:#x}: {}", service, pc, error));
    return kr::message_too_large;
  }
  const HipcMessage& m = *decoded;
  if (const Result r = check_buffers(k, m); r != success) return r;
  std::vector<std::shared_ptr<KObject>> handles_in;
  for (uint32_t h : m.copy_handles) {
    auto object = k.lookup(h);
    if (!object && h != current_process_handle) return kr::invalid_handle;
    handles_in.push_back(std::move(object));
  }
  for (uint32_t h : m.move_handles) {
    auto object = k.lookup(h);
    if (!object) return kr::invalid_handle;
    handles_in.push_back(std::move(object));
  }
  for (uint32_t h : m.move_handles) k.close_handle(h); // moved: the client no longer holds them

  const std::span<const uint8_t> raw(bytes.data() + m.raw_offset, m.raw_size);
  const bool tipc = state.object->accepts_tipc() && m.type >= message_type::tipc_first - 1;
  const size_t aligned = aligned_raw_offset(m.raw_offset);
  const std::span<const uint8_t> payload =
      aligned <= m.raw_offset + m.raw_size ? std::span<const uint8_t>(bytes.data() + aligned, m.raw_offset + m.raw_size - aligned) : std::span<const uint8_t>();

  if (m.type == message_type::close || (tipc && m.type == message_type::tipc_first - 1)) {
    state.closed = true;
    return success;
  }

  HipcReply reply;
  Reply builder(k, state);
  Result built = success;
  if (tipc) {
    Context context(k, m, raw, pc, m.type - message_type::tipc_first);
    context.handles_in = handles_in;
    const Result r = dispatch_command(*state.object, context);
    built = builder.build(r, &context, false, true, &reply);
    reply.type = m.type;
  } else if (m.type == message_type::control || m.type == message_type::control_with_context) {
    const auto header = read_at<CmifInHeader>(payload, 0);
    Context context(k, m, payload.size() >= 16 ? payload.subspan(16) : payload, pc, header.command_id);
    Result r = success;
    if (payload.size() < 16 || header.magic != request_magic) r = cmif_result::invalid_in_header;
    else switch (header.command_id) {
      case control::convert_to_domain:
        if (state.is_domain) {
          r = cmif_result::target_not_domain;
          break;
        }
        state.is_domain = true;
        state.domain_objects[state.next_object_id] = state.object;
        context.write(state.next_object_id++);
        break;
      case control::copy_from_domain: {
        const uint32_t id = context.read<uint32_t>();
        const auto it = state.domain_objects.find(id);
        if (!state.is_domain) r = cmif_result::target_not_domain;
        else if (it == state.domain_objects.end()) r = cmif_result::invalid_domain_object;
        else context.push_move_handle(std::make_shared<Session>(it->second));
        break;
      }
      case control::clone_object:
      case control::clone_object_ex: context.push_move_handle(std::make_shared<Session>(state_)); break;
      case control::query_pointer_buffer_size: context.write(pointer_buffer_size); break;
      default:
        report_unknown_command(k, "control", header.command_id, pc);
        r = cmif_result::unknown_command_id;
      }
    built = builder.build(r, &context, false, false, &reply);
  } else if (m.type == message_type::request || m.type == message_type::request_with_context) {
    std::shared_ptr<ServiceObject> target = state.object;
    std::span<const uint8_t> data = payload;
    std::vector<std::shared_ptr<ServiceObject>> objects_in;
    Result r = success;
    bool closed_object = false; // CloseVirtualHandle: the reply is a bare SFCO
    if (state.is_domain) {
      const auto domain = read_at<DomainInHeader>(payload, 0);
      const auto it = state.domain_objects.find(domain.object_id);
      if (payload.size() < 16 || 16 + size_t{domain.data_size} + 4 * size_t{domain.object_count} > payload.size()) {
        r = cmif_result::invalid_header;
      } else if (it == state.domain_objects.end()) {
        r = cmif_result::invalid_domain_object;
      } else if (domain.type == domain_request::close) {
        state.domain_objects.erase(it);
        closed_object = true;
      } else if (domain.type != domain_request::send_message) {
        r = cmif_result::invalid_header;
      } else {
        target = it->second;
        data = payload.subspan(16, domain.data_size);
        for (uint32_t i = 0; i < domain.object_count && r == success; ++i) {
          const auto found = state.domain_objects.find(read_at<uint32_t>(payload, 16 + domain.data_size + 4 * i));
          if (found == state.domain_objects.end()) r = cmif_result::invalid_domain_object;
          else objects_in.push_back(found->second);
        }
      }
    }
    if (closed_object) {
      built = builder.build(success, nullptr, true, false, &reply);
    } else {
      const auto header = read_at<CmifInHeader>(data, 0);
      if (r == success && (data.size() < 16 || header.magic != request_magic)) r = cmif_result::invalid_in_header;
      Context context(k, m, data.size() >= 16 ? data.subspan(16) : data, pc, header.command_id);
      context.handles_in = handles_in;
      context.objects_in = objects_in;
      if (r == success) r = dispatch_command(*target, context);
      built = builder.build(r, &context, state.is_domain, false, &reply);
    }
  } else {
    k.report_once(fmt::format("message type {} {}", m.type, service),
                  fmt::format("IPC message type {} to '{}' at guest address {:#x} is not one kiln handles", m.type, service, pc));
    return cmif_result::invalid_header;
  }
  if (built != success) return built;
  std::vector<uint8_t> out(size);
  if (!encode_hipc(reply, out)) {
    k.report_once(fmt::format("reply size {}", service), fmt::format("the reply of '{}' at guest address {:#x} does not fit the message buffer", service, pc));
    return kr::message_too_large;
  }
  std::memcpy(rt::host_pointer(message), out.data(), size);
  return success;
}

} // namespace kiln::hos::ipc
