#pragma once
// Runs a recompiled static Linux AArch64 program: maps its segments into guest memory, lays out the initial
// stack as the Linux kernel does (argc, argv, envp, auxv), and enters the guest entry point.
#include "runtime/core/aarch64/dispatch.h"

namespace kiln::linux_user {

/// Guest memory layout (all inside the 36-bit guest space).
constexpr uint64_t mmap_base = 0x800000000;  ///< anonymous/file mappings grow up from here
constexpr uint64_t mmap_end = 0xc00000000;   ///< up to here; GPU buffer memory (nvgpu_driver.h) follows
constexpr uint64_t stack_top = 0xff0000000;  ///< initial stack grows down from here
constexpr uint64_t stack_size = 64ull << 20;

/// AT_HWCAP: FP, ASIMD, ATOMICS (LSE). kiln translates SVE/MTE code paths but reports neither, so glibc's
/// IFUNC resolvers pick the AdvSIMD variants.
constexpr uint64_t reported_hwcap = (1u << 0) | (1u << 1) | (1u << 8);

int run(const rt::ProgramInfo& program, int argc, char** argv, char** envp);

/// Program break state shared with the system calls.
struct ProcessState {
  uint64_t brk_start = 0;
  uint64_t brk_current = 0;
  uint64_t mmap_next = mmap_base;
};
ProcessState& process_state();

void handle_syscall(rt::Cpu* cpu, uint64_t pc);

} // namespace kiln::linux_user
