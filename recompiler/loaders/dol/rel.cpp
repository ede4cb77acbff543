#include "recompiler/loaders/dol/rel.h"

#include <fmt/format.h>

#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::gamecube {

uint32_t rel_layout::header_size(uint32_t version) {
  return version >= 3 ? header_size_v3 : version == 2 ? header_size_v2 : header_size_v1;
}

const char* rel_type::name(uint32_t type) {
  switch (type) {
  case ppc_none: return "R_PPC_NONE";
  case ppc_addr32: return "R_PPC_ADDR32";
  case ppc_addr24: return "R_PPC_ADDR24";
  case ppc_addr16: return "R_PPC_ADDR16";
  case ppc_addr16_lo: return "R_PPC_ADDR16_LO";
  case ppc_addr16_hi: return "R_PPC_ADDR16_HI";
  case ppc_addr16_ha: return "R_PPC_ADDR16_HA";
  case ppc_addr14: return "R_PPC_ADDR14";
  case ppc_addr14_brtaken: return "R_PPC_ADDR14_BRTAKEN";
  case ppc_addr14_brntaken: return "R_PPC_ADDR14_BRNTAKEN";
  case ppc_rel24: return "R_PPC_REL24";
  case ppc_rel14: return "R_PPC_REL14";
  case ppc_rel14_brtaken: return "R_PPC_REL14_BRTAKEN";
  case ppc_rel14_brntaken: return "R_PPC_REL14_BRNTAKEN";
  case dolphin_nop: return "R_DOLPHIN_NOP";
  case dolphin_section: return "R_DOLPHIN_SECTION";
  case dolphin_end: return "R_DOLPHIN_END";
  default: return nullptr;
  }
}

unsigned rel_type::width(uint32_t type) {
  switch (type) {
  case ppc_addr16: case ppc_addr16_lo: case ppc_addr16_hi: case ppc_addr16_ha: return 2;
  case ppc_addr32: case ppc_addr24: case ppc_addr14: case ppc_addr14_brtaken: case ppc_addr14_brntaken:
  case ppc_rel24: case ppc_rel14: case ppc_rel14_brtaken: case ppc_rel14_brntaken: return 4;
  default: return 0;
  }
}

std::optional<unsigned> RelModule::bss_section() const {
  for (const RelSection& s : sections)
    if (s.is_bss()) return s.index;
  return std::nullopt;
}

std::span<const uint8_t> RelModule::section_bytes(const RelSection& section) const {
  if (section.is_bss() || !section.used()) return {};
  return std::span<const uint8_t>(bytes).subspan(section.file_offset, section.size);
}

namespace {

void read_sections(const ByteReader& r, RelModule& m, uint32_t count_field) {
  const uint32_t count = r.peek_at<uint32_t>(count_field);
  const uint32_t header_end = rel_layout::header_size(m.version);
  if (uint64_t{m.section_table_offset} + uint64_t{count} * rel_layout::section_entry_size > r.size())
    r.fail_at(count_field, fmt::format("the section table ({} entries at {:#x}) runs past the end of the file ({:#x} bytes)", count,
                                       m.section_table_offset, r.size()));
  if (count != 0 && m.section_table_offset < header_end)
    r.fail_at(count_field + 4, fmt::format("the section table at {:#x} overlaps the {:#x}-byte header", m.section_table_offset, header_end));
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t at = m.section_table_offset + i * rel_layout::section_entry_size;
    const uint32_t packed = r.peek_at<uint32_t>(at);
    RelSection s{.index = i, .file_offset = packed & ~rel_layout::executable_flag, .size = r.peek_at<uint32_t>(at + 4),
                 .executable = (packed & rel_layout::executable_flag) != 0, .entry_offset = at};
    if (i == 0 && (s.file_offset != 0 || s.size != 0))
      r.fail_at(at, "section 0 is not empty (the loader never places section 0)");
    if (s.file_offset != 0) {
      if (s.file_offset < header_end)
        r.fail_at(at, fmt::format("section {} at {:#x} overlaps the {:#x}-byte header", i, s.file_offset, header_end));
      if (uint64_t{s.file_offset} + s.size > r.size())
        r.fail_at(at, fmt::format("section {} [{:#x}, {:#x}) runs past the end of the file ({:#x} bytes)", i, s.file_offset,
                                  uint64_t{s.file_offset} + s.size, r.size()));
    } else if (s.size != 0) {
      if (const auto earlier = m.bss_section())
        r.fail_at(at, fmt::format("section {} is a second .bss (section {} is one already)", i, *earlier));
      if (s.size != m.bss_size)
        r.fail_at(at + 4, fmt::format(".bss section {} has size {:#x}, but the header's bssSize is {:#x}", i, s.size, m.bss_size));
    }
    m.sections.push_back(s);
  }
  if (m.bss_size != 0 && !m.bss_section()) r.fail_at(0x20, fmt::format("bssSize is {:#x}, but no section is the .bss", m.bss_size));
}

