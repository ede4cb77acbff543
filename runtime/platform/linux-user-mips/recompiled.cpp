#include "runtime/platform/linux-user-mips/recompiled.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/base/error.h"

extern char** environ;

namespace kiln::mipsel {
namespace {

const RecompiledProgram* installed = nullptr;

constexpr uint32_t page_size = 4096;
constexpr uint32_t stack_top = 0x7FFF0000u, stack_size = 8u << 20;
constexpr uint32_t mmap_base = 0x40000000u;

// Auxiliary vector keys (linux/auxvec.h).
constexpr uint32_t at_null = 0, at_phdr = 3, at_phent = 4, at_phnum = 5, at_pagesz = 6, at_entry = 9, at_uid = 11,
                   at_euid = 12, at_gid = 13, at_egid = 14, at_hwcap = 16, at_clktck = 17, at_secure = 23,
                   at_random = 25, at_execfn = 31;

/// Builds the o32 initial stack (argc, argv[], NULL, envp[], NULL, auxv pairs, AT_NULL) and returns $sp.
uint32_t build_stack(Machine& m, const RecompiledProgram& p, const std::vector<std::string>& args,
                     const std::vector<std::string>& env) {
  Bus bus{m};
  uint32_t top = stack_top;
  auto push_string = [&](const std::string& s) {
    top -= static_cast<uint32_t>(s.size() + 1);
    std::memcpy(m.memory + top, s.c_str(), s.size() + 1);
    return top;
  };
  std::vector<uint32_t> arg_addresses, env_addresses;
  for (const std::string& s : args) arg_addresses.push_back(push_string(s));
  for (const std::string& s : env) env_addresses.push_back(push_string(s));
  const uint32_t execfn = arg_addresses.empty() ? 0 : arg_addresses[0];
  top &= ~15u;
  top -= 16;
  const uint32_t random_bytes = top; // AT_RANDOM: 16 bytes (fixed, so runs are reproducible)
  for (uint32_t i = 0; i < 16; ++i) bus.write8(random_bytes + i, static_cast<uint8_t>(0x5A ^ (i * 37)));
  std::vector<uint32_t> words{static_cast<uint32_t>(args.size())};
  words.insert(words.end(), arg_addresses.begin(), arg_addresses.end());
  words.push_back(0);
  words.insert(words.end(), env_addresses.begin(), env_addresses.end());
  words.push_back(0);
  const uint32_t auxv[][2] = {{at_phdr, p.program_headers_address}, {at_phent, p.program_header_size},
                              {at_phnum, p.program_header_count},  {at_pagesz, page_size},
                              {at_entry, p.entry},                 {at_uid, 0}, {at_euid, 0}, {at_gid, 0}, {at_egid, 0},
                              {at_hwcap, 0},                       {at_clktck, 100}, {at_secure, 0},
                              {at_random, random_bytes},           {at_execfn, execfn}, {at_null, 0}};
  for (const auto& pair : auxv) words.insert(words.end(), {pair[0], pair[1]});
  top -= static_cast<uint32_t>(words.size() * 4);
  top &= ~7u; // o32: $sp 8-byte aligned at entry
  for (size_t i = 0; i < words.size(); ++i) bus.write32(top + static_cast<uint32_t>(i * 4), words[i]);
  return top;
}

} // namespace

void create_address_space(Machine& m) {
  void* base = mmap(nullptr, size_t{1} << 32, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) throw Error("mipsel: cannot reserve the 4 GiB guest address space");
  m.memory = static_cast<uint8_t*>(base);
}

void map_guest(Machine& m, uint32_t address, uint32_t size) {
  const uint64_t start = address & ~uint64_t{page_size - 1};
  const uint64_t end = (uint64_t{address} + size + page_size - 1) & ~uint64_t{page_size - 1};
  if (end <= start) return;
  if (mprotect(m.memory + start, end - start, PROT_READ | PROT_WRITE) != 0)
    throw Error(fmt::format("mipsel: cannot map guest memory {:#010x}+{:#x}", start, end - start));
}

void install(const RecompiledProgram& program) { installed = &program; }

namespace {
bool enter_compiled(Machine& m, uint32_t address) {
  if (!installed) return false;
  const FunctionEntry* it = r3000::find_function(installed->functions, installed->count, address);
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

void returned_elsewhere(Machine& m, uint32_t call_address, uint32_t expected) {
  throw Error(fmt::format("mipsel: the call at {:#010x} returned to {:#010x} instead of {:#010x}; recompiled code "
                          "cannot follow a return to another address",
                          call_address, m.cpu.pc, expected));
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
                            (m.memory ? Bus{m}.read32(pc) >> 6 & 0x3FF : 0)));
  throw Error(fmt::format("mipsel: exception {:#x} at {:#010x} (EPC {:#010x}, BadVAddr {:#010x}) is not supported", code, pc,
                          c.cop0[r3000::cop0::epc], c.cop0[r3000::cop0::bad_vaddr]));
}

void untranslated(Machine&, uint32_t address, uint32_t word, const char* why) {
  throw Error(fmt::format("mipsel: reached the untranslated instruction {:08x} at {:#010x}: {}", word, address, why));
}

namespace {
int run_on_this_thread(const RecompiledProgram& program, int argc, char** argv) {
  try {
    install(program);
    Machine m;
    create_address_space(m);
    uint32_t image_end = 0;
    for (size_t i = 0; i < program.segment_count; ++i) {
      const LoadSegment& s = program.segments[i];
      map_guest(m, s.address, s.memory_size);
      std::memcpy(m.memory + s.address, s.data.data(), s.data.size());
      image_end = std::max(image_end, s.address + s.memory_size);
    }
    m.brk_start = m.brk_current = (image_end + page_size - 1) & ~(page_size - 1);
    m.mmap_next = mmap_base;
    map_guest(m, stack_top - stack_size, stack_size);
    std::vector<std::string> args(argv, argv + argc), env;
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
    m.cpu.gpr[29] = build_stack(m, program, args, env);
    m.cpu.gpr[2] = 0; // $v0 (and $a0..): zero at entry; glibc's _start takes rtld_fini from $v0
    m.cpu.pc = program.entry;
    call_guest(m, program.entry);
    throw Error(fmt::format("mipsel: the entry function returned (to {:#010x}) instead of calling exit", m.cpu.pc));
  } catch (const ProcessExit& exit) {
    return exit.status;
  } catch (const Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "kiln: error: %s\n", e.what());
    return 1;
  }
}

struct GuestThread {
  const RecompiledProgram* program;
  int argc;
  char** argv;
  int status = 1;
};

/// A guest tail call (`j f`) is a host call followed by a return: unless the host compiler turns it into a
/// jump (it does at -O2, not at -O0), deep guest tail recursion uses host stack, so the guest runs on a thread
/// whose stack is reserved large (pages are only committed as they are touched).
constexpr size_t guest_thread_stack = size_t{1} << 30;
} // namespace

int run_recompiled(const RecompiledProgram& program, int argc, char** argv) {
  GuestThread work{&program, argc, argv};
  pthread_attr_t attributes;
  pthread_t thread;
  if (pthread_attr_init(&attributes) == 0 && pthread_attr_setstacksize(&attributes, guest_thread_stack) == 0 &&
      pthread_create(&thread, &attributes,
                     [](void* p) -> void* {
                       auto* w = static_cast<GuestThread*>(p);
                       w->status = run_on_this_thread(*w->program, w->argc, w->argv);
                       return nullptr;
                     },
                     &work) == 0) {
    pthread_join(thread, nullptr);
    return work.status;
  }
  return run_on_this_thread(program, argc, argv); // no large stack to be had: the usual one
}

} // namespace kiln::mipsel
