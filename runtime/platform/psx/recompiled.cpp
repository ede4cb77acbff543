#include "runtime/platform/psx/recompiled.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "runtime/base/error.h"
#include "runtime/platform/psx/host_session.h"

namespace kiln::psx {
namespace {
const RecompiledProgram* installed = nullptr;
}

void install(const RecompiledProgram& program) { installed = &program; }

namespace {
/// Code runs from KSEG0 normally; the same RAM through KUSEG or KSEG1 is the same code.
uint32_t kseg0_alias(uint32_t address) {
  return physical_address(address) < ram_mirror_span ? (address & 0x1FFFFFFFu) | 0x80000000u : address;
}

bool enter_compiled(Machine& m, uint32_t address) {
  if (!installed) return false;
  for (uint32_t candidate : {address, kseg0_alias(address)}) {
    if (const FunctionEntry* it = guest::find_function(installed->functions, installed->count, candidate)) {
      m.cpu.pc = candidate;
      it->function(m);
      return true;
    }
  }
  return false;
}

struct FallbackHooks {
  static bool enter_compiled(Machine& m, uint32_t address) { return m.enter_hle(address) || psx::enter_compiled(m, address); }
  static void resume_after_exception(Machine& m, uint32_t pc) { psx::resume_after_exception(m, pc); }
  [[noreturn]] static void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why) {
    psx::untranslated(m, address, word, why);
  }
};
} // namespace

void call_guest(Machine& m, uint32_t address) {
  if (m.enter_hle(address)) return;
  if (enter_compiled(m, address)) return;
  if (installed && r3000::run_fallback<FallbackHooks, Bus>(m, installed->fallback, kseg0_alias(address))) return;
  throw Error(fmt::format("psx: control reached guest address {:#010x}, which is neither a recompiled function nor an "
                          "instruction of the program's text", address));
}

void returned_elsewhere(Machine& m, uint32_t, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp) {
  if (installed) r3000::resume_frame<FallbackHooks, Bus>(m, installed->fallback, start, end, entry_link, entry_sp);
}

void resume_after_exception(Machine& m, uint32_t pc) {
  m.handle_exception(pc);
  if (m.cpu.pc != pc + 4)
    throw Error(fmt::format("psx: the exception at {:#010x} resumed at {:#010x}, which recompiled code cannot follow", pc, m.cpu.pc));
}

void untranslated(Machine&, uint32_t address, uint32_t word, const char* why) {
  throw Error(fmt::format("psx: reached the untranslated instruction {:08x} at {:#010x}: {}", word, address, why));
}

int run_recompiled(const RecompiledProgram& program, int argc, char** argv) {
  try {
    install(program);
    const std::string name = argc > 0 ? std::string(argv[0]) : "program";
    return run_with_host(program.image, std::vector<std::string>(argv + 1, argv + argc),
                         "kiln: " + name.substr(name.find_last_of('/') + 1), [](Machine& m) {
      m.run_callback = [](Machine& machine) {
        call_guest(machine, machine.cpu.pc);
        if (machine.cpu.pc != callback_return_address)
          throw Error(fmt::format("psx: a callback returned to {:#010x}, not to the BIOS", machine.cpu.pc));
      };
      call_guest(m, m.cpu.pc);
    });
  } catch (const Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "kiln: error: %s\n", e.what());
    return 1;
  }
}

} // namespace kiln::psx
