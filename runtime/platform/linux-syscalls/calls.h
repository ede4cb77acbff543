#pragma once
// The Linux system calls kiln's linux-user platforms know by name: X(name) for each, the kernel's name. Every ABI
// numbers them differently (abi_numbers.cpp, generated from the kernel's uapi headers); system_calls.cpp answers
// those it implements, and reports the others by name and address.
#include <cstdint>

#define KILN_LINUX_CALLS(X)                                                                                       \
  /* files */ X(read) X(write) X(readv) X(writev) X(pread64) X(pwrite64) X(openat) X(close) X(lseek) X(_llseek)    \
  X(fstat) X(newfstatat) X(fstat64) X(fstatat64) X(statx) X(unlinkat) X(unlink) X(mkdirat) X(faccessat) X(access) \
  X(getcwd) X(dup) X(dup3) X(fcntl) X(fcntl64) X(ioctl) X(readlinkat) X(readlink) X(getdents64) X(sendfile)       \
  X(pipe2) X(linkat) X(renameat) X(statfs) X(ftruncate) X(ftruncate64) X(chdir) X(fchmod) X(fsync) X(pselect6)     \
  X(ppoll) X(eventfd2) X(epoll_create1) X(memfd_create) X(umask)                                                   \
  /* memory */ X(brk) X(mmap) X(mmap2) X(munmap) X(mremap) X(mprotect) X(madvise)                                 \
  /* process */ X(exit) X(exit_group) X(uname) X(getrandom) X(set_tid_address) X(set_robust_list) X(rseq)        \
  X(set_thread_area) X(prctl) X(clone) X(clone3) X(execve) X(wait4) X(waitid) X(getpid) X(getppid) X(gettid)      \
  X(getuid) X(geteuid) X(getgid) X(getegid) X(getrlimit) X(ugetrlimit) X(prlimit64) X(getrusage) X(sysinfo)        \
  X(sched_getaffinity) X(sched_setaffinity) X(sched_yield) X(futex) X(socket)                                      \
  /* time */ X(clock_gettime) X(clock_gettime64) X(clock_getres) X(gettimeofday) X(nanosleep) X(clock_nanosleep)  \
  /* signals */ X(rt_sigaction) X(rt_sigprocmask) X(rt_sigreturn) X(sigaltstack) X(kill) X(tkill) X(tgkill)

namespace kiln::linux_calls {

enum class Call : uint16_t {
#define KILN_LINUX_CALL_ENUM(name) name,
  KILN_LINUX_CALLS(KILN_LINUX_CALL_ENUM)
#undef KILN_LINUX_CALL_ENUM
  count
};

/// The kernel's name of `call`.
const char* call_name(Call call);

} // namespace kiln::linux_calls
