#pragma once
// The Horizon kernel of one guest process: address space, handle table, threads and synchronization. One
// kernel lock guards every kernel object, as Horizon's scheduler lock does; guest threads are host threads
// that block on their own condition variable under it.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/platform/switch/kernel/address_space.h"
#include "runtime/platform/switch/kernel/objects.h"

namespace kiln::hos {

constexpr uint32_t current_thread_handle = 0xffff8000;
constexpr uint32_t current_process_handle = 0xffff8001;
constexpr uint32_t mutex_has_listeners = 0x40000000;
constexpr size_t max_wait_handles = 64;
constexpr uint64_t tls_size = 0x200;      ///< per thread; the IPC message buffer is its first 0x100 bytes
constexpr uint64_t ipc_message_size = 0x100;

/// Process exit statuses when the guest stops the process.
namespace exit_status {
constexpr int exited = 0;             ///< ExitProcess, the last thread's exit, the homebrew exit path
constexpr int guest_break = 74;       ///< svcBreak
constexpr int unimplemented_svc = 75; ///< an SVC kiln does not implement
} // namespace exit_status

/// What the process is given at creation; kiln.toml can override these (docs/switch.md).
struct ProcessConfig {
  uint64_t program_id = 0x0100000000010000;
  uint64_t total_memory = 0xc0000000; ///< GetInfo 6: 3 GiB
  /// main.npdm's system resource size (META 0x14): GetInfo 16, carved out of total_memory (GetInfo 21 is the
  /// rest); MapPhysicalMemory needs one, as on Horizon. A homebrew NRO has none.
  uint64_t system_resource_size = 0;
  uint64_t core_mask = 0x7;           ///< applications run on cores 0-2
  int32_t default_core = 0;
  int32_t highest_priority = 0x1c;    ///< numerically lowest priority the process may use
  int32_t lowest_priority = 0x3b;
  uint64_t process_id = 0x51;
};

/// SVC argument/result registers: the handlers read x0-x7 and write results back (Horizon's ABI).
struct SvcRegisters;

class Kernel {
public:
  explicit Kernel(ProcessConfig config = {});
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  const ProcessConfig& config() const { return config_; }
  AddressSpace& memory() { return memory_; }

  /// Makes this the kernel the SVC handler and system-register hook use (one process per host process).
  void install();

  // Handles.
  Result add_handle(std::shared_ptr<KObject> object, uint32_t* handle);
  std::shared_ptr<KObject> lookup(uint32_t handle);
  template <typename T>
  std::shared_ptr<T> lookup_as(uint32_t handle) { return std::dynamic_pointer_cast<T>(lookup(handle)); }
  Result close_handle(uint32_t handle);
  size_t handle_count();

  // Threads. The calling host thread becomes the main guest thread with attach_main_thread().
  Thread& attach_main_thread(uint64_t stack_top, int32_t priority);
  Result create_thread(uint64_t entry, uint64_t argument, uint64_t stack_top, int32_t priority, int32_t core, uint32_t* handle);
  Result start_thread(uint32_t handle);
  [[noreturn]] void exit_thread();
  void sleep_thread(int64_t nanoseconds);
  Result get_priority(uint32_t handle, int32_t* priority);
  Result set_priority(uint32_t handle, int32_t priority);
  Result get_core_mask(uint32_t handle, int32_t* core, uint64_t* mask);
  Result set_core_mask(uint32_t handle, int32_t core, uint64_t mask);
  Result get_thread_id(uint32_t handle, uint64_t* id);
  std::shared_ptr<Thread> thread_for(uint32_t handle); ///< resolves the current-thread pseudo handle too
  static Thread* current();

