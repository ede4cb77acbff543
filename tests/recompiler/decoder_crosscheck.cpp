// Decoder cross-check: every instruction word of an ELF's executable sections is decoded by Capstone 4 and by
// LLVM MC (kiln's decoder); where both decode, the disassembly texts are normalised and compared, so a bug in
// either shows up as a disagreement. Prints a summary and the disagreement classes (by mnemonic pair).
#include <capstone/capstone.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cctype>
#include <map>
#include <regex>

#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace {

/// Lower case, no spaces, numbers in decimal, LLVM's "#0.50000000" style floats trimmed, comments dropped.
std::string normalise(std::string text) {
  if (auto c = text.find("//"); c != std::string::npos) text.resize(c);
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    if (ch == ' ' || ch == '\t') continue;
    if (ch == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
      size_t end = i + 2;
      while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
      out += std::to_string(std::stoull(text.substr(i + 2, end - i - 2), nullptr, 16));
      i = end - 1;
      continue;
    }
    out += ch;
  }
  static const std::regex trailing_zeros("(\\.[0-9]*?)0+(e|[^0-9e]|$)");
  out = std::regex_replace(out, trailing_zeros, "$1$2");
  static const std::regex bare_point("\\.(e|[^0-9a-z]|$)");
  return std::regex_replace(out, bare_point, "$1");
}

/// Capstone 4 prints some encodings by their base instruction where LLVM prints the preferred alias; both
/// name the same operation, so these pairs are rewritten to the alias before comparing.
std::pair<std::string, std::string> canonical(std::string mnemonic, std::string operands) {
  operands.erase(std::remove(operands.begin(), operands.end(), '#'), operands.end());
  if (mnemonic.size() == 3 && mnemonic[0] == 'b' && mnemonic != "bic" && mnemonic != "bfi" && mnemonic != "brk" && mnemonic != "blr" && mnemonic != "bit" && mnemonic != "bif" && mnemonic != "bsl" && mnemonic != "bti")
    mnemonic = "b." + mnemonic.substr(1); // Capstone: beq; LLVM: b.eq
  if (mnemonic == "movz" || mnemonic == "movn") { // MOVZ/MOVN #imm, lsl #s -> MOV #value
    static const std::regex form("([wx][0-9]+|[wx]zr),(-?[0-9]+)(,lsl([0-9]+))?");
    std::smatch m;
    if (std::regex_match(operands, m, form)) {
      uint64_t value = std::stoull(m[2].str()) << (m[4].matched ? std::stoi(m[4].str()) : 0);
      if (mnemonic == "movn") value = ~value;
      const bool w = m[1].str()[0] == 'w';
      operands = m[1].str() + "," + (w ? std::to_string(static_cast<int32_t>(value)) : std::to_string(static_cast<int64_t>(value)));
    }
    mnemonic = "mov";
  }
  if (mnemonic == "orr" && (operands.rfind("xzr,", 0) == 0 || operands.find(",xzr,") != std::string::npos || operands.find(",wzr,") != std::string::npos)) {
    mnemonic = "mov";
    const size_t zero = operands.find(",xzr") != std::string::npos ? operands.find(",xzr") : operands.find(",wzr");
    operands.erase(zero, 4);
  }
  if (mnemonic == "ins") mnemonic = "mov";
  // Hints Capstone 4 prints by number: XPACLRI = hint #7, AUTIA1716 = #12, AUTIB1716 = #14, BTI c = #34.
  static const std::map<std::string, std::string> hints = {{"7", "xpaclri"}, {"12", "autia1716"}, {"14", "autib1716"}, {"34", "bti"}};
  if (mnemonic == "hint" && hints.count(operands)) {
    mnemonic = hints.at(operands);
    operands = mnemonic == "bti" ? "c" : "";
  }
  // Capstone prints negative offsets as 64-bit unsigned numbers.
  static const std::regex big("(1[0-9]{19})");
  std::smatch match;
  while (std::regex_search(operands, match, big)) {
    const auto value = static_cast<int64_t>(std::stoull(match[1].str()));
    operands.replace(static_cast<size_t>(match.position(0)), static_cast<size_t>(match.length(0)), std::to_string(value));
  }
  return {mnemonic, operands};
}

