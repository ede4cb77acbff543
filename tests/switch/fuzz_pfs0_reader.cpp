// libFuzzer: any bytes given to the PFS0 reader give its file table (every entry inside the bytes) or a kiln::Error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "recompiler/loaders/switch/pfs0.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const kiln::nx::Pfs0 pfs0 = kiln::nx::read_pfs0({data, size}, "fuzz.nsp");
    for (const kiln::nx::Pfs0File& f : pfs0.files)
      if (f.offset > size || f.size > size - f.offset) std::abort(); // the reader promised the entry lies inside
  } catch (const kiln::Error&) {
  }
  return 0;
}
