#pragma once
// The guest-address -> host-function table a recompiled program carries, and what the generated main() passes
// to the platform: segments to map (from the embedded ELF image), entry point, program headers.
#include <cstddef>
#include <cstdint>

#include "runtime/core/aarch64/ops.h"

namespace kiln::rt {

struct FunctionEntry {
  uint64_t address;
  HostFunction function;
};

struct SegmentInfo {
  uint64_t address, file_offset, file_size, memory_size;
  uint32_t flags;
};

/// A Switch title recompiled from its ExeFS folder (recompiler/loaders/switch/exefs.h): what its main.npdm gives
/// the process, and the modules' initialisers. runtime/platform/switch/process.cpp reads it.
struct SwitchTitle {
  uint64_t program_id;
  uint32_t main_thread_priority;
  uint32_t main_thread_stack_size;
  const char* const* allowed_services; ///< ACI0's service access control: client entries, "x*" a prefix wildcard
  size_t allowed_service_count;
  const uint64_t* initializers;        ///< DT_INIT/DT_INIT_ARRAY functions, called in this order before the entry
  size_t initializer_count;
};

struct ProgramInfo {
  const FunctionEntry* entries; ///< sorted by address
  size_t entry_count;
  const SegmentInfo* segments;
  size_t segment_count;
  const unsigned char* image; ///< the guest ELF file, embedded
  const unsigned char* image_end;
  uint64_t entry;
  uint64_t program_headers;
  uint32_t program_header_count;
  uint32_t program_header_size;
  uint64_t tls_size;
  const SwitchTitle* switch_title; ///< null unless the program is a Switch title from an ExeFS folder
};

/// Installs the table call_guest() searches.
void set_function_table(const FunctionEntry* entries, size_t count);
/// The host function for a guest entry address, or nullptr.
HostFunction find_function(uint64_t address);

/// How control reaches an address that no compiled function starts at.
enum class ControlTransfer : uint8_t {
  call,   ///< a call (BLR, a platform's entry point): the code runs until it returns to cpu->link
  branch, ///< a BR: a tail jump, unless the address is a frame's resume point (then longjmp: the frames unwind)
  resume, ///< a non-local jump (RET or BR) taken over by the frame that owns its stack pointer, returning to cpu->link
};

/// What call_guest(), branch_guest() and resume_at_entry() ask when an address has no function
/// (runtime/core/aarch64/fallback.cpp installs the fallback interpreter here); false when it cannot run the address.
using MissingFunctionHandler = bool (*)(Cpu* cpu, uint64_t address, ControlTransfer how);
void set_missing_function_handler(MissingFunctionHandler handler);

/// Reports that control reached `address`, which is neither a compiled function nor code the fallback
/// interpreter has (outside the program's executable sections), and exits with status 70.
[[noreturn]] void stop_outside_code(uint64_t address);

/// Hook the platform installs for system registers it answers itself (thread pointers, counters): returns
/// true and sets `value` when it knows `encoding` (op0:op1:CRn:CRm:op2); otherwise the core's answer stands.
using SystemRegisterReader = bool (*)(Cpu* cpu, uint32_t encoding, uint64_t* value);
void set_system_register_reader(SystemRegisterReader reader);

/// Hook the platform installs for SVC.
using SupervisorHandler = void (*)(Cpu* cpu, uint64_t pc);
void set_supervisor_handler(SupervisorHandler handler);

} // namespace kiln::rt
