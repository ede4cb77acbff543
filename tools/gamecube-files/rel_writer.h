#pragma once
// Writing REL modules (the layout in recompiler/loaders/dol/rel.h) from relocatable PowerPC ELF objects, as the
// SDK's makerel does: the REL's section table mirrors the object's section headers index for index (loaded
// sections with their bytes, the one SHT_NOBITS section as .bss, the rest empty), and each SHT_RELA entry becomes
// a relocation in the stream of the module that defines its symbol: this module for its own symbols, another
// module of the same set for theirs, module 0 with the absolute address for the DOL's (looked up in the DOL's
// linked ELF). _prolog, _epilog and _unresolved name the entry points. Version 3 lists other modules' imports
// first, then its own, then the DOL's, and fixSize marks where its own begin (what OSLinkFixed may discard);
// versions 1 and 2 list imports by module id.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::gamecube::writer {

struct RelObject {
  std::string name;           ///< the object file (for messages)
  std::span<const uint8_t> elf;
  uint32_t id = 0;            ///< its module id (not 0: that is the DOL)
};

/// One REL per object, in order. `dol_elf` is the linked executable the DOL was made from.
/// Throws kiln::Error naming the object and the offset of the section, symbol or relocation that cannot be
/// carried: a second .bss, a common symbol, a symbol defined nowhere, a relocation type a REL cannot hold.
std::vector<std::vector<uint8_t>> write_rels(std::span<const uint8_t> dol_elf, const std::string& dol_name,
                                             std::span<const RelObject> objects, uint32_t version = 3);

} // namespace kiln::gamecube::writer
