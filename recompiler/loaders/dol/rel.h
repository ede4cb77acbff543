#pragma once
// REL, the GameCube/Wii relocatable module (the SDK's makerel output, linked at run time by OSLink): a big-endian
// header (versions 1-3: module id, section table, import table, prolog/epilog/unresolved entry points, and from
// version 2 the alignment of the module and its .bss, from version 3 fixSize), a section table of (offset with
// the executable flag in bit 0, size) pairs mirroring the ELF it came from (offset 0 with a size: the one .bss;
// 0/0: unused), and per imported module a stream of 8-byte relocation entries: u16 distance from the previous
// one, u8 type, u8 target section, u32 addend. R_DOLPHIN_SECTION selects the section patched next (from its
// start), R_DOLPHIN_NOP only moves on, R_DOLPHIN_END ends the stream. Relocations against module 0 (the DOL)
// carry absolute addresses in their addend. Every table, stream and patched place is checked here; malformed
// input is a kiln::Error naming the file and the offset of the field or entry.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::gamecube {

namespace rel_layout {
constexpr uint32_t header_size_v1 = 0x40, header_size_v2 = 0x48, header_size_v3 = 0x4c;
constexpr uint32_t section_entry_size = 8, import_entry_size = 8, relocation_entry_size = 8;
constexpr uint32_t executable_flag = 1;
uint32_t header_size(uint32_t version);
} // namespace rel_layout

/// Relocation types of the PowerPC ELF ABI that a REL may carry, and the REL stream's own commands.
namespace rel_type {
constexpr uint8_t ppc_none = 0, ppc_addr32 = 1, ppc_addr24 = 2, ppc_addr16 = 3, ppc_addr16_lo = 4, ppc_addr16_hi = 5,
                  ppc_addr16_ha = 6, ppc_addr14 = 7, ppc_addr14_brtaken = 8, ppc_addr14_brntaken = 9, ppc_rel24 = 10,
                  ppc_rel14 = 11, ppc_rel14_brtaken = 12, ppc_rel14_brntaken = 13;
constexpr uint8_t dolphin_nop = 201, dolphin_section = 202, dolphin_end = 203;
/// "R_PPC_REL24", "R_DOLPHIN_END"; nullptr for a type kiln does not know.
const char* name(uint32_t type);
/// Bytes a relocation of `type` patches (2 or 4); 0 for R_PPC_NONE and the commands.
unsigned width(uint32_t type);
} // namespace rel_type

struct RelSection {
  unsigned index = 0;
  uint32_t file_offset = 0; ///< 0 for .bss and unused entries
  uint32_t size = 0;
  bool executable = false;
  uint64_t entry_offset = 0; ///< where this entry is in the file
  bool used() const { return size != 0; }
  bool is_bss() const { return file_offset == 0 && size != 0; }
};

/// One patch: at `offset` inside section `section` of this module, against `target_section` of the imported
/// module plus `addend` (for module 0 the addend is the absolute address, and the section is meaningless).
struct RelRelocation {
  uint8_t type = 0;
  uint8_t section = 0;
  uint32_t offset = 0;
  uint8_t target_section = 0;
  uint32_t addend = 0;
  uint64_t entry_offset = 0; ///< where this entry is in the file
};

struct RelImport {
  uint32_t module_id = 0;
  uint32_t relocations_offset = 0;
  std::vector<RelRelocation> relocations; ///< in stream order, commands resolved
  uint64_t entry_offset = 0;              ///< where this import-table entry is in the file
};

/// An entry point given by section and offset (prolog, epilog, unresolved); section 0 means none.
struct RelEntryPoint {
  uint8_t section = 0;
  uint32_t offset = 0;
  bool present() const { return section != 0; }
};

struct RelModule {
  std::string name;             ///< the file (for messages)
  uint32_t id = 0;
  uint32_t version = 0;
  uint32_t name_offset = 0, name_size = 0; ///< in the game's separate module-name string table
  uint32_t bss_size = 0;
  uint32_t section_table_offset = 0, relocations_offset = 0, imports_offset = 0, imports_size = 0;
  RelEntryPoint prolog, epilog, unresolved;
  uint32_t align = 0, bss_align = 0;  ///< version 2 and later; 0 otherwise (no constraint)
  std::optional<uint32_t> fix_size;   ///< version 3
  std::vector<RelSection> sections;   ///< every table entry, by index
  std::vector<RelImport> imports;     ///< in table order
  std::vector<uint8_t> bytes;         ///< the file

  std::optional<unsigned> bss_section() const;
  /// The bytes of a section that has them (not .bss).
  std::span<const uint8_t> section_bytes(const RelSection& section) const;
  /// The file's size: how many bytes the module occupies where the game loads it.
  uint32_t file_size() const { return static_cast<uint32_t>(bytes.size()); }
};

/// Parses and checks a REL (the bytes are copied).
RelModule parse_rel(std::span<const uint8_t> bytes, std::string name);
/// True when `bytes` are a REL parse_rel accepts (a REL has no magic word either).
bool is_rel(std::span<const uint8_t> bytes);

} // namespace kiln::gamecube
