#pragma once
// Test tool: turns one of our AArch64 ELF fixtures (three PT_LOADs: text, rodata, data+bss, laid out as
// fixtures/sample.ld does) into an NSO (LZ4-compressed segments, SHA-256 hashes) or an NRO. It appends .dynamic,
// .dynsym, .dynstr and .rela.dyn at the end of the rodata segment, where the fixture's MOD0 header points, and
// emits an R_AARCH64_RELATIVE relocation for every data word that holds an address inside the module.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "recompiler/loaders/elf/elf_file.h"

namespace kiln::nx::testing {

/// The module image the writer lays out (segments from the ELF, plus the appended dynamic tables).
struct ModuleLayout {
  uint64_t base = 0;                 ///< the ELF's lowest segment address (module offset 0)
  std::vector<uint8_t> text, rodata, data;
  uint64_t rodata_offset = 0, data_offset = 0, bss_size = 0;
  uint64_t dynsym_offset = 0, dynsym_size = 0, dynstr_offset = 0, dynstr_size = 0; ///< from the module base
  std::vector<uint64_t> relative_relocations; ///< data words (module offsets) holding module addresses
};

ModuleLayout lay_out(const elf::ElfFile& elf);
std::vector<uint8_t> write_nso(const elf::ElfFile& elf);

/// A module of an ExeFS title is linked as a shared object (ET_DYN from address 0, fixtures/exefs/module.ld):
/// its three PT_LOADs become the segments as they are, with the linker's own .dynamic, .dynsym, .dynstr and
/// relocations (MOD0 points at _DYNAMIC); nothing is appended and no relocation is applied.
bool is_shared_object(std::span<const uint8_t> bytes);
ModuleLayout lay_out_shared_object(std::span<const uint8_t> bytes, const std::string& name);
std::vector<uint8_t> write_nso_from_shared_object(std::span<const uint8_t> bytes, const std::string& name);
/// The relocated words are stored as zero (the relocation's addend carries the value), as RELA linkers do.
std::vector<uint8_t> write_nro(const elf::ElfFile& elf);

} // namespace kiln::nx::testing
