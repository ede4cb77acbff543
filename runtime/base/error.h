#pragma once
// kiln's one error type: what went wrong, in which file, at which offset or guest address, and what was expected.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace kiln {

struct ErrorLocation {
  std::string file;                ///< input file (or stream name); empty when not tied to a file
  std::optional<uint64_t> offset;  ///< byte offset inside `file`
  std::optional<uint64_t> address; ///< guest address (CPU or GPU), when that names the place better
};

inline ErrorLocation in_file(std::string file) { return ErrorLocation{std::move(file), std::nullopt, std::nullopt}; }
inline ErrorLocation at_offset(std::string file, uint64_t offset) { return ErrorLocation{std::move(file), offset, std::nullopt}; }
inline ErrorLocation at_address(std::string file, uint64_t address) {
  return ErrorLocation{std::move(file), std::nullopt, address};
}

class Error : public std::runtime_error {
public:
  Error(ErrorLocation location, std::string message);
  explicit Error(std::string message) : Error(ErrorLocation{}, std::move(message)) {}

  const ErrorLocation& location() const { return location_; }
  /// The message without the location prefix.
  const std::string& message() const { return message_; }

private:
  ErrorLocation location_;
  std::string message_;
};

/// `what` followed by the text of the current errno ("cannot open: No such file or directory").
std::string with_errno(const std::string& what);

/// "file: offset 0x10: address 0x400000: message" with the parts that are known.
std::string format_error(const ErrorLocation& location, const std::string& message);

} // namespace kiln
