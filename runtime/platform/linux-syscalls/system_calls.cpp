#include "runtime/platform/linux-syscalls/system_calls.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
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
#include <climits>
#include <cstdio>
#include <cstring>
#include <vector>

#include "runtime/core/guest_log.h"

namespace kiln::linux_calls {
namespace {

constexpr uint64_t page_size = 4096;
constexpr uint64_t map_fixed = 0x10; // the same bit on every architecture
constexpr uint64_t mremap_maymove = 1;

uint64_t page_round(uint64_t size) { return (size + page_size - 1) & ~(page_size - 1); }
int64_t result(int64_t value) { return value < 0 ? -errno : value; }

/// A 64-bit argument that an ILP32 ABI passes in the two registers a[first] and a[first + 1] (o32 and the ppc32
/// ABI both start such a pair at an even argument index, leaving a register unused before it), in the ABI's byte
/// order: the high word comes first on a big-endian machine, the low word first on a little-endian one.
uint64_t register_pair(const Abi& abi, const uint64_t a[6], unsigned first) {
  const uint64_t w0 = a[first] & 0xFFFFFFFFu, w1 = a[first + 1] & 0xFFFFFFFFu;
  return abi.byte_order == Endian::big ? w0 << 32 | w1 : w1 << 32 | w0;
}

/// Guest memory in the ABI's byte order and `long` width.
class Guest {
public:
  Guest(const Abi& abi, Process& process) : abi_(abi), process_(process) {}

