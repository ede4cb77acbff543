#pragma once
// The ELF container itself, for every reader of ELF files in kiln (guest executables of each ISA, the host
// executable `kiln inspect` disassembles): the file header, program headers, section headers with their names,
// and symbol tables, in either class (32/64-bit) and either byte order. It knows nothing of machines or
// segments' meaning; a view (ElfFile for guests, host_code for x86-64) checks what it needs on top. Every byte is
// read through kiln::ByteReader, so a truncated or inconsistent table is a kiln::Error naming file and offset.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/byte_reader.h"

namespace kiln::elf {

constexpr uint16_t et_rel = 1, et_exec = 2, et_dyn = 3;
constexpr uint16_t em_mips = 8, em_ppc = 20, em_x86_64 = 62, em_aarch64 = 183;
constexpr uint32_t pt_load = 1, pt_phdr = 6, pt_tls = 7;
constexpr uint32_t sht_progbits = 1, sht_symtab = 2, sht_rela = 4, sht_nobits = 8, sht_rel = 9, sht_init_array = 14,
                   sht_fini_array = 15, sht_preinit_array = 16;
constexpr uint64_t shf_write = 1, shf_alloc = 2, shf_execinstr = 4;
constexpr uint8_t stt_object = 1, stt_func = 2, stt_section = 3;
constexpr uint8_t stb_local = 0, stb_global = 1, stb_weak = 2;
constexpr uint16_t shn_undef = 0, shn_abs = 0xfff1, shn_common = 0xfff2;

struct FileHeader {
  bool is_64 = false;
  Endian byte_order = Endian::little;
  uint16_t type = 0, machine = 0;
  uint32_t flags = 0;
  uint64_t entry = 0;
  uint64_t program_headers_offset = 0, section_headers_offset = 0;
  uint16_t program_header_size = 0, program_header_count = 0;
  uint16_t section_header_size = 0, section_header_count = 0, section_names_index = 0;
};

struct ProgramHeader {
  uint32_t type = 0, flags = 0;
  uint64_t file_offset = 0, address = 0, file_size = 0, memory_size = 0, alignment = 0;
  uint64_t header_offset = 0; ///< where this entry is in the file (for messages)
};

struct SectionHeader {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, address = 0, file_offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t alignment = 0, entry_size = 0;
  uint64_t header_offset = 0; ///< where this entry is in the file (for messages)
  bool executable() const { return flags & shf_execinstr; }
};

struct SymbolEntry {
  std::string name;
  uint64_t value = 0, size = 0;
  uint8_t info = 0, other = 0;
  uint16_t section = 0;
  uint64_t entry_offset = 0; ///< where this entry is in the file (for messages)
  uint8_t type() const { return info & 0xf; }
  uint8_t binding() const { return info >> 4; }
};

/// One entry of a SHT_REL or SHT_RELA section (SHT_REL entries have no addend: it is 0 here, the field holds it).
struct RelocationEntry {
  uint64_t offset = 0; ///< r_offset: in a relocatable file, from the start of the section it patches
  uint32_t type = 0, symbol = 0;
  int64_t addend = 0;
  uint64_t entry_offset = 0; ///< where this entry is in the file (for messages)
};

class Container {
public:
  /// Reads and checks the file header (magic, class, byte order, header size). `bytes` must outlive the object.
  Container(std::span<const uint8_t> bytes, std::string name);

  const FileHeader& header() const { return header_; }
  const std::string& name() const { return name_; }
  std::span<const uint8_t> bytes() const { return bytes_; }
  /// A reader over the whole file in its byte order.
  ByteReader reader() const { return ByteReader(bytes_, name_, header_.byte_order); }
  /// Where the header fields are in this class (they move between ELF32 and ELF64), for messages.
  uint64_t program_header_size_field_offset() const { return header_.is_64 ? 0x36 : 42; }
  uint64_t section_header_size_field_offset() const { return header_.is_64 ? 0x3a : 46; }

  /// Every program header; an entry smaller than its class's size or past the end is an error.
  std::vector<ProgramHeader> program_headers() const;
  /// Every section header with its name (none when the file has no section table).
  std::vector<SectionHeader> section_headers() const;
  /// The entries of a symbol table section, names read from the section it links to.
  std::vector<SymbolEntry> symbols(const std::vector<SectionHeader>& sections, const SectionHeader& symtab) const;
  /// The entries of a SHT_REL or SHT_RELA section.
  std::vector<RelocationEntry> relocations(const SectionHeader& section) const;

private:
  std::span<const uint8_t> bytes_;
  std::string name_;
  FileHeader header_;
};

/// True when `bytes` start with an ELF header of the given class and machine (either byte order).
bool is_elf(std::span<const uint8_t> bytes, bool is_64, uint16_t machine);

} // namespace kiln::elf
