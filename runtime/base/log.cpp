#include "runtime/base/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace kiln::log {
namespace {
std::atomic<Level> threshold{Level::info};
std::mutex output_mutex;

const char* prefix(Level level) {
  switch (level) {
  case Level::debug: return "kiln: debug: ";
  case Level::verbose: return "kiln: ";
  case Level::info: return "kiln: ";
  case Level::warning: return "kiln: warning: ";
  case Level::error: return "kiln: error: ";
  }
  return "kiln: ";
}
} // namespace

void set_level(Level level) { threshold = level; }
Level level() { return threshold; }
bool enabled(Level level) { return level >= threshold.load(); }

void write(Level level, std::string_view text) {
  std::lock_guard lock(output_mutex);
  std::fputs(prefix(level), stderr);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fputc('\n', stderr);
}

} // namespace kiln::log
