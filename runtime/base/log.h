#pragma once
// Levelled logging to stderr through fmt. `kiln --verbose` lowers the threshold.
#include <fmt/format.h>

namespace kiln::log {

enum class Level { debug, verbose, info, warning, error };

void set_level(Level level);
Level level();
bool enabled(Level level);
void write(Level level, std::string_view text);

template <typename... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(Level::debug)) write(Level::debug, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void verbose(fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(Level::verbose)) write(Level::verbose, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(Level::info)) write(Level::info, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void warning(fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(Level::warning)) write(Level::warning, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void error(fmt::format_string<Args...> format, Args&&... args) {
  write(Level::error, fmt::format(format, std::forward<Args>(args)...));
}

} // namespace kiln::log
