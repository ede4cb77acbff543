#pragma once
// kiln's own messages from a running recompiled program (unknown system calls, fallback-interpreter entries,
// stops, faults) go to kiln's log, never to the guest's stderr: a program's stderr holds only what it wrote, so
// it can be compared byte for byte with a reference run, and a title does not show kiln's internals to users.
// KILN_LOG chooses the log: a path (appended to), `stderr`, or `fd:N` (an open descriptor). Unset, it is the
// file `<executable>.kiln.log` next to the program, created at the first message (a clean run writes nothing).
#include <cstddef>

namespace kiln::rt {

/// Writes one formatted message ("kiln: " is not added) to kiln's log.
void guest_log(const char* format, ...) __attribute__((format(printf, 1, 2)));
/// Writes `size` bytes to kiln's log; async-signal-safe (open, readlink and write only), for fault handlers.
void guest_log_write(const char* text, size_t size);
/// The fallback interpreter was entered at `address` (any ISA): once per address, a line in kiln's log and a
/// `[[reached]]` entry appended to the file $KILN_DISCOVERY_LOG names, which `kiln discover apply` turns into
/// [[functions]] of the title's kiln.toml.
void report_fallback_entry(unsigned long long address);

} // namespace kiln::rt
