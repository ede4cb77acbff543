#pragma once
// A static 32-bit executable (ELFCLASS32, ET_EXEC: what `mipsel-linux-gnu-gcc -static` and
// `powerpc-linux-gnu-gcc -static` write) as the recompiler sees it: entry point and loadable segments. The
// sibling of ElfFile, which reads 64-bit AArch64 files; both read through the shared ELF container
// (elf_container.h) and share Segment.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/elf_container.h"
#include "recompiler/loaders/elf/elf_file.h"

namespace kiln::elf {

struct Elf32Program {
  std::string name;
  uint32_t entry = 0;
  std::vector<Segment> segments;           ///< PT_LOAD, in file order
  std::vector<std::vector<uint8_t>> data;  ///< the file bytes of each segment (file_size of them)
  uint32_t program_headers_address = 0;    ///< for AT_PHDR (0 when no segment maps them)
  uint16_t program_header_count = 0, program_header_size = 0;
  /// The lowest address of an SHF_EXECINSTR section (the segment before it holds the ELF and program headers);
  /// the entry point when the file has no section headers.
  uint32_t code_start = 0;
  /// One past the highest SHF_EXECINSTR section (.rodata and .eh_frame follow the code in its segment); 0 when
  /// the file has no section headers (then the code runs to the segment's end).
  uint32_t code_end = 0;
};

/// The machines kiln runs 32-bit executables of, with the byte order each must have.
struct Elf32Machine {
  uint16_t machine;   ///< EM_*
  Endian byte_order;
  const char* name;   ///< in messages ("little-endian MIPS")
};
inline constexpr Elf32Machine mipsel_machine{em_mips, Endian::little, "little-endian MIPS (mipsel)"};
inline constexpr Elf32Machine ppc32_machine{em_ppc, Endian::big, "32-bit big-endian PowerPC"};

/// Parses a static executable of `machine`; anything else (the other byte order, a shared object, a segment
/// outside the file, an entry point outside the executable segments) is a kiln::Error naming file and offset.
Elf32Program parse_elf32_program(std::span<const uint8_t> bytes, std::string name, const Elf32Machine& machine);

} // namespace kiln::elf
