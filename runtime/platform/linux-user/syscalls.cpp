// Linux AArch64 system calls (asm-generic numbering) for static programs, on the host's Linux: guest pointers
// are translated and checked, and structures whose layout differs (stat, open flags) are converted.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "runtime/platform/linux-user/host_device.h"
#include "runtime/platform/linux-user/nvgpu.h"
#include "runtime/platform/linux-user/process.h"
#include "runtime/core/guest_log.h"

namespace kiln::linux_user {
namespace {

struct SyscallName {
  uint32_t number;
  const char* name;
};
// asm-generic/unistd.h numbers (what AArch64 Linux uses), for the names in reports.
constexpr SyscallName syscall_names[] = {
    {17, "getcwd"}, {19, "eventfd2"}, {20, "epoll_create1"}, {23, "dup"}, {24, "dup3"}, {25, "fcntl"}, {29, "ioctl"},
    {34, "mkdirat"}, {35, "unlinkat"}, {37, "linkat"}, {38, "renameat"}, {43, "statfs"}, {46, "ftruncate"}, {48, "faccessat"},
    {49, "chdir"}, {52, "fchmod"}, {56, "openat"}, {57, "close"}, {59, "pipe2"}, {61, "getdents64"}, {62, "lseek"},
    {63, "read"}, {64, "write"}, {65, "readv"}, {66, "writev"}, {67, "pread64"}, {68, "pwrite64"}, {71, "sendfile"}, {72, "pselect6"},
    {73, "ppoll"}, {78, "readlinkat"}, {79, "newfstatat"}, {80, "fstat"}, {82, "fsync"}, {93, "exit"}, {94, "exit_group"}, {95, "waitid"},
    {96, "set_tid_address"}, {98, "futex"}, {99, "set_robust_list"}, {101, "nanosleep"}, {113, "clock_gettime"},
    {114, "clock_getres"}, {115, "clock_nanosleep"}, {122, "sched_setaffinity"}, {123, "sched_getaffinity"},
    {124, "sched_yield"}, {129, "kill"}, {130, "tkill"}, {131, "tgkill"}, {132, "sigaltstack"}, {134, "rt_sigaction"},
    {135, "rt_sigprocmask"}, {139, "rt_sigreturn"}, {160, "uname"}, {163, "getrlimit"}, {165, "getrusage"},
    {166, "umask"}, {167, "prctl"}, {169, "gettimeofday"}, {172, "getpid"}, {173, "getppid"}, {174, "getuid"},
    {175, "geteuid"}, {176, "getgid"}, {177, "getegid"}, {178, "gettid"}, {179, "sysinfo"}, {198, "socket"},
    {214, "brk"}, {215, "munmap"}, {216, "mremap"}, {220, "clone"}, {221, "execve"}, {222, "mmap"}, {226, "mprotect"},
    {233, "madvise"}, {260, "wait4"}, {261, "prlimit64"}, {278, "getrandom"}, {279, "memfd_create"}, {291, "statx"},
    {293, "rseq"}, {435, "clone3"},
};

const char* syscall_name(uint64_t number) {
  for (const SyscallName& s : syscall_names)
    if (s.number == number) return s.name;
  return "unknown";
}

int64_t result(int64_t value) { return value < 0 ? -errno : value; }

bool mapped(uint64_t address, uint64_t size) { return rt::guest_range_mapped(address, size); }
char* guest_string(uint64_t address) {
  if (!mapped(address, 1)) return nullptr;
  return reinterpret_cast<char*>(rt::host_pointer(address));
}

/// AArch64 (asm-generic) and x86-64 disagree on four open flags.
int host_open_flags(uint64_t guest) {
  constexpr uint64_t a64_directory = 040000, a64_nofollow = 0100000, a64_direct = 0200000, a64_largefile = 0400000;
  int flags = static_cast<int>(guest & ~(a64_directory | a64_nofollow | a64_direct | a64_largefile));
  if (guest & a64_directory) flags |= O_DIRECTORY;
  if (guest & a64_nofollow) flags |= O_NOFOLLOW;
  if (guest & a64_direct) flags |= O_DIRECT;
  return flags;
}

/// struct stat as asm-generic lays it out (128 bytes).
void write_guest_stat(uint64_t address, const struct stat& s) {
  uint8_t out[128] = {};
  auto put64 = [&](size_t at, uint64_t v) { std::memcpy(out + at, &v, 8); };
  auto put32 = [&](size_t at, uint32_t v) { std::memcpy(out + at, &v, 4); };
  put64(0, s.st_dev);
  put64(8, s.st_ino);
  put32(16, s.st_mode);
  put32(20, static_cast<uint32_t>(s.st_nlink));
  put32(24, s.st_uid);
  put32(28, s.st_gid);
  put64(32, s.st_rdev);
  put64(48, static_cast<uint64_t>(s.st_size));
  put32(56, static_cast<uint32_t>(s.st_blksize));
  put64(64, static_cast<uint64_t>(s.st_blocks));
  put64(72, static_cast<uint64_t>(s.st_atim.tv_sec));
  put64(80, static_cast<uint64_t>(s.st_atim.tv_nsec));
  put64(88, static_cast<uint64_t>(s.st_mtim.tv_sec));
  put64(96, static_cast<uint64_t>(s.st_mtim.tv_nsec));
  put64(104, static_cast<uint64_t>(s.st_ctim.tv_sec));
  put64(112, static_cast<uint64_t>(s.st_ctim.tv_nsec));
  std::memcpy(rt::host_pointer(address), out, sizeof out);
}

int64_t guest_mmap(uint64_t address, uint64_t length, uint64_t prot, uint64_t flags, int64_t fd, uint64_t offset) {
  (void)prot;
  if (length == 0) return -EINVAL;
  if (nvgpu::owns(fd)) return nvgpu::mmap(fd, address, length, flags, offset);
  ProcessState& state = process_state();
  const uint64_t size = (length + rt::guest_page_size - 1) & ~(rt::guest_page_size - 1);
  constexpr uint64_t map_fixed = 0x10, map_anonymous = 0x20;
  uint64_t at;
  if ((flags & map_fixed) && address) {
    at = address;
    rt::unmap_guest(at, size);
  } else {
    at = state.mmap_next;
    state.mmap_next += size + rt::guest_page_size; // a guard page between mappings
    if (state.mmap_next >= mmap_end) return -ENOMEM;
  }
  rt::map_guest(at, size);
  if (!(flags & map_anonymous) && fd >= 0) {
    uint64_t done = 0;
    while (done < length) {
      const ssize_t n = pread(static_cast<int>(fd), rt::host_pointer(at + done), length - done, static_cast<off_t>(offset + done));
      if (n < 0) return -errno;
      if (n == 0) break;
      done += static_cast<uint64_t>(n);
    }
  }
  return static_cast<int64_t>(at);
}

/// prctl: the options a static utility uses, passed to the host for this process; pointer arguments are
/// translated. Options kiln does not pass on (AArch64's SVE/MTE/PAC controls among them) fail with EINVAL, as
/// on a kernel without the feature, and are reported.
int64_t guest_prctl(const uint64_t* x, uint64_t pc) {
  const int option = static_cast<int>(x[0]);
  switch (option) {
  case PR_SET_NAME: case PR_GET_NAME: { // a 16-byte name (the kernel's TASK_COMM_LEN)
    if (!mapped(x[1], 16)) return -EFAULT;
    char name[16] = {};
    if (option == PR_SET_NAME) {
      std::memcpy(name, rt::host_pointer(x[1]), std::min<size_t>(15, strnlen(reinterpret_cast<const char*>(rt::host_pointer(x[1])), 15)));
      return result(prctl(PR_SET_NAME, name, 0, 0, 0));
    }
    if (prctl(PR_GET_NAME, name, 0, 0, 0) < 0) return -errno;
    std::memcpy(rt::host_pointer(x[1]), name, sizeof name);
    return 0;
  }
  case PR_GET_PDEATHSIG: case PR_GET_CHILD_SUBREAPER: { // an int written through arg2
    int value = 0;
    if (!mapped(x[1], 4)) return -EFAULT;
    if (prctl(option, &value, 0, 0, 0) < 0) return -errno;
    std::memcpy(rt::host_pointer(x[1]), &value, 4);
    return 0;
  }
  case PR_SET_PDEATHSIG: case PR_GET_DUMPABLE: case PR_SET_DUMPABLE: case PR_GET_KEEPCAPS: case PR_SET_KEEPCAPS:
  case PR_SET_TIMERSLACK: case PR_GET_TIMERSLACK: case PR_SET_CHILD_SUBREAPER: case PR_SET_NO_NEW_PRIVS:
  case PR_GET_NO_NEW_PRIVS: case PR_CAPBSET_READ: // integer arguments only
    return result(prctl(option, x[1], x[2], x[3], x[4]));
  default:
    rt::guest_log("kiln: prctl option %d is not supported (EINVAL) at guest pc %#llx\n", option, static_cast<unsigned long long>(pc));
    return -EINVAL;
  }
}

/// clone as fork (what glibc's fork and a shell's child creation ask for): a new host process with a copy of
/// guest memory. Threads (CLONE_VM) and a new stack (posix_spawn's CLONE_VM | CLONE_VFORK) are not supported.
int64_t guest_clone(const uint64_t* x, uint64_t pc) {
  const uint64_t flags = x[0];
  constexpr uint64_t exit_signal_mask = 0xff;
  constexpr uint64_t fork_flags = CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID;
  if ((flags & ~(exit_signal_mask | fork_flags)) != 0 || x[1] != 0) {
    rt::guest_log("kiln: clone with flags %#llx%s is not supported (only fork) at guest pc %#llx\n", static_cast<unsigned long long>(flags),
                  x[1] ? " and a new stack" : "", static_cast<unsigned long long>(pc));
    return -ENOSYS;
  }
  if ((flags & exit_signal_mask) != SIGCHLD) {
    rt::guest_log("kiln: clone with exit signal %llu is not supported (only SIGCHLD) at guest pc %#llx\n",
                  static_cast<unsigned long long>(flags & exit_signal_mask), static_cast<unsigned long long>(pc));
    return -ENOSYS;
  }
  const pid_t child = fork();
  if (child < 0) return -errno;
  // arm64 passes (flags, stack, parent_tid, tls, child_tid)
  const uint32_t tid = static_cast<uint32_t>(child == 0 ? getpid() : child);
  if (child == 0 && (flags & CLONE_CHILD_SETTID) && mapped(x[4], 4)) std::memcpy(rt::host_pointer(x[4]), &tid, 4);
  if (child > 0 && (flags & CLONE_PARENT_SETTID) && mapped(x[2], 4)) std::memcpy(rt::host_pointer(x[2]), &tid, 4);
  return child;
}

int64_t dispatch(rt::Cpu* cpu, uint64_t pc) {
  uint64_t* x = cpu->x;
  const uint64_t number = x[8];
  switch (number) {
  case 63: // read
    if (host_device::owns(static_cast<int64_t>(x[0]))) return host_device::read(static_cast<int64_t>(x[0]), x[1], x[2]);
    if (!mapped(x[1], x[2])) return -EFAULT;
    return result(read(static_cast<int>(x[0]), rt::host_pointer(x[1]), x[2]));
  case 64: // write
    if (!mapped(x[1], x[2])) return -EFAULT;
    return result(write(static_cast<int>(x[0]), rt::host_pointer(x[1]), x[2]));
  case 65: case 66: { // readv, writev: struct iovec has the same layout on both
    std::vector<iovec> vectors(x[2] > 1024 ? 0 : x[2]);
    if (!mapped(x[1], x[2] * 16)) return -EFAULT;
    for (size_t i = 0; i < vectors.size(); ++i) {
      uint64_t base, length;
      std::memcpy(&base, rt::host_pointer(x[1] + 16 * i), 8);
      std::memcpy(&length, rt::host_pointer(x[1] + 16 * i + 8), 8);
      if (!mapped(base, length)) return -EFAULT;
      vectors[i] = {rt::host_pointer(base), length};
    }
    return result(number == 65 ? readv(static_cast<int>(x[0]), vectors.data(), static_cast<int>(vectors.size()))
                               : writev(static_cast<int>(x[0]), vectors.data(), static_cast<int>(vectors.size())));
  }
  case 67: // pread64
    if (!mapped(x[1], x[2])) return -EFAULT;
    return result(pread(static_cast<int>(x[0]), rt::host_pointer(x[1]), x[2], static_cast<off_t>(x[3])));
  case 68:
    if (!mapped(x[1], x[2])) return -EFAULT;
    return result(pwrite(static_cast<int>(x[0]), rt::host_pointer(x[1]), x[2], static_cast<off_t>(x[3])));
  case 56: { // openat
    const char* path = guest_string(x[1]);
    if (!path) return -EFAULT;
    if (const auto gpu_fd = nvgpu::open(path)) return *gpu_fd;
    if (const auto host_fd = host_device::open(path)) return *host_fd;
    return result(openat(static_cast<int>(x[0]), path, host_open_flags(x[2]), static_cast<mode_t>(x[3])));
  }
  case 57:
    if (nvgpu::owns(static_cast<int64_t>(x[0]))) return nvgpu::close(static_cast<int64_t>(x[0]));
    if (host_device::owns(static_cast<int64_t>(x[0]))) return host_device::close(static_cast<int64_t>(x[0]));
    return result(close(static_cast<int>(x[0])));
  case 62: return result(lseek(static_cast<int>(x[0]), static_cast<off_t>(x[1]), static_cast<int>(x[2])));
  case 80: case 79: { // fstat, newfstatat
    struct stat s;
    int r;
    uint64_t out;
    if (number == 80) { r = fstat(static_cast<int>(x[0]), &s); out = x[1]; }
    else {
      const char* path = guest_string(x[1]);
      if (!path) return -EFAULT;
      r = fstatat(static_cast<int>(x[0]), path, &s, static_cast<int>(x[3]));
      out = x[2];
    }
    if (r < 0) return -errno;
    if (!mapped(out, 128)) return -EFAULT;
    write_guest_stat(out, s);
    return 0;
  }
  case 35: { const char* path = guest_string(x[1]); return path ? result(unlinkat(static_cast<int>(x[0]), path, static_cast<int>(x[2]))) : -EFAULT; }
  case 34: { const char* path = guest_string(x[1]); return path ? result(mkdirat(static_cast<int>(x[0]), path, static_cast<mode_t>(x[2]))) : -EFAULT; }
  case 48: { const char* path = guest_string(x[1]); return path ? result(faccessat(static_cast<int>(x[0]), path, static_cast<int>(x[2]), 0)) : -EFAULT; }
  case 17: {
    if (!mapped(x[0], x[1])) return -EFAULT;
    return getcwd(reinterpret_cast<char*>(rt::host_pointer(x[0])), x[1]) ? static_cast<int64_t>(std::strlen(reinterpret_cast<char*>(rt::host_pointer(x[0]))) + 1) : -errno;
  }
  case 23: return result(dup(static_cast<int>(x[0])));
  case 24: return result(dup3(static_cast<int>(x[0]), static_cast<int>(x[1]), static_cast<int>(x[2])));
  case 25: { // fcntl: the commands static programs use take integer arguments
    const int command = static_cast<int>(x[1]);
    if (command == F_GETFD || command == F_SETFD || command == F_GETFL || command == F_SETFL || command == F_DUPFD || command == F_DUPFD_CLOEXEC)
      return result(fcntl(static_cast<int>(x[0]), command, static_cast<int>(x[2])));
    return -EINVAL;
  }
  case 29: { // ioctl
    if (nvgpu::owns(static_cast<int64_t>(x[0]))) return nvgpu::ioctl(static_cast<int64_t>(x[0]), x[1], x[2], pc);
    if (host_device::owns(static_cast<int64_t>(x[0]))) return host_device::ioctl(static_cast<int64_t>(x[0]), x[1], x[2], pc);
    constexpr uint64_t tcgets = 0x5401, tiocgwinsz = 0x5413;
    if (x[1] == tcgets || x[1] == tiocgwinsz) return -ENOTTY;
    return -ENOTTY;
  }
  case 78: { // readlinkat
    const char* path = guest_string(x[1]);
    if (!path || !mapped(x[2], x[3])) return -EFAULT;
    return result(readlinkat(static_cast<int>(x[0]), path, reinterpret_cast<char*>(rt::host_pointer(x[2])), x[3]));
  }
  case 61: // getdents64: struct linux_dirent64 is architecture-neutral
    if (!mapped(x[1], x[2])) return -EFAULT;
    return result(syscall(SYS_getdents64, static_cast<int>(x[0]), rt::host_pointer(x[1]), x[2]));
  case 93: case 94: // exit, exit_group (single-threaded: both end the process)
    host_device::shutdown();
    nvgpu::shutdown();
    _exit(static_cast<int>(x[0]));
  case 214: { // brk
    ProcessState& state = process_state();
    if (x[0] == 0 || x[0] < state.brk_start) return static_cast<int64_t>(state.brk_current);
    if (x[0] >= mmap_base) return static_cast<int64_t>(state.brk_current);
    if (x[0] > state.brk_current) rt::map_guest(state.brk_current, x[0] - state.brk_current);
    state.brk_current = x[0];
    return static_cast<int64_t>(state.brk_current);
  }
  case 222: return guest_mmap(x[0], x[1], x[2], x[3], static_cast<int64_t>(x[4]), x[5]);
  case 215: // munmap (GPU buffer memory stays with its nvmap handle)
    if (nvgpu::holds_memory(x[0], x[1])) return 0;
    rt::unmap_guest(x[0], (x[1] + rt::guest_page_size - 1) & ~(rt::guest_page_size - 1));
    return 0;
  case 216: { // mremap: move to a fresh mapping
    const uint64_t old_size = x[1], new_size = x[2];
    if (new_size <= old_size) return static_cast<int64_t>(x[0]);
    if (!(x[3] & 1)) return -ENOMEM; // MREMAP_MAYMOVE not given
    const int64_t at = guest_mmap(0, new_size, 3, 0x22, -1, 0);
    if (at < 0) return at;
    std::memcpy(rt::host_pointer(static_cast<uint64_t>(at)), rt::host_pointer(x[0]), old_size);
    rt::unmap_guest(x[0], (old_size + rt::guest_page_size - 1) & ~(rt::guest_page_size - 1));
    return at;
  }
  case 226: return 0; // mprotect: guest pages stay read/write
  case 233: return 0; // madvise
  case 160: { // uname
    struct utsname u;
    if (uname(&u) < 0) return -errno;
    std::strcpy(u.machine, "aarch64");
    if (!mapped(x[0], sizeof u)) return -EFAULT;
    std::memcpy(rt::host_pointer(x[0]), &u, sizeof u);
    return 0;
  }
  case 113: case 114: { // clock_gettime / clock_getres: struct timespec matches
    timespec t;
    const int r = number == 113 ? clock_gettime(static_cast<clockid_t>(x[0]), &t) : clock_getres(static_cast<clockid_t>(x[0]), &t);
    if (r < 0) return -errno;
    if (x[1]) {
      if (!mapped(x[1], sizeof t)) return -EFAULT;
      std::memcpy(rt::host_pointer(x[1]), &t, sizeof t);
    }
    return 0;
  }
  case 169: { // gettimeofday
    timeval t;
    gettimeofday(&t, nullptr);
    if (x[0]) {
      if (!mapped(x[0], sizeof t)) return -EFAULT;
      std::memcpy(rt::host_pointer(x[0]), &t, sizeof t);
    }
    return 0;
  }
  case 101: case 115: return 0; // nanosleep, clock_nanosleep: a test platform need not wait
  case 278: // getrandom
    if (!mapped(x[0], x[1])) return -EFAULT;
    return result(getrandom(rt::host_pointer(x[0]), x[1], static_cast<unsigned>(x[2])));
  case 96: return gettid();   // set_tid_address
  case 99: return 0;          // set_robust_list
  case 134: // rt_sigaction: recorded only (no signal is ever delivered to the guest)
    if (x[2] && mapped(x[2], 32)) std::memset(rt::host_pointer(x[2]), 0, 32);
    return 0;
  case 135: // rt_sigprocmask
    if (x[2] && mapped(x[2], 8)) std::memset(rt::host_pointer(x[2]), 0, 8);
    return 0;
  case 261: { // prlimit64 (pid 0 only): struct rlimit64 matches
    if (x[0] != 0) return -EPERM;
    if (x[3]) {
      struct rlimit limit;
      if (getrlimit(static_cast<int>(x[1]), &limit) < 0) return -errno;
      if (x[1] == RLIMIT_STACK) limit.rlim_cur = stack_size;
      if (!mapped(x[3], 16)) return -EFAULT;
      std::memcpy(rt::host_pointer(x[3]), &limit, 16);
    }
    return 0;
  }
  case 98: { // futex, single-threaded: WAIT on a changed value fails, WAKE wakes nobody
    const uint64_t op = x[1] & 0x7f;
    if (op == 0 || op == 9) {
      uint32_t value;
      std::memcpy(&value, rt::host_pointer(x[0]), 4);
      return value != static_cast<uint32_t>(x[2]) ? -EAGAIN : -ETIMEDOUT;
    }
    return 0;
  }
  case 172: return getpid();
  case 173: return getppid();
  case 178: return gettid();
  case 174: return getuid();
  case 175: return geteuid();
  case 176: return getgid();
  case 177: return getegid();
  case 123: { // sched_getaffinity: one CPU
    if (x[1] < 8 || !mapped(x[2], 8)) return -EINVAL;
    const uint64_t mask = 1;
    std::memcpy(rt::host_pointer(x[2]), &mask, 8);
    return 8;
  }
  case 124: return 0; // sched_yield
  case 179: { // sysinfo: struct sysinfo has the same LP64 layout on both
    struct sysinfo info;
    if (::sysinfo(&info) < 0) return -errno;
    if (!mapped(x[0], sizeof info)) return -EFAULT;
    std::memcpy(rt::host_pointer(x[0]), &info, sizeof info);
    return 0;
  }
  case 293: return -ENOSYS; // rseq: glibc copes without it
  case 131: case 129: // tgkill/kill of ourselves (abort)
    if (x[1 + (number == 131)] == SIGABRT) { fflush(stderr); signal(SIGABRT, SIG_DFL); raise(SIGABRT); }
    return 0;
  case 167: return guest_prctl(x, pc);
  case 220: return guest_clone(x, pc);
  case 260: { // wait4: int status and struct rusage have one layout on both
    int status = 0;
    struct rusage usage{};
    if (x[1] && !mapped(x[1], 4)) return -EFAULT;
    if (x[3] && !mapped(x[3], sizeof usage)) return -EFAULT;
    const pid_t r = wait4(static_cast<pid_t>(x[0]), &status, static_cast<int>(x[2]), x[3] ? &usage : nullptr);
    if (r < 0) return -errno;
    if (x[1] && r > 0) std::memcpy(rt::host_pointer(x[1]), &status, 4);
    if (x[3]) std::memcpy(rt::host_pointer(x[3]), &usage, sizeof usage);
    return r;
  }
  case 95: { // waitid: siginfo_t (128 bytes) and struct rusage have one layout on both
    siginfo_t info{};
    struct rusage usage{};
    if (x[2] && !mapped(x[2], sizeof info)) return -EFAULT;
    if (x[4] && !mapped(x[4], sizeof usage)) return -EFAULT;
    const long r = syscall(SYS_waitid, static_cast<int>(x[0]), static_cast<id_t>(x[1]), x[2] ? &info : nullptr, static_cast<int>(x[3]),
                           x[4] ? &usage : nullptr);
    if (r < 0) return -errno;
    if (x[2]) std::memcpy(rt::host_pointer(x[2]), &info, sizeof info);
    if (x[4]) std::memcpy(rt::host_pointer(x[4]), &usage, sizeof usage);
    return r;
  }
  case 71: { // sendfile: the offset (loff_t*) is read and written back when given
    off_t offset = 0;
    if (x[2]) {
      if (!mapped(x[2], 8)) return -EFAULT;
      std::memcpy(&offset, rt::host_pointer(x[2]), 8);
    }
    const ssize_t r = sendfile(static_cast<int>(x[0]), static_cast<int>(x[1]), x[2] ? &offset : nullptr, x[3]);
    if (r < 0) return -errno;
    if (x[2]) std::memcpy(rt::host_pointer(x[2]), &offset, 8);
    return r;
  }
  case 59: { // pipe2: the descriptors are written as two ints
    int ends[2];
    if (!mapped(x[0], 8)) return -EFAULT;
    if (pipe2(ends, host_open_flags(x[1])) < 0) return -errno;
    std::memcpy(rt::host_pointer(x[0]), ends, sizeof ends);
    return 0;
  }
  default:
    rt::guest_log("kiln: unknown system call %llu (%s) at guest pc %#llx\n", static_cast<unsigned long long>(number),
                 syscall_name(number), static_cast<unsigned long long>(pc));
    return -ENOSYS;
  }
}

} // namespace

void handle_syscall(rt::Cpu* cpu, uint64_t pc) { cpu->x[0] = static_cast<uint64_t>(dispatch(cpu, pc)); }

} // namespace kiln::linux_user
