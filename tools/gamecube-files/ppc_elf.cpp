#include "tools/gamecube-files/ppc_elf.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::gamecube::writer {

PpcElf::PpcElf(std::span<const uint8_t> bytes, std::string name, uint16_t type) : container(bytes, std::move(name)) {
  const elf::FileHeader& h = container.header();
  const ByteReader r = container.reader();
  if (h.is_64 || h.byte_order != Endian::big) r.fail_at(4, "not a 32-bit big-endian ELF (the GameCube's PowerPC is both)");
  if (h.machine != elf::em_ppc) r.fail_at(18, fmt::format("ELF machine {} is not PowerPC ({})", h.machine, elf::em_ppc));
  if (h.type != type)
    r.fail_at(16, fmt::format("ELF type {} is not {}", h.type, type == elf::et_exec ? "an executable (2): link it first" : "a relocatable object (1)"));
  sections = container.section_headers();
  for (const elf::SectionHeader& s : sections)
    if (s.type == elf::sht_symtab) symbols = container.symbols(sections, s);
}

std::span<const uint8_t> PpcElf::bytes_of(const elf::SectionHeader& section) const {
  if (section.type == elf::sht_nobits) return {};
  return container.bytes().subspan(section.file_offset, section.size);
}

bool is_loaded(const elf::SectionHeader& section) { return (section.flags & elf::shf_alloc) && section.size != 0; }

} // namespace kiln::gamecube::writer
