#pragma once
// Writing DOLs (the layout in recompiler/loaders/dol/dol.h) from linked PowerPC ELF executables, and the
// Dolphin-format map of the ELF's symbols that goes with them (a DOL carries no symbols).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::gamecube::writer {

struct DolSectionInput {
  std::string from;      ///< the ELF sections it holds (for messages): ".init+.text"
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

struct DolInput {
  std::vector<DolSectionInput> text, data; ///< at most 7 and 11
  uint32_t bss_address = 0, bss_size = 0;
  uint32_t entry = 0;
};

/// The DOL's sections from an ELF executable's SHF_ALLOC sections: code to text, the rest to data, sections of
/// a kind that follow each other within 32 bytes merged into one (the gap zero), sizes padded to words; the BSS
/// from the lowest to the highest SHT_NOBITS section. Throws kiln::Error naming the ELF and the section when
/// the result cannot be a DOL (too many ranges of a kind, an address outside MEM1 or off a word).
DolInput dol_input_from_elf(std::span<const uint8_t> elf_bytes, const std::string& name);
/// The file: the header, then each section at the next 32-byte file offset. Checked by reading it back.
std::vector<uint8_t> write_dol(const DolInput& input);
/// The ELF's function and object symbols as a Dolphin map (".text section layout" for code, ".data section
/// layout" for the rest: "address size address 0 name" rows).
std::string dolphin_map_from_elf(std::span<const uint8_t> elf_bytes, const std::string& name);

} // namespace kiln::gamecube::writer
