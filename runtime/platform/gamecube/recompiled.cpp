#include "runtime/platform/gamecube/recompiled.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string_view>

#include "runtime/base/error.h"

namespace kiln::gamecube {
namespace {

const RecompiledProgram* installed = nullptr;
/// Nested exception handlers (a handler that enables MSR[EE] may be interrupted): far more than a title nests.
constexpr unsigned max_handler_depth = 64;
/// An instruction re-run after its handler returned to it, raising again each time (a handler that does not
/// make it runnable) stops after this many.
constexpr unsigned max_reruns = 16;

/// Code is recompiled at its cached-mirror address; exception vectors are physical (translation is off there).
uint32_t code_address(uint32_t address) {
  const uint32_t p = memory_map::physical(address);
  return p < memory_map::mem1_size ? p + memory_map::cached_base : address;
}

bool enter_compiled(Machine& m, uint32_t address) {
  return installed && guest::enter_function(installed->functions, installed->count, m, code_address(address));
}

struct FallbackHooks {
  static bool enter_compiled(Machine& m, uint32_t address) { return gamecube::enter_compiled(m, address); }
  static void resume_after_exception(Machine& m, uint32_t pc) { gamecube::resume_after_exception(m, pc); }
  [[noreturn]] static void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why) {
    gamecube::untranslated(m, address, word, why);
  }
};

std::string exception_name(uint32_t vector) {
  switch (static_cast<ppc::Exception>(vector & 0xFFFF)) {
    case ppc::Exception::external: return "external interrupt";
    case ppc::Exception::decrementer: return "decrementer";
    case ppc::Exception::system_call: return "system call";
    case ppc::Exception::program: return "program";
    case ppc::Exception::alignment: return "alignment";
    case ppc::Exception::fp_unavailable: return "floating-point unavailable";
    default: return fmt::format("exception {:#x}", vector & 0xFFFF);
  }
}

uint32_t read_be32(const std::vector<uint8_t>& bytes, size_t at) { return load<uint32_t>(bytes.data() + at, Endian::big); }

/// What the apploader leaves: the disc header at 0, the FST at the top of MEM1, the arena between the DOL and it.
BootInfo boot_from(Machine& m, const RecompiledProgram& program) {
  BootInfo info;
  uint32_t dol_end = 0;
  for (size_t i = 0; i < program.segment_count; ++i)
    dol_end = std::max(dol_end, memory_map::physical(program.segments[i].address) + program.segments[i].size);
  info.arena_lo = memory_map::cached_base + ((dol_end + 31) & ~31u);
  info.arena_hi = memory_map::cached_base + memory_map::mem1_size;
  if (m.disc_image.empty()) return info;
  std::ifstream in(m.disc_image, std::ios::binary);
  std::vector<uint8_t> header(0x440);
  in.read(reinterpret_cast<char*>(header.data()), static_cast<std::streamsize>(header.size()));
  if (!in) throw Error(in_file(m.disc_image), "cannot read the disc header (0x440 bytes)");
  std::copy_n(header.begin(), info.disc_header.size(), info.disc_header.begin());
  const uint32_t fst_offset = read_be32(header, 0x424), fst_size = read_be32(header, 0x428), fst_max = read_be32(header, 0x42C);
  const uint32_t reserved = std::max(fst_size, fst_max);
  if (reserved > memory_map::mem1_size - ((dol_end + 31) & ~31u))
    throw Error(at_offset(m.disc_image, 0x428), fmt::format("the FST ({:#x} bytes) does not fit in MEM1 above the DOL", reserved));
  const uint32_t fst_at = (memory_map::mem1_size - reserved) & ~31u;
  in.seekg(fst_offset);
  in.read(reinterpret_cast<char*>(m.mem1.data() + fst_at), fst_size);
  if (!in) throw Error(at_offset(m.disc_image, fst_offset), fmt::format("cannot read the FST ({:#x} bytes)", fst_size));
  info.fst_address = memory_map::cached_base + fst_at;
  info.fst_max_size = fst_max;
  info.arena_hi = info.fst_address;
  return info;
}

void write_gx_dump(const Machine& m) {
  const char* path = std::getenv("KILN_GX_DUMP");
  if (!path || !*path) return;
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(m.hw.gx_stream.data()), static_cast<std::streamsize>(m.hw.gx_stream.size()));
  if (!out) throw Error(in_file(path), "cannot write the GX FIFO stream");
}

} // namespace

void install(const RecompiledProgram& program) { installed = &program; }

void call_guest(Machine& m, uint32_t address) {
  if (enter_compiled(m, address)) return;
  if (installed && ppc::run_fallback<FallbackHooks, Bus>(m, installed->fallback, code_address(address))) return;
  throw Error(fmt::format("gamecube: control reached guest address {:#010x}, which is neither a recompiled function nor an instruction of "
                          "the DOL's text (code copied or written at run time cannot run yet)", address));
}