  // Events and waiting.
  Result create_event(uint32_t* writable, uint32_t* readable);
  Result signal_event(uint32_t handle);
  Result clear_event(uint32_t handle);
  Result reset_signal(uint32_t handle);
  Result wait_synchronization(const uint32_t* handles, int32_t count, int64_t timeout, int32_t* index);
  Result cancel_synchronization(uint32_t handle);
  /// Signals a readable event from the host side (services): wakes its waiters.
  void signal(ReadableEvent& event);
  void clear(ReadableEvent& event);

  // Arbitration on guest memory words.
  Result arbitrate_lock(uint32_t owner_handle, uint64_t address, uint32_t tag);
  Result arbitrate_unlock(uint64_t address);
  Result wait_process_wide_key(uint64_t mutex_address, uint64_t key, uint32_t tag, int64_t timeout);
  Result signal_process_wide_key(uint64_t key, int32_t count);
  Result wait_for_address(uint64_t address, uint32_t type, int64_t value, int64_t timeout);
  Result signal_to_address(uint64_t address, uint32_t type, int32_t value, int32_t count);

  /// How many threads wait: for a mutex `owner_handle` holds, on condition key, or at an arbiter address.
  enum class WaitKind { mutex, condition, address };
  size_t waiting_threads(WaitKind kind, uint64_t key);

  // Shared and transfer memory.
  std::shared_ptr<SharedMemory> create_shared_memory(uint64_t size, uint32_t guest_permission);
  Result map_shared_memory(uint32_t handle, uint64_t address, uint64_t size, uint32_t permission);
  Result unmap_shared_memory(uint32_t handle, uint64_t address, uint64_t size);
  Result create_transfer_memory(uint64_t address, uint64_t size, uint32_t permission, uint32_t* handle);

  // Information.
  Result get_info(uint32_t id, uint32_t handle, uint64_t sub_id, uint64_t* value, uint64_t pc);

  // Named ports (ConnectToNamedPort): the IPC layer registers "sm:" here.
  using PortConnector = std::function<std::shared_ptr<ClientSession>()>;
  void register_named_port(const std::string& name, PortConnector connect);
  Result connect_to_named_port(const std::string& name, uint32_t* handle);

  /// Stops the process: runs the stop hook, flushes output and exits the host process with `status` (never
  /// returns).
  [[noreturn]] void stop(int status);
  /// Runs first in stop() (the host shell closes its window there); set before the guest starts.
  void set_stop_hook(std::function<void(int status)> hook) { stop_hook_ = std::move(hook); }
  /// Reports a problem once per key (stderr through kiln's log).
  void report_once(const std::string& key, const std::string& message);

private:
  friend struct TransferMemory;
  Result check_priority(int32_t priority) const;
  Result allocate_tls(uint64_t* address);
  Result wait_locked(std::unique_lock<std::mutex>& lock, Thread& self, int64_t timeout);
  void wake_locked(Thread& thread, Result result);
  void release_mutex_locked(Thread& owner, uint64_t address);
  void enqueue_mutex_waiter_locked(Thread& owner, Thread& waiter);
  bool memory_word_usable(uint64_t address);
  static void* host_thread_entry(void* argument);

  ProcessConfig config_;
  AddressSpace memory_;
  std::mutex lock_;
  std::map<uint32_t, std::shared_ptr<KObject>> handles_;
  uint32_t next_handle_serial_ = 1;
  std::vector<std::shared_ptr<Thread>> threads_;
  uint64_t next_thread_id_ = 0x40;
  uint64_t wait_sequence_ = 0;
  size_t live_threads_ = 0;
  std::vector<Thread*> condition_waiters_;
  std::vector<Thread*> arbiter_waiters_;
  std::map<std::string, PortConnector> named_ports_;
  std::set<std::string> reported_;
  std::mutex report_lock_;
  std::function<void(int)> stop_hook_;
  uint64_t random_entropy_[4] = {};
  uint64_t next_tls_page_ = 0;
  uint64_t tls_slots_used_ = 0;
};

/// The kernel install() made current, or nullptr.
Kernel* active_kernel();

} // namespace kiln::hos
