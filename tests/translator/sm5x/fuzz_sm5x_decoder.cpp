// Random 64-bit words: decode() either throws kiln::Error or returns an instruction that assemble() turns back
// into exactly the same word and whose text prints. Anything else (a crash, a sanitizer report, a different
// word) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "runtime/base/error.h"
#include "translator/sass/sm5x/instruction.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (size_t offset = 0; offset + 8 <= size; offset += 8) {
    uint64_t word;
    std::memcpy(&word, data + offset, sizeof(word));
    kiln::sass::sm5x::Instruction instruction;
    try {
      instruction = kiln::sass::sm5x::decode(word, offset, "fuzz-input");
    } catch (const kiln::Error&) {
      continue;
    }
    if (kiln::sass::sm5x::assemble(instruction) != word) std::abort();
    if (kiln::sass::sm5x::disassemble(instruction).empty()) std::abort();
  }
  return 0;
}
