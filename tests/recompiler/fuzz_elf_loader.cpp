// libFuzzer target: the ELF loader and the analysis over whatever it accepts must only ever throw kiln::Error.
#include <cstddef>
#include <cstdint>
#include <span>

#include "recompiler/analysis/program.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kiln::a64::Decoder decoder;
  try {
    const kiln::elf::ElfFile elf(std::span<const uint8_t>(data, size), "fuzz.elf");
    const kiln::analysis::Program program(elf, decoder);
    (void)program.instruction_count();
  } catch (const kiln::Error&) {
  }
  return 0;
}
