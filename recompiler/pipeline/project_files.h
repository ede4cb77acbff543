#pragma once
// Writing a generated project, the same for every ISA and platform: each file through write_file_if_changed (a
// rebuild compiles only what changed), counted for the recompile summary; generated sources an earlier run wrote
// and this one did not are removed; guest functions go into source files whose boundaries depend only on
// function addresses, so a change to one function (a hook, a patch) rewrites one file.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <string_view>

namespace kiln::pipeline {

class ProjectFiles {
public:
  explicit ProjectFiles(std::filesystem::path folder) : folder_(std::move(folder)) {}

  void write(const std::string& name, std::string_view text);
  void write(const std::string& name, std::span<const uint8_t> bytes);
  /// Removes the `.cpp` files of the folder whose names start with one of `prefixes` and that this run did not write.
  void remove_stale_sources(std::initializer_list<std::string_view> prefixes) const;

  const std::filesystem::path& folder() const { return folder_; }
  size_t written() const { return written_; }
  size_t unchanged() const { return unchanged_; }

private:
  std::filesystem::path folder_;
  std::set<std::string> names_;
  size_t written_ = 0, unchanged_ = 0;
};

/// The guest functions' C++ in `functions_<first function's address>.cpp` files of about `instructions_per_file`
/// guest instructions each: a file ends after a function whose address hashes to a boundary once it holds half
/// that many, and in any case at twice that many.
class FunctionSources {
public:
  FunctionSources(ProjectFiles& files, std::string prelude, size_t instructions_per_file)
      : files_(files), prelude_(std::move(prelude)), instructions_per_file_(instructions_per_file) {}
  ~FunctionSources() { finish(); }

  /// The text the function starting at `start` is appended to (a new file begins with it when none is open).
  std::string& body(uint64_t start);
  /// The function appended last holds `instructions` guest instructions.
  void added(uint64_t start, size_t instructions);
  /// Writes the open file.
  void finish();

private:
  ProjectFiles& files_;
  std::string prelude_;
  size_t instructions_per_file_;
  std::string body_, name_;
  size_t instructions_ = 0;
};

} // namespace kiln::pipeline
