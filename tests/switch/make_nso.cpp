// make_nso ELF OUT.nso OUT.nro: writes the NSO and NRO forms of an AArch64 ELF fixture (see module_writer.h).
#include <cstdio>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tests/switch/module_writer.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: make_nso ELF OUT.nso OUT.nro\n");
    return 2;
  }
  try {
    const std::vector<uint8_t> bytes = kiln::read_file(argv[1]);
    const kiln::elf::ElfFile elf(bytes, argv[1]);
    kiln::write_file_if_changed(argv[2], kiln::nx::testing::write_nso(elf));
    kiln::write_file_if_changed(argv[3], kiln::nx::testing::write_nro(elf));
  } catch (const kiln::Error& e) {
    std::fprintf(stderr, "make_nso: %s\n", e.what());
    return 1;
  }
  return 0;
}
