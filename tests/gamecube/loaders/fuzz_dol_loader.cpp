// libFuzzer (fuzz_input.h: raw bytes or a mutated small DOL): any bytes given to the DOL loader give a checked image (every segment inside MEM1, the entry in an
// executable one) or a kiln::Error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "recompiler/loaders/dol/dol.h"
#include "runtime/base/error.h"
#include "tests/gamecube/loaders/fuzz_input.h"
#include "tests/gamecube/loaders/synthetic_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<uint8_t> seed = kiln::gamecube::testing::small_dol().data;
  const std::vector<uint8_t> bytes = kiln::gamecube::testing::fuzz_input(data, size, seed);
  try {
    const kiln::gamecube::Dol dol = kiln::gamecube::parse_dol(bytes, "fuzz.dol");
    const kiln::gamecube::ImageSegment* entry = dol.image.segment_at(dol.entry);
    if (!entry || !entry->executable) std::abort(); // the loader promised an entry inside text
    (void)dol.image.read_word(dol.entry & ~3u);
  } catch (const kiln::Error&) {
  }
  return 0;
}