RelEntryPoint read_entry_point(const ByteReader& r, const RelModule& m, uint32_t section_field, uint32_t offset_field, const char* what) {
  const RelEntryPoint e{.section = r.peek_at<uint8_t>(section_field), .offset = r.peek_at<uint32_t>(offset_field)};
  if (!e.present()) return e;
  if (e.section >= m.sections.size())
    r.fail_at(section_field, fmt::format("{} is in section {}, but the module has {} sections", what, e.section, m.sections.size()));
  const RelSection& s = m.sections[e.section];
  if (!s.executable || s.is_bss())
    r.fail_at(section_field, fmt::format("{} is in section {}, which is not an executable section with code", what, e.section));
  if (e.offset >= s.size)
    r.fail_at(offset_field, fmt::format("{} offset {:#x} is past the end of section {} ({:#x} bytes)", what, e.offset, e.section, s.size));
  return e;
}

/// Follows one import's relocation stream; `end` receives where it ends (past its R_DOLPHIN_END).
std::vector<RelRelocation> read_relocations(const ByteReader& r, const RelModule& m, const RelImport& import, uint64_t& end) {
  std::vector<RelRelocation> out;
  std::optional<uint8_t> section;
  uint64_t position = 0;
  for (uint64_t at = import.relocations_offset;; at += rel_layout::relocation_entry_size) {
    if (at + rel_layout::relocation_entry_size > r.size())
      r.fail_at(import.entry_offset, fmt::format("the relocations for module {} from {:#x} run past the end of the file ({:#x} bytes) "
                                                 "without an R_DOLPHIN_END", import.module_id, import.relocations_offset, r.size()));
    const uint16_t distance = r.peek_at<uint16_t>(at);
    const uint8_t type = r.peek_at<uint8_t>(at + 2), target = r.peek_at<uint8_t>(at + 3);
    const uint32_t addend = r.peek_at<uint32_t>(at + 4);
    if (type == rel_type::dolphin_end) {
      end = at + rel_layout::relocation_entry_size;
      break;
    }
    position += distance;
    if (type == rel_type::dolphin_section) {
      if (target >= m.sections.size() || !m.sections[target].used() || m.sections[target].is_bss())
        r.fail_at(at + 3, fmt::format("R_DOLPHIN_SECTION selects section {}, which is not a section with bytes in this module", target));
      section = target;
      position = 0;
      continue;
    }
    if (type == rel_type::dolphin_nop || type == rel_type::ppc_none) continue;
    if (!rel_type::name(type)) r.fail_at(at + 2, fmt::format("unknown relocation type {}", type));
    if (!section) r.fail_at(at, fmt::format("{} comes before any R_DOLPHIN_SECTION", rel_type::name(type)));
    const RelSection& s = m.sections[*section];
    if (position + rel_type::width(type) > s.size)
      r.fail_at(at, fmt::format("{} patches offset {:#x} of section {}, past its end ({:#x} bytes)", rel_type::name(type), position,
                                *section, s.size));
    out.push_back({.type = type, .section = *section, .offset = static_cast<uint32_t>(position), .target_section = target,
                   .addend = addend, .entry_offset = at});
  }
  return out;
}

} // namespace

