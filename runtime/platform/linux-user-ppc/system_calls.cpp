// The ppc32 system calls of static PowerPC programs, answered by the shared Linux layer
// (runtime/platform/linux-syscalls): number in r0, arguments in r3-r8, the result in r3 with CR0[SO] clear, or a
// positive errno in r3 with CR0[SO] set (the kernel's powerpc convention).
#include "runtime/platform/linux-syscalls/system_calls.h"
#include "runtime/platform/linux-user-ppc/machine.h"

namespace kiln::ppc_linux {

void system_call(Machine& m, uint32_t pc) {
  ppc::Cpu& c = m.cpu;
  const uint64_t args[6] = {c.gpr[3], c.gpr[4], c.gpr[5], c.gpr[6], c.gpr[7], c.gpr[8]};
  linux_calls::Process32 process(m.space);
  const int64_t r = linux_calls::system_call(linux_calls::ppc32_abi, process, c.gpr[0], args, pc);
  const bool failed = r < 0;
  c.gpr[3] = failed ? linux_calls::guest_errno(linux_calls::ppc32_abi, static_cast<int>(-r)) : static_cast<uint32_t>(r);
  c.cr[0] = static_cast<uint8_t>(failed ? (c.cr[0] | ppc::cr::so) : (c.cr[0] & ~ppc::cr::so));
}

} // namespace kiln::ppc_linux
