// make_dol ELF DOL [--map MAP]: a DOL from a linked PowerPC executable (dol_writer.h), and with --map the
// Dolphin-format map of its symbols.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tools/gamecube-files/dol_writer.h"

int main(int argc, char** argv) {
  std::string elf, dol, map;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--map" && i + 1 < argc) map = argv[++i];
    else if (elf.empty()) elf = arg;
    else if (dol.empty()) dol = arg;
    else elf.clear(), i = argc; // too many: report usage
  }
  if (elf.empty() || dol.empty()) {
    std::fprintf(stderr, "usage: make_dol ELF DOL [--map MAP]\n");
    return 64;
  }
  try {
    using namespace kiln::gamecube::writer;
    const std::vector<uint8_t> bytes = kiln::read_file(elf, kiln::input::executable);
    kiln::write_file_if_changed(dol, write_dol(dol_input_from_elf(bytes, elf)));
    if (!map.empty()) kiln::write_file_if_changed(map, dolphin_map_from_elf(bytes, elf));
  } catch (const kiln::Error& e) {
    std::fprintf(stderr, "make_dol: %s\n", e.what());
    return 1;
  }
  return 0;
}
