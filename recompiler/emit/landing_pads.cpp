#include "recompiler/emit/landing_pads.h"

#include <fmt/format.h>

#include <map>
#include <string>

#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::emit {
namespace {

// DWARF pointer encodings (DW_EH_PE_*): the low nibble is the format, bits 4-6 what the value is relative to,
// bit 7 an indirection.
constexpr uint8_t pe_omit = 0xff, pe_absptr = 0x00, pe_uleb128 = 0x01, pe_udata2 = 0x02, pe_udata4 = 0x03,
                  pe_udata8 = 0x04, pe_sleb128 = 0x09, pe_sdata2 = 0x0a, pe_sdata4 = 0x0b, pe_sdata8 = 0x0c,
                  pe_pcrel = 0x10, pe_indirect = 0x80;

/// A section's bytes with the guest address of their start, read through ByteReader.
struct SectionReader {
  ByteReader reader;
  uint64_t address;

  uint64_t here() const { return address + reader.position(); }

  uint64_t uleb() {
    uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      const uint8_t byte = reader.u8();
      if (shift < 64) value |= uint64_t{byte & 0x7fu} << shift;
      if (!(byte & 0x80)) return value;
    }
  }
  int64_t sleb() {
    uint64_t value = 0;
    unsigned shift = 0;
    uint8_t byte;
    do {
      byte = reader.u8();
      if (shift < 64) value |= uint64_t{byte & 0x7fu} << shift;
      shift += 7;
    } while (byte & 0x80);
    if (shift < 64 && (byte & 0x40)) value |= ~uint64_t{0} << shift;
    return static_cast<int64_t>(value);
  }

  /// A value in `encoding` (not pe_omit); pc-relative values are made absolute, indirect ones dereferenced.
  uint64_t pointer(uint8_t encoding, const elf::ElfFile& elf) {
    const size_t field = reader.position();
    const uint64_t field_address = here();
    uint64_t value;
    switch (encoding & 0x0f) {
    case pe_absptr: value = reader.u64(); break;
    case pe_uleb128: value = uleb(); break;
    case pe_udata2: value = reader.u16(); break;
    case pe_udata4: value = reader.u32(); break;
    case pe_udata8: value = reader.u64(); break;
    case pe_sleb128: value = static_cast<uint64_t>(sleb()); break;
    case pe_sdata2: value = static_cast<uint64_t>(int64_t{reader.s16()}); break;
    case pe_sdata4: value = static_cast<uint64_t>(int64_t{reader.s32()}); break;
    case pe_sdata8: value = reader.u64(); break;
    default: reader.fail_at(field, fmt::format("unsupported DWARF pointer encoding {:#x}", encoding));
    }
    switch (encoding & 0x70) {
    case 0: break;
    case pe_pcrel: value += field_address; break;
    default: reader.fail_at(field, fmt::format("unsupported DWARF pointer application {:#x}", encoding & 0x70));
    }
    if (encoding & pe_indirect) {
      const std::vector<uint8_t> bytes = elf.read_memory(value, 8);
      value = load<uint64_t>(bytes.data(), Endian::little);
    }
    return value;
  }
};

struct Cie {
  uint8_t fde_encoding = pe_absptr;
  uint8_t lsda_encoding = pe_omit;
  bool has_augmentation_data = false;
};

const elf::Section* section_named(const elf::ElfFile& elf, std::string_view name) {
  for (const elf::Section& s : elf.sections())
    if (s.name == name && s.type != 8 /* SHT_NOBITS */) return &s;
  return nullptr;
}

SectionReader reader_for(const elf::ElfFile& elf, const elf::Section& section) {
  const ByteReader file(elf.bytes(), elf.name());
  return {file.sub_reader(section.file_offset, section.size), section.address};
}

