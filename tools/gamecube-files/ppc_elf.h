#pragma once
// The 32-bit big-endian PowerPC ELF files the GameCube writers take (powerpc-linux-gnu-gcc/ld output): the
// container checked for class, byte order, machine and type, with its sections and symbol table read once.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/elf_container.h"

namespace kiln::gamecube::writer {

struct PpcElf {
  elf::Container container;
  std::vector<elf::SectionHeader> sections;
  std::vector<elf::SymbolEntry> symbols; ///< the .symtab (empty when there is none)

  /// Reads `bytes` (which must outlive the result); `type` is elf::et_exec or elf::et_rel.
  PpcElf(std::span<const uint8_t> bytes, std::string name, uint16_t type);
  const std::string& name() const { return container.name(); }
  /// A section's bytes from the file.
  std::span<const uint8_t> bytes_of(const elf::SectionHeader& section) const;
};

/// SHF_ALLOC sections with a size: what is loaded.
bool is_loaded(const elf::SectionHeader& section);

} // namespace kiln::gamecube::writer
