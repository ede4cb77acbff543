#include "recompiler/loaders/elf/elf_file.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/elf_container.h"

namespace kiln::elf {

ElfFile::ElfFile(std::span<const uint8_t> bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {
  const Container container(bytes_, name_);
  const FileHeader& h = container.header();
  const ByteReader reader = container.reader();
  if (!h.is_64) reader.fail_at(4, "ELF class 1 is not 64-bit (2)");
  if (h.byte_order != Endian::little) reader.fail_at(5, "ELF data encoding 2 is not little-endian (1)");
  if (h.type != et_exec && h.type != et_dyn) reader.fail_at(16, fmt::format("ELF type {} is not an executable", h.type));
  if (h.machine != em_aarch64) reader.fail_at(18, fmt::format("ELF machine {} is not AArch64 ({})", h.machine, em_aarch64));
  entry_ = h.entry;
  phentsize_ = h.program_header_size;
  phnum_ = h.program_header_count;
  if (h.type == et_dyn) reader.fail_at(16, "position-independent (ET_DYN) executables are not supported yet; link with -static -no-pie");
  parse_program_headers(container);
  parse_sections(container);
  if (!segment_at(entry_) || !segment_at(entry_)->executable())
    throw Error(at_address(name_, entry_), "entry point is not inside an executable segment");
}

void ElfFile::parse_program_headers(const Container& container) {
  const ByteReader reader = container.reader();
  if (phnum_ == 0) reader.fail_at(0x38, "ELF has no program headers");
  for (const ProgramHeader& p : container.program_headers()) {
    Segment s{p.address, p.file_offset, p.file_size, p.memory_size, p.flags};
    const size_t i = static_cast<size_t>((p.header_offset - container.header().program_headers_offset) / phentsize_);
    const ByteReader header = reader.sub_reader(p.header_offset, 56);
    if (p.type == pt_load || p.type == pt_tls) {
      if (s.file_size > s.memory_size) header.fail_at(0x20, fmt::format("segment {}: file size {:#x} exceeds memory size {:#x}", i, s.file_size, s.memory_size));
      if (s.file_offset > bytes_.size() || s.file_size > bytes_.size() - s.file_offset)
        header.fail_at(0x8, fmt::format("segment {}: file range {:#x}+{:#x} is outside the file ({:#x} bytes)", i, s.file_offset, s.file_size, bytes_.size()));
      if (s.address + s.memory_size < s.address || s.address + s.memory_size > (uint64_t{1} << 40))
        header.fail_at(0x10, fmt::format("segment {}: address range {:#x}+{:#x} is outside the supported 40-bit space", i, s.address, s.memory_size));
    }
    if (p.type == pt_load) segments_.push_back(s);
    else if (p.type == pt_tls) tls_ = TlsTemplate{s.address, s.file_size, s.memory_size, std::max<uint64_t>(p.alignment, 1)};
    else if (p.type == pt_phdr) phdr_address_ = s.address;
  }
  const uint64_t offset = container.header().program_headers_offset;
  if (segments_.empty()) reader.fail_at(offset, "ELF has no loadable segment");
  std::sort(segments_.begin(), segments_.end(), [](const Segment& a, const Segment& b) { return a.address < b.address; });
  for (size_t i = 1; i < segments_.size(); ++i)
    if (segments_[i].address < segments_[i - 1].address + segments_[i - 1].memory_size)
      throw Error(at_address(name_, segments_[i].address), "loadable segments overlap");
  if (phdr_address_ == 0) {
    // No PT_PHDR (static executables): the headers are mapped where the segment covering their file offset is.
    for (const Segment& s : segments_)
      if (offset >= s.file_offset && offset - s.file_offset < s.file_size) phdr_address_ = s.address + (offset - s.file_offset);
  }
}

void ElfFile::parse_sections(const Container& container) {
  const std::vector<SectionHeader> headers = container.section_headers();
  for (const SectionHeader& h : headers) sections_.push_back(Section{h.name, h.address, h.file_offset, h.size, h.type, h.flags});
  for (const SectionHeader& h : headers) {
    if (h.type == sht_symtab) {
      for (const SymbolEntry& e : container.symbols(headers, h))
        if (e.type() == stt_object || e.type() == stt_func) symbols_.push_back(Symbol{e.name, e.value, e.size, e.type() == stt_func});
    } else if (h.type == sht_init_array || h.type == sht_preinit_array) {
      for (uint64_t f : read_pointer_array(h)) init_functions_.push_back(f);
    } else if (h.type == sht_fini_array) {
      fini_functions_ = read_pointer_array(h);
    }
  }
}

std::vector<uint64_t> ElfFile::read_pointer_array(const SectionHeader& section) const {
  std::vector<uint64_t> pointers;
  ByteReader reader = ByteReader(bytes_, name_).sub_reader(section.file_offset, section.size);
  while (reader.remaining() >= 8) pointers.push_back(reader.u64());
  return pointers;
}

const Segment* ElfFile::segment_at(uint64_t address) const {
  for (const Segment& s : segments_)
    if (s.contains(address)) return &s;
  return nullptr;
}

std::span<const uint8_t> ElfFile::segment_bytes(const Segment& segment) const {
  return bytes_.subspan(segment.file_offset, segment.file_size);
}

std::vector<uint8_t> ElfFile::read_memory(uint64_t address, uint64_t size) const {
  const Segment* s = segment_at(address);
  if (!s || size > s->memory_size - (address - s->address))
    throw Error(at_address(name_, address), fmt::format("{} bytes at this address are not inside one loaded segment", size));
  std::vector<uint8_t> out(size, 0);
  const uint64_t start = address - s->address;
  for (uint64_t i = 0; i < size; ++i)
    if (start + i < s->file_size) out[i] = bytes_[s->file_offset + start + i];
  return out;
}

} // namespace kiln::elf
