#include "runtime/platform/linux-user/process.h"

#include <pthread.h>
#include <signal.h>
#include <sys/random.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/aarch64/fp.h"
#include "runtime/platform/linux-user/host_device.h"
#include "runtime/core/guest_log.h"

namespace kiln::linux_user {
namespace {

struct Launch {
  const rt::ProgramInfo* program;
  int argc;
  char** argv;
  char** envp;
};

uint64_t push_bytes(uint64_t& sp, const void* data, size_t size) {
  sp -= size;
  std::memcpy(rt::host_pointer(sp), data, size);
  return sp;
}

void load_segments(const rt::ProgramInfo& p) {
  uint64_t end = 0;
  for (size_t i = 0; i < p.segment_count; ++i) {
    const rt::SegmentInfo& s = p.segments[i];
    const uint64_t start = s.address & ~(rt::guest_page_size - 1);
    rt::map_guest(start, s.address + s.memory_size - start);
    std::memcpy(rt::host_pointer(s.address), p.image + s.file_offset, s.file_size);
    end = std::max(end, s.address + s.memory_size);
  }
  ProcessState& state = process_state();
  state.brk_start = state.brk_current = (end + rt::guest_page_size - 1) & ~(rt::guest_page_size - 1);
}

/// The initial stack, top down: strings, 16 random bytes, then (16-byte aligned) argc, argv[], NULL, envp[], NULL, auxv.
uint64_t build_stack(const rt::ProgramInfo& p, int argc, char** argv, char** envp) {
  rt::map_guest(stack_top - stack_size, stack_size);
  uint64_t sp = stack_top - 16;
  auto push_string = [&](const char* s) { return push_bytes(sp, s, std::strlen(s) + 1); };
  std::vector<uint64_t> argv_addresses, envp_addresses;
  for (int i = 0; i < argc; ++i) argv_addresses.push_back(push_string(argv[i]));
  for (char** e = envp; *e; ++e) envp_addresses.push_back(push_string(*e));
  const uint64_t platform = push_string("aarch64");
  uint8_t random[16];
  if (getrandom(random, sizeof random, 0) != sizeof random) std::memset(random, 0x5a, sizeof random);
  const uint64_t random_address = push_bytes(sp, random, sizeof random);
  const std::vector<std::pair<uint64_t, uint64_t>> auxv = {
      {3, p.program_headers}, {4, p.program_header_size}, {5, p.program_header_count}, {6, rt::guest_page_size},
      {7, 0}, {8, 0}, {9, p.entry}, {11, getuid()}, {12, geteuid()}, {13, getgid()}, {14, getegid()},
      {16, reported_hwcap}, {17, 100}, {15, platform}, {23, 0}, {25, random_address}, {26, 0},
      {31, argv_addresses.empty() ? 0 : argv_addresses[0]}, {0, 0}};
  std::vector<uint64_t> words;
  words.push_back(static_cast<uint64_t>(argc));
  words.insert(words.end(), argv_addresses.begin(), argv_addresses.end());
  words.push_back(0);
  words.insert(words.end(), envp_addresses.begin(), envp_addresses.end());
  words.push_back(0);
  for (const auto& [key, value] : auxv) {
    words.push_back(key);
    words.push_back(value);
  }
  sp -= words.size() * 8;
  sp &= ~uint64_t{15};
  std::memcpy(rt::host_pointer(sp), words.data(), words.size() * 8);
  return sp;
}

void report_fault(int, siginfo_t* info, void*) {
  const uint64_t host = reinterpret_cast<uint64_t>(info->si_addr);
  const uint64_t base = reinterpret_cast<uint64_t>(rt::guest_base);
  char message[160];
  int length;
  if (host >= base - rt::guest_page_size && host < base + rt::guest_address_mask + rt::guest_page_size)
    length = std::snprintf(message, sizeof message, "kiln: guest memory fault at guest address %#llx\n", static_cast<unsigned long long>(host - base));
  else
    length = std::snprintf(message, sizeof message, "kiln: host fault at %p (outside guest memory)\n", info->si_addr);
  rt::guest_log_write(message, static_cast<size_t>(length)); // async-signal-safe
  signal(SIGSEGV, SIG_DFL);
  raise(SIGSEGV);
}

void install_fault_handler() {
  static std::vector<char> alternate(1 << 16);
  stack_t stack{};
  stack.ss_sp = alternate.data();
  stack.ss_size = alternate.size();
  sigaltstack(&stack, nullptr);
  struct sigaction action{};
  action.sa_sigaction = report_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &action, nullptr);
  sigaction(SIGBUS, &action, nullptr);
}

void* guest_thread(void* argument) {
  const Launch& launch = *static_cast<Launch*>(argument);
  install_fault_handler();
  static rt::Cpu cpu;
  cpu.sp = build_stack(*launch.program, launch.argc, launch.argv, launch.envp);
  rt::fp_reset_host(); // FPCR = 0 and FPSR = 0 as the kernel starts a process; the host's flags are the guest's
  rt::enter_guest(&cpu, launch.program->entry);
  return nullptr;
}

} // namespace

ProcessState& process_state() {
  static ProcessState state;
  return state;
}

int run(const rt::ProgramInfo& program, int argc, char** argv, char** envp) {
  // The host shell's options (--window, --frames N, ...) are the runtime's, not the guest's.
  std::vector<std::string> arguments(argv, argv + argc);
  if (const std::string error = host_device::configure(arguments); !error.empty()) {
    std::fprintf(stderr, "kiln: %s\n", error.c_str()); // a bad host-shell option: the guest never ran
    return 2;
  }
  std::vector<char*> guest_argv;
  for (std::string& argument : arguments) guest_argv.push_back(argument.data());
  guest_argv.push_back(nullptr);
  argc = static_cast<int>(arguments.size());
  argv = guest_argv.data();
  rt::reserve_guest_memory();
  load_segments(program);
  rt::set_function_table(program.entries, program.entry_count);
  rt::set_supervisor_handler(handle_syscall);
  // Guest calls become host calls, so deep guest recursion needs a deep host stack.
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, size_t{1} << 30);
  Launch launch{&program, argc, argv, envp};
  pthread_t thread;
  if (pthread_create(&thread, &attributes, guest_thread, &launch) != 0) {
    rt::guest_log("kiln: cannot start the guest thread\n");
    return 70;
  }
  pthread_join(thread, nullptr);
  return 70;
}

} // namespace kiln::linux_user
