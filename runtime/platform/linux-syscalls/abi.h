#pragma once
// One Linux system-call layer for every linux-user platform (AArch64, mipsel o32, ppc32): what differs between
// their ABIs is data here (call numbers, byte order, the width of `long`, the O_* and MAP_* bits, errno values,
// structure sizes), and system_calls.cpp answers each call once, on the host's Linux, through a Process (the
// platform's guest memory and mappings). The platform reads the number and arguments from its registers and
// writes the result back in its own convention (x0 = -errno; $v0/$a3; r3/CR0.SO).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "runtime/base/bits.h"
#include "runtime/platform/linux-syscalls/calls.h"

namespace kiln::linux_calls {

struct CallNumber {
  uint32_t number;
  Call call;
};

/// An O_* flag: its bit on the guest and on the host (0: the host has no such flag or needs none).
struct FlagBit {
  uint32_t guest;
  int host;
};

/// An errno value the guest numbers differently from the host (x86-64 Linux, the asm-generic numbering).
struct ErrnoValue {
  int host;
  uint32_t guest;
};

struct Abi {
  const char* name;          ///< in reports
  const char* uname_machine; ///< what uname() says the machine is
  Endian byte_order;
  unsigned long_bytes;       ///< sizeof(long) and of pointers: 8 (LP64) or 4 (ILP32)
  std::span<const CallNumber> numbers;
  std::span<const FlagBit> open_flags; ///< every O_* bit that differs from the host's; the others are the same
  std::span<const ErrnoValue> errno_values; ///< every errno that differs from the host's
  uint32_t map_anonymous;
  uint64_t rlimit_infinity;  ///< RLIM_INFINITY as getrlimit reports it
  unsigned sigaction_bytes;  ///< the kernel's struct sigaction (rt_sigaction's old action)
};

extern const Abi aarch64_abi, mips_o32_abi, ppc32_abi;

/// The call `number` names in `abi`, if kiln knows it by name.
std::optional<Call> call_of(const Abi& abi, uint32_t number);
/// The guest's O_* bits for host flags, and the host's for guest flags.
int host_open_flags(const Abi& abi, uint32_t guest);
uint32_t guest_open_flags(const Abi& abi, int host);
/// The guest's errno value for a host errno.
uint32_t guest_errno(const Abi& abi, int host_errno);

} // namespace kiln::linux_calls
