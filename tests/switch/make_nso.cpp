// make_nso ELF OUT.nso OUT.nro: writes the NSO and NRO forms of an AArch64 ELF fixture (see module_writer.h).
// make_nso SHARED_OBJECT OUT: a module of an ExeFS title (a shared object, fixtures/exefs) as an NSO.
#include <cstdio>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tests/switch/module_writer.h"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: make_nso ELF OUT.nso OUT.nro | make_nso SHARED_OBJECT OUT\n");
    return 2;
  }
  try {
    const std::vector<uint8_t> bytes = kiln::read_file(argv[1]);
    if (kiln::nx::testing::is_shared_object(bytes)) {
      if (argc != 3) throw kiln::Error(kiln::in_file(argv[1]), "a shared object becomes one NSO: make_nso SHARED_OBJECT OUT");
      kiln::write_file_if_changed(argv[2], kiln::nx::testing::write_nso_from_shared_object(bytes, argv[1]));
      return 0;
    }
    if (argc != 4) throw kiln::Error(kiln::in_file(argv[1]), "an executable becomes an NSO and an NRO: make_nso ELF OUT.nso OUT.nro");
    const kiln::elf::ElfFile elf(bytes, argv[1]);
    kiln::write_file_if_changed(argv[2], kiln::nx::testing::write_nso(elf));
    kiln::write_file_if_changed(argv[3], kiln::nx::testing::write_nro(elf));
  } catch (const kiln::Error& e) {
    std::fprintf(stderr, "make_nso: %s\n", e.what());
    return 1;
  }
  return 0;
}
