// libFuzzer (fuzz_input.h: raw bytes or a mutated small image): any bytes given to the disc reader give its headers and FST (every file inside the image, readable)
// or a kiln::Error; the boot DOL it finds goes on to the DOL loader.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "recompiler/loaders/dol/disc_image.h"
#include "recompiler/loaders/dol/dol.h"
#include "runtime/base/error.h"
#include "tests/gamecube/loaders/fuzz_input.h"
#include "tests/gamecube/loaders/synthetic_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<uint8_t> seed = kiln::gamecube::testing::small_disc().data;
  const std::vector<uint8_t> bytes = kiln::gamecube::testing::fuzz_input(data, size, seed);
  try {
    const kiln::gamecube::GameCubeDisc disc(kiln::gamecube::disc_in_memory(bytes, "fuzz.iso"));
    for (const kiln::gamecube::DiscFile& f : disc.files()) {
      if (f.is_directory) continue;
      if (uint64_t{f.offset} + f.size > bytes.size()) std::abort(); // the reader promised every file lies inside
      (void)disc.read(f);
    }
    (void)disc.rel_files();
    const std::vector<uint8_t> dol = disc.read_boot_dol();
    (void)kiln::gamecube::parse_dol(dol, "boot.dol");
  } catch (const kiln::Error&) {
  }
  return 0;
}
