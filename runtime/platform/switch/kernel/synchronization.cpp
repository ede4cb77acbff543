// Waiting and waking: WaitSynchronization, mutex arbitration, condition variables and the address arbiter.
// Guest words are read and changed with host atomics on their host pages, under the kernel lock.
#include <algorithm>
#include <chrono>

#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/kernel/kernel.h"

namespace kiln::hos {

namespace kr = kernel_result;

namespace {
using Clock = std::chrono::steady_clock;

uint32_t* guest_word(uint64_t address) { return reinterpret_cast<uint32_t*>(rt::host_pointer(address)); }

/// Inserts by priority (lower number first), then by wait order.
void insert_by_priority(std::vector<Thread*>& queue, Thread& thread) {
  const auto at = std::find_if(queue.begin(), queue.end(), [&](const Thread* other) {
    return other->priority > thread.priority || (other->priority == thread.priority && other->sequence > thread.sequence);
  });
  queue.insert(at, &thread);
}

void remove(std::vector<Thread*>& queue, Thread& thread) { queue.erase(std::remove(queue.begin(), queue.end(), &thread), queue.end()); }

Clock::time_point deadline_after(int64_t timeout) {
  return timeout < 0 ? Clock::time_point::max() : Clock::now() + std::chrono::nanoseconds(timeout);
}
} // namespace

void Kernel::wake_locked(Thread& thread, Result result) {
  if (thread.woken) return;
  thread.woken = true;
  thread.wait_result = result;
  thread.wakeup.notify_one();
}

Result Kernel::wait_locked(std::unique_lock<std::mutex>& lock, Thread& self, int64_t timeout) {
  const Clock::time_point deadline = deadline_after(timeout);
  while (!self.woken) {
    if (deadline == Clock::time_point::max()) self.wakeup.wait(lock);
    else if (self.wakeup.wait_until(lock, deadline) == std::cv_status::timeout && !self.woken) return kr::timed_out;
  }
  return self.wait_result;
}

bool Kernel::memory_word_usable(uint64_t address) { return memory_.accessible(address, 4, permission::read_write); }

Result Kernel::wait_synchronization(const uint32_t* handles, int32_t count, int64_t timeout, int32_t* index) {
  *index = -1;
  if (count < 0 || count > static_cast<int32_t>(max_wait_handles)) return kr::out_of_range;
  std::vector<std::shared_ptr<Waitable>> objects;
  for (int32_t i = 0; i < count; ++i) {
    auto object = lookup_as<Waitable>(handles[i]);
    if (!object) return kr::invalid_handle;
    objects.push_back(std::move(object));
  }
  Thread& self = *current();
  std::unique_lock lock(lock_);
  if (self.cancel_pending) {
    self.cancel_pending = false;
    return kr::cancelled;
  }
  auto first_signaled = [&]() -> int32_t {
    for (size_t i = 0; i < objects.size(); ++i)
      if (objects[i]->is_signaled()) return static_cast<int32_t>(i);
    return -1;
  };
  if ((*index = first_signaled()) >= 0) return success;
  if (timeout == 0) return kr::timed_out;
  for (const auto& object : objects) object->waiters.push_back(&self);
  self.in_synchronization = true;
  const Clock::time_point deadline = deadline_after(timeout);
  Result result = success;
  for (;;) {
    self.woken = false;
    const int64_t left = deadline == Clock::time_point::max() ? -1
                         : std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - Clock::now()).count());
    result = left == 0 ? kr::timed_out : wait_locked(lock, self, left);
    if (result != success) break;
    if ((*index = first_signaled()) >= 0) break;
  }
  self.in_synchronization = false;
  for (const auto& object : objects) remove(object->waiters, self);
  return result;
}

Result Kernel::cancel_synchronization(uint32_t handle) {
  const auto thread = thread_for(handle);
  if (!thread) return kr::invalid_handle;
  std::lock_guard lock(lock_);
  if (thread->in_synchronization) wake_locked(*thread, kr::cancelled);
  else thread->cancel_pending = true;
  return success;
}

size_t Kernel::waiting_threads(WaitKind kind, uint64_t key) {
  std::lock_guard lock(lock_);
  switch (kind) {
  case WaitKind::mutex: {
    const auto it = handles_.find(static_cast<uint32_t>(key));
    const Thread* owner = it == handles_.end() ? nullptr : dynamic_cast<const Thread*>(it->second.get());
    return owner ? owner->mutex_waiters.size() : 0;
  }
  case WaitKind::condition:
    return static_cast<size_t>(std::count_if(condition_waiters_.begin(), condition_waiters_.end(), [&](const Thread* t) { return t->condition_key == key; }));
  case WaitKind::address:
    return static_cast<size_t>(std::count_if(arbiter_waiters_.begin(), arbiter_waiters_.end(), [&](const Thread* t) { return t->arbiter_address == key; }));
  }
  return 0;
}

