#include "recompiler/loaders/elf/elf_file.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/byte_reader.h"

namespace kiln::elf {
namespace {

constexpr uint32_t pt_load = 1, pt_phdr = 6, pt_tls = 7;
constexpr uint32_t sht_symtab = 2, sht_nobits = 8, sht_init_array = 14, sht_fini_array = 15, sht_preinit_array = 16;
constexpr uint16_t et_exec = 2, et_dyn = 3, em_aarch64 = 183;

} // namespace

ElfFile::ElfFile(std::span<const uint8_t> bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {
  ByteReader reader(bytes_, name_);
  if (reader.size() < 4 || reader.peek_at<uint32_t>(0) != 0x464c457fu) reader.fail_at(0, "not an ELF file (bad magic)");
  if (reader.size() < 64) reader.fail_at(0, fmt::format("ELF header truncated: file has {} bytes, header needs 64", reader.size()));
  reader.seek(4);
  if (const uint8_t cls = reader.u8(); cls != 2) reader.fail_at(4, fmt::format("ELF class {} is not 64-bit (2)", cls));
  if (const uint8_t data = reader.u8(); data != 1) reader.fail_at(5, fmt::format("ELF data encoding {} is not little-endian (1)", data));
  reader.seek(16);
  const uint16_t type = reader.u16();
  if (type != et_exec && type != et_dyn) reader.fail_at(16, fmt::format("ELF type {} is not an executable", type));
  const uint16_t machine = reader.u16();
  if (machine != em_aarch64) reader.fail_at(18, fmt::format("ELF machine {} is not AArch64 ({})", machine, em_aarch64));
  reader.skip(4); // version
  entry_ = reader.u64();
  const uint64_t phoff = reader.u64();
  const uint64_t shoff = reader.u64();
  reader.skip(4 + 2); // flags, ehsize
  phentsize_ = reader.u16();
  phnum_ = reader.u16();
  const uint16_t shentsize = reader.u16();
  const uint16_t shnum = reader.u16();
  const uint16_t shstrndx = reader.u16();
  if (type == et_dyn) reader.fail_at(16, "position-independent (ET_DYN) executables are not supported yet; link with -static -no-pie");
  parse_program_headers(phoff, phnum_, phentsize_);
  if (shoff != 0 && shnum != 0) parse_sections(shoff, shnum, shentsize, shstrndx);
  if (!segment_at(entry_) || !segment_at(entry_)->executable())
    throw Error(at_address(name_, entry_), "entry point is not inside an executable segment");
}

void ElfFile::parse_program_headers(uint64_t offset, uint16_t count, uint16_t entry_size) {
  ByteReader reader(bytes_, name_);
  if (count == 0) reader.fail_at(0x38, "ELF has no program headers");
  if (entry_size < 56) reader.fail_at(0x36, fmt::format("program header size {} is smaller than 56", entry_size));
  for (uint16_t i = 0; i < count; ++i) {
    const uint64_t at = offset + uint64_t{i} * entry_size;
    if (at > reader.size()) reader.fail_at(0x20, fmt::format("program header {} at offset {:#x} is past the end", i, at));
    ByteReader header = reader.sub_reader(at, 56);
    const uint32_t p_type = header.u32();
    const uint32_t p_flags = header.u32();
    Segment s;
    s.file_offset = header.u64();
    s.address = header.u64();
    header.skip(8); // paddr
    s.file_size = header.u64();
    s.memory_size = header.u64();
    const uint64_t alignment = header.u64();
    s.flags = p_flags;
    if (p_type == pt_load || p_type == pt_tls) {
      if (s.file_size > s.memory_size) header.fail_at(0x20, fmt::format("segment {}: file size {:#x} exceeds memory size {:#x}", i, s.file_size, s.memory_size));
      if (s.file_offset > bytes_.size() || s.file_size > bytes_.size() - s.file_offset)
        header.fail_at(0x8, fmt::format("segment {}: file range {:#x}+{:#x} is outside the file ({:#x} bytes)", i, s.file_offset, s.file_size, bytes_.size()));
      if (s.address + s.memory_size < s.address || s.address + s.memory_size > (uint64_t{1} << 40))
        header.fail_at(0x10, fmt::format("segment {}: address range {:#x}+{:#x} is outside the supported 40-bit space", i, s.address, s.memory_size));
    }
    if (p_type == pt_load) segments_.push_back(s);
    else if (p_type == pt_tls) tls_ = TlsTemplate{s.address, s.file_size, s.memory_size, std::max<uint64_t>(alignment, 1)};
    else if (p_type == pt_phdr) phdr_address_ = s.address;
  }
  if (segments_.empty()) reader.fail_at(offset, "ELF has no loadable segment");
  std::sort(segments_.begin(), segments_.end(), [](const Segment& a, const Segment& b) { return a.address < b.address; });
  for (size_t i = 1; i < segments_.size(); ++i)
    if (segments_[i].address < segments_[i - 1].address + segments_[i - 1].memory_size)
      throw Error(at_address(name_, segments_[i].address), "loadable segments overlap");
  if (phdr_address_ == 0) {
    // No PT_PHDR (static executables): the headers are mapped where the segment covering their file offset is.
    for (const Segment& s : segments_)
      if (offset >= s.file_offset && offset - s.file_offset < s.file_size) phdr_address_ = s.address + (offset - s.file_offset);
  }
}

void ElfFile::parse_sections(uint64_t offset, uint16_t count, uint16_t entry_size, uint16_t names_index) {
  ByteReader reader(bytes_, name_);
  if (entry_size < 64) reader.fail_at(0x3a, fmt::format("section header size {} is smaller than 64", entry_size));
  if (names_index >= count) reader.fail_at(0x3e, fmt::format("section name index {} is not below the section count {}", names_index, count));
  struct Raw { uint32_t name, type; uint64_t flags, address, offset, size; uint32_t link; };
  std::vector<Raw> raw;
  for (uint16_t i = 0; i < count; ++i) {
    const uint64_t at = offset + uint64_t{i} * entry_size;
    if (at > reader.size()) reader.fail_at(0x28, fmt::format("section header {} at offset {:#x} is past the end", i, at));
    ByteReader header = reader.sub_reader(at, 64);
    Raw r;
    r.name = header.u32();
    r.type = header.u32();
    r.flags = header.u64();
    r.address = header.u64();
    r.offset = header.u64();
    r.size = header.u64();
    r.link = header.u32();
    if (r.type != sht_nobits && r.type != 0 && (r.offset > bytes_.size() || r.size > bytes_.size() - r.offset))
      header.fail_at(0x18, fmt::format("section {}: range {:#x}+{:#x} is outside the file", i, r.offset, r.size));
    raw.push_back(r);
  }
  const Raw& names = raw[names_index];
  ByteReader name_reader = reader.sub_reader(names.offset, names.size);
  for (const Raw& r : raw) {
    Section s;
    if (r.name >= name_reader.size()) name_reader.fail_at(0, fmt::format("section name offset {:#x} is outside the name table", r.name));
    name_reader.seek(r.name);
    s.name = std::string(name_reader.c_string());
    s.address = r.address;
    s.file_offset = r.offset;
    s.size = r.size;
    s.type = r.type;
    s.flags = r.flags;
    sections_.push_back(std::move(s));
  }
  for (size_t i = 0; i < raw.size(); ++i) {
    const Raw& r = raw[i];
    if (r.type == sht_symtab) {
      if (r.link >= raw.size()) reader.fail_at(offset + i * entry_size + 0x28, "symbol table links to a missing string table");
      parse_symbols(sections_[i], sections_[r.link]);
    } else if (r.type == sht_init_array || r.type == sht_preinit_array) {
      for (uint64_t f : read_pointer_array(sections_[i])) init_functions_.push_back(f);
    } else if (r.type == sht_fini_array) {
      fini_functions_ = read_pointer_array(sections_[i]);
    }
  }
}

void ElfFile::parse_symbols(const Section& symtab, const Section& strtab) {
  ByteReader table(bytes_, name_);
  ByteReader table_range = table.sub_reader(symtab.file_offset, symtab.size);
  ByteReader strings = table.sub_reader(strtab.file_offset, strtab.size);
  for (uint64_t at = 0; at + 24 <= symtab.size; at += 24) {
    table_range.seek(at);
    const uint32_t name_offset = table_range.u32();
    const uint8_t info = table_range.u8();
    table_range.skip(1 + 2);
    Symbol s;
    s.address = table_range.u64();
    s.size = table_range.u64();
    const uint8_t type = info & 0xf;
    if (type != 1 && type != 2) continue; // keep OBJECT and FUNC
    s.is_function = type == 2;
    if (name_offset >= strings.size()) strings.fail_at(0, fmt::format("symbol name offset {:#x} is outside the string table", name_offset));
    strings.seek(name_offset);
    s.name = std::string(strings.c_string());
    symbols_.push_back(std::move(s));
  }
}

std::vector<uint64_t> ElfFile::read_pointer_array(const Section& section) const {
  std::vector<uint64_t> pointers;
  ByteReader reader = ByteReader(bytes_, name_).sub_reader(section.file_offset, section.size);
  while (reader.remaining() >= 8) pointers.push_back(reader.u64());
  return pointers;
}

const Segment* ElfFile::segment_at(uint64_t address) const {
  for (const Segment& s : segments_)
    if (s.contains(address)) return &s;
  return nullptr;
}

std::span<const uint8_t> ElfFile::segment_bytes(const Segment& segment) const {
  return bytes_.subspan(segment.file_offset, segment.file_size);
}

std::vector<uint8_t> ElfFile::read_memory(uint64_t address, uint64_t size) const {
  const Segment* s = segment_at(address);
  if (!s || size > s->memory_size - (address - s->address))
    throw Error(at_address(name_, address), fmt::format("{} bytes at this address are not inside one loaded segment", size));
  std::vector<uint8_t> out(size, 0);
  const uint64_t start = address - s->address;
  for (uint64_t i = 0; i < size; ++i)
    if (start + i < s->file_size) out[i] = bytes_[s->file_offset + start + i];
  return out;
}

} // namespace kiln::elf
