#pragma once
// The SVC dispatcher: `svc #imm` from recompiled code arrives here with its guest address; the immediate picks
// the handler, which takes its arguments from x0-x7 and writes the result to w0 and outputs to x1-x3
// (switchbrew "SVC"). An SVC without a handler is reported with its number, name and address and stops the process.
#include <cstdint>

#include "runtime/core/aarch64/cpu.h"

namespace kiln::hos {

struct SvcInfo {
  uint32_t number;
  const char* name;
  bool implemented;
};

/// Every SVC number Horizon defines, with its name and whether kiln implements it (docs/switch.md is generated
/// from this list).
const SvcInfo* svc_table(size_t* count);
const char* svc_name(uint32_t number);

/// rt::SupervisorHandler for the Switch: reads the SVC immediate at `pc` and runs its handler.
void handle_svc(rt::Cpu* cpu, uint64_t pc);
/// rt::SystemRegisterReader: TPIDRRO_EL0 (the thread's TLS) and the 19.2 MHz counter.
bool read_system_register(rt::Cpu* cpu, uint32_t encoding, uint64_t* value);

} // namespace kiln::hos
