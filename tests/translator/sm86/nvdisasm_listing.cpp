#include "tests/translator/sm86/nvdisasm_listing.h"

#include <fmt/format.h>

#include <fstream>
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
  return out;
}

std::vector<ListedInstruction> read_nvdisasm_listing(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw Error(in_file(path.string()), "cannot open the listing");
  // "        /*0040*/                   IPA.PASS R7, a[0x324] ;    /* 0x000000ff00077326 */"
  static const std::regex instruction(R"(^\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$)");
  static const std::regex high_word(R"(^\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$)");
  static const std::regex function(R"(^\s*\.text\.([A-Za-z_0-9$.]+):\s*$)");
  std::vector<ListedInstruction> listed;
  std::string current_function;
  std::string line;
  size_t line_number = 0;
  bool want_high = false;
  while (std::getline(in, line)) {
    ++line_number;
    std::smatch match;
    if (want_high) {
      if (!std::regex_match(line, match, high_word)) {
        throw Error(in_file(path.string()), fmt::format("line {}: expected the high 64 bits of an instruction", line_number));
      }
      listed.back().word.high = std::stoull(match[1].str(), nullptr, 16);
      want_high = false;
    } else if (std::regex_match(line, match, instruction)) {
      ListedInstruction entry;
      entry.function = current_function;
      entry.offset = std::stoull(match[1].str(), nullptr, 16);
      entry.text = normalise_text(match[2].str());
      entry.word.low = std::stoull(match[3].str(), nullptr, 16);
      listed.push_back(std::move(entry));
      want_high = true;
    } else if (std::regex_match(line, match, function)) {
      current_function = match[1].str();
    }
  }
  return listed;
}

} // namespace kiln::sass::sm86::testing
