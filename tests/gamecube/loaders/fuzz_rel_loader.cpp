// libFuzzer (fuzz_input.h: raw bytes or a mutated small REL): any bytes given to the REL loader give a module whose relocations all patch inside their sections,
// and linking it after a small DOL applies them or throws kiln::Error; nothing else.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "recompiler/loaders/dol/module_link.h"
#include "runtime/base/error.h"
#include "tests/gamecube/loaders/fuzz_input.h"
#include "tests/gamecube/loaders/synthetic_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kiln::gamecube::Dol dol = kiln::gamecube::parse_dol(kiln::gamecube::testing::small_dol().data, "small.dol");
  static const std::vector<uint8_t> seed = kiln::gamecube::testing::small_rel().data;
  const std::vector<uint8_t> bytes = kiln::gamecube::testing::fuzz_input(data, size, seed);
  try {
    const kiln::gamecube::RelModule module = kiln::gamecube::parse_rel(bytes, "fuzz.rel");
    for (const auto& import : module.imports)
      for (const auto& r : import.relocations)
        if (uint64_t{r.offset} + kiln::gamecube::rel_type::width(r.type) > module.sections.at(r.section).size) std::abort();
    const auto placed = kiln::gamecube::place_after_dol(dol, {&module, 1});
    (void)kiln::gamecube::link_modules(dol, placed);
  } catch (const kiln::Error&) {
  }
  return 0;
}
