#include "recompiler/config/toml_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "runtime/base/file_writer.h"

namespace kiln::config {
namespace {

const char* type_name(const toml::node& node) {
  switch (node.type()) {
  case toml::node_type::string: return "a string";
  case toml::node_type::integer: return "an integer";
  case toml::node_type::floating_point: return "a floating-point number";
  case toml::node_type::boolean: return "a boolean";
  case toml::node_type::array: return "an array";
  case toml::node_type::table: return "a table";
  default: return "a date or time";
  }
}

} // namespace

Error error_at(const std::string& file, int line, const std::string& message) {
  return Error(in_file(line > 0 ? fmt::format("{}:{}", file, line) : file), message);
}

toml::table parse_toml_text(std::string_view text, const std::string& file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    if (!e.source().begin) throw Error(in_file(file), std::string(e.description()));
    throw error_at(file, static_cast<int>(e.source().begin.line), fmt::format("TOML syntax: {}", e.description()));
  }
}

toml::table parse_toml_file(const std::string& file) {
  const std::vector<uint8_t> bytes = read_file(file, kiln::input::text);
  return parse_toml_text(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), file);
}

TableFields::TableFields(const toml::table& table, std::string file, std::string what, std::initializer_list<std::string_view> allowed)
    : table_(table), file_(std::move(file)), what_(std::move(what)) {
  for (auto&& [key, node] : table_) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    std::string expected;
    for (std::string_view a : allowed) expected += (expected.empty() ? "" : ", ") + std::string(a);
    throw error_at(file_, static_cast<int>(key.source().begin ? key.source().begin.line : node.source().begin.line),
                   fmt::format("unknown key '{}' in {} (expected one of: {})", key.str(), what_, expected));
  }
}

int TableFields::line_of(std::string_view key) const {
  const toml::node* node = table_.get(key);
  return node ? static_cast<int>(node->source().begin.line) : line();
}

const toml::node& TableFields::required(std::string_view key) const {
  const toml::node* node = table_.get(key);
  if (!node) throw error_at(file_, line(), fmt::format("{} needs '{}'", what_, key));
  return *node;
}

uint64_t TableFields::as_unsigned(const toml::node& node, std::string_view key) const {
  const auto value = node.value_exact<int64_t>();
  if (!value) throw error_at(file_, static_cast<int>(node.source().begin.line), fmt::format("'{}' in {} must be an integer, not {}", key, what_, type_name(node)));
  if (*value < 0) throw error_at(file_, static_cast<int>(node.source().begin.line), fmt::format("'{}' in {} must not be negative", key, what_));
  return static_cast<uint64_t>(*value);
}

std::string TableFields::string(std::string_view key) const {
  const toml::node& node = required(key);
  const auto value = node.value_exact<std::string>();
  if (!value) throw error_at(file_, static_cast<int>(node.source().begin.line), fmt::format("'{}' in {} must be a string, not {}", key, what_, type_name(node)));
  return *value;
}

std::optional<std::string> TableFields::optional_string(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return string(key);
}

uint64_t TableFields::integer(std::string_view key) const { return as_unsigned(required(key), key); }

std::optional<uint64_t> TableFields::optional_integer(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return integer(key);
}

std::optional<bool> TableFields::optional_boolean(std::string_view key) const {
  const toml::node* node = table_.get(key);
  if (!node) return std::nullopt;
  const auto value = node->value_exact<bool>();
  if (!value) throw error_at(file_, static_cast<int>(node->source().begin.line), fmt::format("'{}' in {} must be true or false, not {}", key, what_, type_name(*node)));
  return *value;
}

const toml::table* TableFields::optional_table(std::string_view key) const {
  const toml::node* node = table_.get(key);
  if (!node) return nullptr;
  if (!node->is_table()) throw error_at(file_, static_cast<int>(node->source().begin.line), fmt::format("'{}' must be a table ([{}]), not {}", key, key, type_name(*node)));
  return node->as_table();
}

std::vector<uint64_t> TableFields::integers(std::string_view key) const {
  std::vector<uint64_t> out;
  const toml::node* node = table_.get(key);
  if (!node) return out;
  const toml::array* array = node->as_array();
  if (!array) throw error_at(file_, static_cast<int>(node->source().begin.line), fmt::format("'{}' in {} must be an array of integers, not {}", key, what_, type_name(*node)));
  for (const toml::node& element : *array) out.push_back(as_unsigned(element, key));
  return out;
}

std::vector<std::string> TableFields::strings(std::string_view key) const {
  std::vector<std::string> out;
  const toml::node* node = table_.get(key);
  if (!node) return out;
  const toml::array* array = node->as_array();
  if (!array) throw error_at(file_, static_cast<int>(node->source().begin.line), fmt::format("'{}' in {} must be an array of strings, not {}", key, what_, type_name(*node)));
  for (const toml::node& element : *array) {
    const auto value = element.value_exact<std::string>();
    if (!value) throw error_at(file_, static_cast<int>(element.source().begin.line), fmt::format("'{}' in {} must hold strings, not {}", key, what_, type_name(element)));
    out.push_back(*value);
  }
  return out;
}

std::vector<const toml::table*> TableFields::tables(std::string_view key) const {
  std::vector<const toml::table*> out;
  const toml::node* node = table_.get(key);
  if (!node) return out;
  const toml::array* array = node->as_array();
  if (!array) throw error_at(file_, static_cast<int>(node->source().begin.line), fmt::format("'{}' must be an array of tables ([[{}]]), not {}", key, key, type_name(*node)));
  for (const toml::node& element : *array) {
    if (!element.is_table()) throw error_at(file_, static_cast<int>(element.source().begin.line), fmt::format("each '{}' entry must be a table, not {}", key, type_name(element)));
    out.push_back(element.as_table());
  }
  return out;
}

} // namespace kiln::config
