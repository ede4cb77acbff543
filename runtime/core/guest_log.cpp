#include "runtime/core/guest_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

namespace kiln::rt {
namespace {

constexpr int not_opened = -2, unavailable = -1;
std::atomic<int> log_descriptor{not_opened};

/// Parses KILN_LOG's `fd:N`; -1 when `value` is not of that form.
int parse_descriptor(const char* value) {
  if (std::strncmp(value, "fd:", 3) != 0 || value[3] == '\0') return -1;
  int fd = 0;
  for (const char* c = value + 3; *c; ++c) {
    if (*c < '0' || *c > '9' || fd > 100000) return -1;
    fd = fd * 10 + (*c - '0');
  }
  return fd;
}

/// Opens the log the first time a message comes, with system calls only (a fault handler may be the first).
int open_log() {
  const char* choice = std::getenv("KILN_LOG");
  if (choice && std::strcmp(choice, "stderr") == 0) return STDERR_FILENO;
  if (choice && *choice) {
    if (const int fd = parse_descriptor(choice); fd >= 0) return fd;
    return open(choice, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
  char path[4096];
  const char suffix[] = ".kiln.log";
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - sizeof suffix);
  if (length <= 0) return unavailable;
  std::memcpy(path + length, suffix, sizeof suffix);
  return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

int descriptor() {
  int fd = log_descriptor.load();
  if (fd != not_opened) return fd;
  const int opened = open_log();
  if (log_descriptor.compare_exchange_strong(fd, opened < 0 ? unavailable : opened)) return opened < 0 ? unavailable : opened;
  if (opened > STDERR_FILENO) close(opened); // another thread opened it first
  return log_descriptor.load();
}

} // namespace

void guest_log_write(const char* text, size_t size) {
  const int fd = descriptor();
  if (fd < 0) return; // no log can be opened (read-only directory): the guest's stderr still stays clean
  while (size > 0) {
    const ssize_t written = write(fd, text, size);
    if (written <= 0) return;
    text += written;
    size -= static_cast<size_t>(written);
  }
}

void guest_log(const char* format, ...) {
  char message[1024];
  va_list arguments;
  va_start(arguments, format);
  const int length = std::vsnprintf(message, sizeof message, format, arguments);
  va_end(arguments);
  if (length <= 0) return;
  guest_log_write(message, std::min(static_cast<size_t>(length), sizeof message - 1));
}

void report_fallback_entry(unsigned long long address) {
  static std::vector<unsigned long long> reported;
  if (std::find(reported.begin(), reported.end(), address) != reported.end()) return;
  reported.push_back(address);
  guest_log("kiln: guest address %#llx was not recompiled; running it in the fallback interpreter\n", address);
  if (const char* log = std::getenv("KILN_DISCOVERY_LOG")) {
    if (std::FILE* file = std::fopen(log, "a")) {
      std::fprintf(file, "[[reached]]\naddress = %#llx\n\n", address);
      std::fclose(file);
    }
  }
}

} // namespace kiln::rt
