// The o32 system calls (numbers 4000 + n, arch/mips/kernel/syscalls/syscall_o32.tbl) that static mipsel
// programs make, answered on the host. Convention: number in $v0, arguments in $a0-$a3 and then the caller's
// stack at $sp + 16, + 20, ...; the result in $v0 with $a3 = 0, or a positive errno in $v0 with $a3 = 1.
#include <fmt/format.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <cstring>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/platform/linux-user-mips/machine.h"

namespace kiln::mipsel {
namespace {

enum : uint32_t {
  sys_exit = 4001, sys_read = 4003, sys_write = 4004, sys_close = 4006, sys_getpid = 4020, sys_brk = 4045,
  sys_ioctl = 4054, sys_readlink = 4085, sys_mmap = 4090, sys_munmap = 4091, sys_uname = 4122, sys_mprotect = 4125,
  sys_writev = 4146, sys_rt_sigaction = 4194, sys_rt_sigprocmask = 4195, sys_mmap2 = 4210, sys_exit_group = 4246,
  sys_set_tid_address = 4252, sys_set_robust_list = 4309, sys_set_thread_area = 4283, sys_fstat64 = 4215,
  sys_fstatat64 = 4293, sys_getrandom = 4353, sys_statx = 4366, sys_rseq = 4367,
  sys_unlink = 4010, sys_access = 4033, sys_llseek = 4140, sys_mremap = 4167, sys_openat = 4288, sys_unlinkat = 4294,
  sys_faccessat = 4300, sys_fcntl64 = 4220, sys_getrlimit = 4076, sys_prlimit64 = 4338, sys_clock_gettime = 4263, sys_clock_gettime64 = 4403,
};
// MIPS errno values where they differ from the host's are not needed: these are below 35, where all Linux
// architectures agree.
constexpr uint32_t e_badf = 9, e_nomem = 12, e_inval = 22, e_notty = 25, e_nosys = 89 /* MIPS */;
constexpr uint32_t mips_map_fixed = 0x10, mips_map_anonymous = 0x800;

struct Result {
  uint32_t value;
  bool error;
};
Result ok(uint32_t v) { return {v, false}; }
Result fail(uint32_t errno_value) { return {errno_value, true}; }
/// A host call's result: -1 becomes the host errno (the same numbers below 35; others report EINVAL).
Result host(long r) { return r < 0 ? fail(errno > 0 && errno < 35 ? static_cast<uint32_t>(errno) : e_inval) : ok(static_cast<uint32_t>(r)); }

Result anonymous_map(Machine& m, uint32_t address, uint32_t length, uint32_t flags) {
  if (!(flags & mips_map_anonymous)) return fail(19); // ENODEV: file mappings are not supported yet
  if (length == 0) return fail(e_inval);
  const uint32_t size = (length + 4095) & ~4095u;
  uint32_t at = address;
  if (!(flags & mips_map_fixed)) {
    at = m.mmap_next;
    if (uint64_t{at} + size > 0x7F000000u) return fail(e_nomem);
    m.mmap_next += size;
  }
  map_guest(m, at, size); // a fixed mapping replaces what was there: zeroed as well
  std::memset(m.memory + at, 0, size);
  return ok(at);
}

/// open flags: MIPS numbers several O_* differently from the host (arch/mips/include/uapi/asm/fcntl.h).
constexpr struct { uint32_t mips; int host; } open_flags[] = {
    {0x0008, O_APPEND}, {0x0080, O_NONBLOCK}, {0x0100, O_CREAT}, {0x0200, O_TRUNC}, {0x0400, O_EXCL},
    {0x0800, O_NOCTTY}, {0x10000, O_DIRECTORY}, {0x20000, O_NOFOLLOW}, {0x80000, O_CLOEXEC}};
int host_open_flags(uint32_t mips) {
  int host_flags = static_cast<int>(mips & 3); // O_RDONLY / O_WRONLY / O_RDWR
  for (const auto& f : open_flags)
    if (mips & f.mips) host_flags |= f.host;
  return host_flags;
}
uint32_t mips_open_flags(int host) {
  uint32_t mips = static_cast<uint32_t>(host & 3);
  for (const auto& f : open_flags)
    if (host & f.host) mips |= f.mips;
  return mips;
}
const char* guest_string(Machine& m, uint32_t address) { return reinterpret_cast<const char*>(m.memory + address); }

Result dispatch(Machine& m, uint32_t number, const uint32_t a[6], uint32_t pc) {
  Bus bus{m};
  switch (number) {
    case sys_exit:
    case sys_exit_group: throw ProcessExit{static_cast<int>(a[0] & 0xFF)};
    case sys_read: return host(::read(static_cast<int>(a[0]), m.memory + a[1], a[2]));
    case sys_write: return host(::write(static_cast<int>(a[0]), m.memory + a[1], a[2]));
    case sys_writev: {
      if (a[2] > 1024) return fail(e_inval);
      std::vector<iovec> vectors(a[2]);
      for (uint32_t i = 0; i < a[2]; ++i)
        vectors[i] = iovec{m.memory + bus.read32(a[1] + 8 * i), bus.read32(a[1] + 8 * i + 4)};
      return host(::writev(static_cast<int>(a[0]), vectors.data(), static_cast<int>(vectors.size())));
    }
    case sys_close: return a[0] <= 2 ? ok(0) : host(::close(static_cast<int>(a[0])));
    case sys_openat:
      return host(::openat(static_cast<int>(a[0]), guest_string(m, a[1]), host_open_flags(a[2]), static_cast<mode_t>(a[3])));
    case sys_llseek: { // _llseek(fd, offset_high, offset_low, loff_t* result, whence)
      const off_t r = ::lseek(static_cast<int>(a[0]), static_cast<off_t>(uint64_t{a[1]} << 32 | a[2]), static_cast<int>(a[4]));
      if (r < 0) return host(-1);
      bus.write32(a[3], static_cast<uint32_t>(r));
      bus.write32(a[3] + 4, static_cast<uint32_t>(static_cast<uint64_t>(r) >> 32));
      return ok(0);
    }
    case sys_getrandom: return host(::getrandom(m.memory + a[0], a[1], a[2] & 3)); // GRND_NONBLOCK, GRND_RANDOM: same values
    case sys_fcntl64: { // F_GETFD 1, F_SETFD 2, F_GETFL 3, F_SETFL 4 (the same numbers on MIPS)
      const int fd = static_cast<int>(a[0]);
      switch (a[1]) {
        case 1: case 2: return host(::fcntl(fd, static_cast<int>(a[1]), static_cast<int>(a[2])));
        case 3: { const int r = ::fcntl(fd, F_GETFL); return r < 0 ? host(r) : ok(mips_open_flags(r)); }
        case 4: return host(::fcntl(fd, F_SETFL, host_open_flags(a[2])));
        default: return fail(e_inval);
      }
    }
    case sys_unlink: return host(::unlink(guest_string(m, a[0])));
    case sys_unlinkat: return host(::unlinkat(static_cast<int>(a[0]), guest_string(m, a[1]), static_cast<int>(a[2])));
    case sys_access: return host(::access(guest_string(m, a[0]), static_cast<int>(a[1])));
    case sys_faccessat: return host(::faccessat(static_cast<int>(a[0]), guest_string(m, a[1]), static_cast<int>(a[2]), 0));
    case sys_mremap: { // mremap(old, old_size, new_size, flags): shrink in place, else move (MREMAP_MAYMOVE = 1)
      if (a[2] <= a[1]) return ok(a[0]);
      if (!(a[3] & 1)) return fail(e_nomem);
      const Result moved = anonymous_map(m, 0, a[2], mips_map_anonymous);
      if (!moved.error) std::memcpy(m.memory + moved.value, m.memory + a[0], a[1]);
      return moved;
    }
    case sys_getpid: return ok(static_cast<uint32_t>(::getpid()));
    case sys_set_tid_address: return ok(static_cast<uint32_t>(::getpid()));
    // Not offered yet; glibc copes with ENOSYS (stdio then uses BUFSIZ buffers, which changes no output bytes).
    case sys_clock_gettime:
    case sys_clock_gettime64: { // timespec: 32-bit fields, or the 64-bit __kernel_timespec
      timespec t{};
      if (::clock_gettime(static_cast<clockid_t>(a[0]), &t) != 0) return host(-1);
      if (number == sys_clock_gettime) {
        bus.write32(a[1], static_cast<uint32_t>(t.tv_sec));
        bus.write32(a[1] + 4, static_cast<uint32_t>(t.tv_nsec));
      } else {
        bus.write32(a[1], static_cast<uint32_t>(t.tv_sec));
        bus.write32(a[1] + 4, static_cast<uint32_t>(static_cast<uint64_t>(t.tv_sec) >> 32));
        bus.write32(a[1] + 8, static_cast<uint32_t>(t.tv_nsec));
        bus.write32(a[1] + 12, 0);
      }
      return ok(0);
    }
    case sys_getrlimit: { // struct rlimit {cur, max}; MIPS o32 RLIM_INFINITY = 0x7FFFFFFF, RLIMIT_STACK = 3
      bus.write32(a[1], a[0] == 3 ? 8u << 20 : 0x7FFFFFFFu);
      bus.write32(a[1] + 4, 0x7FFFFFFFu);
      return ok(0);
    }
    case sys_statx: // struct statx has one layout on every architecture (fixed-size fields, little-endian here)
      return host(::statx(static_cast<int>(a[0]), reinterpret_cast<const char*>(m.memory + a[1]), static_cast<int>(a[2]), a[3],
                          reinterpret_cast<struct statx*>(m.memory + a[4])));
    // glibc falls back from these, or copes without them.
    case sys_set_robust_list: case sys_rseq: case sys_prlimit64: case sys_fstat64: case sys_fstatat64:
      return fail(e_nosys);
    case sys_brk: {
      const uint32_t wanted = a[0];
      if (wanted > m.brk_current && wanted < m.brk_start + (256u << 20)) {
        map_guest(m, m.brk_current, wanted - m.brk_current);
        m.brk_current = wanted;
      } else if (wanted >= m.brk_start && wanted != 0) {
        m.brk_current = wanted;
      }
      return ok(m.brk_current);
    }
    case sys_mmap: return (a[5] & 4095) ? fail(e_inval) : anonymous_map(m, a[0], a[1], a[3]);
    case sys_mmap2: return anonymous_map(m, a[0], a[1], a[3]);
    case sys_munmap: case sys_mprotect: return ok(0); // pages stay accessible; kiln does not reuse them
    case sys_ioctl: return fail(e_notty);
    case sys_readlink: return fail(e_inval);
    case sys_rt_sigaction: case sys_rt_sigprocmask: return ok(0);
    case sys_set_thread_area: m.thread_pointer = a[0]; return ok(0);
    case sys_uname: {
      struct utsname host_name {};
      ::uname(&host_name);
      const char* fields[6] = {"Linux", host_name.nodename, host_name.release, host_name.version, "mips", "(none)"};
      for (int i = 0; i < 6; ++i) {
        char field[65] = {};
        std::strncpy(field, fields[i], 64);
        std::memcpy(m.memory + a[0] + 65 * i, field, 65);
      }
      return ok(0);
    }
    default: break;
  }
  throw Error(fmt::format("mipsel: system call {} (o32 number {}) at {:#010x} is not supported", number, number - 4000, pc));
}

} // namespace

void system_call(Machine& m, uint32_t pc) {
  r3000::Cpu& c = m.cpu;
  Bus bus{m};
  const uint32_t sp = c.gpr[29];
  const uint32_t args[6] = {c.gpr[4], c.gpr[5], c.gpr[6], c.gpr[7], bus.read32(sp + 16), bus.read32(sp + 20)};
  const Result r = dispatch(m, c.gpr[2], args, pc);
  c.gpr[2] = r.value;
  c.gpr[7] = r.error ? 1 : 0;
}

} // namespace kiln::mipsel