void Kernel::enqueue_mutex_waiter_locked(Thread& owner, Thread& waiter) {
  waiter.lock_owner = &owner;
  insert_by_priority(owner.mutex_waiters, waiter);
}

void Kernel::release_mutex_locked(Thread& owner, uint64_t address) {
  Thread* next = nullptr;
  size_t waiting = 0;
  for (Thread* waiter : owner.mutex_waiters)
    if (waiter->mutex_address == address) {
      if (!next) next = waiter;
      ++waiting;
    }
  uint32_t value = 0;
  if (next) {
    remove(owner.mutex_waiters, *next);
    next->lock_owner = nullptr;
    // The other waiters for this mutex now wait for its new owner.
    std::vector<Thread*> moving;
    for (Thread* waiter : owner.mutex_waiters)
      if (waiter->mutex_address == address) moving.push_back(waiter);
    for (Thread* waiter : moving) {
      remove(owner.mutex_waiters, *waiter);
      enqueue_mutex_waiter_locked(*next, *waiter);
    }
    value = next->mutex_tag | (waiting > 1 ? mutex_has_listeners : 0);
    wake_locked(*next, success);
  }
  __atomic_store_n(guest_word(address), value, __ATOMIC_SEQ_CST);
}

Result Kernel::arbitrate_lock(uint32_t owner_handle, uint64_t address, uint32_t tag) {
  if (address % 4) return kr::invalid_address;
  if (!memory_word_usable(address)) return kr::invalid_current_memory;
  Thread& self = *current();
  std::unique_lock lock(lock_);
  if (__atomic_load_n(guest_word(address), __ATOMIC_SEQ_CST) != (owner_handle | mutex_has_listeners)) return success;
  const auto it = handles_.find(owner_handle);
  Thread* owner = it == handles_.end() ? nullptr : dynamic_cast<Thread*>(it->second.get());
  if (!owner) return kr::invalid_handle;
  self.mutex_address = address;
  self.mutex_tag = tag;
  self.sequence = wait_sequence_++;
  self.woken = false;
  enqueue_mutex_waiter_locked(*owner, self);
  return wait_locked(lock, self, -1);
}

Result Kernel::arbitrate_unlock(uint64_t address) {
  if (address % 4) return kr::invalid_address;
  if (!memory_word_usable(address)) return kr::invalid_current_memory;
  std::lock_guard lock(lock_);
  release_mutex_locked(*current(), address);
  return success;
}

Result Kernel::wait_process_wide_key(uint64_t mutex_address, uint64_t key, uint32_t tag, int64_t timeout) {
  if (mutex_address % 4) return kr::invalid_address;
  if (!memory_word_usable(mutex_address) || key % 4 || !memory_word_usable(key)) return kr::invalid_current_memory;
  Thread& self = *current();
  std::unique_lock lock(lock_);
  release_mutex_locked(self, mutex_address);
  __atomic_store_n(guest_word(key), 1u, __ATOMIC_SEQ_CST);
  if (timeout == 0) return kr::timed_out;
  self.condition_key = key;
  self.mutex_address = mutex_address;
  self.mutex_tag = tag;
  self.sequence = wait_sequence_++;
  self.woken = false;
  insert_by_priority(condition_waiters_, self);
  const Result result = wait_locked(lock, self, timeout);
  if (result != success) {
    remove(condition_waiters_, self);
    if (self.lock_owner) remove(self.lock_owner->mutex_waiters, self);
    self.lock_owner = nullptr;
  }
  self.condition_key = 0;
  return result;
}

