#include "recompiler/loaders/elf/elf32_mips.h"

#include <fmt/format.h>

#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::elf {
namespace {

constexpr uint8_t elf_class_32 = 1, elf_data_little = 1; // ELFDATA2LSB
constexpr uint16_t elf_type_exec = 2, elf_machine_mips = 8;
constexpr uint32_t pt_load = 1, pt_phdr = 6;
constexpr uint32_t elf32_header_size = 52, elf32_phdr_size = 32;

} // namespace

bool is_elf32_mips(std::span<const uint8_t> bytes) {
  if (bytes.size() < 20 || bytes[0] != 0x7F || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F') return false;
  if (bytes[4] != elf_class_32) return false;
  const uint16_t machine = bytes[5] == elf_data_little ? static_cast<uint16_t>(bytes[18] | bytes[19] << 8)
                                                       : static_cast<uint16_t>(bytes[18] << 8 | bytes[19]);
  return machine == elf_machine_mips;
}

Elf32MipsProgram parse_elf32_mips(std::span<const uint8_t> bytes, std::string name) {
  ByteReader r(bytes, name);
  if (bytes.size() < elf32_header_size) throw Error(at_offset(name, 0), "not a 32-bit ELF file: shorter than its 52-byte header");
  if (!is_elf32_mips(bytes)) throw Error(at_offset(name, 0), "not a 32-bit MIPS ELF file");
  if (bytes[5] != elf_data_little) throw Error(at_offset(name, 5), "big-endian MIPS: kiln runs little-endian mipsel programs only");
  r.seek(16);
  if (const uint16_t type = r.u16(); type != elf_type_exec)
    throw Error(at_offset(name, 16), fmt::format("ELF type {} is not ET_EXEC: link the program with -static (no PIE)", type));
  r.seek(24);
  Elf32MipsProgram program;
  program.name = name;
  program.entry = r.u32();
  const uint32_t phoff = r.u32();
  const uint32_t shoff = r.u32();
  r.seek(46);
  const uint16_t shentsize = r.u16(), shnum = r.u16();
  r.seek(42);
  program.program_header_size = r.u16();
  program.program_header_count = r.u16();
  if (program.program_header_size != elf32_phdr_size)
    throw Error(at_offset(name, 42), fmt::format("program header size {} is not 32", program.program_header_size));
  for (uint16_t i = 0; i < program.program_header_count; ++i) {
    const uint64_t at = uint64_t{phoff} + uint64_t{i} * elf32_phdr_size;
    r.seek(at); // throws naming the offset when the table runs past the file
    const uint32_t type = r.u32(), offset = r.u32(), vaddr = r.u32();
    r.u32(); // p_paddr
    const uint32_t file_size = r.u32(), memory_size = r.u32(), flags = r.u32();
    if (type == pt_phdr) program.program_headers_address = vaddr;
    if (type != pt_load) continue;
    if (uint64_t{offset} + file_size > bytes.size())
      throw Error(at_offset(name, at), fmt::format("segment {} (file bytes {:#x}+{:#x}) runs past the end of the file", i, offset, file_size));
    if (file_size > memory_size || uint64_t{vaddr} + memory_size > 0x80000000u)
      throw Error(at_offset(name, at), fmt::format("segment {} at {:#010x} (size {:#x}) is not inside user space", i, vaddr, memory_size));
    program.segments.push_back(Segment{vaddr, offset, file_size, memory_size, flags});
    program.data.emplace_back(bytes.begin() + offset, bytes.begin() + offset + file_size);
    if (program.program_headers_address == 0 && phoff >= offset && phoff - offset < file_size)
      program.program_headers_address = vaddr + (phoff - offset);
  }
  program.code_start = program.entry;
  for (uint16_t i = 0; shoff != 0 && i < shnum; ++i) {
    const uint64_t at = uint64_t{shoff} + uint64_t{i} * shentsize;
    r.seek(at + 8); // sh_flags
    const uint32_t flags = r.u32(), address = r.u32();
    r.seek(at + 20);
    const uint32_t size = r.u32();
    constexpr uint32_t shf_execinstr = 4;
    if ((flags & shf_execinstr) && size != 0 && address < program.code_start) program.code_start = address;
  }
  bool entry_ok = false;
  for (const Segment& s : program.segments) entry_ok |= s.executable() && s.contains(program.entry);
  if (!entry_ok) throw Error(at_offset(name, 24), fmt::format("entry point {:#010x} is not in an executable segment", program.entry));
  if (program.entry & 3) throw Error(at_offset(name, 24), fmt::format("entry point {:#010x} is not word aligned", program.entry));
  return program;
}

} // namespace kiln::elf
