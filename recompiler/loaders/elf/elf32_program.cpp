#include "recompiler/loaders/elf/elf32_program.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/elf_container.h"
#include "runtime/base/error.h"

namespace kiln::elf {

Elf32Program parse_elf32_program(std::span<const uint8_t> bytes, std::string name, const Elf32Machine& machine) {
  if (bytes.size() < 52) throw Error(at_offset(name, 0), "not a 32-bit ELF file: shorter than its 52-byte header");
  if (!is_elf(bytes, false, machine.machine)) throw Error(at_offset(name, 0), fmt::format("not a 32-bit ELF file for {}", machine.name));
  const Container container(bytes, name);
  const FileHeader& h = container.header();
  if (h.byte_order != machine.byte_order)
    throw Error(at_offset(name, 5), fmt::format("the file's byte order is not that of {}", machine.name));
  if (h.type != et_exec)
    throw Error(at_offset(name, 16), fmt::format("ELF type {} is not ET_EXEC: link the program with -static (no PIE)", h.type));
  Elf32Program program;
  program.name = name;
  program.entry = static_cast<uint32_t>(h.entry);
  program.program_header_size = h.program_header_size;
  program.program_header_count = h.program_header_count;
  if (program.program_header_size != 32)
    throw Error(at_offset(name, 42), fmt::format("program header size {} is not 32", program.program_header_size));
  const uint64_t phoff = h.program_headers_offset;
  for (const ProgramHeader& p : container.program_headers()) {
    const size_t i = static_cast<size_t>((p.header_offset - phoff) / 32);
    if (p.type == pt_phdr) program.program_headers_address = static_cast<uint32_t>(p.address);
    if (p.type != pt_load) continue;
    if (p.file_offset + p.file_size > bytes.size())
      throw Error(at_offset(name, p.header_offset),
                  fmt::format("segment {} (file bytes {:#x}+{:#x}) runs past the end of the file", i, p.file_offset, p.file_size));
    if (p.file_size > p.memory_size || p.address + p.memory_size > 0x80000000u)
      throw Error(at_offset(name, p.header_offset), fmt::format("segment {} at {:#010x} (size {:#x}) is not inside user space", i, p.address, p.memory_size));
    program.segments.push_back(Segment{p.address, p.file_offset, p.file_size, p.memory_size, p.flags});
    program.data.emplace_back(bytes.begin() + static_cast<std::ptrdiff_t>(p.file_offset),
                              bytes.begin() + static_cast<std::ptrdiff_t>(p.file_offset + p.file_size));
    if (program.program_headers_address == 0 && phoff >= p.file_offset && phoff - p.file_offset < p.file_size)
      program.program_headers_address = static_cast<uint32_t>(p.address + (phoff - p.file_offset));
  }
  program.code_start = program.entry;
  for (const SectionHeader& s : container.section_headers())
    if (s.executable() && s.size != 0) {
      program.code_start = std::min(program.code_start, static_cast<uint32_t>(s.address));
      program.code_end = std::max(program.code_end, static_cast<uint32_t>(s.address + s.size));
    }
  bool entry_ok = false;
  for (const Segment& s : program.segments) entry_ok |= s.executable() && s.contains(program.entry);
  if (!entry_ok) throw Error(at_offset(name, 24), fmt::format("entry point {:#010x} is not in an executable segment", program.entry));
  if (program.entry & 3) throw Error(at_offset(name, 24), fmt::format("entry point {:#010x} is not word aligned", program.entry));
  return program;
}

} // namespace kiln::elf