Result Kernel::signal_process_wide_key(uint64_t key, int32_t count) {
  std::lock_guard lock(lock_);
  int32_t signaled = 0;
  for (auto it = condition_waiters_.begin(); it != condition_waiters_.end() && (count <= 0 || signaled < count);) {
    Thread& waiter = **it;
    if (waiter.condition_key != key) {
      ++it;
      continue;
    }
    it = condition_waiters_.erase(it);
    waiter.condition_key = 0;
    ++signaled;
    // The woken thread takes its mutex again: at once if it is free, else it queues behind the mutex's owner.
    if (!memory_word_usable(waiter.mutex_address)) {
      wake_locked(waiter, kr::invalid_current_memory);
      continue;
    }
    uint32_t* word = guest_word(waiter.mutex_address);
    uint32_t old = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    for (;;) {
      const uint32_t desired = old == 0 ? waiter.mutex_tag : old | mutex_has_listeners;
      if (__atomic_compare_exchange_n(word, &old, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) break;
    }
    if (old == 0) {
      wake_locked(waiter, success);
      continue;
    }
    const auto owner_it = handles_.find(old & ~mutex_has_listeners);
    Thread* owner = owner_it == handles_.end() ? nullptr : dynamic_cast<Thread*>(owner_it->second.get());
    if (!owner) wake_locked(waiter, kr::invalid_state);
    else enqueue_mutex_waiter_locked(*owner, waiter);
  }
  const bool more = std::any_of(condition_waiters_.begin(), condition_waiters_.end(), [&](const Thread* t) { return t->condition_key == key; });
  if (!more && key % 4 == 0 && memory_word_usable(key)) __atomic_store_n(guest_word(key), 0u, __ATOMIC_SEQ_CST);
  return success;
}

namespace {
// svc::ArbitrationType and svc::SignalType (switchbrew "SVC": WaitForAddress, SignalToAddress).
constexpr uint32_t wait_if_less_than = 0, decrement_and_wait_if_less_than = 1, wait_if_equal = 2, wait_if_equal_64 = 3;
constexpr uint32_t signal_only = 0, signal_and_increment_if_equal = 1, signal_and_modify_by_waiting_count_if_equal = 2;
} // namespace

Result Kernel::wait_for_address(uint64_t address, uint32_t type, int64_t value, int64_t timeout) {
  if (type > wait_if_equal_64) return kr::invalid_enum_value;
  const uint64_t size = type == wait_if_equal_64 ? 8 : 4;
  if (address % size) return kr::invalid_address;
  if (!memory_.accessible(address, size, permission::read_write)) return kr::invalid_current_memory;
  Thread& self = *current();
  std::unique_lock lock(lock_);
  int32_t* word = reinterpret_cast<int32_t*>(guest_word(address));
  const int32_t value32 = static_cast<int32_t>(value);
  switch (type) {
  case wait_if_less_than:
    if (__atomic_load_n(word, __ATOMIC_SEQ_CST) >= value32) return kr::invalid_state;
    break;
  case decrement_and_wait_if_less_than: {
    int32_t current_value = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    do {
      if (current_value >= value32) return kr::invalid_state;
    } while (!__atomic_compare_exchange_n(word, &current_value, current_value - 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    break;
  }
  case wait_if_equal:
    if (__atomic_load_n(word, __ATOMIC_SEQ_CST) != value32) return kr::invalid_state;
    break;
  default:
    if (__atomic_load_n(reinterpret_cast<int64_t*>(word), __ATOMIC_SEQ_CST) != value) return kr::invalid_state;
    break;
  }
  if (timeout == 0) return kr::timed_out;
  self.arbiter_address = address;
  self.sequence = wait_sequence_++;
  self.woken = false;
  insert_by_priority(arbiter_waiters_, self);
  const Result result = wait_locked(lock, self, timeout);
  if (result != success) remove(arbiter_waiters_, self);
  self.arbiter_address = 0;
  return result;
}

Result Kernel::signal_to_address(uint64_t address, uint32_t type, int32_t value, int32_t count) {
  if (type > signal_and_modify_by_waiting_count_if_equal) return kr::invalid_enum_value;
  if (address % 4) return kr::invalid_address;
  if (!memory_word_usable(address)) return kr::invalid_current_memory;
  std::lock_guard lock(lock_);
  std::vector<Thread*> waiting;
  for (Thread* waiter : arbiter_waiters_)
    if (waiter->arbiter_address == address) waiting.push_back(waiter);
  if (type != signal_only) {
    int32_t new_value = value + 1;
    if (type == signal_and_modify_by_waiting_count_if_equal && !waiting.empty()) {
      const size_t n = waiting.size();
      if (count <= 0) new_value = value - 2;
      else new_value = n <= static_cast<size_t>(count) ? value - 1 : value;
    }
    int32_t expected = value;
    if (!__atomic_compare_exchange_n(reinterpret_cast<int32_t*>(guest_word(address)), &expected, new_value, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST))
      return kr::invalid_state;
  }
  for (size_t i = 0; i < waiting.size() && (count <= 0 || i < static_cast<size_t>(count)); ++i) {
    remove(arbiter_waiters_, *waiting[i]);
    waiting[i]->arbiter_address = 0;
    wake_locked(*waiting[i], success);
  }
  return success;
}

} // namespace kiln::hos
