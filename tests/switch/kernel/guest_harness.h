#pragma once
// A Horizon process for kernel tests: a kernel installed as the SVC handler, a code page holding `svc #n` at
// code + 4n (so every call goes through the real dispatcher, reading the immediate from guest memory), the
// test's thread attached as the main guest thread, and guest "functions" that are host functions in the table.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include "runtime/core/aarch64/ops.h"
#include "runtime/core/aarch64/dispatch.h"
#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/kernel/kernel.h"

namespace kiln::test {

constexpr uint64_t code_base = 0x7100000000;
constexpr uint64_t data_base = 0x7100100000; ///< a page of code-data for mutex words, handles and strings
constexpr uint64_t main_stack_top = 0x7100200000;

class Guest {
public:
  explicit Guest(hos::ProcessConfig config = {}) : kernel(config) {
    kernel.install();
    require(kernel.memory().map(code_base, 0x1000, hos::MemoryState::code_data, hos::permission::read_write));
    for (uint32_t n = 0; n < 0x400; ++n) rt::store<uint32_t>(rt::guest_base, code_base + 4 * n, 0xd4000001u | (n << 5));
    require(kernel.memory().map(data_base, 0x10000, hos::MemoryState::code_data, hos::permission::read_write));
    main = &kernel.attach_main_thread(main_stack_top, 0x2c);
  }
  /// Runs SVC `number` with the registers in `cpu` (x0.. set by the caller); returns w0.
  static uint32_t svc(rt::Cpu& cpu, uint32_t number) {
    rt::supervisor_call(&cpu, svc_address(number));
    return static_cast<uint32_t>(cpu.x[0]);
  }
  static uint64_t svc_address(uint32_t number) { return code_base + 4 * number; }
  rt::Cpu& cpu() { return main->cpu; }
  uint32_t main_handle() const { return main->handle; }
  /// Maps a heap of `size` bytes and returns its address.
  uint64_t heap(uint64_t size) {
    cpu().x[1] = size;
    require(svc(cpu(), 0x01));
    return cpu().x[1];
  }

  hos::Kernel kernel;
  hos::Thread* main = nullptr;

private:
  static void require(hos::Result r) {
    if (r != hos::success) throw std::runtime_error("guest set-up failed");
  }
};

template <typename T>
T peek(uint64_t address) { return rt::load<T>(rt::guest_base, address); }
template <typename T>
void poke(uint64_t address, T value) { rt::store<T>(rt::guest_base, address, value); }

/// Polls `condition` for up to 5 s (waits for another thread to block in the kernel).
inline bool eventually(const std::function<bool()>& condition) {
  for (int i = 0; i < 5000; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return condition();
}

struct ChildResult {
  int status = -1; ///< exit status, or -signal
  std::string output; ///< stderr and stdout
};
/// Runs `body` in a forked child (processes stop with _exit) and collects its exit status and output.
inline ChildResult run_in_child(const std::function<void()>& body) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return {};
  const pid_t child = fork();
  if (child == 0) {
    dup2(pipe_ends[1], 2);
    dup2(pipe_ends[1], 1);
    close(pipe_ends[0]);
    body();
    std::fflush(nullptr);
    _exit(99);
  }
  close(pipe_ends[1]);
  ChildResult result;
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipe_ends[0], buffer, sizeof buffer)) > 0) result.output.append(buffer, static_cast<size_t>(n));
  close(pipe_ends[0]);
  int status = 0;
  waitpid(child, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return result;
}

} // namespace kiln::test
