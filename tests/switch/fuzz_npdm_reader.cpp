// libFuzzer: any bytes given to the main.npdm reader give an Npdm or a kiln::Error.
#include <cstddef>
#include <cstdint>

#include "recompiler/loaders/switch/npdm.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)kiln::nx::read_npdm({data, size}, "fuzz.npdm");
  } catch (const kiln::Error&) {
  }
  return 0;
}
