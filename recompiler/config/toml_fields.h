#pragma once
// Reading TOML tables field by field with errors that name the file and line: unknown keys, missing keys,
// wrong types and out-of-range values are all reported where they are written.
#include <toml++/toml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/error.h"

namespace kiln::config {

/// An error at `file:line`.
Error error_at(const std::string& file, int line, const std::string& message);

/// Parses a whole TOML file (a syntax error names file and line).
toml::table parse_toml_file(const std::string& file);
/// Parses TOML text that came from `file` (named in errors).
toml::table parse_toml_text(std::string_view text, const std::string& file);

class TableFields {
public:
  /// `what` names the table in messages ("[[hooks]] entry"); keys outside `allowed` are errors.
  TableFields(const toml::table& table, std::string file, std::string what, std::initializer_list<std::string_view> allowed);

  int line() const { return static_cast<int>(table_.source().begin.line); }
  int line_of(std::string_view key) const;
  const std::string& file() const { return file_; }
  bool has(std::string_view key) const { return table_.contains(key); }

  std::string string(std::string_view key) const; ///< required
  std::optional<std::string> optional_string(std::string_view key) const;
  uint64_t integer(std::string_view key) const; ///< required, non-negative
  std::optional<uint64_t> optional_integer(std::string_view key) const;
  std::optional<bool> optional_boolean(std::string_view key) const;
  std::vector<uint64_t> integers(std::string_view key) const;   ///< optional array (empty when absent)
  std::vector<std::string> strings(std::string_view key) const; ///< optional array (empty when absent)
  /// An optional table ([name]); nullptr when absent, an error when the key holds something else.
  const toml::table* optional_table(std::string_view key) const;
  /// An optional array of tables; each element is checked to be a table.
  std::vector<const toml::table*> tables(std::string_view key) const;

private:
  const toml::node& required(std::string_view key) const;
  uint64_t as_unsigned(const toml::node& node, std::string_view key) const;
  const toml::table& table_;
  std::string file_;
  std::string what_;
};

} // namespace kiln::config
