#pragma once
// What the 32-bit linux-user platforms (mipsel o32, ppc32) share around the CPU: the guest's address space (one
// host reservation of 4 GiB, so every 32-bit guest address lands inside it; only the pages the process maps —
// ELF segments, stack, brk, mmap — are accessible, any other access faults on the host), the initial stack as
// the kernel lays it out, the Process the system-call layer works on, and the large host stack recompiled code
// runs on.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/bits.h"
#include "runtime/platform/linux-syscalls/system_calls.h"

namespace kiln::linux_calls {

struct Space32 {
  uint8_t* memory = nullptr; ///< guest address 0
  uint32_t brk_start = 0, brk_current = 0;
  uint32_t mmap_next = 0;      ///< next free address for mappings (grows up, never reused)
  uint32_t thread_pointer = 0; ///< set_thread_area (MIPS RDHWR $29)
};

constexpr uint32_t stack_top32 = 0x7FFF0000u, stack_size32 = 8u << 20;
constexpr uint32_t mmap_base32 = 0x40000000u, mmap_limit32 = 0x7F000000u;

/// Reserves the 4 GiB address space (inaccessible until mapped); throws kiln::Error when the host refuses.
void reserve_space32(Space32& space);
/// Makes [address, address + size) readable and writable (page granular).
void map32(Space32& space, uint32_t address, uint32_t size);

/// A loadable segment of the program as the generated project embeds it.
struct LoadSegment32 {
  uint32_t address, memory_size;
  const uint8_t* data;
  size_t size; ///< file bytes (the rest up to memory_size is zero)
};
/// Maps and copies the segments, sets the program break after the highest one, maps the stack.
void load_program32(Space32& space, const LoadSegment32* segments, size_t count);

/// The initial stack, top down: the strings, 16 AT_RANDOM bytes (fixed, so runs are reproducible), then argc,
/// argv[], NULL, envp[], NULL and the auxiliary vector (`auxv` plus AT_RANDOM, AT_EXECFN and AT_NULL), each word
/// in `order`; $sp 16-byte aligned. Returns $sp.
uint32_t build_stack32(Space32& space, Endian order, const std::vector<std::string>& args, const std::vector<std::string>& env,
                       const std::vector<std::pair<uint32_t, uint32_t>>& auxv);

/// The process exit/exit_group asked for: unwinds out of the recompiled code to the platform's main.
struct ProcessExit {
  int status;
};

/// The Process the system-call layer sees for a 32-bit platform: mappings from mmap_next up (munmap leaves pages
/// accessible: kiln does not reuse them), a program break of up to 256 MiB, exit as ProcessExit.
class Process32 final : public Process {
public:
  explicit Process32(Space32& space) : space_(space) {}
  uint8_t* guest(uint64_t address, uint64_t size) override;
  int64_t map(uint64_t address, uint64_t size, bool fixed) override;
  void unmap(uint64_t, uint64_t) override {}
  uint64_t brk(uint64_t wanted) override;
  uint64_t stack_size() const override { return stack_size32; }
  void set_thread_pointer(uint64_t pointer) override { space_.thread_pointer = static_cast<uint32_t>(pointer); }
  [[noreturn]] void exit(int status) override;

private:
  Space32& space_;
};

/// Runs `program` on a thread with a 1 GiB stack (guest calls are host calls, and a guest tail call is a host
/// call unless the host compiler makes it a jump, so deep guest recursion needs a deep host stack; pages are
/// only committed as they are touched); on the calling thread when no such thread can be had. Returns its result.
int run_on_large_stack(const std::function<int()>& program);

} // namespace kiln::linux_calls
