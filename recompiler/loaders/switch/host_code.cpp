#include "recompiler/loaders/switch/host_code.h"

#include <Zydis/Zydis.h>
#include <fmt/format.h>

#include <cctype>

#include "runtime/base/elf_container.h"
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
  const elf::Container container(executable, file);
  const ByteReader reader = container.reader();
  if (!container.header().is_64 || container.header().machine != elf::em_x86_64) reader.fail_at(18, "not an x86-64 ELF executable");
  const std::vector<elf::SectionHeader> sections = container.section_headers();
  for (const elf::SectionHeader& symtab : sections) {
    if (symtab.type != elf::sht_symtab) continue;
    for (const elf::SymbolEntry& symbol : container.symbols(sections, symtab)) {
      if (symbol.type() != elf::stt_func || !names(symbol.name, name)) continue;
      if (symbol.section == 0 || symbol.section >= sections.size())
        reader.fail_at(symbol.entry_offset + 6, fmt::format("{} is not defined in a section", symbol.name));
      const elf::SectionHeader& code = sections[symbol.section];
      if (symbol.value < code.address || symbol.value - code.address > code.size || symbol.size > code.size - (symbol.value - code.address))
        reader.fail_at(symbol.entry_offset + 8, fmt::format("{} [{:#x}, +{:#x}) lies outside its section", symbol.name, symbol.value, symbol.size));
      const auto bytes = reader.span_at(code.file_offset + (symbol.value - code.address), symbol.size);
      return HostFunction{symbol.name, symbol.value, std::vector<uint8_t>(bytes.begin(), bytes.end())};
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
