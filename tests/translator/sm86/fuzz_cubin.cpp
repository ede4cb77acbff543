// Feeds arbitrary bytes to the cubin parser and the instruction decoder: each either succeeds or throws
// kiln::Error; a crash, a hang or a sanitizer report is a bug. Decoded instructions must print and re-assemble.
#include <cstddef>
#include <cstdint>

#include "runtime/base/error.h"
#include "translator/sass/sm5x/program.h"
#include "translator/sass/sm86/cubin.h"
#include "translator/sass/sm86/instruction.h"

namespace sm86 = kiln::sass::sm86;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const sm86::Cubin cubin = sm86::parse_cubin({data, size}, "fuzz.cubin");
    for (const auto& kernel : cubin.kernels) {
      try {
        if (cubin.family == sm86::InstructionSet::maxwell) {  // sm_50-62: the Maxwell decoder reads the code
          const auto program = kiln::sass::sm5x::decode_program(kernel.code, "fuzz.cubin", kiln::sass::sm5x::ProgramKind::compute);
          if (kiln::sass::sm5x::assemble_code(program) != program.words) __builtin_trap();
          continue;
        }
        for (const auto& instruction : sm86::decode_all(kernel.code, kernel.location("fuzz.cubin"), cubin.architecture)) {
          (void)sm86::disassemble(instruction);
        }
      } catch (const kiln::Error&) {
      }
    }
  } catch (const kiln::Error&) {
  }
  // The same bytes as raw instruction words, for each architecture (some forms belong to only one).
  for (size_t offset = 0; offset + 16 <= size; offset += 16) {
    const auto word = sm86::Word128::from_bytes(std::span<const uint8_t, 16>(data + offset, 16));
    for (const auto architecture : {sm86::Architecture::sm75, sm86::Architecture::sm86}) {
      try {
        const auto instruction = sm86::decode(word, offset, {"fuzz.bin", "", 0}, architecture);
        (void)sm86::disassemble(instruction);
        if (!(sm86::assemble(instruction) == word)) __builtin_trap();  // the table must account for every bit
      } catch (const kiln::Error&) {
      }
    }
  }
  return 0;
}
