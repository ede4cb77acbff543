#include "runtime/base/elf_container.h"

#include <fmt/format.h>

namespace kiln::elf {
namespace {

constexpr uint8_t class_32 = 1, class_64 = 2, data_little = 1, data_big = 2;

/// Entry sizes of each class (the tables may use larger entries, never smaller).
struct ClassLayout {
  uint32_t file_header, program_header, section_header, symbol;
};
constexpr ClassLayout layout_32{52, 32, 40, 16}, layout_64{64, 56, 64, 24};

uint64_t word(ByteReader& r, bool is_64) { return is_64 ? r.u64() : r.u32(); }

} // namespace

bool is_elf(std::span<const uint8_t> bytes, bool is_64, uint16_t machine) {
  if (bytes.size() < 20 || bytes[0] != 0x7F || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F') return false;
  if (bytes[4] != (is_64 ? class_64 : class_32)) return false;
  const uint16_t found = bytes[5] == data_big ? static_cast<uint16_t>(bytes[18] << 8 | bytes[19])
                                              : static_cast<uint16_t>(bytes[18] | bytes[19] << 8);
  return found == machine;
}

Container::Container(std::span<const uint8_t> bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {
  ByteReader r(bytes_, name_);
  if (r.size() < 4 || r.peek_at<uint32_t>(0) != 0x464c457fu) r.fail_at(0, "not an ELF file (bad magic)");
  if (r.size() < 6) r.fail_at(0, fmt::format("ELF header truncated: file has {} bytes", r.size()));
  const uint8_t cls = r.peek_at<uint8_t>(4), data = r.peek_at<uint8_t>(5);
  if (cls != class_32 && cls != class_64) r.fail_at(4, fmt::format("ELF class {} is neither 32-bit (1) nor 64-bit (2)", cls));
  if (data != data_little && data != data_big) r.fail_at(5, fmt::format("ELF data encoding {} is neither little (1) nor big endian (2)", data));
  header_.is_64 = cls == class_64;
  header_.byte_order = data == data_big ? Endian::big : Endian::little;
  const ClassLayout& layout = header_.is_64 ? layout_64 : layout_32;
  if (r.size() < layout.file_header)
    r.fail_at(0, fmt::format("ELF header truncated: file has {} bytes, header needs {}", r.size(), layout.file_header));
  r.set_endian(header_.byte_order);
  r.seek(16);
  header_.type = r.u16();
  header_.machine = r.u16();
  r.skip(4); // version
  header_.entry = word(r, header_.is_64);
  header_.program_headers_offset = word(r, header_.is_64);
  header_.section_headers_offset = word(r, header_.is_64);
  header_.flags = r.u32();
  r.skip(2); // ehsize
  header_.program_header_size = r.u16();
  header_.program_header_count = r.u16();
  header_.section_header_size = r.u16();
  header_.section_header_count = r.u16();
  header_.section_names_index = r.u16();
}

std::vector<ProgramHeader> Container::program_headers() const {
  const ByteReader r = reader();
  const ClassLayout& layout = header_.is_64 ? layout_64 : layout_32;
  if (header_.program_header_count != 0 && header_.program_header_size < layout.program_header)
    r.fail_at(program_header_size_field_offset(),
              fmt::format("program header size {} is smaller than {}", header_.program_header_size, layout.program_header));
  std::vector<ProgramHeader> headers;
  for (uint16_t i = 0; i < header_.program_header_count; ++i) {
    const uint64_t at = header_.program_headers_offset + uint64_t{i} * header_.program_header_size;
    if (at > r.size()) r.fail_at(header_.is_64 ? 0x20 : 28, fmt::format("program header {} at offset {:#x} is past the end", i, at));
    ByteReader entry = r.sub_reader(at, layout.program_header);
    ProgramHeader h;
    h.header_offset = at;
    h.type = entry.u32();
    if (header_.is_64) {
      h.flags = entry.u32();
      h.file_offset = entry.u64();
      h.address = entry.u64();
      entry.skip(8); // paddr
      h.file_size = entry.u64();
      h.memory_size = entry.u64();
      h.alignment = entry.u64();
    } else {
      h.file_offset = entry.u32();
      h.address = entry.u32();
      entry.skip(4); // paddr
      h.file_size = entry.u32();
      h.memory_size = entry.u32();
      h.flags = entry.u32();
      h.alignment = entry.u32();
    }
    headers.push_back(h);
  }
  return headers;
}

std::vector<SectionHeader> Container::section_headers() const {
  const uint16_t count = header_.section_header_count;
  if (header_.section_headers_offset == 0 || count == 0) return {};
  const ByteReader r = reader();
  const ClassLayout& layout = header_.is_64 ? layout_64 : layout_32;
  if (header_.section_header_size < layout.section_header)
    r.fail_at(section_header_size_field_offset(),
              fmt::format("section header size {} is smaller than {}", header_.section_header_size, layout.section_header));
  if (header_.section_names_index >= count)
    r.fail_at(section_header_size_field_offset() + 4,
              fmt::format("section name index {} is not below the section count {}", header_.section_names_index, count));
  std::vector<SectionHeader> sections;
  std::vector<uint32_t> name_offsets;
  for (uint16_t i = 0; i < count; ++i) {
    const uint64_t at = header_.section_headers_offset + uint64_t{i} * header_.section_header_size;
    if (at > r.size()) r.fail_at(header_.is_64 ? 0x28 : 32, fmt::format("section header {} at offset {:#x} is past the end", i, at));
    ByteReader entry = r.sub_reader(at, layout.section_header);
    SectionHeader s;
    s.header_offset = at;
    name_offsets.push_back(entry.u32());
    s.type = entry.u32();
    s.flags = word(entry, header_.is_64);
    s.address = word(entry, header_.is_64);
    s.file_offset = word(entry, header_.is_64);
    s.size = word(entry, header_.is_64);
    s.link = entry.u32();
    s.info = entry.u32();
    s.alignment = word(entry, header_.is_64);
    s.entry_size = word(entry, header_.is_64);
    if (s.type != sht_nobits && s.type != 0 && (s.file_offset > bytes_.size() || s.size > bytes_.size() - s.file_offset))
      entry.fail_at(header_.is_64 ? 0x18 : 0x10, fmt::format("section {}: range {:#x}+{:#x} is outside the file", i, s.file_offset, s.size));
    sections.push_back(std::move(s));
  }
  const SectionHeader& names = sections[header_.section_names_index];
  ByteReader name_reader = r.sub_reader(names.file_offset, names.size);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (name_offsets[i] >= name_reader.size())
      name_reader.fail_at(0, fmt::format("section name offset {:#x} is outside the name table", name_offsets[i]));
    name_reader.seek(name_offsets[i]);
    sections[i].name = std::string(name_reader.c_string());
  }
  return sections;
}

std::vector<SymbolEntry> Container::symbols(const std::vector<SectionHeader>& sections, const SectionHeader& symtab) const {
  const ByteReader r = reader();
  if (symtab.link >= sections.size()) r.fail_at(symtab.header_offset + (header_.is_64 ? 0x28 : 0x18), "symbol table links to a missing string table");
  const SectionHeader& strtab = sections[symtab.link];
  const ByteReader table = r.sub_reader(symtab.file_offset, symtab.size);
  ByteReader strings = r.sub_reader(strtab.file_offset, strtab.size);
  const uint32_t entry_size = (header_.is_64 ? layout_64 : layout_32).symbol;
  std::vector<SymbolEntry> symbols;
  for (uint64_t at = 0; at + entry_size <= symtab.size; at += entry_size) {
    ByteReader entry = table.sub_reader(at, entry_size);
    SymbolEntry s;
    s.entry_offset = symtab.file_offset + at;
    const uint32_t name_offset = entry.u32();
    if (header_.is_64) {
      s.info = entry.u8();
      s.other = entry.u8();
      s.section = entry.u16();
      s.value = entry.u64();
      s.size = entry.u64();
    } else {
      s.value = entry.u32();
      s.size = entry.u32();
      s.info = entry.u8();
      s.other = entry.u8();
      s.section = entry.u16();
    }
    if (name_offset >= strings.size()) strings.fail_at(0, fmt::format("symbol name offset {:#x} is outside the string table", name_offset));
    strings.seek(name_offset);
    s.name = std::string(strings.c_string());
    symbols.push_back(std::move(s));
  }
  return symbols;
}

std::vector<RelocationEntry> Container::relocations(const SectionHeader& section) const {
  const ByteReader r = reader();
  const bool with_addend = section.type == sht_rela;
  if (!with_addend && section.type != sht_rel)
    r.fail_at(section.header_offset + 4, fmt::format("section '{}' is not a relocation section (type {})", section.name, section.type));
  const uint32_t entry_size = (header_.is_64 ? 8u : 4u) * (with_addend ? 3u : 2u);
  const ByteReader table = r.sub_reader(section.file_offset, section.size);
  std::vector<RelocationEntry> entries;
  for (uint64_t at = 0; at + entry_size <= section.size; at += entry_size) {
    ByteReader entry = table.sub_reader(at, entry_size);
    RelocationEntry e;
    e.entry_offset = section.file_offset + at;
    e.offset = word(entry, header_.is_64);
    const uint64_t info = word(entry, header_.is_64);
    // ELF32 packs the symbol above an 8-bit type, ELF64 above a 32-bit one.
    e.type = static_cast<uint32_t>(header_.is_64 ? info & 0xffffffffu : info & 0xffu);
    e.symbol = static_cast<uint32_t>(header_.is_64 ? info >> 32 : info >> 8);
    if (with_addend) e.addend = header_.is_64 ? entry.s64() : entry.s32();
    entries.push_back(e);
  }
  return entries;
}

} // namespace kiln::elf