  uint8_t* bytes(uint64_t address, uint64_t size) { return process_.guest(address, size); }
  /// A NUL-terminated guest string (its first byte mapped), or nullptr.
  const char* string(uint64_t address) { return reinterpret_cast<const char*>(process_.guest(address, 1)); }
  bool put(uint64_t address, uint64_t value, unsigned size) {
    uint8_t* at = bytes(address, size);
    if (!at) return false;
    switch (size) {
      case 2: store<uint16_t>(at, static_cast<uint16_t>(value), abi_.byte_order); break;
      case 4: store<uint32_t>(at, static_cast<uint32_t>(value), abi_.byte_order); break;
      default: store<uint64_t>(at, value, abi_.byte_order); break;
    }
    return true;
  }
  bool put_long(uint64_t address, uint64_t value) { return put(address, value, abi_.long_bytes); }
  std::optional<uint64_t> get(uint64_t address, unsigned size) {
    const uint8_t* at = bytes(address, size);
    if (!at) return std::nullopt;
    if (size == 4) return load<uint32_t>(at, abi_.byte_order);
    return load<uint64_t>(at, abi_.byte_order);
  }
  std::optional<uint64_t> get_long(uint64_t address) { return get(address, abi_.long_bytes); }
  unsigned long_bytes() const { return abi_.long_bytes; }
  /// The guest's little-endian LP64 layouts are the host's own: structures copy as they are.
  bool host_layout() const { return abi_.long_bytes == 8 && abi_.byte_order == Endian::little; }

private:
  const Abi& abi_;
  Process& process_;
};

/// struct stat as asm-generic lays it out for LP64 (128 bytes; AArch64's fstat and newfstatat).
int64_t write_asm_generic_stat(Guest& g, uint64_t address, const struct stat& s) {
  uint8_t* out = g.bytes(address, 128);
  if (!out) return -EFAULT;
  uint8_t bytes[128] = {};
  auto put64 = [&](size_t at, uint64_t v) { store<uint64_t>(bytes + at, v, Endian::little); };
  auto put32 = [&](size_t at, uint32_t v) { store<uint32_t>(bytes + at, v, Endian::little); };
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
  std::memcpy(out, bytes, sizeof bytes);
  return 0;
}

/// struct statx has one layout on every architecture (fixed-width fields), in the guest's byte order.
int64_t statx_call(const Abi& abi, Guest& g, const uint64_t* a) {
  struct statx s {};
  const char* path = g.string(a[1]);
  if (!path) return -EFAULT;
  if (::statx(static_cast<int32_t>(a[0]), path, static_cast<int>(a[2]), static_cast<unsigned>(a[3]), &s) < 0) return -errno;
  uint8_t* out = g.bytes(a[4], sizeof s);
  if (!out) return -EFAULT;
  if (abi.byte_order == Endian::little) {
    std::memcpy(out, &s, sizeof s);
    return 0;
  }
  uint8_t bytes[sizeof s] = {};
  auto put = [&](size_t at, auto value) { store(bytes + at, static_cast<std::make_unsigned_t<decltype(value)>>(value), abi.byte_order); };
  put(0, s.stx_mask);
  put(4, s.stx_blksize);
  put(8, s.stx_attributes);
  put(16, s.stx_nlink);
  put(20, s.stx_uid);
  put(24, s.stx_gid);
  put(28, s.stx_mode);
  put(32, s.stx_ino);
  put(40, s.stx_size);
  put(48, s.stx_blocks);
  put(56, s.stx_attributes_mask);
  const struct statx_timestamp* times[] = {&s.stx_atime, &s.stx_btime, &s.stx_ctime, &s.stx_mtime};
  for (size_t i = 0; i < 4; ++i) {
    put(64 + 16 * i, times[i]->tv_sec);
    put(72 + 16 * i, times[i]->tv_nsec);
  }
  put(128, s.stx_rdev_major);
  put(132, s.stx_rdev_minor);
  put(136, s.stx_dev_major);
  put(140, s.stx_dev_minor);
  put(144, s.stx_mnt_id);
  std::memcpy(out, bytes, sizeof bytes);
  return 0;
}

/// readv/writev: struct iovec is {pointer, size_t}.
int64_t vector_io(const Abi& abi, Guest& g, bool reading, const uint64_t* a) {
  if (a[2] > 1024) return -EINVAL;
  std::vector<iovec> vectors(a[2]);
  const unsigned w = abi.long_bytes;
  for (size_t i = 0; i < vectors.size(); ++i) {
    const auto base = g.get_long(a[1] + 2 * w * i), length = g.get_long(a[1] + 2 * w * i + w);
    if (!base || !length) return -EFAULT;
    uint8_t* at = g.bytes(*base, *length);
    if (!at && *length) return -EFAULT;
    vectors[i] = {at, *length};
  }
  const int fd = static_cast<int32_t>(a[0]);
  return result(reading ? ::readv(fd, vectors.data(), static_cast<int>(vectors.size())) : ::writev(fd, vectors.data(), static_cast<int>(vectors.size())));
}

int64_t map_memory(const Abi& abi, Process& process, uint64_t address, uint64_t length, uint64_t flags, int32_t fd, uint64_t offset) {
  if (length == 0) return -EINVAL;
  if (DeviceFiles* devices = process.devices(); devices && devices->owns(fd))
    if (const auto mapped = devices->mmap(fd, address, length, flags, offset)) return *mapped;
  const int64_t at = process.map(address, page_round(length), (flags & map_fixed) && address);
  if (at < 0) return at;
  if (!(flags & abi.map_anonymous) && fd >= 0) {
    uint64_t done = 0;
    while (done < length) {
      const ssize_t n = ::pread(fd, process.guest(static_cast<uint64_t>(at) + done, length - done), length - done, static_cast<off_t>(offset + done));
      if (n < 0) return -errno;
      if (n == 0) break;
      done += static_cast<uint64_t>(n);
    }
  }
  return at;
}

/// prctl: the options a static utility uses, passed to the host for this process; pointer arguments are
/// translated. Options kiln does not pass on (AArch64's SVE/MTE/PAC controls among them) fail with EINVAL, as
/// on a kernel without the feature, and are reported.
int64_t prctl_call(Guest& g, const uint64_t* a, uint64_t pc) {
  const int option = static_cast<int>(a[0]);
  switch (option) {
    case PR_SET_NAME: case PR_GET_NAME: { // a 16-byte name (the kernel's TASK_COMM_LEN)
      uint8_t* at = g.bytes(a[1], 16);
      if (!at) return -EFAULT;
      char name[16] = {};
      if (option == PR_SET_NAME) {
        std::memcpy(name, at, std::min<size_t>(15, strnlen(reinterpret_cast<const char*>(at), 15)));
        return result(::prctl(PR_SET_NAME, name, 0, 0, 0));
      }
      if (::prctl(PR_GET_NAME, name, 0, 0, 0) < 0) return -errno;
      std::memcpy(at, name, sizeof name);
      return 0;
    }
    case PR_GET_PDEATHSIG: case PR_GET_CHILD_SUBREAPER: { // an int written through arg2
      int value = 0;
      if (!g.bytes(a[1], 4)) return -EFAULT;
      if (::prctl(option, &value, 0, 0, 0) < 0) return -errno;
      g.put(a[1], static_cast<uint32_t>(value), 4);
      return 0;
    }
    case PR_SET_PDEATHSIG: case PR_GET_DUMPABLE: case PR_SET_DUMPABLE: case PR_GET_KEEPCAPS: case PR_SET_KEEPCAPS:
    case PR_SET_TIMERSLACK: case PR_GET_TIMERSLACK: case PR_SET_CHILD_SUBREAPER: case PR_SET_NO_NEW_PRIVS:
    case PR_GET_NO_NEW_PRIVS: case PR_CAPBSET_READ: // integer arguments only
      return result(::prctl(option, a[1], a[2], a[3], a[4]));
    default:
      rt::guest_log("kiln: prctl option %d is not supported (EINVAL) at guest pc %#llx\n", option, static_cast<unsigned long long>(pc));
      return -EINVAL;
  }
}

/// clone as fork (what glibc's fork and a shell's child creation ask for): a new host process with a copy of
/// guest memory. Threads (CLONE_VM) and a new stack (posix_spawn's CLONE_VM | CLONE_VFORK) are not supported.
/// AArch64, MIPS and PowerPC all pass (flags, stack, parent_tid, tls, child_tid) (the kernel's CLONE_BACKWARDS).
int64_t clone_call(Guest& g, const uint64_t* a, uint64_t pc) {
  const uint64_t flags = a[0];
  constexpr uint64_t exit_signal_mask = 0xff;
  constexpr uint64_t fork_flags = CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID;
  if ((flags & ~(exit_signal_mask | fork_flags)) != 0 || a[1] != 0) {
    rt::guest_log("kiln: clone with flags %#llx%s is not supported (only fork) at guest pc %#llx\n", static_cast<unsigned long long>(flags),
                  a[1] ? " and a new stack" : "", static_cast<unsigned long long>(pc));
    return -ENOSYS;
  }
  if ((flags & exit_signal_mask) != SIGCHLD) {
    rt::guest_log("kiln: clone with exit signal %llu is not supported (only SIGCHLD) at guest pc %#llx\n",
                  static_cast<unsigned long long>(flags & exit_signal_mask), static_cast<unsigned long long>(pc));
    return -ENOSYS;
  }
  const pid_t child = ::fork();
  if (child < 0) return -errno;
  const uint32_t tid = static_cast<uint32_t>(child == 0 ? ::getpid() : child);
  if (child == 0 && (flags & CLONE_CHILD_SETTID)) g.put(a[4], tid, 4);
  if (child > 0 && (flags & CLONE_PARENT_SETTID)) g.put(a[2], tid, 4);
  return child;
}

/// struct rusage: two timevals, then fourteen longs.
bool put_rusage(Guest& g, uint64_t address, const struct rusage& u) {
  const long fields[18] = {u.ru_utime.tv_sec, u.ru_utime.tv_usec, u.ru_stime.tv_sec, u.ru_stime.tv_usec, u.ru_maxrss, u.ru_ixrss,
                           u.ru_idrss, u.ru_isrss, u.ru_minflt, u.ru_majflt, u.ru_nswap, u.ru_inblock, u.ru_oublock, u.ru_msgsnd,
                           u.ru_msgrcv, u.ru_nsignals, u.ru_nvcsw, u.ru_nivcsw};
  for (size_t i = 0; i < 18; ++i)
    if (!g.put_long(address + i * g.long_bytes(), static_cast<uint64_t>(fields[i]))) return false;
  return true;
}

/// getrlimit's struct rlimit of two longs: RLIM_INFINITY and what does not fit become the guest's infinity.
int64_t rlimit_call(const Abi& abi, Process& process, Guest& g, uint64_t resource, uint64_t address) {
  struct rlimit limit;
  if (::getrlimit(static_cast<int>(resource), &limit) < 0) return -errno;
  if (resource == RLIMIT_STACK) limit.rlim_cur = process.stack_size();
  auto guest_value = [&](rlim_t v) { return v == RLIM_INFINITY || v > abi.rlimit_infinity ? abi.rlimit_infinity : uint64_t{v}; };
  if (!g.put_long(address, guest_value(limit.rlim_cur)) || !g.put_long(address + abi.long_bytes, guest_value(limit.rlim_max))) return -EFAULT;
  return 0;
}

/// clock_gettime/clock_getres into a timespec of `field_bytes` fields (the ABI's long, or 8 for the *64 calls).
int64_t time_call(Guest& g, bool resolution, const uint64_t* a, unsigned field_bytes) {
  timespec t;
  const int r = resolution ? ::clock_getres(static_cast<clockid_t>(a[0]), &t) : ::clock_gettime(static_cast<clockid_t>(a[0]), &t);
  if (r < 0) return -errno;
  if (a[1] && (!g.put(a[1], static_cast<uint64_t>(t.tv_sec), field_bytes) || !g.put(a[1] + field_bytes, static_cast<uint64_t>(t.tv_nsec), field_bytes)))
    return -EFAULT;
  return 0;
}

/// getdents64: struct linux_dirent64 {u64 ino; s64 off; u16 reclen; u8 type; char name[]}, in the guest's order.
int64_t getdents_call(const Abi& abi, Guest& g, const uint64_t* a) {
  uint8_t* at = g.bytes(a[1], a[2]);
  if (!at) return -EFAULT;
  const long n = ::syscall(SYS_getdents64, static_cast<int32_t>(a[0]), at, a[2]);
  if (n < 0) return -errno;
  if (abi.byte_order != Endian::little)
    for (long k = 0; k + 19 <= n;) {
      const uint16_t length = load<uint16_t>(at + k + 16, Endian::little);
      store<uint64_t>(at + k, load<uint64_t>(at + k, Endian::little), abi.byte_order);
      store<uint64_t>(at + k + 8, load<uint64_t>(at + k + 8, Endian::little), abi.byte_order);
      store<uint16_t>(at + k + 16, length, abi.byte_order);
      if (length == 0) break;
      k += length;
    }
  return n;
}

int64_t sysinfo_call(Guest& g, uint64_t address) {
  struct sysinfo info;
  if (::sysinfo(&info) < 0) return -errno;
  if (g.host_layout()) {
    uint8_t* out = g.bytes(address, sizeof info);
    if (!out) return -EFAULT;
    std::memcpy(out, &info, sizeof info);
    return 0;
  }
  // ILP32: longs of 4 bytes, then procs (u16), padding, totalhigh, freehigh and mem_unit. Sizes that do not fit
  // in 32 bits are given in larger units, as the kernel does.
  uint64_t sizes[] = {info.totalram, info.freeram, info.sharedram, info.bufferram, info.totalswap, info.freeswap};
  uint64_t unit = info.mem_unit;
  while (*std::max_element(std::begin(sizes), std::end(sizes)) > UINT32_MAX) {
    for (uint64_t& v : sizes) v >>= 1;
    unit <<= 1;
  }
  const uint64_t longs[] = {static_cast<uint64_t>(info.uptime), info.loads[0], info.loads[1], info.loads[2],
                            sizes[0], sizes[1], sizes[2], sizes[3], sizes[4], sizes[5]};
  uint64_t at = address;
  for (uint64_t v : longs) {
    if (!g.put(at, std::min<uint64_t>(v, UINT32_MAX), 4)) return -EFAULT;
    at += 4;
  }
  if (!g.put(at, info.procs, 2) || !g.put(at + 4, 0, 4) || !g.put(at + 8, 0, 4) || !g.put(at + 12, unit, 4)) return -EFAULT;
  return 0;
}

} // namespace

int64_t system_call(const Abi& abi, Process& process, uint32_t number, const uint64_t a[6], uint64_t pc) {
  Guest g(abi, process);
  DeviceFiles* devices = process.devices();
  auto device = [&](uint64_t fd) { return devices && devices->owns(static_cast<int32_t>(fd)) ? devices : nullptr; };
  const int fd = static_cast<int32_t>(a[0]);
  const std::optional<Call> call = call_of(abi, number);
  switch (call.value_or(Call::count)) {
    case Call::read: {
      if (DeviceFiles* d = device(a[0])) return d->read(fd, a[1], a[2]);
      uint8_t* at = g.bytes(a[1], a[2]);
      return at || !a[2] ? result(::read(fd, at, a[2])) : -EFAULT;
    }
    case Call::write: {
      uint8_t* at = g.bytes(a[1], a[2]);
      return at || !a[2] ? result(::write(fd, at, a[2])) : -EFAULT;
    }
    case Call::readv: return vector_io(abi, g, true, a);
    case Call::writev: return vector_io(abi, g, false, a);
    case Call::pread64: case Call::pwrite64: { // (fd, buffer, count, offset): on ILP32 the offset is the pair a[4], a[5]
      uint8_t* at = g.bytes(a[1], a[2]);
      if (!at && a[2]) return -EFAULT;
      const auto offset = static_cast<off_t>(abi.long_bytes == 8 ? a[3] : register_pair(abi, a, 4));
      return result(call == Call::pread64 ? ::pread(fd, at, a[2], offset) : ::pwrite(fd, at, a[2], offset));
    }
    case Call::ftruncate: // a long length
      return result(::ftruncate(fd, static_cast<off_t>(abi.long_bytes == 8 ? a[1] : static_cast<int32_t>(a[1]))));
    case Call::ftruncate64: return result(::ftruncate(fd, static_cast<off_t>(register_pair(abi, a, 2))));
    case Call::openat: {
      const char* path = g.string(a[1]);
      if (!path) return -EFAULT;
      if (devices)
        if (const auto opened = devices->open(path)) return *opened;
      return result(::openat(fd, path, host_open_flags(abi, static_cast<uint32_t>(a[2])), static_cast<mode_t>(a[3])));
    }
    case Call::close:
      if (DeviceFiles* d = device(a[0])) return d->close(fd);
      return result(::close(fd));
    case Call::lseek: {
      if (abi.long_bytes == 8) return result(::lseek(fd, static_cast<off_t>(a[1]), static_cast<int>(a[2])));
      const off_t r = ::lseek(fd, static_cast<int32_t>(a[1]), static_cast<int>(a[2]));
      return r < 0 ? -errno : r > INT32_MAX ? -EOVERFLOW : r;
    }
    case Call::_llseek: { // _llseek(fd, offset_high, offset_low, loff_t* result, whence)
      const off_t r = ::lseek(fd, static_cast<off_t>((a[1] & 0xFFFFFFFFu) << 32 | (a[2] & 0xFFFFFFFFu)), static_cast<int>(a[4]));
      if (r < 0) return -errno;
      return g.put(a[3], static_cast<uint64_t>(r), 8) ? 0 : -EFAULT;
    }
    case Call::fstat: case Call::newfstatat: {
      if (abi.long_bytes != 8) return -ENOSYS; // 32-bit glibc asks statx first
      struct stat s;
      int r;
      uint64_t out;
      if (call == Call::fstat) {
        r = ::fstat(fd, &s);
        out = a[1];
      } else {
        const char* path = g.string(a[1]);
        if (!path) return -EFAULT;
        r = ::fstatat(fd, path, &s, static_cast<int>(a[3]));
        out = a[2];
      }
      if (r < 0) return -errno;
      return write_asm_generic_stat(g, out, s);
    }
    case Call::fstat64: case Call::fstatat64: return -ENOSYS; // glibc uses statx and copes without these
    case Call::statx: return statx_call(abi, g, a);
    case Call::unlinkat: { const char* path = g.string(a[1]); return path ? result(::unlinkat(fd, path, static_cast<int>(a[2]))) : -EFAULT; }
    case Call::unlink: { const char* path = g.string(a[0]); return path ? result(::unlink(path)) : -EFAULT; }
    case Call::mkdirat: { const char* path = g.string(a[1]); return path ? result(::mkdirat(fd, path, static_cast<mode_t>(a[2]))) : -EFAULT; }
    case Call::faccessat: { const char* path = g.string(a[1]); return path ? result(::faccessat(fd, path, static_cast<int>(a[2]), 0)) : -EFAULT; }
    case Call::access: { const char* path = g.string(a[0]); return path ? result(::access(path, static_cast<int>(a[1]))) : -EFAULT; }
    case Call::getcwd: {
      char* at = reinterpret_cast<char*>(g.bytes(a[0], a[1]));
      if (!at) return -EFAULT;
      return ::getcwd(at, a[1]) ? static_cast<int64_t>(std::strlen(at) + 1) : -errno;
    }
    case Call::dup: return result(::dup(fd));
    case Call::dup3: return result(::dup3(fd, static_cast<int>(a[1]), static_cast<int>(a[2])));
    case Call::fcntl: case Call::fcntl64: { // the commands static programs use take integer arguments (same numbers everywhere)
      const int command = static_cast<int>(a[1]);
      if (command == F_GETFL) {
        const int r = ::fcntl(fd, F_GETFL);
        return r < 0 ? -errno : guest_open_flags(abi, r);
      }
      if (command == F_SETFL) return result(::fcntl(fd, F_SETFL, host_open_flags(abi, static_cast<uint32_t>(a[2]))));
      if (command == F_GETFD || command == F_SETFD || command == F_DUPFD || command == F_DUPFD_CLOEXEC)
        return result(::fcntl(fd, command, static_cast<int>(a[2])));
      return -EINVAL;
    }
    case Call::ioctl:
      if (DeviceFiles* d = device(a[0])) return d->ioctl(fd, a[1], a[2], pc);
      return -ENOTTY; // no terminal: stdio then buffers fully, as under a pipe
    case Call::readlinkat: case Call::readlink: {
      const bool at_form = call == Call::readlinkat;
      const char* path = g.string(a[at_form ? 1 : 0]);
      char* out = reinterpret_cast<char*>(g.bytes(a[at_form ? 2 : 1], a[at_form ? 3 : 2]));
      if (!path || !out) return -EFAULT;
      return result(::readlinkat(at_form ? fd : AT_FDCWD, path, out, a[at_form ? 3 : 2]));
    }
    case Call::getdents64: return getdents_call(abi, g, a);
    case Call::sendfile: {
      const unsigned width = abi.long_bytes; // off_t
      off_t offset = 0;
      if (a[2]) {
        const auto value = g.get(a[2], width);
        if (!value) return -EFAULT;
        offset = width == 8 ? static_cast<off_t>(*value) : static_cast<int32_t>(*value);
      }
      const ssize_t r = ::sendfile(fd, static_cast<int>(a[1]), a[2] ? &offset : nullptr, a[3]);
      if (r < 0) return -errno;
      if (a[2]) g.put(a[2], static_cast<uint64_t>(offset), width);
      return r;
    }
    case Call::pipe2: { // the descriptors are written as two ints
      int ends[2];
      if (!g.bytes(a[0], 8)) return -EFAULT;
      if (::pipe2(ends, host_open_flags(abi, static_cast<uint32_t>(a[1]))) < 0) return -errno;
      g.put(a[0], static_cast<uint32_t>(ends[0]), 4);
      g.put(a[0] + 4, static_cast<uint32_t>(ends[1]), 4);
      return 0;
    }
    case Call::exit: case Call::exit_group: // single-threaded: both end the process
      if (devices) devices->shutdown();
      process.exit(static_cast<int>(a[0]));
      return 0; // not reached: exit does not return
    case Call::brk: return static_cast<int64_t>(process.brk(a[0]));
    case Call::mmap: return map_memory(abi, process, a[0], a[1], a[3], static_cast<int32_t>(a[4]), a[5]);
    case Call::mmap2: return map_memory(abi, process, a[0], a[1], a[3], static_cast<int32_t>(a[4]), a[5] * page_size);
    case Call::munmap:
      if (devices && devices->holds_memory(a[0], a[1])) return 0; // GPU buffer memory stays with its nvmap handle
      process.unmap(a[0], page_round(a[1]));
      return 0;
    case Call::mremap: { // move to a fresh mapping
      const uint64_t old_size = a[1], new_size = a[2];
      if (new_size <= old_size) return static_cast<int64_t>(a[0]);
      if (!(a[3] & mremap_maymove)) return -ENOMEM;
      const int64_t at = process.map(0, page_round(new_size), false);
      if (at < 0) return at;
      const uint8_t* from = g.bytes(a[0], old_size);
      if (from) std::memcpy(g.bytes(static_cast<uint64_t>(at), old_size), from, old_size);
      process.unmap(a[0], page_round(old_size));
      return at;
    }
    case Call::mprotect: return 0; // guest pages stay read/write
    case Call::madvise: return 0;
    case Call::uname: {
      struct utsname u;
      if (::uname(&u) < 0) return -errno;
      std::memset(u.machine, 0, sizeof u.machine);
      std::strcpy(u.machine, abi.uname_machine);
      uint8_t* out = g.bytes(a[0], sizeof u);
      if (!out) return -EFAULT;
      std::memcpy(out, &u, sizeof u);
      return 0;
    }
    case Call::clock_gettime: return time_call(g, false, a, abi.long_bytes);
    case Call::clock_getres: return time_call(g, true, a, abi.long_bytes);
    case Call::clock_gettime64: return time_call(g, false, a, 8);
    case Call::gettimeofday: {
      timeval t;
      ::gettimeofday(&t, nullptr);
      if (a[0] && (!g.put_long(a[0], static_cast<uint64_t>(t.tv_sec)) || !g.put_long(a[0] + abi.long_bytes, static_cast<uint64_t>(t.tv_usec))))
        return -EFAULT;
      return 0;
    }
    case Call::nanosleep: case Call::clock_nanosleep: return 0; // a test platform need not wait
    case Call::getrandom: {
      uint8_t* at = g.bytes(a[0], a[1]);
      if (!at) return -EFAULT;
      return result(::getrandom(at, a[1], static_cast<unsigned>(a[2])));
    }
    case Call::set_tid_address: return ::gettid();
    case Call::set_robust_list: return 0;
    case Call::rseq: return -ENOSYS; // glibc copes without it
    case Call::set_thread_area: process.set_thread_pointer(a[0]); return 0;
    case Call::rt_sigaction: // recorded only (no signal is ever delivered to the guest)
      if (a[2])
        if (uint8_t* old = g.bytes(a[2], abi.sigaction_bytes)) std::memset(old, 0, abi.sigaction_bytes);
      return 0;
    case Call::rt_sigprocmask:
      if (a[2])
        if (uint8_t* old = g.bytes(a[2], std::min<uint64_t>(a[3], 128))) std::memset(old, 0, std::min<uint64_t>(a[3], 128));
      return 0;
    case Call::prlimit64: { // pid 0 only: struct rlimit64 is two u64 everywhere
      if (a[0] != 0) return -EPERM;
      if (a[3]) {
        struct rlimit limit;
        if (::getrlimit(static_cast<int>(a[1]), &limit) < 0) return -errno;
        if (a[1] == RLIMIT_STACK) limit.rlim_cur = process.stack_size();
        if (!g.put(a[3], limit.rlim_cur, 8) || !g.put(a[3] + 8, limit.rlim_max, 8)) return -EFAULT;
      }
      return 0;
    }
    case Call::getrlimit: case Call::ugetrlimit: return rlimit_call(abi, process, g, a[0], a[1]);
    case Call::futex: { // single-threaded: WAIT on a changed value fails, WAKE wakes nobody
      const uint64_t op = a[1] & 0x7f;
      if (op == 0 || op == 9) {
        const auto value = g.get(a[0], 4);
        if (!value) return -EFAULT;
        return *value != (a[2] & 0xFFFFFFFFu) ? -EAGAIN : -ETIMEDOUT;
      }
      return 0;
    }
    case Call::getpid: return ::getpid();
    case Call::getppid: return ::getppid();
    case Call::gettid: return ::gettid();
    case Call::getuid: return ::getuid();
    case Call::geteuid: return ::geteuid();
    case Call::getgid: return ::getgid();
    case Call::getegid: return ::getegid();
    case Call::sched_getaffinity: // one CPU
      if (a[1] < abi.long_bytes || !g.put_long(a[2], 1)) return -EINVAL;
      return abi.long_bytes;
    case Call::sched_yield: return 0;
    case Call::sysinfo: return sysinfo_call(g, a[0]);
    case Call::kill: case Call::tkill: case Call::tgkill: // of ourselves (abort)
      if (a[call == Call::tgkill ? 2 : 1] == SIGABRT) {
        std::fflush(stderr);
        ::signal(SIGABRT, SIG_DFL);
        ::raise(SIGABRT);
      }
      return 0;
    case Call::prctl: return prctl_call(g, a, pc);
    case Call::clone: return clone_call(g, a, pc);
    case Call::wait4: {
      int status = 0;
      struct rusage usage {};
      const pid_t r = ::wait4(static_cast<pid_t>(a[0]), &status, static_cast<int>(a[2]), a[3] ? &usage : nullptr);
      if (r < 0) return -errno;
      if (a[1] && r > 0 && !g.put(a[1], static_cast<uint32_t>(status), 4)) return -EFAULT;
      if (a[3] && !put_rusage(g, a[3], usage)) return -EFAULT;
      return r;
    }
    case Call::waitid: { // siginfo_t (128 bytes) and struct rusage: the host's layout on LP64 little-endian guests
      if (!g.host_layout()) break;
      siginfo_t info{};
      struct rusage usage {};
      uint8_t* info_out = a[2] ? g.bytes(a[2], sizeof info) : nullptr;
      if (a[2] && !info_out) return -EFAULT;
      const long r = ::syscall(SYS_waitid, static_cast<int>(a[0]), static_cast<id_t>(a[1]), a[2] ? &info : nullptr, static_cast<int>(a[3]),
                               a[4] ? &usage : nullptr);
      if (r < 0) return -errno;
      if (info_out) std::memcpy(info_out, &info, sizeof info);
      if (a[4] && !put_rusage(g, a[4], usage)) return -EFAULT;
      return r;
    }
    default: break;
  }
  rt::guest_log("kiln: unknown system call %u (%s) at guest pc %#llx\n", number, call ? call_name(*call) : "unknown",
                static_cast<unsigned long long>(pc));
  return -ENOSYS;
}

} // namespace kiln::linux_calls
