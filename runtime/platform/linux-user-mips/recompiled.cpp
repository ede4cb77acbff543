#include "runtime/platform/linux-user-mips/recompiled.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/base/error.h"

extern char** environ;

namespace kiln::mipsel {
namespace {

const RecompiledProgram* installed = nullptr;

// Auxiliary vector keys (linux/auxvec.h).
constexpr uint32_t at_phdr = 3, at_phent = 4, at_phnum = 5, at_pagesz = 6, at_entry = 9, at_uid = 11, at_euid = 12,
                   at_gid = 13, at_egid = 14, at_hwcap = 16, at_clktck = 17, at_secure = 23;

} // namespace

void install(const RecompiledProgram& program) { installed = &program; }

namespace {
bool enter_compiled(Machine& m, uint32_t address) {
  if (!installed) return false;
  const FunctionEntry* it = guest::find_function(installed->functions, installed->count, address);
  if (!it) return false;
  m.cpu.pc = address;
  it->function(m);
  return true;
}

struct FallbackHooks {
  static bool enter_compiled(Machine& m, uint32_t address) { return mipsel::enter_compiled(m, address); }
  static void resume_after_exception(Machine& m, uint32_t pc) { mipsel::resume_after_exception(m, pc); }
  [[noreturn]] static void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why) {
    mipsel::untranslated(m, address, word, why);
  }
};
} // namespace

void call_guest(Machine& m, uint32_t address) {
  if (enter_compiled(m, address)) return;
  if (installed && r3000::run_fallback<FallbackHooks, Bus>(m, installed->fallback, address)) return;
  throw Error(fmt::format("mipsel: control reached guest address {:#010x}, which is neither a recompiled function nor an "
                          "instruction of the program's text", address));
}

void returned_elsewhere(Machine& m, uint32_t, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp) {
  if (installed) r3000::resume_frame<FallbackHooks, Bus>(m, installed->fallback, start, end, entry_link, entry_sp);
}

void resume_after_exception(Machine& m, uint32_t pc) {
  r3000::Cpu& c = m.cpu;
  const uint32_t code = (c.cop0[r3000::cop0::cause] >> 2) & 31;
  c.exception_taken = false;
  if (code == static_cast<uint32_t>(r3000::ExceptionCode::syscall) && c.cop0[r3000::cop0::epc] == pc) {
    system_call(m, pc);
    c.pc = pc + 4;
    return;
  }
  if (code == static_cast<uint32_t>(r3000::ExceptionCode::trap))
    throw Error(fmt::format("mipsel: trap at {:#010x} (code {}; 7 is an integer division by zero, SIGFPE on Linux)", pc,
                            (m.space.memory ? Bus{m}.read32(pc) >> 6 & 0x3FF : 0)));
  throw Error(fmt::format("mipsel: exception {:#x} at {:#010x} (EPC {:#010x}, BadVAddr {:#010x}) is not supported", code, pc,
                          c.cop0[r3000::cop0::epc], c.cop0[r3000::cop0::bad_vaddr]));
}

void untranslated(Machine&, uint32_t address, uint32_t word, const char* why) {
  throw Error(fmt::format("mipsel: reached the untranslated instruction {:08x} at {:#010x}: {}", word, address, why));
}

namespace {
int run_program(const RecompiledProgram& program, int argc, char** argv) {
  try {
    install(program);
    Machine m;
    linux_calls::reserve_space32(m.space);
    linux_calls::load_program32(m.space, program.segments, program.segment_count);
    std::vector<std::string> args(argv, argv + argc), env;
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
    const std::vector<std::pair<uint32_t, uint32_t>> auxv = {
        {at_phdr, program.program_headers_address}, {at_phent, program.program_header_size}, {at_phnum, program.program_header_count},
        {at_pagesz, 4096}, {at_entry, program.entry}, {at_uid, 0}, {at_euid, 0}, {at_gid, 0}, {at_egid, 0}, {at_hwcap, 0},
        {at_clktck, 100}, {at_secure, 0}};
    m.cpu.gpr[29] = linux_calls::build_stack32(m.space, Endian::little, args, env, auxv);
    m.cpu.gpr[2] = 0; // $v0 (and $a0..): zero at entry; glibc's _start takes rtld_fini from $v0
    m.cpu.pc = program.entry;
    call_guest(m, program.entry);
    throw Error(fmt::format("mipsel: the entry function returned (to {:#010x}) instead of calling exit", m.cpu.pc));
  } catch (const linux_calls::ProcessExit& exit) {
    return exit.status;
  } catch (const Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "kiln: error: %s\n", e.what());
    return 1;
  }
}
} // namespace

int run_recompiled(const RecompiledProgram& program, int argc, char** argv) {
  return linux_calls::run_on_large_stack([&] { return run_program(program, argc, argv); });
}

} // namespace kiln::mipsel
