#include "tests/translator/sm86/nvdisasm_listing.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>

#include "runtime/base/error.h"

namespace kiln::sass::sm86::testing {

std::string normalise_text(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space && c != ';') out += ' ';
    space = false;
    out += c;
  }
  while (!out.empty() && (out.back() == ';' || out.back() == ' ')) out.pop_back();
  // nvdisasm writes some operands with a space before the comma ("+INF , PT")
  for (size_t at; (at = out.find(" ,")) != std::string::npos;) out.erase(at, 1);
  return out;
}

std::vector<ListedInstruction> read_nvdisasm_listing(const std::filesystem::path& path, ListingLayout layout) {
  std::ifstream in(path);
  if (!in) throw Error(in_file(path.string()), "cannot open the listing");
  // "        /*0040*/                   IPA.PASS R7, a[0x324] ;    /* 0x000000ff00077326 */"
  static const std::regex instruction(R"(^\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$)");
  static const std::regex high_word(R"(^\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$)");
  // Maxwell's second instruction of a dual-issue pair: "/*0098*/   LDG.E R2, [R2]   }" (its word on the next line)
  static const std::regex pair_end(R"(^\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*\}\s*$)");
  static const std::regex function(R"(^\s*\.text\.([A-Za-z_0-9$.]+):\s*$)");
  static const std::regex label(R"(^\s*([.$A-Za-z_][\w.$]*):\s*$)");
  static const std::regex directive(R"(^\s*\.[a-z]+\s.*$)");
  std::map<std::string, uint64_t> label_offsets;
  std::vector<std::string> pending_labels;
  std::vector<ListedInstruction> listed;
  std::string current_function;
  std::string line;
  size_t line_number = 0;
  const bool maxwell = layout == ListingLayout::maxwell;
  bool want_word = false;  // the line after holds the rest of the last instruction's word
  auto add = [&](const std::smatch& match) {
    ListedInstruction entry;
    entry.function = current_function;
    entry.offset = std::stoull(match[1].str(), nullptr, 16);
    std::string text = match[2].str();
    if (maxwell && text.starts_with('{')) text.erase(0, 1);
    // Annotations such as (*"BRANCH_TARGETS .L_x_1"*) are not part of the instruction.
    for (size_t open; (open = text.find("(*")) != std::string::npos;) {
      const size_t close = text.find("*)", open);
      text.erase(open, close == std::string::npos ? std::string::npos : close + 2 - open);
    }
    entry.text = normalise_text(text);
    for (const auto& name : pending_labels) label_offsets[name] = entry.offset;
    pending_labels.clear();
    listed.push_back(std::move(entry));
  };
  while (std::getline(in, line)) {
    ++line_number;
    std::smatch match;
    if (want_word && maxwell && std::regex_match(line, match, label)) {
      pending_labels.push_back(match[1].str());  // a label between a pair's text and its word names what follows
    } else if (want_word && maxwell && std::regex_match(line, directive)) {
      // a subroutine's directives can also stand between them (the pair ends at the subroutine's start)
    } else if (want_word) {
      if (!std::regex_match(line, match, high_word)) {
        throw Error(in_file(path.string()), fmt::format("line {}: expected the rest of an instruction's word", line_number));
      }
      (maxwell ? listed.back().word.low : listed.back().word.high) = std::stoull(match[1].str(), nullptr, 16);
      want_word = false;
    } else if (std::regex_match(line, match, instruction)) {
      add(match);
      listed.back().word.low = std::stoull(match[3].str(), nullptr, 16);
      want_word = !maxwell;
    } else if (maxwell && std::regex_match(line, match, pair_end)) {
      add(match);
      want_word = true;
    } else if (std::regex_match(line, match, function)) {
      current_function = match[1].str();
      pending_labels.push_back(current_function);  // RET targets name the function itself
    } else if (std::regex_match(line, match, label)) {
      pending_labels.push_back(match[1].str());
    }
  }
  // Branch and call targets in cubin listings are labels ("BRA `(.L_x_3)", "CALL.REL.NOINC `($__internal_0_...)");
  // kiln prints offsets, so name them by offset.
  static const std::regex label_reference(R"(`\(([^)]+)\))");
  for (auto& entry : listed) {
    std::smatch match;
    while (std::regex_search(entry.text, match, label_reference)) {
      auto it = label_offsets.find(match[1].str());
      if (it == label_offsets.end()) throw Error(in_file(path.string()), "branch to undefined label " + match[1].str());
      entry.text.replace(static_cast<size_t>(match.position(0)), static_cast<size_t>(match.length(0)), fmt::format("0x{:x}", it->second));
    }
  }
  return listed;
}

bool replace_relocated_operands(std::string& text) {
  bool replaced = false;
  for (size_t at; (at = text.find("32@")) != std::string::npos;) {
    const size_t open = text.find('(', at);
    if (open == std::string::npos) break;
    size_t close = open, depth = 0;
    for (; close < text.size(); ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')' && --depth == 0) break;
    }
    if (close == text.size()) break;
    text.replace(at, close + 1 - at, "0x0");
    replaced = true;
  }
  return replaced;
}

std::vector<std::filesystem::path> cuda118_cubins(std::string_view folder) {
  const auto path = std::filesystem::path(KILN_SOURCE_DIR) / "tests" / "translator" / "fixtures" / "cuda11.8" / folder;
  if (!std::filesystem::is_directory(path)) throw Error(in_file(path.string()), "no such fixture folder");
  std::vector<std::filesystem::path> cubins;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    if (entry.path().extension() == ".cubin") cubins.push_back(entry.path());
  }
  std::sort(cubins.begin(), cubins.end());
  return cubins;
}

} // namespace kiln::sass::sm86::testing
