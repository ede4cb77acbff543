// libFuzzer (fuzz_input.h: raw text or a mutated CodeWarrior map): any text given to the map reader gives symbols or a kiln::Error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "recompiler/loaders/dol/symbol_map.h"
#include "runtime/base/error.h"
#include "tests/gamecube/loaders/fuzz_input.h"
#include "tests/gamecube/loaders/synthetic_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<uint8_t> seed(kiln::gamecube::testing::codewarrior_map.begin(), kiln::gamecube::testing::codewarrior_map.end());
  const std::vector<uint8_t> bytes = kiln::gamecube::testing::fuzz_input(data, size, seed);
  try {
    (void)kiln::gamecube::read_symbol_map({reinterpret_cast<const char*>(bytes.data()), bytes.size()}, "fuzz.map");
  } catch (const kiln::Error&) {
  }
  return 0;
}
