// libFuzzer: any text given to the map reader gives symbols or a kiln::Error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "recompiler/loaders/dol/symbol_map.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)kiln::gamecube::read_symbol_map({reinterpret_cast<const char*>(data), size}, "fuzz.map");
  } catch (const kiln::Error&) {
  }
  return 0;
}
