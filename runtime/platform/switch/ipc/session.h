#pragma once
// A session to an in-process service: the kernel's ClientSession whose SendSyncRequest decodes the HIPC
// message in guest memory, checks its buffers and handles, runs the command (CMIF, domain, control or TIPC)
// on the calling guest thread, and writes the reply over the message.
#include <map>
#include <memory>
#include <mutex>

#include "runtime/platform/switch/ipc/service.h"

namespace kiln::hos::ipc {

/// What every handle to one session shares (clones share it; a domain's objects live here).
struct SessionState {
  std::shared_ptr<ServiceObject> object;
  bool is_domain = false;
  std::map<uint32_t, std::shared_ptr<ServiceObject>> domain_objects;
  uint32_t next_object_id = 1;
  bool closed = false;
  std::mutex lock;
};

class Session final : public ClientSession {
public:
  explicit Session(std::shared_ptr<ServiceObject> object);
  explicit Session(std::shared_ptr<SessionState> state) : state_(std::move(state)) {}
  Result send_sync_request(Thread& thread, uint64_t message, uint64_t size, uint64_t pc) override;
  const std::shared_ptr<SessionState>& state() const { return state_; }

private:
  std::shared_ptr<SessionState> state_;
};

/// The pointer-buffer size every kiln session reports to QueryPointerBufferSize.
constexpr uint16_t pointer_buffer_size = 0x8000;

} // namespace kiln::hos::ipc
