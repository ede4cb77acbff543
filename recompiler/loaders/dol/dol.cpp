#include "recompiler/loaders/dol/dol.h"

#include <fmt/format.h>

#include <algorithm>

#include "recompiler/loaders/dol/memory_map.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::gamecube {

std::string DolSection::name() const { return fmt::format("{}{}", is_text ? "text" : "data", index); }

namespace {

using namespace dol_layout;

struct RawSection {
  DolSection section;
  uint32_t offset_field = 0; ///< where this section's file-offset entry is in the header
};

std::vector<RawSection> read_table(const ByteReader& r) {
  std::vector<RawSection> rows;
  for (unsigned slot = 0; slot < section_count; ++slot) {
    RawSection row;
    row.section.is_text = slot < text_count;
    row.section.index = row.section.is_text ? slot : slot - text_count;
    row.offset_field = offsets_at + 4 * slot;
    row.section.file_offset = r.peek_at<uint32_t>(offsets_at + 4 * slot);
    row.section.address = r.peek_at<uint32_t>(addresses_at + 4 * slot);
    row.section.size = r.peek_at<uint32_t>(sizes_at + 4 * slot);
    rows.push_back(row);
  }
  return rows;
}

ByteReader header_reader(std::span<const uint8_t> bytes, const std::string& name) {
  ByteReader r(bytes, name, Endian::big);
  if (bytes.size() < header_size)
    r.fail_at(0, fmt::format("a DOL header is {:#x} bytes, but the file has only {:#x}", header_size, bytes.size()));
  return r;
}

void check_section(const ByteReader& r, const RawSection& row) {
  const DolSection& s = row.section;
  const uint32_t address_field = addresses_at + 4 * s.table_slot(), size_field = sizes_at + 4 * s.table_slot();
  if (s.file_offset < header_size)
    r.fail_at(row.offset_field, fmt::format("{} starts at file offset {:#x}, inside the {:#x}-byte header", s.name(), s.file_offset, header_size));
  if (uint64_t{s.file_offset} + s.size > r.size())
    r.fail_at(row.offset_field, fmt::format("{} [{:#x}, {:#x}) runs past the end of the file ({:#x} bytes)", s.name(), s.file_offset,
                                            uint64_t{s.file_offset} + s.size, r.size()));
  if (!mem1_offset(s.address, s.size))
    r.fail_at(address_field, fmt::format("{} at {:#x} (size {:#x}) is outside MEM1, which is {}", s.name(), s.address, s.size,
                                         mem1_ranges_text()));
  if (s.file_offset % section_alignment)
    r.fail_at(row.offset_field, fmt::format("{} file offset {:#x} is not a multiple of {}", s.name(), s.file_offset, section_alignment));
  if (s.address % section_alignment)
    r.fail_at(address_field, fmt::format("{} address {:#x} is not a multiple of {}", s.name(), s.address, section_alignment));
  if (s.size % section_alignment)
    r.fail_at(size_field, fmt::format("{} size {:#x} is not a multiple of {}", s.name(), s.size, section_alignment));
}

/// The parts of [begin, end) that no section covers, as physical MEM1 offsets.
std::vector<std::pair<uint32_t, uint32_t>> uncovered(uint32_t begin, uint32_t end, const std::vector<DolSection>& sections) {
  std::vector<std::pair<uint32_t, uint32_t>> covered;
  for (const DolSection& s : sections) covered.emplace_back(*mem1_offset(s.address, s.size), *mem1_offset(s.address, s.size) + s.size);
  std::sort(covered.begin(), covered.end());
  std::vector<std::pair<uint32_t, uint32_t>> gaps;
  uint32_t at = begin;
  for (const auto& [b, e] : covered) {
    if (e <= at || b >= end) continue;
    if (b > at) gaps.emplace_back(at, b);
    at = std::max(at, e);
  }
  if (at < end) gaps.emplace_back(at, end);
  return gaps;
}

} // namespace

bool is_dol(std::span<const uint8_t> bytes) {
  try {
    (void)parse_dol(bytes, "");
    return true;
  } catch (const Error&) {
    return false;
  }
}

uint32_t dol_file_size(std::span<const uint8_t> header, const std::string& name) {
  const ByteReader r = header_reader(header, name);
  uint64_t end = header_size;
  for (const RawSection& row : read_table(r))
    if (row.section.size != 0) end = std::max(end, uint64_t{row.section.file_offset} + row.section.size);
  if (end > 0xffffffffu) r.fail_at(0, "the DOL's sections end beyond 4 GiB");
  return static_cast<uint32_t>(end);
}

Dol parse_dol(std::span<const uint8_t> bytes, std::string name) {
  const ByteReader r = header_reader(bytes, name);
  Dol dol;
  dol.name = name;
  dol.image.name = name;
  dol.bss_address = r.peek_at<uint32_t>(bss_address_at);
  dol.bss_size = r.peek_at<uint32_t>(bss_size_at);
  dol.entry = r.peek_at<uint32_t>(entry_at);
  dol.file_end = header_size;
  for (const RawSection& row : read_table(r)) {
    const DolSection& s = row.section;
    if (s.size == 0) {
      if (s.file_offset != 0 || s.address != 0)
        dol.image.notes.push_back(fmt::format("{}: {} has size 0 (unused) but offset {:#x} and address {:#x}; ignored", name,
                                              s.name(), s.file_offset, s.address));
      continue;
    }
    check_section(r, row);
    ImageSegment segment{.name = s.name(), .address = s.address, .size = s.size,
                         .bytes = std::vector<uint8_t>(bytes.begin() + s.file_offset, bytes.begin() + s.file_offset + s.size),
                         .executable = s.is_text, .writable = !s.is_text, .source = name, .file_offset = s.file_offset};
    try {
      dol.image.add_segment(std::move(segment));
    } catch (const Error& e) { // name the header field rather than the section's bytes
      r.fail_at(row.offset_field, e.message());
    }
    dol.sections.push_back(s);
    dol.file_end = std::max(dol.file_end, s.file_offset + s.size);
  }
  if (std::none_of(dol.sections.begin(), dol.sections.end(), [](const DolSection& s) { return s.is_text; }))
    r.fail_at(sizes_at, "the DOL has no text section");
  if (dol.bss_size != 0) {
    const auto bss = mem1_offset(dol.bss_address, dol.bss_size);
    if (!bss)
      r.fail_at(bss_address_at, fmt::format("BSS at {:#x} (size {:#x}) is outside MEM1, which is {}", dol.bss_address, dol.bss_size,
                                            mem1_ranges_text()));
    const uint32_t mirror = dol.bss_address - *bss;
    unsigned part = 0;
    for (const auto& [begin, end] : uncovered(*bss, *bss + dol.bss_size, dol.sections))
      dol.image.add_segment({.name = part++ == 0 ? "bss" : fmt::format("bss{}", part - 1), .address = mirror + begin,
                             .size = end - begin, .writable = true});
  }
  const ImageSegment* at_entry = dol.image.segment_at(dol.entry);
  if (!at_entry || !at_entry->executable)
    r.fail_at(entry_at, fmt::format("entry point {:#x} is not inside a text section", dol.entry));
  dol.image.entry = dol.entry;
  return dol;
}

} // namespace kiln::gamecube
