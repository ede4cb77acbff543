#include "runtime/platform/switch/kernel/svc.h"

#include <fmt/format.h>

#include <cstring>
#include <string>

#include "runtime/base/log.h"
#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/kernel/kernel.h"
#include "runtime/platform/switch/kernel/ticks.h"

namespace kiln::hos {

namespace kr = kernel_result;

namespace {

using Handler = void (*)(Kernel& k, rt::Cpu& c, uint64_t pc);

uint32_t w(const rt::Cpu& c, int n) { return static_cast<uint32_t>(c.x[n]); }
void result(rt::Cpu& c, Result r) { c.x[0] = r; }

template <typename T>
bool write_guest(Kernel& k, uint64_t address, const T& value) {
  if (!k.memory().accessible(address, sizeof(T), permission::write)) return false;
  std::memcpy(rt::host_pointer(address), &value, sizeof(T));
  return true;
}

void set_heap_size(Kernel& k, rt::Cpu& c, uint64_t) {
  uint64_t address = 0;
  const uint64_t size = c.x[1];
  Result r = size > k.config().total_memory - k.config().system_resource_size ? kr::limit_reached : k.memory().set_heap_size(size, &address);
  result(c, r);
  c.x[1] = address;
}
void set_memory_permission(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.memory().set_permission(c.x[0], c.x[1], w(c, 2))); }
void set_memory_attribute(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.memory().set_attribute(c.x[0], c.x[1], w(c, 2), w(c, 3))); }
void map_memory(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.memory().map_memory(c.x[0], c.x[1], c.x[2])); }
void unmap_memory(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.memory().unmap_memory(c.x[0], c.x[1], c.x[2])); }
void query_memory(Kernel& k, rt::Cpu& c, uint64_t) {
  const MemoryInfo info = k.memory().query(c.x[2]);
  result(c, write_guest(k, c.x[0], info) ? success : kr::invalid_pointer);
  c.x[1] = 0; // page info: flags, none
}
void exit_process(Kernel& k, rt::Cpu&, uint64_t) { k.stop(exit_status::exited); }
void create_thread(Kernel& k, rt::Cpu& c, uint64_t) {
  uint32_t handle = 0;
  result(c, k.create_thread(c.x[1], c.x[2], c.x[3], static_cast<int32_t>(w(c, 4)), static_cast<int32_t>(w(c, 5)), &handle));
  c.x[1] = handle;
}
void start_thread(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.start_thread(w(c, 0))); }
void exit_thread(Kernel& k, rt::Cpu&, uint64_t) { k.exit_thread(); }
void sleep_thread(Kernel& k, rt::Cpu& c, uint64_t) { k.sleep_thread(static_cast<int64_t>(c.x[0])); }
void get_thread_priority(Kernel& k, rt::Cpu& c, uint64_t) {
  int32_t priority = 0;
  result(c, k.get_priority(w(c, 1), &priority));
  c.x[1] = static_cast<uint32_t>(priority);
}
void set_thread_priority(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.set_priority(w(c, 0), static_cast<int32_t>(w(c, 1)))); }
void get_thread_core_mask(Kernel& k, rt::Cpu& c, uint64_t) {
  int32_t core = 0;
  uint64_t mask = 0;
  result(c, k.get_core_mask(w(c, 2), &core, &mask));
  c.x[1] = static_cast<uint32_t>(core);
  c.x[2] = mask;
}
void set_thread_core_mask(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.set_core_mask(w(c, 0), static_cast<int32_t>(w(c, 1)), c.x[2])); }
void get_current_processor_number(Kernel&, rt::Cpu& c, uint64_t) {
  // The thread's ideal core: kiln does not pin host threads, so this is the core Horizon would have run it on.
  const Thread* self = Kernel::current();
  c.x[0] = static_cast<uint32_t>(self && self->ideal_core >= 0 ? self->ideal_core : 0);
}
void signal_event(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.signal_event(w(c, 0))); }
void clear_event(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.clear_event(w(c, 0))); }
void map_shared_memory(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.map_shared_memory(w(c, 0), c.x[1], c.x[2], w(c, 3))); }
void unmap_shared_memory(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.unmap_shared_memory(w(c, 0), c.x[1], c.x[2])); }
void create_transfer_memory(Kernel& k, rt::Cpu& c, uint64_t) {
  uint32_t handle = 0;
  result(c, k.create_transfer_memory(c.x[1], c.x[2], w(c, 3), &handle));
  c.x[1] = handle;
}
void close_handle(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.close_handle(w(c, 0))); }
void reset_signal(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.reset_signal(w(c, 0))); }
void wait_synchronization(Kernel& k, rt::Cpu& c, uint64_t) {
  const int32_t count = static_cast<int32_t>(w(c, 2));
  int32_t index = -1;
  uint32_t handles[max_wait_handles] = {};
  if (count > 0 && count <= static_cast<int32_t>(max_wait_handles)) {
    if (!k.memory().accessible(c.x[1], 4 * static_cast<uint64_t>(count), permission::read)) {
      result(c, kr::invalid_pointer);
      return;
    }
    std::memcpy(handles, rt::host_pointer(c.x[1]), 4 * static_cast<size_t>(count));
  }
  result(c, k.wait_synchronization(handles, count, static_cast<int64_t>(c.x[3]), &index));
  c.x[1] = static_cast<uint32_t>(index);
}
void cancel_synchronization(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.cancel_synchronization(w(c, 0))); }
void arbitrate_lock(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.arbitrate_lock(w(c, 0), c.x[1], w(c, 2))); }
void arbitrate_unlock(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.arbitrate_unlock(c.x[0])); }
void wait_process_wide_key_atomic(Kernel& k, rt::Cpu& c, uint64_t) {
  result(c, k.wait_process_wide_key(c.x[0], c.x[1], w(c, 2), static_cast<int64_t>(c.x[3])));
}
void signal_process_wide_key(Kernel& k, rt::Cpu& c, uint64_t) { result(c, k.signal_process_wide_key(c.x[0], static_cast<int32_t>(w(c, 1)))); }
void get_system_tick(Kernel&, rt::Cpu& c, uint64_t) { c.x[0] = system_tick(); }
void connect_to_named_port(Kernel& k, rt::Cpu& c, uint64_t pc) {
  // Names are at most 11 characters and their NUL.
  constexpr uint64_t name_limit = 12;
  std::string name;
  for (uint64_t i = 0;; ++i) {
    if (i == name_limit) {
      result(c, kr::out_of_range);
      return;
    }
    if (!k.memory().accessible(c.x[1] + i, 1, permission::read)) {
      result(c, kr::invalid_pointer);
      return;
    }
    const char ch = static_cast<char>(*rt::host_pointer(c.x[1] + i));
    if (!ch) break;
    name += ch;
  }
  uint32_t handle = 0;
  const Result r = k.connect_to_named_port(name, &handle);
  if (r == kr::not_found)
    k.report_once("port " + name, fmt::format("ConnectToNamedPort(\"{}\") at guest address {:#x}: kiln has no such port", name, pc));
  result(c, r);
  c.x[1] = handle;
}
Result send_request(Kernel& k, uint32_t handle, uint64_t message, uint64_t size, uint64_t pc) {
  const auto session = k.lookup_as<ClientSession>(handle);
  if (!session) return kr::invalid_handle;
  return session->send_sync_request(*Kernel::current(), message, size, pc);
}
void send_sync_request(Kernel& k, rt::Cpu& c, uint64_t pc) {
  result(c, send_request(k, w(c, 0), Kernel::current()->tls_address, ipc_message_size, pc));
}
void send_sync_request_with_user_buffer(Kernel& k, rt::Cpu& c, uint64_t pc) {
  const uint64_t buffer = c.x[0], size = c.x[1];
  if (buffer % layout::page_size) return result(c, kr::invalid_address);
  if (size == 0 || size % layout::page_size) return result(c, kr::invalid_size);
  if (!k.memory().accessible(buffer, size, permission::read_write)) return result(c, kr::invalid_current_memory);
  result(c, send_request(k, w(c, 2), buffer, size, pc));
}
void get_process_id(Kernel& k, rt::Cpu& c, uint64_t) {
  const uint32_t handle = w(c, 1);
  const bool ok = handle == current_process_handle || handle == current_thread_handle || k.lookup_as<Process>(handle) || k.lookup_as<Thread>(handle);
  result(c, ok ? success : kr::invalid_handle);
  c.x[1] = ok ? k.config().process_id : 0;
}
void get_thread_id(Kernel& k, rt::Cpu& c, uint64_t) {
  uint64_t id = 0;
  result(c, k.get_thread_id(w(c, 1), &id));
  c.x[1] = id;
}

