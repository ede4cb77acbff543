#include "runtime/platform/linux-user-ppc/recompiled.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "runtime/base/error.h"

namespace kiln::ppc_linux {
namespace {

const RecompiledProgram* installed = nullptr;

// powerpc's auxiliary vector entries for the cache block sizes (asm/auxvec.h).
constexpr uint32_t at_dcachebsize = 19, at_icachebsize = 20, at_ucachebsize = 21;
/// AT_HWCAP: PPC_FEATURE_32 | PPC_FEATURE_HAS_FPU | PPC_FEATURE_HAS_MMU (a 750: no AltiVec), so glibc picks its
/// plain PowerPC routines.
constexpr uint32_t reported_hwcap = 0x80000000u | 0x08000000u | 0x04000000u;
/// A user process's MSR: problem state, FP available, interrupts and translation on.
constexpr uint32_t user_msr = ppc::msr::pr | ppc::msr::fp | ppc::msr::me | ppc::msr::ee | ppc::msr::ir | ppc::msr::dr;
/// The 750's cache block: glibc's memset clears whole blocks with dcbz when it knows the size.
constexpr uint32_t cache_block = 32;

bool enter_compiled(Machine& m, uint32_t address) {
  return installed && guest::enter_function(installed->functions, installed->count, m, address);
}

struct FallbackHooks {
  static bool enter_compiled(Machine& m, uint32_t address) { return ppc_linux::enter_compiled(m, address); }
  static void resume_after_exception(Machine& m, uint32_t pc) { ppc_linux::resume_after_exception(m, pc); }
  [[noreturn]] static void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why) {
    ppc_linux::untranslated(m, address, word, why);
  }
};

const char* exception_name(uint32_t vector) {
  switch (static_cast<ppc::Exception>(vector & 0xFFFF)) {
    case ppc::Exception::program: return "program (trap, illegal or privileged instruction: SIGTRAP/SIGILL on Linux)";
    case ppc::Exception::alignment: return "alignment (SIGBUS on Linux)";
    case ppc::Exception::fp_unavailable: return "floating-point unavailable";
    case ppc::Exception::system_call: return "system call";
    default: return "exception";
  }
}


} // namespace

void install(const RecompiledProgram& program) { installed = &program; }

void call_guest(Machine& m, uint32_t address) {
  if (enter_compiled(m, address)) return;
  if (installed && ppc::run_fallback<FallbackHooks, Bus>(m, installed->fallback, address)) return;
  throw Error(fmt::format("ppc32: control reached guest address {:#010x}, which is neither a recompiled function nor an "
                          "instruction of the program's text", address));
}

void returned_elsewhere(Machine& m, uint32_t, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp) {
  if (installed) ppc::resume_frame<FallbackHooks, Bus>(m, installed->fallback, start, end, entry_link, entry_sp);
}

void resume_after_exception(Machine& m, uint32_t pc) {
  ppc::Cpu& c = m.cpu;
  const uint32_t word = Bus{m}.read32(pc);
  constexpr uint32_t mfpvr_mask = 0xFC1FFFFEu, mfpvr = 0x7C1F42A6u; // mfspr rD, 287 (rD in bits 21-25)
  if ((c.next_pc & 0xFFFF) == static_cast<uint32_t>(ppc::Exception::program) && (c.spr[ppc::spr::srr1] & ppc::srr1::privileged) &&
      (word & mfpvr_mask) == mfpvr) {
    c.gpr[ppc::field::d(word)] = c.spr[ppc::spr::pvr];
    c.msr = user_msr; // the kernel returns with the process's MSR
    c.exception_taken = false;
    c.next_pc = pc + 4;
    return;
  }
  throw Error(fmt::format("ppc32: {} exception at {:#010x} (SRR1 {:#010x})", exception_name(m.cpu.next_pc), pc, m.cpu.spr[ppc::spr::srr1]));
}

void untranslated(Machine&, uint32_t address, uint32_t word, const char* why) {
  throw Error(fmt::format("ppc32: reached the untranslated instruction {:08x} at {:#010x}: {}", word, address, why));
}

int run_recompiled(const RecompiledProgram& program, int argc, char** argv) {
  install(program);
  Machine m;
  const linux_calls::ProgramHeaders32 headers{program.program_headers_address, program.program_header_count,
                                              program.program_header_size, program.entry};
  const std::vector<std::pair<uint32_t, uint32_t>> cache_blocks = {
      {at_dcachebsize, cache_block}, {at_icachebsize, cache_block}, {at_ucachebsize, 0}};
  return linux_calls::run_program32(m.space, program.segments, program.segment_count, headers, Endian::big, reported_hwcap, cache_blocks,
                                    argc, argv, [&](uint32_t sp) {
                                      m.cpu.gpr[1] = sp;
                                      m.cpu.msr = user_msr;
                                      m.cpu.pc = program.entry;
                                      call_guest(m, program.entry);
                                      throw Error(fmt::format("ppc32: the entry function returned (to {:#010x}) instead of calling exit", m.cpu.pc));
                                    });
}

} // namespace kiln::ppc_linux