Cie parse_cie(SectionReader& in, const elf::ElfFile& elf) {
  Cie cie;
  const uint8_t version = in.reader.u8();
  const std::string augmentation(in.reader.c_string());
  if (augmentation.find("eh") != std::string::npos) in.reader.skip(8);
  in.uleb(); // code alignment
  in.sleb(); // data alignment
  if (version == 1) in.reader.u8();
  else in.uleb(); // return address register
  if (augmentation.empty() || augmentation[0] != 'z') return cie;
  cie.has_augmentation_data = true;
  const uint64_t length = in.uleb();
  const size_t data_end = in.reader.position() + length;
  for (char letter : augmentation.substr(1)) {
    if (letter == 'L') cie.lsda_encoding = in.reader.u8();
    else if (letter == 'R') cie.fde_encoding = in.reader.u8();
    else if (letter == 'P') in.pointer(in.reader.u8(), elf); // personality routine
    else if (letter != 'S' && letter != 'B' && letter != 'G') break; // unknown: the length lets us skip the rest
  }
  in.reader.seek(data_end);
  return cie;
}

/// The landing pads of one LSDA (the call-site table of a function's exception region).
void parse_lsda(const elf::ElfFile& elf, const elf::Section& table, uint64_t lsda, uint64_t function_start, std::set<uint64_t>& pads) {
  if (lsda < table.address || lsda - table.address >= table.size)
    throw Error(at_address(elf.name(), lsda), "LSDA outside .gcc_except_table");
  SectionReader in = reader_for(elf, table);
  in.reader.seek(lsda - table.address);
  uint64_t landing_pad_base = function_start;
  if (const uint8_t encoding = in.reader.u8(); encoding != pe_omit) landing_pad_base = in.pointer(encoding, elf);
  if (in.reader.u8() != pe_omit) in.uleb(); // type table offset
  const uint8_t call_site_encoding = in.reader.u8();
  const uint64_t table_length = in.uleb();
  const size_t table_end = in.reader.position() + table_length;
  while (in.reader.position() < table_end) {
    in.pointer(call_site_encoding, elf); // call-site start
    in.pointer(call_site_encoding, elf); // length
    const uint64_t landing_pad = in.pointer(call_site_encoding, elf);
    in.uleb(); // action
    if (landing_pad != 0) pads.insert(landing_pad_base + landing_pad);
  }
}

} // namespace

std::set<uint64_t> find_landing_pads(const elf::ElfFile& elf) {
  std::set<uint64_t> pads;
  const elf::Section* eh_frame = section_named(elf, ".eh_frame");
  const elf::Section* except_table = section_named(elf, ".gcc_except_table");
  if (!eh_frame || !except_table) return pads;
  SectionReader in = reader_for(elf, *eh_frame);
  std::map<size_t, Cie> cies; // by the offset of their length field
  while (in.reader.remaining() >= 4) {
    const size_t record = in.reader.position();
    uint64_t length = in.reader.u32();
    if (length == 0) break; // terminator
    if (length == 0xffffffff) length = in.reader.u64();
    const size_t content = in.reader.position();
    if (length > in.reader.remaining()) in.reader.fail_at(record, ".eh_frame record runs past the section");
    const uint32_t cie_pointer = in.reader.u32();
    if (cie_pointer == 0) {
      cies[record] = parse_cie(in, elf);
    } else {
      const auto cie = cies.find(content - cie_pointer);
      if (cie_pointer > content || cie == cies.end()) in.reader.fail_at(content, "FDE names no CIE before it");
      const uint64_t start = in.pointer(cie->second.fde_encoding, elf);
      in.pointer(cie->second.fde_encoding & 0x0f, elf); // address range
      if (cie->second.has_augmentation_data) {
        const uint64_t data_length = in.uleb();
        const size_t data_end = in.reader.position() + data_length;
        if (cie->second.lsda_encoding != pe_omit)
          if (const uint64_t lsda = in.pointer(cie->second.lsda_encoding, elf)) parse_lsda(elf, *except_table, lsda, start, pads);
        in.reader.seek(data_end);
      }
    }
    in.reader.seek(content + length);
  }
  return pads;
}

} // namespace kiln::emit
