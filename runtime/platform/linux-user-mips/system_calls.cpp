// The o32 system calls of static mipsel programs, answered by the shared Linux layer
// (runtime/platform/linux-syscalls). Convention: number in $v0, arguments in $a0-$a3 and then the caller's stack at
// $sp + 16, + 20, ...; the result in $v0 with $a3 = 0, or a positive (MIPS-numbered) errno in $v0 with $a3 = 1.
#include "runtime/platform/linux-syscalls/system_calls.h"
#include "runtime/platform/linux-user-mips/machine.h"

namespace kiln::mipsel {

void system_call(Machine& m, uint32_t pc) {
  r3000::Cpu& c = m.cpu;
  Bus bus{m};
  const uint32_t sp = c.gpr[29];
  const uint64_t args[6] = {c.gpr[4], c.gpr[5], c.gpr[6], c.gpr[7], bus.read32(sp + 16), bus.read32(sp + 20)};
  linux_calls::Process32 process(m.space);
  const int64_t r = linux_calls::system_call(linux_calls::mips_o32_abi, process, c.gpr[2], args, pc);
  const bool failed = r < 0;
  c.gpr[2] = failed ? linux_calls::guest_errno(linux_calls::mips_o32_abi, static_cast<int>(-r)) : static_cast<uint32_t>(r);
  c.gpr[7] = failed ? 1 : 0;
}

} // namespace kiln::mipsel
