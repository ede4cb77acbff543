#include "runtime/base/error.h"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace kiln {

std::string format_error(const ErrorLocation& location, const std::string& message) {
  std::string text;
  if (!location.file.empty()) text += location.file + ": ";
  if (location.offset) text += fmt::format("offset {:#x}: ", *location.offset);
  if (location.address) text += fmt::format("address {:#x}: ", *location.address);
  return text + message;
}

std::string with_errno(const std::string& what) { return what + ": " + std::strerror(errno); }

Error::Error(ErrorLocation location, std::string message)
    : std::runtime_error(format_error(location, message)), location_(std::move(location)), message_(std::move(message)) {}

} // namespace kiln
