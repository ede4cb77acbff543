// libFuzzer: any bytes given to the NSO loader give a module or a kiln::Error.
#include <cstddef>
#include <cstdint>

#include "recompiler/loaders/switch/switch_module.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const kiln::nx::Module module = kiln::nx::load_nso({data, size}, "fuzz.nso");
    (void)kiln::nx::to_elf(module, kiln::nx::default_load_base);
  } catch (const kiln::Error&) {
  }
  return 0;
}
