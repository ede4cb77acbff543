#include "runtime/core/aarch64/dispatch.h"
#include "runtime/core/guest_log.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace kiln::rt {
namespace {

const FunctionEntry* table_begin = nullptr;
const FunctionEntry* table_end = nullptr;
SupervisorHandler supervisor_handler = nullptr;
MissingFunctionHandler missing_function_handler = nullptr;
SystemRegisterReader system_register_reader = nullptr;

// System register encodings (op0:op1:CRn:CRm:op2) and the answers kiln gives: a CPU with FP, AdvSIMD and LSE
// atomics and nothing else, matching the AT_HWCAP bits the platform reports.
constexpr uint32_t midr_el1 = 0xc000, mpidr_el1 = 0xc005, id_aa64pfr0_el1 = 0xc020, id_aa64pfr1_el1 = 0xc021,
                   id_aa64zfr0_el1 = 0xc024, id_aa64isar0_el1 = 0xc030, id_aa64isar1_el1 = 0xc031,
                   id_aa64mmfr0_el1 = 0xc038, id_aa64mmfr1_el1 = 0xc039, ctr_el0 = 0xd801, dczid_el0 = 0xd807,
                   cntfrq_el0 = 0xdf00, cntvct_el0 = 0xdf02;

} // namespace

void set_function_table(const FunctionEntry* entries, size_t count) {
  table_begin = entries;
  table_end = entries + count;
}

HostFunction find_function(uint64_t address) {
  // A direct-mapped cache in front of the binary search: indirect calls (callbacks, PLT-style stubs) repeat.
  struct Slot { uint64_t address; HostFunction function; };
  static Slot cache[4096];
  Slot& slot = cache[(address >> 2) & 4095];
  if (slot.address == address && slot.function) return slot.function;
  const FunctionEntry* it = std::lower_bound(table_begin, table_end, address, [](const FunctionEntry& e, uint64_t a) { return e.address < a; });
  if (it == table_end || it->address != address) return nullptr;
  slot = {address, it->function};
  return it->function;
}

void set_supervisor_handler(SupervisorHandler handler) { supervisor_handler = handler; }
void set_system_register_reader(SystemRegisterReader reader) { system_register_reader = reader; }
void set_missing_function_handler(MissingFunctionHandler handler) { missing_function_handler = handler; }

void stop_outside_code(uint64_t address) {
  guest_log("kiln: control reached guest address %#llx, which is neither a recompiled function nor code in the program's executable "
            "sections\n", static_cast<unsigned long long>(address));
  _exit(70);
}

void call_guest(Cpu* cpu, uint64_t address) {
  const HostFunction function = find_function(address);
  if (!function) {
    cpu->link = cpu->x[30]; // where the code run instead returns to, as for a compiled callee
    if (missing_function_handler && missing_function_handler(cpu, address, ControlTransfer::call)) return;
    stop_outside_code(address);
  }
  cpu->pc = address;
  cpu->link = cpu->x[30];
  function(cpu);
}

void call_guest_miss(Cpu* cpu, uint64_t address, uint64_t return_address, CallSiteCache& cache) {
  const HostFunction function = find_function(address);
  if (!function) return call_guest(cpu, address); // the fallback interpreter, or the report
  cache = {address, function};
  cpu->pc = address;
  cpu->link = return_address;
  function(cpu);
}

void branch_guest(Cpu* cpu, uint64_t address, uint64_t link) {
  if (const HostFunction function = find_function(address)) {
    cpu->pc = address;
    cpu->link = link;
    function(cpu);
    return;
  }
  cpu->link = link; // a BR passes its function's link on: a RET there returns to the same caller
  if (missing_function_handler && missing_function_handler(cpu, address, ControlTransfer::branch)) return;
  cpu->unwind_target = address;
}

bool resume_at_entry(Cpu* cpu, uint64_t link) {
  const uint64_t address = cpu->unwind_target;
  cpu->unwind_target = 0;
  cpu->pc = address;
  cpu->link = link;
  if (const HostFunction function = find_function(address)) {
    function(cpu);
    return true;
  }
  // A return address or jump target in the middle of compiled code: this frame's code continues there.
  if (missing_function_handler && missing_function_handler(cpu, address, ControlTransfer::resume)) return true;
  cpu->unwind_target = address;
  return false;
}

void finish_unclaimed_jumps(Cpu* cpu) {
  while (const uint64_t pending = cpu->unwind_target)
    if (!resume_at_entry(cpu, 0)) stop_outside_code(pending);
}

void enter_guest(Cpu* cpu, uint64_t address) {
  call_guest(cpu, address); // the entry point has no caller: its link (x30 = 0) is never a RET target
  finish_unclaimed_jumps(cpu);
  guest_log("kiln: the guest entry point returned\n");
  _exit(70);
}

void supervisor_call(Cpu* cpu, uint64_t pc) { supervisor_handler(cpu, pc); }

void trap_untranslated(Cpu*, uint64_t address, uint32_t encoding, const char* function, const char* reason) {
  guest_log("kiln: untranslated instruction at guest address %#llx (encoding %#010x) in %s: %s\n",
               static_cast<unsigned long long>(address), encoding, function, reason);
  _exit(71);
}

void trap_instruction(Cpu*, uint64_t address, uint32_t encoding, const char* what) {
  guest_log("kiln: guest executed %s at %#llx (encoding %#010x)\n", what, static_cast<unsigned long long>(address), encoding);
  _exit(72);
}

uint64_t read_system_register(Cpu* cpu, uint32_t encoding, uint64_t pc) {
  if (uint64_t value; system_register_reader && system_register_reader(cpu, encoding, &value)) return value;
  switch (encoding) {
  case midr_el1: return 0x410fd4f0; // an Arm Neoverse-class part number; glibc only reads it with HWCAP_CPUID
  case mpidr_el1: return 0x80000000;
  case id_aa64pfr0_el1: return 0x11; // EL0/EL1 AArch64; FP and AdvSIMD implemented (fields 0)
  case id_aa64pfr1_el1: return 0;    // no MTE, no BTI
  case id_aa64zfr0_el1: return 0;    // no SVE
  case id_aa64isar0_el1: return uint64_t{2} << 20; // atomics (LSE)
  case id_aa64isar1_el1: return 0;
  case id_aa64mmfr0_el1: return 0x5;
  case id_aa64mmfr1_el1: return 0;
  case ctr_el0: return 0x8444c004;   // 64-byte lines
  case dczid_el0: return 4;          // DC ZVA allowed, 2^4 words = 64 bytes
  case cntfrq_el0: return 1000000000;
  case cntvct_el0: {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<uint64_t>(t.tv_sec) * 1000000000u + static_cast<uint64_t>(t.tv_nsec);
  }
  default:
    guest_log("kiln: guest read unknown system register %#x at %#llx\n", encoding, static_cast<unsigned long long>(pc));
    _exit(73);
  }
}

void write_system_register(Cpu*, uint32_t encoding, uint64_t, uint64_t pc) {
  guest_log("kiln: guest wrote unsupported system register %#x at %#llx\n", encoding, static_cast<unsigned long long>(pc));
  _exit(73);
}

} // namespace kiln::rt
