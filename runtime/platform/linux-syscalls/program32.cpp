#include "runtime/platform/linux-syscalls/program32.h"

#include <cstdio>
#include <string>

#include "runtime/base/error.h"

extern char** environ;

namespace kiln::linux_calls {
namespace {
// Auxiliary vector keys (linux/auxvec.h).
constexpr uint32_t at_phdr = 3, at_phent = 4, at_phnum = 5, at_pagesz = 6, at_entry = 9, at_uid = 11, at_euid = 12,
                   at_gid = 13, at_egid = 14, at_hwcap = 16, at_clktck = 17, at_secure = 23;
} // namespace

int run_program32(Space32& space, const LoadSegment32* segments, size_t segment_count, const ProgramHeaders32& headers,
                  Endian order, uint32_t hwcap, const std::vector<std::pair<uint32_t, uint32_t>>& architecture_auxv, int argc,
                  char** argv, const std::function<void(uint32_t sp)>& start) {
  return run_on_large_stack([&] {
    try {
      reserve_space32(space);
      load_program32(space, segments, segment_count);
      std::vector<std::string> args(argv, argv + argc), env;
      for (char** e = environ; *e; ++e) env.emplace_back(*e);
      std::vector<std::pair<uint32_t, uint32_t>> auxv = architecture_auxv;
      auxv.insert(auxv.end(), {{at_phdr, headers.address}, {at_phent, headers.entry_size}, {at_phnum, headers.count},
                               {at_pagesz, 4096}, {at_entry, headers.entry}, {at_uid, 0}, {at_euid, 0}, {at_gid, 0},
                               {at_egid, 0}, {at_hwcap, hwcap}, {at_clktck, 100}, {at_secure, 0}});
      start(build_stack32(space, order, args, env, auxv));
      return 1; // not reached: start ends with exit or throws
    } catch (const ProcessExit& exit) {
      return exit.status;
    } catch (const Error& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "kiln: error: %s\n", e.what());
      return 1;
    }
  });
}

} // namespace kiln::linux_calls
