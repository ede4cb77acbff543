#pragma once
// Runs a recompiled Switch module: creates the Horizon process (kernel, sm and kiln's services), maps the
// module's segments as code and data, and enters it as the homebrew loader enters an NRO (switchbrew
// "Homebrew ABI"): X0 points at the loader's configuration entries, X1 is -1, the heap is already set up and
// passed in an OverrideHeap entry, argv in an Argv entry; returning from the entry point ends the program.
// A title from an ExeFS folder (ProgramInfo::switch_title) starts as Horizon starts one instead: its npdm's
// main thread stack size and priority, program id and service access control; the modules' initialisers, then
// main's entry with X0 = 0 and X1 = the main thread's handle.
#include "runtime/core/aarch64/dispatch.h"
#include "runtime/platform/switch/kernel/kernel.h"

namespace kiln::hos {

/// Homebrew ABI configuration entry keys.
namespace config_key {
constexpr uint32_t end_of_list = 0, main_thread_handle = 1, override_heap = 3, argv = 5, syscall_available_hint = 6, applet_type = 7,
                   random_seed = 12, hos_version = 14;
} // namespace config_key
constexpr uint32_t config_mandatory = 1;

/// The loader's choices: main thread stack, the heap the homebrew gets, where the entries and argv go.
constexpr uint64_t homebrew_stack_size = 0x100000;
constexpr uint64_t homebrew_heap_size = 0x20000000; ///< 512 MiB

int run(const rt::ProgramInfo& program, int argc, char** argv, char** envp);

} // namespace kiln::hos
