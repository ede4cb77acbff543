#pragma once
// Text the emitters put inside generated C++ source.
#include <string>
#include <string_view>

namespace kiln::emit {

/// `text` escaped for a C++ string literal (quotes and backslashes; guest disassembly text has nothing else).
inline std::string escape_string_literal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

} // namespace kiln::emit