const char* break_reason_name(uint32_t reason) {
  static const char* const names[] = {"Panic", "Assert", "User", "PreLoadDll", "PostLoadDll", "PreUnloadDll", "PostUnloadDll", "CppException"};
  return reason < 8 ? names[reason] : "unknown reason";
}
void guest_break(Kernel& k, rt::Cpu& c, uint64_t pc) {
  constexpr uint32_t notification_only = 0x80000000;
  const uint32_t reason = w(c, 0);
  if (reason & notification_only) return result(c, success); // a debugger notification (module loads): nothing stops
  std::string detail;
  if (c.x[2] == 4 && k.memory().accessible(c.x[1], 4, permission::read))
    detail = fmt::format(", value {:#x}", rt::load<uint32_t>(rt::guest_base, c.x[1]));
  log::error("guest Break ({} {:#x}) at guest address {:#x}, argument {:#x} size {:#x}{}; the process stops", break_reason_name(reason & 0xff),
             reason, pc, c.x[1], c.x[2], detail);
  k.stop(exit_status::guest_break);
}
void output_debug_string(Kernel& k, rt::Cpu& c, uint64_t) {
  const uint64_t address = c.x[0], size = c.x[1];
  if (size == 0) return result(c, success);
  if (!k.memory().accessible(address, size, permission::read)) return result(c, kr::invalid_current_memory);
  std::string_view text(reinterpret_cast<const char*>(rt::host_pointer(address)), size);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.remove_suffix(1);
  log::info("guest: {}", text);
  result(c, success);
}
void return_from_exception(Kernel& k, rt::Cpu& c, uint64_t pc) {
  log::error("guest ReturnFromException({:#x}) at guest address {:#x}: kiln delivers no exceptions to user handlers; the process stops", w(c, 0), pc);
  k.stop(exit_status::guest_break);
}
void get_info(Kernel& k, rt::Cpu& c, uint64_t pc) {
  uint64_t value = 0;
  result(c, k.get_info(w(c, 1), w(c, 2), c.x[3], &value, pc));
  c.x[1] = value;
}
// MapPhysicalMemory/UnmapPhysicalMemory: the argument checks in the kernel's order (switchbrew "SVC"), then the
// alias region's pages (AddressSpace). Only a process with a system resource may call them.
Result physical_memory(Kernel& k, uint64_t address, uint64_t size, bool map) {
  if (address % layout::page_size) return kr::invalid_address;
  if (size == 0 || size % layout::page_size) return kr::invalid_size;
  if (address + size <= address) return kr::invalid_memory_region;
  if (k.config().system_resource_size == 0) return kr::invalid_state;
  if (!map) return k.memory().unmap_physical(address, size);
  return k.memory().map_physical(address, size, k.config().total_memory - k.config().system_resource_size);
}
void map_physical_memory(Kernel& k, rt::Cpu& c, uint64_t) { result(c, physical_memory(k, c.x[0], c.x[1], true)); }
void unmap_physical_memory(Kernel& k, rt::Cpu& c, uint64_t) { result(c, physical_memory(k, c.x[0], c.x[1], false)); }
void flush_data_cache(Kernel&, rt::Cpu& c, uint64_t) { result(c, success); } // host caches are coherent
void wait_for_address(Kernel& k, rt::Cpu& c, uint64_t) {
  const uint32_t type = w(c, 1);
  const int64_t value = type == 3 ? static_cast<int64_t>(c.x[2]) : static_cast<int32_t>(w(c, 2));
  result(c, k.wait_for_address(c.x[0], type, value, static_cast<int64_t>(c.x[3])));
}
void signal_to_address(Kernel& k, rt::Cpu& c, uint64_t) {
  result(c, k.signal_to_address(c.x[0], w(c, 1), static_cast<int32_t>(w(c, 2)), static_cast<int32_t>(w(c, 3))));
}
void synchronize_preemption_state(Kernel&, rt::Cpu& c, uint64_t) { result(c, success); }
void create_event(Kernel& k, rt::Cpu& c, uint64_t) {
  uint32_t writable = 0, readable = 0;
  result(c, k.create_event(&writable, &readable));
  c.x[1] = writable;
  c.x[2] = readable;
}

