#pragma once
// A 32-bit little-endian MIPS executable (ELFCLASS32, EM_MIPS, ET_EXEC: what `mipsel-linux-gnu-gcc -static`
// writes) as the recompiler sees it: entry point and loadable segments. The sibling of ElfFile, which reads
// 64-bit AArch64 files; both read through the shared ELF container (elf_container.h) and share Segment.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "recompiler/loaders/elf/elf_file.h"

namespace kiln::elf {

struct Elf32MipsProgram {
  std::string name;
  uint32_t entry = 0;
  std::vector<Segment> segments;           ///< PT_LOAD, in file order
  std::vector<std::vector<uint8_t>> data;  ///< the file bytes of each segment (file_size of them)
  uint32_t program_headers_address = 0;    ///< for AT_PHDR (0 when no segment maps them)
  uint16_t program_header_count = 0, program_header_size = 0;
  /// The lowest address of an SHF_EXECINSTR section (the segment before it holds the ELF and program headers);
  /// the entry point when the file has no section headers.
  uint32_t code_start = 0;
};

/// True when `bytes` start with an ELF header of class 32 and machine EM_MIPS (either byte order).
bool is_elf32_mips(std::span<const uint8_t> bytes);

/// Parses a static little-endian MIPS32 executable; anything else (big endian, a shared object, a segment
/// outside the file, an entry point outside the executable segments) is a kiln::Error naming file and offset.
Elf32MipsProgram parse_elf32_mips(std::span<const uint8_t> bytes, std::string name);

} // namespace kiln::elf
