#include "recompiler/config/title_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "recompiler/config/changes_toml.h"
#include "recompiler/config/gpu_settings.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/hash.h"

namespace kiln::config {
namespace {

bool is_cpp_name(std::string_view name) {
  if (name.empty()) return false;
  bool start = true;
  for (size_t k = 0; k < name.size(); ++k) {
    const char ch = name[k];
    if (ch == ':' && k + 1 < name.size() && name[k + 1] == ':' && !start) { ++k; start = true; continue; }
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_' || (!start && std::isdigit(static_cast<unsigned char>(ch)))) { start = false; continue; }
    return false;
  }
  return !start;
}

uint64_t code_address(const TableFields& t, std::string_view key) {
  const uint64_t address = t.integer(key);
  if (address & 3) throw error_at(t.file(), t.line_of(key), fmt::format("'{}' = {:#x} is not a multiple of 4 (AArch64 instructions are 4-byte aligned)", key, address));
  return address;
}

std::string cpp_function(const TableFields& t) {
  const std::string name = t.string("function");
  if (!is_cpp_name(name)) throw error_at(t.file(), t.line_of("function"), fmt::format("'function' = \"{}\" is not a C++ function name", name));
  return name;
}

bool valid_hash(std::string_view hash) {
  if (!hash.starts_with("xxh128:") || hash.size() != 7 + 32) return false;
  return std::all_of(hash.begin() + 7, hash.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || (ch >= 'a' && ch <= 'f'); });
}

} // namespace

std::string Origin::describe() const {
  const std::string place = line > 0 ? fmt::format("{}:{}", file, line) : file;
  return patch_set.empty() ? place : fmt::format("patch set '{}' ({})", patch_set, place);
}

void Changes::append(const Changes& o) {
  functions.insert(functions.end(), o.functions.begin(), o.functions.end());
  jump_tables.insert(jump_tables.end(), o.jump_tables.begin(), o.jump_tables.end());
  ignore.insert(ignore.end(), o.ignore.begin(), o.ignore.end());
  stubs.insert(stubs.end(), o.stubs.begin(), o.stubs.end());
  patches.insert(patches.end(), o.patches.begin(), o.patches.end());
  hooks.insert(hooks.end(), o.hooks.begin(), o.hooks.end());
  replacements.insert(replacements.end(), o.replacements.begin(), o.replacements.end());
  sources.insert(sources.end(), o.sources.begin(), o.sources.end());
}

std::string check_hash_syntax(const TableFields& t, std::string_view key) {
  const std::string hash = t.string(key);
  if (!valid_hash(hash)) throw error_at(t.file(), t.line_of(key), fmt::format("'{}' = \"{}\" is not a content hash (expected xxh128: and 32 lower-case hex digits, as `kiln init` writes)", key, hash));
  return hash;
}

Changes parse_changes(const TableFields& root, const std::filesystem::path& base_dir, const std::string& patch_set) {
  Changes changes;
  const std::string& file = root.file();
  auto origin = [&](const TableFields& t) { return Origin{file, t.line(), patch_set}; };
  for (const toml::table* table : root.tables("functions")) {
    const TableFields t(*table, file, "[[functions]] entry", {"address", "size", "name"});
    FunctionHint hint{code_address(t, "address"), t.optional_integer("size"), t.optional_string("name").value_or(""), origin(t)};
    if (hint.size && (*hint.size == 0 || (*hint.size & 3))) throw error_at(file, t.line_of("size"), fmt::format("'size' = {:#x} must be a positive multiple of 4", *hint.size));
    changes.functions.push_back(std::move(hint));
  }
  for (const toml::table* table : root.tables("jump_tables")) {
    const TableFields t(*table, file, "[[jump_tables]] entry", {"branch", "targets"});
    JumpTableHint hint{code_address(t, "branch"), t.integers("targets"), origin(t)};
    if (hint.targets.empty()) throw error_at(file, t.line(), "[[jump_tables]] entry needs 'targets' (the case addresses in index order)");
    for (uint64_t target : hint.targets)
      if (target & 3) throw error_at(file, t.line_of("targets"), fmt::format("jump-table target {:#x} is not a multiple of 4", target));
    changes.jump_tables.push_back(std::move(hint));
  }
  for (const toml::table* table : root.tables("ignore")) {
    const TableFields t(*table, file, "[[ignore]] entry", {"address"});
    changes.ignore.push_back({code_address(t, "address"), origin(t)});
  }
  for (const toml::table* table : root.tables("stubs")) {
    const TableFields t(*table, file, "[[stubs]] entry", {"address", "return"});
    changes.stubs.push_back({code_address(t, "address"), t.optional_integer("return"), origin(t)});
  }
  for (const toml::table* table : root.tables("patches")) {
    const TableFields t(*table, file, "[[patches]] entry", {"address", "encoding", "original"});
    InstructionPatch patch{code_address(t, "address"), 0, std::nullopt, origin(t)};
    const uint64_t encoding = t.integer("encoding");
    if (encoding > 0xffffffffu) throw error_at(file, t.line_of("encoding"), fmt::format("'encoding' = {:#x} is wider than one 32-bit instruction", encoding));
    patch.encoding = static_cast<uint32_t>(encoding);
    if (const auto original = t.optional_integer("original")) {
      if (*original > 0xffffffffu) throw error_at(file, t.line_of("original"), fmt::format("'original' = {:#x} is wider than one 32-bit instruction", *original));
      patch.original = static_cast<uint32_t>(*original);
    }
    changes.patches.push_back(patch);
  }
  for (const toml::table* table : root.tables("hooks")) {
    const TableFields t(*table, file, "[[hooks]] entry", {"address", "when", "function", "targets"});
    Hook hook{code_address(t, "address"), HookWhen::before, cpp_function(t), t.integers("targets"), origin(t)};
    const std::string when = t.optional_string("when").value_or("before");
    if (when == "after") hook.when = HookWhen::after;
    else if (when != "before") throw error_at(file, t.line_of("when"), fmt::format("'when' = \"{}\" must be \"before\" or \"after\"", when));
    changes.hooks.push_back(std::move(hook));
  }
  for (const toml::table* table : root.tables("replacements")) {
    const TableFields t(*table, file, "[[replacements]] entry", {"address", "function"});
    changes.replacements.push_back({code_address(t, "address"), cpp_function(t), origin(t)});
  }
  for (const std::string& source : root.strings("sources")) {
    const std::filesystem::path path = std::filesystem::absolute(base_dir / source).lexically_normal();
    if (!std::filesystem::is_regular_file(path)) throw error_at(file, root.line_of("sources"), fmt::format("source file '{}' does not exist ({})", source, path.string()));
    changes.sources.push_back(path);
  }
  return changes;
}