struct SvcEntry {
  uint32_t number;
  const char* name;
  Handler handler;
};

// switchbrew "SVC": every number with its name; a null handler is not implemented.
constexpr SvcEntry svcs[] = {
    {0x01, "SetHeapSize", set_heap_size}, {0x02, "SetMemoryPermission", set_memory_permission},
    {0x03, "SetMemoryAttribute", set_memory_attribute}, {0x04, "MapMemory", map_memory}, {0x05, "UnmapMemory", unmap_memory},
    {0x06, "QueryMemory", query_memory}, {0x07, "ExitProcess", exit_process}, {0x08, "CreateThread", create_thread},
    {0x09, "StartThread", start_thread}, {0x0a, "ExitThread", exit_thread}, {0x0b, "SleepThread", sleep_thread},
    {0x0c, "GetThreadPriority", get_thread_priority}, {0x0d, "SetThreadPriority", set_thread_priority},
    {0x0e, "GetThreadCoreMask", get_thread_core_mask}, {0x0f, "SetThreadCoreMask", set_thread_core_mask},
    {0x10, "GetCurrentProcessorNumber", get_current_processor_number}, {0x11, "SignalEvent", signal_event},
    {0x12, "ClearEvent", clear_event}, {0x13, "MapSharedMemory", map_shared_memory}, {0x14, "UnmapSharedMemory", unmap_shared_memory},
    {0x15, "CreateTransferMemory", create_transfer_memory}, {0x16, "CloseHandle", close_handle}, {0x17, "ResetSignal", reset_signal},
    {0x18, "WaitSynchronization", wait_synchronization}, {0x19, "CancelSynchronization", cancel_synchronization},
    {0x1a, "ArbitrateLock", arbitrate_lock}, {0x1b, "ArbitrateUnlock", arbitrate_unlock},
    {0x1c, "WaitProcessWideKeyAtomic", wait_process_wide_key_atomic}, {0x1d, "SignalProcessWideKey", signal_process_wide_key},
    {0x1e, "GetSystemTick", get_system_tick}, {0x1f, "ConnectToNamedPort", connect_to_named_port},
    {0x20, "SendSyncRequestLight", nullptr}, {0x21, "SendSyncRequest", send_sync_request},
    {0x22, "SendSyncRequestWithUserBuffer", send_sync_request_with_user_buffer}, {0x23, "SendAsyncRequestWithUserBuffer", nullptr},
    {0x24, "GetProcessId", get_process_id}, {0x25, "GetThreadId", get_thread_id}, {0x26, "Break", guest_break},
    {0x27, "OutputDebugString", output_debug_string}, {0x28, "ReturnFromException", return_from_exception},
    {0x29, "GetInfo", get_info}, {0x2a, "FlushEntireDataCache", flush_data_cache}, {0x2b, "FlushDataCache", flush_data_cache},
    {0x2c, "MapPhysicalMemory", map_physical_memory},
    {0x2d, "UnmapPhysicalMemory", unmap_physical_memory}, {0x2e, "GetDebugFutureThreadInfo", nullptr},
    {0x2f, "GetLastThreadInfo", nullptr}, {0x30, "GetResourceLimitLimitValue", nullptr}, {0x31, "GetResourceLimitCurrentValue", nullptr},
    {0x32, "SetThreadActivity", nullptr}, {0x33, "GetThreadContext3", nullptr}, {0x34, "WaitForAddress", wait_for_address},
    {0x35, "SignalToAddress", signal_to_address}, {0x36, "SynchronizePreemptionState", synchronize_preemption_state},
    {0x37, "GetResourceLimitPeakValue", nullptr}, {0x39, "CreateIoPool", nullptr}, {0x3a, "CreateIoRegion", nullptr},
    {0x3c, "KernelDebug", nullptr}, {0x3d, "ChangeKernelTraceState", nullptr}, {0x40, "CreateSession", nullptr},
    {0x41, "AcceptSession", nullptr}, {0x42, "ReplyAndReceiveLight", nullptr}, {0x43, "ReplyAndReceive", nullptr},
    {0x44, "ReplyAndReceiveWithUserBuffer", nullptr}, {0x45, "CreateEvent", create_event}, {0x46, "MapIoRegion", nullptr},
    {0x47, "UnmapIoRegion", nullptr}, {0x48, "MapPhysicalMemoryUnsafe", nullptr}, {0x49, "UnmapPhysicalMemoryUnsafe", nullptr},
    {0x4a, "SetUnsafeLimit", nullptr}, {0x4b, "CreateCodeMemory", nullptr}, {0x4c, "ControlCodeMemory", nullptr},
    {0x4d, "SleepSystem", nullptr}, {0x4e, "ReadWriteRegister", nullptr}, {0x4f, "SetProcessActivity", nullptr},
    {0x50, "CreateSharedMemory", nullptr}, {0x51, "MapTransferMemory", nullptr}, {0x52, "UnmapTransferMemory", nullptr},
    {0x53, "CreateInterruptEvent", nullptr}, {0x54, "QueryPhysicalAddress", nullptr}, {0x55, "QueryMemoryMapping", nullptr},
    {0x56, "CreateDeviceAddressSpace", nullptr}, {0x57, "AttachDeviceAddressSpace", nullptr}, {0x58, "DetachDeviceAddressSpace", nullptr},
    {0x59, "MapDeviceAddressSpaceByForce", nullptr}, {0x5a, "MapDeviceAddressSpaceAligned", nullptr},
    {0x5b, "MapDeviceAddressSpace", nullptr}, {0x5c, "UnmapDeviceAddressSpace", nullptr}, {0x5d, "InvalidateProcessDataCache", nullptr},
    {0x5e, "StoreProcessDataCache", nullptr}, {0x5f, "FlushProcessDataCache", nullptr}, {0x60, "DebugActiveProcess", nullptr},
    {0x61, "BreakDebugProcess", nullptr}, {0x62, "TerminateDebugProcess", nullptr}, {0x63, "GetDebugEvent", nullptr},
    {0x64, "ContinueDebugEvent", nullptr}, {0x65, "GetProcessList", nullptr}, {0x66, "GetThreadList", nullptr},
    {0x67, "GetDebugThreadContext", nullptr}, {0x68, "SetDebugThreadContext", nullptr}, {0x69, "QueryDebugProcessMemory", nullptr},
    {0x6a, "ReadDebugProcessMemory", nullptr}, {0x6b, "WriteDebugProcessMemory", nullptr}, {0x6c, "SetHardwareBreakPoint", nullptr},
    {0x6d, "GetDebugThreadParam", nullptr}, {0x6f, "GetSystemInfo", nullptr}, {0x70, "CreatePort", nullptr},
    {0x71, "ManageNamedPort", nullptr}, {0x72, "ConnectToPort", nullptr}, {0x73, "SetProcessMemoryPermission", nullptr},
    {0x74, "MapProcessMemory", nullptr}, {0x75, "UnmapProcessMemory", nullptr}, {0x76, "QueryProcessMemory", nullptr},
    {0x77, "MapProcessCodeMemory", nullptr}, {0x78, "UnmapProcessCodeMemory", nullptr}, {0x79, "CreateProcess", nullptr},
    {0x7a, "StartProcess", nullptr}, {0x7b, "TerminateProcess", nullptr}, {0x7c, "GetProcessInfo", nullptr},
    {0x7d, "CreateResourceLimit", nullptr}, {0x7e, "SetResourceLimitLimitValue", nullptr}, {0x7f, "CallSecureMonitor", nullptr},
};