void returned_elsewhere(Machine& m, uint32_t, uint32_t start, uint32_t end, uint32_t entry_link, uint32_t entry_sp) {
  if (installed) ppc::resume_frame<FallbackHooks, Bus>(m, installed->fallback, start, end, entry_link, entry_sp);
}

void run_handler(Machine& m, uint32_t resume_at) {
  ppc::Cpu& c = m.cpu;
  const uint32_t vector = c.next_pc, sp = c.gpr[1];
  if (m.handler_depth >= max_handler_depth)
    throw Error(fmt::format("gamecube: {} exception nested {} handlers deep (at {:#010x})", exception_name(vector), m.handler_depth, resume_at));
  ++m.handler_depth;
  const uint32_t handler = code_address(vector);
  c.pc = handler;
  if (!enter_compiled(m, handler)) {
    // The fallback runs the handler until its rfi lands on the interrupted instruction with the stack it had.
    if (!installed || !ppc::run_fallback_until<FallbackHooks, Bus>(m, installed->fallback, handler, resume_at, sp))
      throw Error(fmt::format("gamecube: {} exception at {:#010x}: no handler code at its vector {:#010x} (vectors copied there at run "
                              "time cannot run yet)", exception_name(vector), resume_at, handler));
  }
  --m.handler_depth;
  if (c.pc != resume_at)
    throw Error(fmt::format("gamecube: the {} handler at {:#010x} returned to {:#010x}, not to the interrupted {:#010x} (a handler that "
                            "switches context is not supported)", exception_name(vector), handler, c.pc, resume_at));
}

void resume_after_exception(Machine& m, uint32_t pc) {
  ppc::Cpu& c = m.cpu;
  for (unsigned rerun = 0;; ++rerun) {
    const uint32_t resume_at = c.spr[ppc::spr::srr0];
    c.exception_taken = false;
    if (resume_at != pc && resume_at != pc + 4)
      throw Error(fmt::format("gamecube: {} exception at {:#010x} resumes at {:#010x}: only the instruction or the one after it can be "
                              "resumed", exception_name(c.next_pc), pc, resume_at));
    run_handler(m, resume_at);
    if (resume_at == pc + 4) break;
    if (rerun == max_reruns)
      throw Error(fmt::format("gamecube: the instruction at {:#010x} raised its exception again {} times after its handler returned", pc, max_reruns));
    // The handler returned to the instruction (FP unavailable after enabling the FPU): it runs again.
    Bus bus{m};
    c.pc = pc;
    c.next_pc = pc + 4;
    ppc::execute(installed ? installed->fallback.at(pc) : ppc::Opcode::count, c, bus, bus.read32(pc), pc);
    if (!c.exception_taken) return;
  }
  c.pc = pc;
  c.next_pc = pc + 4;
}

void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why) {
  (void)m;
  throw Error(fmt::format("gamecube: reached the untranslated instruction {:08x} at {:#010x}: {}", word, address, why));
}

int run_recompiled(const RecompiledProgram& program, int argc, char** argv) {
  install(program);
  auto m = std::make_unique<Machine>();
  m->disc_image = program.disc_image;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--disc" && i + 1 < argc) {
      m->disc_image = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--disc IMAGE]\n", argv[0]);
      return 2;
    }
  }
  try {
    for (size_t i = 0; i < program.segment_count; ++i) {
      const LoadSegment& s = program.segments[i];
      const uint32_t at = memory_map::physical(s.address);
      std::memcpy(m->mem1.data() + at, s.data, std::min<size_t>(s.data_size, s.size));
    }
    write_boot_info(*m, boot_from(*m, program));
    ppc::Cpu& c = m->cpu;
    // As the apploader hands over (Dolphin's values): supervisor mode, FPU on, translation on, interrupts off;
    // the stack below the FST's usual place until the title's crt0 sets its own.
    c.msr = ppc::msr::fp | ppc::msr::ir | ppc::msr::dr | ppc::msr::ri;
    c.gpr[1] = 0x816FFFF0u;
    c.spr[ppc::spr::dec] = 0x7FFFFFFFu; // no decrementer exception pending at hand-over
    c.pc = program.entry;
    call_guest(*m, program.entry);
    throw Error(fmt::format("gamecube: the entry function returned (to {:#010x}); a title ends by resetting the console", c.pc));
  } catch (const ConsoleReset& reset) {
    std::fflush(m->uart);
    try {
      write_gx_dump(*m);
    } catch (const Error& e) {
      std::fprintf(stderr, "kiln: %s\n", e.what());
      return 1;
    }
    (void)reset;
    return 0;
  } catch (const Error& e) {
    std::fflush(m->uart);
    std::fprintf(stderr, "kiln: %s\n", e.what());
    return 1;
  }
}

} // namespace kiln::gamecube