TitleConfig load_title_config(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path)) throw Error(in_file(path.string()), "no such config file");
  const std::vector<uint8_t> bytes = read_file(path, kiln::input::text);
  return parse_title_config(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

TitleConfig parse_title_config(std::string_view text, const std::filesystem::path& path) {
  const std::string file = path.string();
  const toml::table root_table = parse_toml_text(text, file);
  const TableFields root(root_table, file, "kiln.toml", {"title", "platform", "inputs", "symbol_maps", "gpu", KILN_CONFIG_CHANGE_KEYS});
  TitleConfig config;
  config.file = path;
  config.title = root.string("title");
  config.platform = root.optional_string("platform").value_or("linux-user");
  if (config.platform != "linux-user" && config.platform != "psx" && config.platform != "gamecube")
    throw error_at(file, root.line_of("platform"), fmt::format("platform \"{}\" is not supported (supported: linux-user, psx, gamecube)", config.platform));
  for (const toml::table* table : root.tables("inputs")) {
    const TableFields t(*table, file, "[[inputs]] entry", {"name", "hash"});
    config.inputs.push_back({t.string("name"), check_hash_syntax(t, "hash"), {file, t.line(), ""}});
  }
  if (config.inputs.empty()) throw error_at(file, root.line(), "kiln.toml needs at least one [[inputs]] entry (name and hash of the executable; `kiln init` writes it)");
  config.changes = parse_changes(root, path.parent_path(), "");
  for (const std::string& map : root.strings("symbol_maps")) {
    const std::filesystem::path map_path = std::filesystem::absolute(path.parent_path() / map).lexically_normal();
    if (!std::filesystem::is_regular_file(map_path))
      throw error_at(file, root.line_of("symbol_maps"), fmt::format("symbol map '{}' does not exist ({})", map, map_path.string()));
    config.symbol_maps.push_back(map_path);
  }
  config.gpu = parse_gpu_settings(root);
  return config;
}

std::string content_hash(const std::vector<uint8_t>& bytes) { return "xxh128:" + hash128(bytes).hex(); }

void verify_input(const TitleConfig& config, const std::filesystem::path& executable, const std::vector<uint8_t>& bytes) {
  const std::string actual = content_hash(bytes);
  for (const InputExecutable& input : config.inputs)
    if (input.hash == actual) return;
  // Name the entry the executable was meant to match: the one with its file name, else the only one.
  const InputExecutable* expected = &config.inputs.front();
  for (const InputExecutable& input : config.inputs)
    if (input.name == executable.filename().string()) expected = &input;
  throw error_at(expected->origin.file, expected->origin.line,
                 fmt::format("input '{}' expects hash {}, but {} has hash {} (a different build of the title?)", expected->name, expected->hash,
                             executable.string(), actual));
}

std::filesystem::path find_title_config(const std::filesystem::path& executable, const std::vector<uint8_t>& bytes,
                                        const std::filesystem::path& source_root) {
  const std::filesystem::path beside = executable.parent_path() / "kiln.toml";
  if (std::filesystem::is_regular_file(beside)) return beside;
  const std::filesystem::path games = source_root / "games";
  if (!std::filesystem::is_directory(games)) return {};
  const std::string hash = content_hash(bytes);
  std::vector<std::filesystem::path> candidates;
  for (const auto& entry : std::filesystem::directory_iterator(games))
    if (std::filesystem::is_regular_file(entry.path() / "kiln.toml")) candidates.push_back(entry.path() / "kiln.toml");
  std::sort(candidates.begin(), candidates.end());
  for (const auto& candidate : candidates) {
    // A cheap textual check first: only a config naming this hash can match.
    const std::vector<uint8_t> text = read_file(candidate, kiln::input::text);
    if (std::string_view(reinterpret_cast<const char*>(text.data()), text.size()).find(hash) != std::string_view::npos) return candidate;
  }
  return {};
}

} // namespace kiln::config
