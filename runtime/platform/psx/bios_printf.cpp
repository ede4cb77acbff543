// printf as the BIOS's A(3Fh) formats it: the C conversions homebrew uses, on 32-bit arguments.
#include <fmt/format.h>

#include "runtime/platform/psx/bios_hle.h"
#include "runtime/platform/psx/machine.h"

namespace kiln::psx {
namespace {

/// Longest string read from guest memory for %s (a missing terminator must not run through all of RAM).
constexpr unsigned max_string = 4096;

std::string guest_string(Machine& m, uint32_t address, int precision) {
  std::string s;
  if (address == 0) return "<NULL>";
  for (unsigned i = 0; i < max_string && (precision < 0 || static_cast<int>(i) < precision); ++i) {
    const char ch = static_cast<char>(m.read8(address + i));
    if (ch == 0) break;
    s += ch;
  }
  return s;
}

} // namespace

std::string Bios::format(Machine& m, uint32_t format_address, const std::function<uint32_t(unsigned)>& argument) {
  std::string out;
  unsigned next = 0;
  for (uint32_t p = format_address, n = 0; n < max_string; ++n) {
    char ch = static_cast<char>(m.read8(p++));
    if (ch == 0) break;
    if (ch != '%') { out += ch; continue; }
    bool left = false, zero = false, plus = false, space = false, alternate = false;
    for (ch = static_cast<char>(m.read8(p++));; ch = static_cast<char>(m.read8(p++))) {
      if (ch == '-') left = true;
      else if (ch == '0') zero = true;
      else if (ch == '+') plus = true;
      else if (ch == ' ') space = true;
      else if (ch == '#') alternate = true;
      else break;
    }
    int width = 0, precision = -1;
    if (ch == '*') { width = static_cast<int32_t>(argument(next++)); ch = static_cast<char>(m.read8(p++)); }
    while (ch >= '0' && ch <= '9') { width = width * 10 + (ch - '0'); ch = static_cast<char>(m.read8(p++)); }
    if (ch == '.') {
      precision = 0;
      ch = static_cast<char>(m.read8(p++));
      while (ch >= '0' && ch <= '9') { precision = precision * 10 + (ch - '0'); ch = static_cast<char>(m.read8(p++)); }
    }
    while (ch == 'l' || ch == 'h') ch = static_cast<char>(m.read8(p++));
    std::string body, prefix;
    switch (ch) {
      case 'd': case 'i': {
        const int32_t v = static_cast<int32_t>(argument(next++));
        body = std::to_string(v < 0 ? -int64_t{v} : int64_t{v});
        prefix = v < 0 ? "-" : plus ? "+" : space ? " " : "";
        break;
      }
      case 'u': body = std::to_string(argument(next++)); break;
      case 'x': body = fmt::format("{:x}", argument(next++)); if (alternate && body != "0") prefix = "0x"; break;
      case 'X': body = fmt::format("{:X}", argument(next++)); if (alternate && body != "0") prefix = "0X"; break;
      case 'o': body = fmt::format("{:o}", argument(next++)); if (alternate) prefix = "0"; break;
      case 'p': body = fmt::format("{:08x}", argument(next++)); break;
      case 'c': body = std::string(1, static_cast<char>(argument(next++))); break;
      case 's': body = guest_string(m, argument(next++), precision); precision = -1; break;
      case '%': out += '%'; continue;
      case 0: return out;
      default: out += '%'; out += ch; continue;
    }
    if (precision >= 0 && ch != 'c' && static_cast<int>(body.size()) < precision)
      body.insert(0, static_cast<size_t>(precision) - body.size(), '0');
    const int length = static_cast<int>(prefix.size() + body.size());
    if (width > length) {
      const size_t pad = static_cast<size_t>(width - length);
      if (left) body.append(pad, ' ');
      else if (zero && precision < 0) body.insert(0, pad, '0');
      else prefix.insert(0, pad, ' ');
    }
    out += prefix + body;
  }
  return out;
}

} // namespace kiln::psx