RelModule parse_rel(std::span<const uint8_t> bytes, std::string name) {
  ByteReader r(bytes, name, Endian::big);
  RelModule m;
  m.name = name;
  if (r.size() < rel_layout::header_size_v1)
    r.fail_at(0, fmt::format("a REL header is at least {:#x} bytes, but the file has only {:#x}", rel_layout::header_size_v1, r.size()));
  m.id = r.peek_at<uint32_t>(0x00);
  if (r.peek_at<uint32_t>(0x04) != 0 || r.peek_at<uint32_t>(0x08) != 0 || r.peek_at<uint8_t>(0x33) != 0)
    r.fail_at(0x04, "the module-list links or bssSection are set: this is a module copied from memory after OSLink, not a REL file");
  m.version = r.peek_at<uint32_t>(0x1c);
  if (m.version < 1 || m.version > 3) r.fail_at(0x1c, fmt::format("REL version {} (kiln reads versions 1 to 3)", m.version));
  if (r.size() < rel_layout::header_size(m.version))
    r.fail_at(0, fmt::format("a version {} REL header is {:#x} bytes, but the file has only {:#x}", m.version,
                             rel_layout::header_size(m.version), r.size()));
  if (m.id == 0) r.fail_at(0x00, "module id 0 belongs to the DOL; a REL needs another");
  m.section_table_offset = r.peek_at<uint32_t>(0x10);
  m.name_offset = r.peek_at<uint32_t>(0x14);
  m.name_size = r.peek_at<uint32_t>(0x18);
  m.bss_size = r.peek_at<uint32_t>(0x20);
  m.relocations_offset = r.peek_at<uint32_t>(0x24);
  m.imports_offset = r.peek_at<uint32_t>(0x28);
  m.imports_size = r.peek_at<uint32_t>(0x2c);
  if (m.version >= 2) {
    m.align = r.peek_at<uint32_t>(0x40);
    m.bss_align = r.peek_at<uint32_t>(0x44);
    if (m.align != 0 && (m.align & (m.align - 1))) r.fail_at(0x40, fmt::format("align {:#x} is not a power of two", m.align));
    if (m.bss_align != 0 && (m.bss_align & (m.bss_align - 1)))
      r.fail_at(0x44, fmt::format("bssAlign {:#x} is not a power of two", m.bss_align));
  }
  if (m.version >= 3) m.fix_size = r.peek_at<uint32_t>(0x48);
  m.bytes.assign(bytes.begin(), bytes.end());
  read_sections(r, m, 0x0c);
  m.prolog = read_entry_point(r, m, 0x30, 0x34, "the prolog");
  m.epilog = read_entry_point(r, m, 0x31, 0x38, "the epilog");
  m.unresolved = read_entry_point(r, m, 0x32, 0x3c, "the unresolved handler");

  if (m.imports_size % rel_layout::import_entry_size)
    r.fail_at(0x2c, fmt::format("impSize {:#x} is not a multiple of {}", m.imports_size, rel_layout::import_entry_size));
  if (uint64_t{m.imports_offset} + m.imports_size > r.size())
    r.fail_at(0x28, fmt::format("the import table [{:#x}, {:#x}) runs past the end of the file ({:#x} bytes)", m.imports_offset,
                                uint64_t{m.imports_offset} + m.imports_size, r.size()));
  // Streams never share entries: checking that keeps reading linear in the file's size.
  std::vector<std::pair<uint64_t, uint64_t>> streams;
  for (uint32_t at = m.imports_offset; at < m.imports_offset + m.imports_size; at += rel_layout::import_entry_size) {
    RelImport import{.module_id = r.peek_at<uint32_t>(at), .relocations_offset = r.peek_at<uint32_t>(at + 4), .entry_offset = at};
    for (const RelImport& earlier : m.imports)
      if (earlier.module_id == import.module_id)
        r.fail_at(at, fmt::format("the import table lists module {} twice (OSLink applies only the first)", import.module_id));
    const auto overlap = [&](uint64_t begin, uint64_t end) {
      for (const auto& [b, e] : streams)
        if (begin < e && b < end)
          r.fail_at(at, fmt::format("the relocations for module {} [{:#x}, {:#x}) overlap another import's [{:#x}, {:#x})",
                                    import.module_id, begin, end, b, e));
    };
    overlap(import.relocations_offset, uint64_t{import.relocations_offset} + 1);
    uint64_t end = 0;
    import.relocations = read_relocations(r, m, import, end);
    overlap(import.relocations_offset, end);
    streams.emplace_back(import.relocations_offset, end);
    m.imports.push_back(std::move(import));
  }
  return m;
}

bool is_rel(std::span<const uint8_t> bytes) {
  try {
    (void)parse_rel(bytes, "");
    return true;
  } catch (const Error&) {
    return false;
  }
}

} // namespace kiln::gamecube
