// kiln's Gekko decoder against GNU objdump -d -M750cl (binutils 2.40): the listings are made at build time
// (tests/ppc/CMakeLists.txt) from every_row.s and from random_words.cpp's words.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "recompiler/isa/ppc/decoder.h"

using namespace kiln;

namespace {

struct Line {
  uint32_t address = 0, word = 0;
  std::string text; ///< objdump's, whitespace between mnemonic and operands collapsed; ".long ..." if unknown
  std::string comment; ///< what the source line said after '#' (every_row.s only)
};

std::vector<Line> read_listing(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<Line> lines;
  const std::regex pattern(R"(^\s*([0-9a-f]+):\t([0-9a-f]{2}) ([0-9a-f]{2}) ([0-9a-f]{2}) ([0-9a-f]{2}) \t(\S+)\s*(.*?)\s*$)");
  std::string s;
  while (std::getline(in, s)) {
    std::smatch m;
    if (!std::regex_match(s, m, pattern)) continue;
    Line line;
    line.address = static_cast<uint32_t>(std::stoul(m[1], nullptr, 16));
    for (int i = 2; i <= 5; ++i) line.word = line.word << 8 | static_cast<uint32_t>(std::stoul(m[i], nullptr, 16));
    line.text = m[7].length() ? m[6].str() + " " + m[7].str() : m[6].str();
    lines.push_back(std::move(line));
  }
  return lines;
}

bool objdump_unknown(const Line& line) { return line.text.rfind(".long", 0) == 0; }
std::string mnemonic_of(const std::string& text) { return text.substr(0, text.find(' ')); }

/// Words objdump -M750cl decodes that kiln rejects, each for a reason the manuals give.
const char* why_kiln_rejects(const Line& line) {
  const std::string m = mnemonic_of(line.text);
  const unsigned primary = line.word >> 26, xo = (line.word >> 1) & 0x3FF, bo = (line.word >> 21) & 31;
  // bcctr decrementing CTR (PEM bcctr: an invalid form).
  if (primary == 19 && xo == 528 && (bo & 4) == 0) return "bcctr decrementing CTR";
  // L = 1 selects a 64-bit compare, an invalid form on a 32-bit processor (PEM cmp/cmpi/cmpl/cmpli).
  if ((primary == 11 || primary == 10 || (primary == 31 && (xo == 0 || xo == 32))) && ((line.word >> 21) & 1))
    return "64-bit compare (L = 1)";
  // 750CL UM, psq_lu/psq_lux/psq_stu/psq_stux: "If rA = 0, the instruction form is invalid."
  if ((primary == 57 || primary == 61 || (primary == 4 && (((line.word >> 1) & 63) == 38 || ((line.word >> 1) & 63) == 39))) &&
      ((line.word >> 16) & 31) == 0)
    return "paired-single update with rA = 0";
  // PEM lswi: "If rA is in the range of registers to be loaded ... the instruction form is invalid" (objdump
  // does not check).
  if (primary == 31 && xo == 597) {
    const unsigned d = (line.word >> 21) & 31, a = (line.word >> 16) & 31, nb = (line.word >> 11) & 31;
    if (((a - d) & 31) < ((nb == 0 ? 32 : nb) + 3) / 4) return "lswi with rA among the registers loaded";
  }
  // The 750CL implements neither square root (750CL UM, "Instruction Set": fsqrt/fsqrts not supported).
  if (m == "fsqrt" || m == "fsqrt." || m == "fsqrts" || m == "fsqrts.") return "no square root on the 750CL";
  return nullptr;
}

void compare(const std::string& path, size_t& decoded_count) {
  const ppc::Decoder decoder;
  const std::vector<Line> lines = read_listing(path);
  REQUIRE(lines.size() > 100);
  std::map<std::string, int> rejected_reasons;
  for (const Line& line : lines) {
    const ppc::Instruction insn = decoder.decode(line.word, line.address);
    INFO(std::hex << line.address << ": " << line.word << " objdump '" << line.text << "' kiln '" << insn.text << "'");
    // The rows' patterns are disjoint: no word matches two of them.
    int matching_rows = 0;
    for (const ppc::Encoding& row : ppc::encodings()) matching_rows += row.matches(line.word);
    CHECK(matching_rows <= 1);
    if (objdump_unknown(line)) {
      // mftb: the 750CL has it (750CL UM, "mftb"), binutils' 750cl dialect does not. Branches whose BO sets a
      // z bit: the processor ignores those bits (PEM "BO Operand Encodings"), objdump declines some of them.
      if (insn.decoded) {
        const unsigned primary = line.word >> 26, xo = (line.word >> 1) & 0x3FF, bo = (line.word >> 21) & 31;
        const bool branch = primary == 16 || (primary == 19 && (xo == 16 || xo == 528));
        const bool z_bits = !(bo <= 5 || (bo >= 8 && bo <= 13) || (bo >= 16 && bo <= 20));
        CHECK((insn.opcode == ppc::Opcode::mftb || (branch && z_bits)));
      }
      continue;
    }
    if (!insn.decoded) {
      const char* reason = why_kiln_rejects(line);
      CHECK(reason != nullptr);
      if (reason) ++rejected_reasons[reason];
      continue;
    }
    ++decoded_count;
    CHECK(insn.text == line.text);
    // Capstone 4.0.2 names every base-ISA form the same way, except the forms it does not decode: OE = 1,
    // mtfsb0./mtfsb1., and cmpi/cmpli with the reserved bit 22 set (which objdump and the table ignore).
    const ppc::Encoding& row = insn.encoding();
    const bool capstone_gap = row.beyond_capstone || (row.has(ppc::trait::has_oe) && (line.word & 0x400)) ||
                              ((row.opcode == ppc::Opcode::mtfsb0 || row.opcode == ppc::Opcode::mtfsb1) && (line.word & 1)) ||
                              ((row.opcode == ppc::Opcode::cmpi || row.opcode == ppc::Opcode::cmpli) && (line.word & 0x00400000));
    CHECK(insn.decoded_by_capstone == !capstone_gap);
  }
  for (const auto& [reason, count] : rejected_reasons) UNSCOPED_INFO(reason << ": " << count);
}

} // namespace

TEST_CASE("ppc objdump: every row assembled by as -mgekko decodes to the same text", "[ppc][decoder]") {
  size_t decoded = 0;
  compare(std::string(KILN_PPC_LISTINGS) + "/every_row.lst", decoded);
  // Every row of the table appears in every_row.s.
  const ppc::Decoder decoder;
  std::vector<bool> seen(static_cast<size_t>(ppc::Opcode::count));
  for (const Line& line : read_listing(std::string(KILN_PPC_LISTINGS) + "/every_row.lst")) {
    const ppc::Instruction insn = decoder.decode(line.word, line.address);
    if (insn.decoded) seen[static_cast<size_t>(insn.opcode)] = true;
  }
  for (const ppc::Encoding& row : ppc::encodings()) {
    INFO(row.mnemonic);
    CHECK(seen[static_cast<size_t>(row.opcode)]);
  }
}

TEST_CASE("ppc objdump: random operands of every row and random words decode as objdump decodes them", "[ppc][decoder]") {
  size_t decoded = 0;
  compare(std::string(KILN_PPC_LISTINGS) + "/random_words.lst", decoded);
  CHECK(decoded > 8000);
}
