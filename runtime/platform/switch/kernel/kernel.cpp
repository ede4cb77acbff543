#include "runtime/platform/switch/kernel/kernel.h"

#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "runtime/base/log.h"
#include "runtime/core/aarch64/dispatch.h"
#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/kernel/svc.h"

namespace kiln::hos {

namespace kr = kernel_result;

namespace {
Kernel* installed = nullptr;
constexpr uint32_t handle_table_size = 1024;
} // namespace

Kernel* active_kernel() { return installed; }

void Kernel::install() {
  installed = this;
  rt::set_supervisor_handler(handle_svc);
  rt::set_system_register_reader(read_system_register);
}

Kernel::Kernel(ProcessConfig config) : config_(config) {
  rt::reserve_guest_memory();
  if (getrandom(random_entropy_, sizeof random_entropy_, 0) != sizeof random_entropy_)
    throw std::runtime_error("cannot read host entropy for the process's random seed");
}

Kernel::~Kernel() {
  for (const auto& thread : threads_)
    if (thread->host_started) pthread_join(thread->host, nullptr);
  if (installed == this) installed = nullptr;
  // Everything this process mapped returns to PROT_NONE, so the next kernel (tests) starts from a free space.
  memory_.release_all();
}

Result Kernel::add_handle(std::shared_ptr<KObject> object, uint32_t* handle) {
  std::lock_guard lock(lock_);
  std::vector<bool> used(handle_table_size);
  for (const auto& [value, ignored] : handles_) used[value & 0x7fff] = true;
  for (uint32_t slot = 1; slot < handle_table_size; ++slot) {
    if (used[slot]) continue;
    const uint32_t serial = next_handle_serial_++ & 0x7fff;
    if (next_handle_serial_ > 0x7fff) next_handle_serial_ = 1;
    *handle = (serial << 15) | slot;
    if (auto* thread = dynamic_cast<Thread*>(object.get()); thread && !thread->handle) thread->handle = *handle;
    handles_[*handle] = std::move(object);
    return success;
  }
  return kr::out_of_handles;
}

std::shared_ptr<KObject> Kernel::lookup(uint32_t handle) {
  std::lock_guard lock(lock_);
  if (handle == current_thread_handle) {
    Thread* self = current();
    for (const auto& thread : threads_)
      if (thread.get() == self) return thread;
    return nullptr;
  }
  const auto it = handles_.find(handle);
  return it == handles_.end() ? nullptr : it->second;
}

Result Kernel::close_handle(uint32_t handle) {
  std::shared_ptr<KObject> object; // released outside the lock: destructors may take it
  {
    std::lock_guard lock(lock_);
    const auto it = handles_.find(handle);
    if (it == handles_.end()) return kr::invalid_handle;
    object = std::move(it->second);
    handles_.erase(it);
  }
  return success;
}

size_t Kernel::handle_count() {
  std::lock_guard lock(lock_);
  return handles_.size();
}

Result Kernel::create_event(uint32_t* writable, uint32_t* readable) {
  auto read_end = std::make_shared<ReadableEvent>();
  auto write_end = std::make_shared<WritableEvent>();
  write_end->readable = read_end;
  if (const Result r = add_handle(write_end, writable); r != success) return r;
  if (const Result r = add_handle(read_end, readable); r != success) {
    close_handle(*writable);
    return r;
  }
  return success;
}

void Kernel::signal(ReadableEvent& event) {
  std::lock_guard lock(lock_);
  event.signaled = true;
  for (Thread* waiter : event.waiters) wake_locked(*waiter, success);
}

void Kernel::clear(ReadableEvent& event) {
  std::lock_guard lock(lock_);
  event.signaled = false;
}

Result Kernel::signal_event(uint32_t handle) {
  const auto event = lookup_as<WritableEvent>(handle);
  if (!event) return kr::invalid_handle;
  signal(*event->readable);
  return success;
}

Result Kernel::clear_event(uint32_t handle) {
  std::shared_ptr<ReadableEvent> event = lookup_as<ReadableEvent>(handle);
  if (!event)
    if (const auto writable = lookup_as<WritableEvent>(handle)) event = writable->readable;
  if (!event) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  event->signaled = false;
  return success;
}

Result Kernel::reset_signal(uint32_t handle) {
  const auto event = lookup_as<ReadableEvent>(handle);
  if (!event) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  if (!event->signaled) return kr::invalid_state;
  event->signaled = false;
  return success;
}

SharedMemory::~SharedMemory() {
  if (host) munmap(host, size);
  if (fd >= 0) close(fd);
}

std::shared_ptr<SharedMemory> Kernel::create_shared_memory(uint64_t size, uint32_t guest_permission) {
  auto memory = std::make_shared<SharedMemory>();
  memory->size = (size + layout::page_size - 1) & ~(layout::page_size - 1);
  memory->guest_permission = guest_permission;
  memory->fd = memfd_create("kiln-shared-memory", MFD_CLOEXEC);
  if (memory->fd < 0 || ftruncate(memory->fd, static_cast<off_t>(memory->size)) != 0)
    throw std::runtime_error("cannot create a shared memory file");
  void* host = mmap(nullptr, memory->size, PROT_READ | PROT_WRITE, MAP_SHARED, memory->fd, 0);
  if (host == MAP_FAILED) throw std::runtime_error("cannot map shared memory for the host");
  memory->host = static_cast<uint8_t*>(host);
  return memory;
}

Result Kernel::map_shared_memory(uint32_t handle, uint64_t address, uint64_t size, uint32_t permission) {
  const auto memory = lookup_as<SharedMemory>(handle);
  if (!memory) return kr::invalid_handle;
  if (size != memory->size) return kr::invalid_size;
  if ((permission & ~memory->guest_permission) != 0) return kr::invalid_new_memory_permission;
  if (memory->mapped_address) return kr::invalid_state;
  const Result r = memory_.map_shared(address, size, memory->fd, permission);
  if (r == success) memory->mapped_address = address;
  return r;
}

Result Kernel::unmap_shared_memory(uint32_t handle, uint64_t address, uint64_t size) {
  const auto memory = lookup_as<SharedMemory>(handle);
  if (!memory) return kr::invalid_handle;
  if (address != memory->mapped_address || size != memory->size) return kr::invalid_memory_region;
  const Result r = memory_.unmap_shared(address, size);
  if (r == success) memory->mapped_address = 0;
  return r;
}

TransferMemory::~TransferMemory() {
  if (kernel) kernel->memory_.release_transfer(address, size);
}

Result Kernel::create_transfer_memory(uint64_t address, uint64_t size, uint32_t permission, uint32_t* handle) {
  if (const Result r = memory_.lock_for_transfer(address, size, permission); r != success) return r;
  auto memory = std::make_shared<TransferMemory>();
  memory->address = address;
  memory->size = size;
  memory->permission = permission;
  memory->kernel = this;
  return add_handle(memory, handle);
}

void Kernel::register_named_port(const std::string& name, PortConnector connect) {
  std::lock_guard lock(lock_);
  named_ports_[name] = std::move(connect);
}

Result Kernel::connect_to_named_port(const std::string& name, uint32_t* handle) {
  PortConnector connect;
  {
    std::lock_guard lock(lock_);
    const auto it = named_ports_.find(name);
    if (it == named_ports_.end()) return kr::not_found;
    connect = it->second;
  }
  return add_handle(connect(), handle);
}

void Kernel::stop(int status) {
  if (stop_hook_) stop_hook_(status);
  std::fflush(nullptr);
  _exit(status);
}

void Kernel::report_once(const std::string& key, const std::string& message) {
  std::lock_guard lock(report_lock_);
  if (!reported_.insert(key).second) return;
  log::error("{}", message);
}

} // namespace kiln::hos
