// Guest threads as host threads: each runs recompiled code on its own Cpu with its own TLS block.
#include <sched.h>
#include <time.h>

#include <cstring>

#include "runtime/core/aarch64/fp.h"
#include "runtime/core/aarch64/ops.h"
#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/kernel/kernel.h"

namespace kiln::hos {

namespace kr = kernel_result;

namespace {
thread_local Thread* current_thread = nullptr;
/// Guest calls are host calls, so a guest thread needs a deep host stack.
constexpr size_t host_stack_size = size_t{256} << 20;
constexpr uint64_t tls_slots_per_page = layout::page_size / tls_size;
} // namespace

Thread* Kernel::current() { return current_thread; }

Result Kernel::check_priority(int32_t priority) const {
  if (priority < 0 || priority > 63 || priority < config_.highest_priority || priority > config_.lowest_priority)
    return kr::invalid_priority;
  return success;
}

Result Kernel::allocate_tls(uint64_t* address) {
  // Horizon carves TLS blocks out of thread-local pages the kernel maps; kiln's live in the kernel area.
  if (tls_slots_used_ % tls_slots_per_page == 0) {
    const uint64_t page = memory_.find_free(layout::kernel_area_start, layout::kernel_area_size, layout::page_size);
    if (!page) return kr::out_of_memory;
    if (const Result r = memory_.map(page, layout::page_size, MemoryState::thread_local_, permission::read_write); r != success) return r;
    next_tls_page_ = page;
  }
  *address = next_tls_page_ + (tls_slots_used_ % tls_slots_per_page) * tls_size;
  ++tls_slots_used_;
  return success;
}

Thread& Kernel::attach_main_thread(uint64_t stack_top, int32_t priority) {
  auto thread = std::make_shared<Thread>();
  thread->stack_top = stack_top;
  thread->priority = priority;
  thread->ideal_core = config_.default_core;
  thread->affinity_mask = uint64_t{1} << config_.default_core;
  if (allocate_tls(&thread->tls_address) != success) throw std::runtime_error("cannot allocate the main thread's TLS");
  thread->cpu.sp = stack_top;
  uint32_t handle = 0;
  if (add_handle(thread, &handle) != success) throw std::runtime_error("cannot create the main thread's handle");
  std::lock_guard lock(lock_);
  thread->id = next_thread_id_++;
  thread->state = Thread::State::running;
  threads_.push_back(thread);
  ++live_threads_;
  current_thread = thread.get();
  return *thread;
}

Result Kernel::create_thread(uint64_t entry, uint64_t argument, uint64_t stack_top, int32_t priority, int32_t core, uint32_t* handle) {
  if (core == -2) core = config_.default_core;
  if (core < 0 || core > 63 || !((config_.core_mask >> core) & 1)) return kr::invalid_core_id;
  if (const Result r = check_priority(priority); r != success) return r;
  auto thread = std::make_shared<Thread>();
  thread->entry = entry;
  thread->argument = argument;
  thread->stack_top = stack_top;
  thread->priority = priority;
  thread->ideal_core = core;
  thread->affinity_mask = uint64_t{1} << core;
  if (const Result r = allocate_tls(&thread->tls_address); r != success) return r;
  if (const Result r = add_handle(thread, handle); r != success) return r;
  std::lock_guard lock(lock_);
  thread->id = next_thread_id_++;
  threads_.push_back(thread);
  return success;
}

void* Kernel::host_thread_entry(void* argument) {
  Thread& thread = *static_cast<Thread*>(argument);
  current_thread = &thread;
  rt::fp_reset_host();
  thread.cpu.x[0] = thread.argument;
  thread.cpu.sp = thread.stack_top;
  rt::call_guest(&thread.cpu, thread.entry);
  rt::finish_unclaimed_jumps(&thread.cpu);
  // A thread function that returns ends its thread, as if it had called ExitThread.
  active_kernel()->exit_thread();
}

Result Kernel::start_thread(uint32_t handle) {
  const auto thread = lookup_as<Thread>(handle);
  if (!thread) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  if (thread->state != Thread::State::created) return kr::invalid_state;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, host_stack_size);
  const int failed = pthread_create(&thread->host, &attributes, host_thread_entry, thread.get());
  pthread_attr_destroy(&attributes);
  if (failed) return kr::out_of_resource;
  thread->host_started = true;
  thread->state = Thread::State::running;
  ++live_threads_;
  return success;
}

void Kernel::exit_thread() {
  Thread* self = current();
  bool last = false;
  {
    std::lock_guard lock(lock_);
    self->state = Thread::State::terminated;
    for (Thread* waiter : self->waiters) wake_locked(*waiter, success);
    last = --live_threads_ == 0;
  }
  if (last) stop(exit_status::exited);
  if (!self->host_started) { // the attached main thread: nothing joins it, so it waits here for the process to end
    for (;;) pause();
  }
  pthread_exit(nullptr);
}

void Kernel::sleep_thread(int64_t nanoseconds) {
  // 0, -1 and -2 are Horizon's yields (without core migration, with it, to any thread): all a host yield.
  if (nanoseconds <= 0) {
    sched_yield();
    return;
  }
  timespec duration{static_cast<time_t>(nanoseconds / 1000000000), static_cast<long>(nanoseconds % 1000000000)};
  while (nanosleep(&duration, &duration) != 0) {}
}

std::shared_ptr<Thread> Kernel::thread_for(uint32_t handle) { return lookup_as<Thread>(handle); }

Result Kernel::get_priority(uint32_t handle, int32_t* priority) {
  const auto thread = thread_for(handle);
  if (!thread) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  *priority = thread->priority;
  return success;
}

Result Kernel::set_priority(uint32_t handle, int32_t priority) {
  if (const Result r = check_priority(priority); r != success) return r;
  const auto thread = thread_for(handle);
  if (!thread) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  thread->priority = priority;
  return success;
}

Result Kernel::get_core_mask(uint32_t handle, int32_t* core, uint64_t* mask) {
  const auto thread = thread_for(handle);
  if (!thread) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  *core = thread->ideal_core;
  *mask = thread->affinity_mask;
  return success;
}

Result Kernel::set_core_mask(uint32_t handle, int32_t core, uint64_t mask) {
  constexpr int32_t dont_care = -1, use_process_value = -2, no_update = -3;
  if (core == use_process_value) {
    core = config_.default_core;
    mask = uint64_t{1} << core;
  } else {
    if ((mask & ~config_.core_mask) != 0) return kr::invalid_core_id;
    if (mask == 0) return kr::invalid_combination;
    if (core >= 0) {
      if (core > 63 || !((config_.core_mask >> core) & 1)) return kr::invalid_core_id;
      if (!((mask >> core) & 1)) return kr::invalid_combination;
    } else if (core != no_update && core != dont_care) {
      return kr::invalid_core_id;
    }
  }
  const auto thread = thread_for(handle);
  if (!thread) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  if (core == no_update) {
    if (!((mask >> thread->ideal_core) & 1)) return kr::invalid_combination;
  } else {
    thread->ideal_core = core;
  }
  thread->affinity_mask = mask;
  return success;
}

Result Kernel::get_thread_id(uint32_t handle, uint64_t* id) {
  const auto thread = thread_for(handle);
  if (!thread) return kr::invalid_handle;
  *id = thread->id;
  return success;
}

} // namespace kiln::hos