std::pair<std::string, std::string> split(const std::string& text) {
  const size_t space = text.find_first_of(" \t");
  if (space == std::string::npos) return {normalise(text), ""};
  return {normalise(text.substr(0, space)), normalise(text.substr(space + 1))};
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: {} PROGRAM.elf [--max-disagreement-percent P] [--examples N]\n", argv[0]);
    return 2;
  }
  double max_percent = 100;
  size_t examples = 3;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--max-disagreement-percent") max_percent = std::stod(argv[i + 1]);
    if (std::string(argv[i]) == "--examples") examples = std::stoul(argv[i + 1]);
  }
  try {
    const auto bytes = kiln::read_file(argv[1]);
    const kiln::elf::ElfFile elf(bytes, argv[1]);
    const kiln::a64::Decoder llvm;
    csh capstone;
    if (cs_open(CS_ARCH_ARM64, CS_MODE_LITTLE_ENDIAN, &capstone) != CS_ERR_OK) throw kiln::Error("Capstone has no AArch64");
    size_t words = 0, llvm_only = 0, capstone_only = 0, neither = 0, both = 0, agree = 0;
    std::map<std::string, std::vector<std::string>> classes;
    for (const auto& section : elf.sections()) {
      if (!section.executable() || section.type == 8) continue;
      const auto code = elf.read_memory(section.address, section.size & ~uint64_t{3});
      for (size_t at = 0; at + 4 <= code.size(); at += 4, ++words) {
        const uint64_t address = section.address + at;
        const uint32_t word = uint32_t(code[at]) | uint32_t(code[at + 1]) << 8 | uint32_t(code[at + 2]) << 16 | uint32_t(code[at + 3]) << 24;
        const auto ours = llvm.decode(word, address);
        cs_insn* insn = nullptr;
        const size_t count = cs_disasm(capstone, code.data() + at, 4, address, 1, &insn);
        if (!ours.decoded && count == 0) { ++neither; continue; }
        if (!ours.decoded) { ++capstone_only; cs_free(insn, count); continue; }
        if (count == 0) { ++llvm_only; continue; }
        ++both;
        auto theirs = canonical(normalise(insn[0].mnemonic), normalise(insn[0].op_str));
        cs_free(insn, count);
        auto mine = canonical(split(ours.text).first, split(ours.text).second);
        if (theirs == mine) { ++agree; continue; }
        auto& list = classes[mine.first + " | " + theirs.first];
        if (list.size() < examples) list.push_back(fmt::format("{:#x} {:08x}: llvm '{} {}' capstone '{} {}'", address, word, mine.first, mine.second, theirs.first, theirs.second));
        else list.push_back({});
      }
    }
    cs_close(&capstone);
    const size_t disagree = both - agree;
    const double percent = both ? 100.0 * static_cast<double>(disagree) / static_cast<double>(both) : 0;
    fmt::print("{} words: both decode {}, agree {}, disagree {} ({:.2f}%); LLVM only {}, Capstone only {}, neither {}\n", words, both, agree,
               disagree, percent, llvm_only, capstone_only, neither);
    std::vector<std::pair<size_t, std::string>> ranked;
    for (const auto& [key, list] : classes) ranked.emplace_back(list.size(), key);
    std::sort(ranked.rbegin(), ranked.rend());
    for (const auto& [n, key] : ranked) {
      fmt::print("  {:6} {}\n", n, key);
      for (const auto& e : classes[key]) if (!e.empty()) fmt::print("         {}\n", e);
    }
    if (capstone_only > 0) fmt::print("FAIL: {} words Capstone decodes but LLVM MC does not\n", capstone_only);
    if (percent > max_percent) fmt::print("FAIL: disagreement {:.2f}% above {:.2f}%\n", percent, max_percent);
    return capstone_only > 0 || percent > max_percent ? 1 : 0;
  } catch (const kiln::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  }
}
