// GetInfo: what libnx's and the SDK's start-up ask the kernel about the process (switchbrew "SVC", GetInfo).
#include <fmt/format.h>
#include <pthread.h>
#include <time.h>

#include "runtime/platform/switch/kernel/kernel.h"
#include "runtime/platform/switch/kernel/ticks.h"

namespace kiln::hos {

namespace kr = kernel_result;

namespace {
// svc::InfoType values.
enum InfoType : uint32_t {
  core_mask = 0, priority_mask = 1, alias_region_address = 2, alias_region_size = 3, heap_region_address = 4,
  heap_region_size = 5, total_memory_size = 6, used_memory_size = 7, debugger_attached = 8, resource_limit = 9,
  idle_tick_count = 10, random_entropy = 11, aslr_region_address = 12, aslr_region_size = 13, stack_region_address = 14,
  stack_region_size = 15, system_resource_size_total = 16, system_resource_size_used = 17, program_id = 18,
  user_exception_context_address = 20, total_non_system_memory_size = 21, used_non_system_memory_size = 22,
  is_application = 23, thread_tick_count = 25, thread_tick_count_deprecated = 0xf0000002,
};

uint64_t thread_cpu_ticks(const Thread& thread) {
  clockid_t clock;
  const pthread_t host = thread.host_started ? thread.host : pthread_self();
  timespec used{};
  if (pthread_getcpuclockid(host, &clock) != 0 || clock_gettime(clock, &used) != 0) return 0;
  return ticks_from_nanoseconds(static_cast<uint64_t>(used.tv_sec) * 1000000000u + static_cast<uint64_t>(used.tv_nsec));
}
} // namespace

Result Kernel::get_info(uint32_t id, uint32_t handle, uint64_t sub_id, uint64_t* value, uint64_t pc) {
  *value = 0;
  switch (id) {
  case thread_tick_count:
  case thread_tick_count_deprecated: {
    // sub_id is a core number or -1 for all cores; kiln's threads are not pinned, so every core reads the total.
    if (sub_id != ~uint64_t{0} && sub_id >= 4) return kr::invalid_combination;
    const auto thread = thread_for(handle);
    if (!thread) return kr::invalid_handle;
    *value = thread_cpu_ticks(*thread);
    return success;
  }
  case random_entropy:
    if (handle != 0) return kr::invalid_handle;
    if (sub_id >= 4) return kr::invalid_combination;
    *value = random_entropy_[sub_id];
    return success;
  case idle_tick_count:
    // Idle time of a core: kiln has no per-core idle accounting; it answers 0 (docs/switch.md lists it as stubbed).
    if (handle != 0) return kr::invalid_handle;
    return success;
  default: break;
  }
  if (handle != current_process_handle && !lookup_as<Process>(handle)) return kr::invalid_handle;
  if (sub_id != 0) return kr::invalid_combination;
  switch (id) {
  case core_mask: *value = config_.core_mask; return success;
  case priority_mask:
    for (int32_t p = config_.highest_priority; p <= config_.lowest_priority; ++p) *value |= uint64_t{1} << p;
    return success;
  case alias_region_address: *value = layout::alias_region_start; return success;
  case alias_region_size: *value = layout::alias_region_size; return success;
  case heap_region_address: *value = layout::heap_region_start; return success;
  case heap_region_size: *value = layout::heap_region_size; return success;
  case aslr_region_address: *value = layout::address_space_start; return success;
  case aslr_region_size: *value = layout::address_space_end - layout::address_space_start; return success;
  case stack_region_address: *value = layout::stack_region_start; return success;
  case stack_region_size: *value = layout::stack_region_size; return success;
  // The system resource is part of the process's memory: counted as used from the start, outside the
  // non-system figures, which are what SetHeapSize and MapPhysicalMemory draw from.
  case total_memory_size: *value = config_.total_memory; return success;
  case total_non_system_memory_size: *value = config_.total_memory - config_.system_resource_size; return success;
  case used_memory_size: *value = memory_.used_size() + config_.system_resource_size; return success;
  case used_non_system_memory_size: *value = memory_.used_size(); return success;
  case debugger_attached: return success;
  case resource_limit: return success; // no resource-limit object: handle 0, as for a process created without one
  case system_resource_size_total: *value = config_.system_resource_size; return success;
  // What of the system resource the kernel's page tables use: kiln keeps its memory map in host memory.
  case system_resource_size_used: return success;
  case program_id: *value = config_.program_id; return success;
  case is_application: *value = 1; return success;
  default:
    report_once(fmt::format("getinfo {}", id),
                fmt::format("GetInfo id {} (sub id {:#x}) is not implemented; called at guest address {:#x}", id, sub_id, pc));
    return kr::invalid_enum_value;
  }
}

} // namespace kiln::hos
