#include "runtime/platform/linux-user-mips/recompiled.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::mipsel {
namespace {

const RecompiledProgram* installed = nullptr;

bool enter_compiled(Machine& m, uint32_t address) {
  return installed && guest::enter_function(installed->functions, installed->count, m, address);
}

struct FallbackHooks {
  static bool enter_compiled(Machine& m, uint32_t address) { return mipsel::enter_compiled(m, address); }
  static void resume_after_exception(Machine& m, uint32_t pc) { mipsel::resume_after_exception(m, pc); }
  [[noreturn]] static void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why) {
    mipsel::untranslated(m, address, word, why);
  }
};
} // namespace

void install(const RecompiledProgram& program) { installed = &program; }

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

int run_recompiled(const RecompiledProgram& program, int argc, char** argv) {
  install(program);
  Machine m;
  const linux_calls::ProgramHeaders32 headers{program.program_headers_address, program.program_header_count,
                                              program.program_header_size, program.entry};
  return linux_calls::run_program32(m.space, program.segments, program.segment_count, headers, Endian::little, 0, {}, argc, argv,
                                    [&](uint32_t sp) {
                                      m.cpu.gpr[29] = sp;
                                      m.cpu.gpr[2] = 0; // $v0 (and $a0..): zero at entry; glibc's _start takes rtld_fini from $v0
                                      m.cpu.pc = program.entry;
                                      call_guest(m, program.entry);
                                      throw Error(fmt::format("mipsel: the entry function returned (to {:#010x}) instead of calling exit", m.cpu.pc));
                                    });
}

} // namespace kiln::mipsel