const SvcEntry* find_svc(uint32_t number) {
  for (const SvcEntry& entry : svcs)
    if (entry.number == number) return &entry;
  return nullptr;
}

} // namespace

const SvcInfo* svc_table(size_t* count) {
  static const auto table = [] {
    std::vector<SvcInfo> out;
    for (const SvcEntry& entry : svcs) out.push_back({entry.number, entry.name, entry.handler != nullptr});
    return out;
  }();
  *count = table.size();
  return table.data();
}

const char* svc_name(uint32_t number) {
  const SvcEntry* entry = find_svc(number);
  return entry ? entry->name : "unknown";
}

void handle_svc(rt::Cpu* cpu, uint64_t pc) {
  Kernel& k = *active_kernel();
  const uint32_t instruction = rt::load<uint32_t>(rt::guest_base, pc);
  const uint32_t number = (instruction >> 5) & 0xffff;
  const SvcEntry* entry = find_svc(number);
  if (!entry || !entry->handler) {
    log::error("unimplemented SVC {:#04x} ({}) called at guest address {:#x}; the process stops", number, svc_name(number), pc);
    k.stop(exit_status::unimplemented_svc);
  }
  entry->handler(k, *cpu, pc);
}

bool read_system_register(rt::Cpu*, uint32_t encoding, uint64_t* value) {
  constexpr uint32_t tpidrro_el0 = 0xde83, cntfrq_el0 = 0xdf00, cntpct_el0 = 0xdf01, cntvct_el0 = 0xdf02;
  switch (encoding) {
  case tpidrro_el0: {
    const Thread* self = Kernel::current();
    *value = self ? self->tls_address : 0;
    return true;
  }
  case cntfrq_el0: *value = tick_frequency; return true;
  case cntpct_el0:
  case cntvct_el0: *value = system_tick(); return true;
  default: return false;
  }
}

} // namespace kiln::hos
