#include "recompiler/loaders/switch/host_code.h"

#include <Zydis/Zydis.h>
#include <fmt/format.h>

#include <cctype>

#include "runtime/base/byte_reader.h"

namespace kiln::host {
namespace {

/// `name` as an Itanium-mangled name component ("8g_400080"), or the whole name (extern "C").
bool names(std::string_view symbol, const std::string& name) {
  if (symbol == name) return true;
  const std::string component = std::to_string(name.size()) + name;
  const size_t at = symbol.find(component);
  return at != std::string_view::npos && at > 0 && !std::isdigit(static_cast<unsigned char>(symbol[at - 1]));
}

} // namespace

std::optional<HostFunction> find_function(std::span<const uint8_t> executable, const std::string& file, const std::string& name) {
  const ByteReader reader(executable, file);
  if (reader.size() < 64 || reader.peek_at<uint32_t>(0) != 0x464c457fu) reader.fail_at(0, "not an ELF file (bad magic)");
  if (reader.peek_at<uint8_t>(4) != 2 || reader.peek_at<uint16_t>(18) != 62) reader.fail_at(18, "not an x86-64 ELF executable");
  const uint64_t section_headers = reader.peek_at<uint64_t>(0x28);
  const uint16_t entry_size = reader.peek_at<uint16_t>(0x3a), count = reader.peek_at<uint16_t>(0x3c);
  if (entry_size < 64) reader.fail_at(0x3a, fmt::format("section header size {} is smaller than 64", entry_size));
  struct Section { uint32_t type; uint64_t address, offset, size; uint32_t link; };
  std::vector<Section> sections;
  for (uint16_t i = 0; i < count; ++i) {
    const ByteReader header = reader.sub_reader(section_headers + uint64_t{i} * entry_size, 64);
    sections.push_back({header.peek_at<uint32_t>(4), header.peek_at<uint64_t>(0x10), header.peek_at<uint64_t>(0x18), header.peek_at<uint64_t>(0x20),
                        header.peek_at<uint32_t>(0x28)});
  }
  for (const Section& symtab : sections) {
    if (symtab.type != 2 || symtab.link >= sections.size()) continue; // SHT_SYMTAB
    const ByteReader symbols = reader.sub_reader(symtab.offset, symtab.size);
    const ByteReader strings = reader.sub_reader(sections[symtab.link].offset, sections[symtab.link].size);
    for (uint64_t at = 0; at + 24 <= symtab.size; at += 24) {
      if ((symbols.peek_at<uint8_t>(at + 4) & 0xf) != 2) continue; // STT_FUNC
      ByteReader name_reader = strings;
      name_reader.seek(symbols.peek_at<uint32_t>(at));
      const std::string_view symbol = name_reader.c_string();
      if (!names(symbol, name)) continue;
      HostFunction function{std::string(symbol), symbols.peek_at<uint64_t>(at + 8), {}};
      const uint64_t size = symbols.peek_at<uint64_t>(at + 16);
      const uint16_t section = symbols.peek_at<uint16_t>(at + 6);
      if (section == 0 || section >= sections.size()) symbols.fail_at(at + 6, fmt::format("{} is not defined in a section", symbol));
      const Section& code = sections[section];
      if (function.address < code.address || function.address - code.address > code.size || size > code.size - (function.address - code.address))
        symbols.fail_at(at + 8, fmt::format("{} [{:#x}, +{:#x}) lies outside its section", symbol, function.address, size));
      const auto bytes = reader.span_at(code.offset + (function.address - code.address), size);
      function.bytes.assign(bytes.begin(), bytes.end());
      return function;
    }
  }
  return std::nullopt;
}

std::vector<HostInstruction> disassemble_x86_64(std::span<const uint8_t> bytes, uint64_t address) {
  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZydisFormatter formatter;
  ZydisFormatterInit(&formatter, ZYDIS_FORMATTER_STYLE_INTEL);
  std::vector<HostInstruction> listing;
  ZydisDecodedInstruction instruction;
  ZydisDecodedOperand operands[ZYDIS_MAX_OPERAND_COUNT];
  for (size_t at = 0; at < bytes.size();) {
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, bytes.data() + at, bytes.size() - at, &instruction, operands))) {
      listing.push_back({address + at, fmt::format("(bad) {:02x}", bytes[at])});
      break;
    }
    char text[256];
    ZydisFormatterFormatInstruction(&formatter, &instruction, operands, instruction.operand_count_visible, text, sizeof text, address + at, ZYAN_NULL);
    listing.push_back({address + at, text});
    at += instruction.length;
  }
  return listing;
}

} // namespace kiln::host
