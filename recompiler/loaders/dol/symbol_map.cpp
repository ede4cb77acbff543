#include "recompiler/loaders/dol/symbol_map.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>

#include "runtime/base/error.h"

namespace kiln::gamecube {
namespace {

constexpr std::string_view layout_suffix = " section layout";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// The next space-separated token of `rest` (which moves past it).
std::string_view token(std::string_view& rest) {
  size_t b = 0;
  while (b < rest.size() && (rest[b] == ' ' || rest[b] == '\t')) ++b;
  size_t e = b;
  while (e < rest.size() && rest[e] != ' ' && rest[e] != '\t') ++e;
  const std::string_view t = rest.substr(b, e - b);
  rest.remove_prefix(e);
  return t;
}

std::optional<uint32_t> number(std::string_view t, int base) {
  uint32_t value = 0;
  if (t.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value, base);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return value;
}

bool is_code_section(std::string_view section) { return section == ".init" || section == ".text" || section.starts_with(".text."); }

/// A layout block's column headings and rule ("  Starting        Virtual", "  address  Size   address", "  -----").
bool is_heading(std::string_view line) {
  const std::string_view t = trim(line);
  return t.starts_with("Starting") || t.starts_with("address") || (!t.empty() && t.find_first_not_of('-') == std::string_view::npos);
}

} // namespace

SymbolMap read_symbol_map(std::string_view text, const std::string& name) {
  SymbolMap map;
  std::string section;
  bool in_layout = false, saw_layout = false, any_codewarrior_row = false, any_row = false;
  bool with_file_offset = false; // this block's rows carry a file-offset column (CodeWarrior 2.x and later)
  unsigned line_number = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    const size_t line_offset = at;
    at = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto fail = [&](const std::string& message) {
      throw Error(at_offset(name, line_offset), fmt::format("line {}: {}", line_number, message));
    };
    const std::string_view trimmed = trim(line);
    if (trimmed.ends_with(layout_suffix) && !trimmed.starts_with("UNUSED")) {
      section = std::string(trimmed.substr(0, trimmed.size() - layout_suffix.size()));
      in_layout = saw_layout = true;
      with_file_offset = false;
      continue;
    }
    if (!in_layout) continue;
    if (trimmed.empty()) {
      in_layout = false; // a block ends at its blank line; what follows (memory map, linker symbols) is not read
      continue;
    }
    if (is_heading(line)) {
      if (trimmed.starts_with("Starting") && trimmed.find("File") != std::string_view::npos) with_file_offset = true;
      continue;
    }
    std::string_view rest = line;
    const std::string_view first = token(rest);
    if (first == "UNUSED") continue; // code the linker stripped: it has no address
    const auto start = number(first, 16);
    const auto size = number(token(rest), 16);
    const std::string_view vaddr_text = token(rest);
    const auto vaddr = number(vaddr_text, 16);
    if (!start || !size || !vaddr)
      fail(fmt::format("expected 'start size virtual-address [file-offset] alignment name' in section {}, found '{}'", section, trimmed));
    // Then: the file offset (in blocks whose heading has a File column), the alignment (absent on
    // "(entry of ...)" rows), and the name up to the tab before the object.
    const auto skip_if = [&](auto&& is_column) {
      std::string_view probe = rest;
      const std::string_view t = token(probe);
      if (is_column(t) && !trim(probe).empty()) rest = probe;
    };
    if (with_file_offset) skip_if([](std::string_view t) { return number(t, 16).has_value(); });
    skip_if([](std::string_view t) { return number(t, 10).has_value(); });
    MapSymbol symbol{.address = *vaddr, .size = *size, .section = section, .is_function = is_code_section(section), .line = line_number};
    const std::string_view name_and_object = rest;
    const size_t tab = name_and_object.find('\t');
    std::string_view symbol_name = trim(name_and_object.substr(0, tab));
    if (tab != std::string_view::npos) symbol.object = std::string(trim(name_and_object.substr(tab + 1)));
    if (const size_t entry_of = symbol_name.find(" (entry of "); entry_of != std::string_view::npos)
      symbol_name = trim(symbol_name.substr(0, entry_of));
    if (symbol_name.empty()) fail(fmt::format("row in section {} has no symbol name: '{}'", section, trimmed));
    any_row = true;
    if (*start != *vaddr) any_codewarrior_row = true;
    // A row naming the section itself is an object file's contribution to it, not a symbol.
    if (symbol_name == section || symbol_name == "*fill*") continue;
    symbol.name = std::string(symbol_name);
    map.symbols.push_back(std::move(symbol));
  }
  if (!saw_layout) throw Error(at_offset(name, 0), "not a CodeWarrior or Dolphin map: no '.text section layout' block");
  map.format = any_row && !any_codewarrior_row ? MapFormat::dolphin : MapFormat::codewarrior;
  return map;
}

} // namespace kiln::gamecube
