// libFuzzer target: the ELF container (every class and byte order), the AArch64 and MIPS views on it and the
// analysis over whatever they accept must only ever throw kiln::Error.
#include <cstddef>
#include <cstdint>
#include <span>

#include "recompiler/analysis/program.h"
#include "recompiler/loaders/elf/elf32_program.h"
#include "runtime/base/elf_container.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kiln::a64::Decoder decoder;
  const std::span<const uint8_t> bytes(data, size);
  try {
    const kiln::elf::Container container(bytes, "fuzz.elf");
    const auto sections = container.section_headers();
    for (const auto& section : sections)
      if (section.type == kiln::elf::sht_symtab) (void)container.symbols(sections, section);
    (void)container.program_headers();
  } catch (const kiln::Error&) {
  }
  for (const kiln::elf::Elf32Machine* machine : {&kiln::elf::mipsel_machine, &kiln::elf::ppc32_machine}) {
    try {
      (void)kiln::elf::parse_elf32_program(bytes, "fuzz.elf", *machine);
    } catch (const kiln::Error&) {
    }
  }
  try {
    const kiln::elf::ElfFile elf(bytes, "fuzz.elf");
    const kiln::analysis::Program program(elf, decoder);
    (void)program.instruction_count();
  } catch (const kiln::Error&) {
  }
  return 0;
}
