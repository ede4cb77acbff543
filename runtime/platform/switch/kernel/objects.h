#pragma once
// Kernel objects a handle can name. Every field that changes after creation is guarded by Kernel::lock_.
#include <pthread.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/core/aarch64/cpu.h"
#include "runtime/platform/switch/kernel/result.h"

namespace kiln::hos {

class Thread;

struct KObject {
  virtual ~KObject() = default;
  virtual const char* type_name() const = 0;
};

/// An object WaitSynchronization can wait on: signalled or not, with the threads waiting for it.
struct Waitable : KObject {
  virtual bool is_signaled() const = 0;
  std::vector<Thread*> waiters;
};

struct ReadableEvent final : Waitable {
  bool signaled = false;
  const char* type_name() const override { return "ReadableEvent"; }
  bool is_signaled() const override { return signaled; }
};

struct WritableEvent final : KObject {
  std::shared_ptr<ReadableEvent> readable;
  const char* type_name() const override { return "WritableEvent"; }
};

struct Process final : Waitable {
  const char* type_name() const override { return "Process"; }
  bool is_signaled() const override { return false; }
};

/// A guest thread: a host thread running recompiled code on its own CPU context, with its TLS block.
class Thread final : public Waitable {
public:
  enum class State { created, running, terminated };

  const char* type_name() const override { return "Thread"; }
  bool is_signaled() const override { return state == State::terminated; }

  uint64_t id = 0;
  uint32_t handle = 0; ///< its handle in the process table (what guest mutex words hold)
  rt::Cpu cpu;
  uint64_t entry = 0, argument = 0, stack_top = 0;
  uint64_t tls_address = 0;
  int32_t priority = 0;
  int32_t ideal_core = 0;
  uint64_t affinity_mask = 0;
  State state = State::created;
  pthread_t host{};
  bool host_started = false;

  // Waiting: each blocked thread sleeps on its own condition variable under the kernel lock.
  std::condition_variable wakeup;
  bool woken = false;            ///< set by whoever ends the wait, with wait_result
  Result wait_result = success;
  bool cancel_pending = false;   ///< CancelSynchronization before the thread waited
  bool in_synchronization = false;
  int32_t signaled_index = -1;

  // Mutex arbitration: the thread waits for `lock_owner` to hand it the mutex word at mutex_address.
  Thread* lock_owner = nullptr;
  uint64_t mutex_address = 0;
  uint32_t mutex_tag = 0;
  std::vector<Thread*> mutex_waiters; ///< threads waiting for a mutex this thread holds, by priority
  // Condition variable: the key it waits on (0 if none).
  uint64_t condition_key = 0;
  // Address arbiter: the address it waits on (0 if none).
  uint64_t arbiter_address = 0;
  uint64_t sequence = 0; ///< wait order for threads of equal priority
};

/// Memory the kernel creates and services share with the guest (hid, fonts...): a memory file both map.
struct SharedMemory final : KObject {
  ~SharedMemory() override;
  const char* type_name() const override { return "SharedMemory"; }
  int fd = -1;
  uint64_t size = 0;
  uint32_t guest_permission = 0; ///< what the guest may map it with
  uint8_t* host = nullptr;       ///< the host's own mapping
  uint64_t mapped_address = 0;   ///< where the guest mapped it (0 if not)
};

struct TransferMemory final : KObject {
  const char* type_name() const override { return "TransferMemory"; }
  uint64_t address = 0, size = 0;
  uint32_t permission = 0;
  class Kernel* kernel = nullptr;
  ~TransferMemory() override;
};

/// The client end of an IPC session; the IPC layer implements the request handling.
struct ClientSession : KObject {
  const char* type_name() const override { return "ClientSession"; }
  /// Handles the message at `message` (`size` bytes of guest memory; the calling thread's TLS by default) and
  /// writes the reply over it. `pc` is the SendSyncRequest's guest address, for reports.
  virtual Result send_sync_request(Thread& thread, uint64_t message, uint64_t size, uint64_t pc) = 0;
};

/// A port a guest service registered through sm (kiln does not yet run guest servers: see docs/switch.md).
struct ServerPort final : Waitable {
  const char* type_name() const override { return "ServerPort"; }
  bool is_signaled() const override { return false; }
};

} // namespace kiln::hos
