#pragma once
// DOL, the GameCube executable the apploader boots (YAGCD 14.2): a 0x100-byte big-endian header of three tables
// (file offset, load address, size) for 7 text and 11 data sections, the BSS range, the entry point, then the
// sections' bytes. A section of size 0 is unused. Every section must lie inside the file and inside MEM1, be
// word-aligned (4 bytes: instructions, and the DVD reads the apploader issues) and not overlap another; the BSS
// range may cover data sections (the SDK's linker puts .sdata/.sdata2 between .sbss and .bss): the image zero-fills
// only what no section covers. Malformed input is a kiln::Error naming the file and the header field's offset.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "recompiler/loaders/dol/guest_image.h"

namespace kiln::gamecube {

namespace dol_layout {
constexpr unsigned text_count = 7, data_count = 11, section_count = text_count + data_count;
constexpr uint32_t offsets_at = 0x00, addresses_at = 0x48, sizes_at = 0x90; ///< tables: text entries, then data
constexpr uint32_t bss_address_at = 0xd8, bss_size_at = 0xdc, entry_at = 0xe0;
constexpr uint32_t header_size = 0x100;
constexpr uint32_t section_alignment = 4;
} // namespace dol_layout

struct DolSection {
  bool is_text = false;
  unsigned index = 0;       ///< among its kind: text 0-6, data 0-10
  uint32_t file_offset = 0, address = 0, size = 0;
  std::string name() const; ///< "text0", "data10"
  /// Position of this section in the header tables (0-17), for the fields' offsets.
  unsigned table_slot() const { return is_text ? index : dol_layout::text_count + index; }
};

struct Dol {
  std::string name;                  ///< the file (for messages)
  std::vector<DolSection> sections;  ///< the used ones (size != 0), text before data, in table order
  uint32_t bss_address = 0, bss_size = 0;
  uint32_t entry = 0;
  uint32_t file_end = 0;             ///< the end of the last section's bytes (the DOL's size on a disc)
  GuestImage image;                  ///< sections and the uncovered BSS as segments, entered at `entry`
};

/// Parses and checks a DOL; `bytes` need not outlive the result (the image copies them).
Dol parse_dol(std::span<const uint8_t> bytes, std::string name);
/// True when `bytes` are a DOL parse_dol accepts (a DOL has no magic word: its checked header is what tells).
bool is_dol(std::span<const uint8_t> bytes);
/// Where a DOL whose header is `header` (at least 0x100 bytes) ends: the largest offset + size of its sections.
/// Used to read a DOL out of a disc image before parsing it; throws like parse_dol for a short header.
uint32_t dol_file_size(std::span<const uint8_t> header, const std::string& name);

} // namespace kiln::gamecube
