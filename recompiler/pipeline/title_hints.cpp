#include "recompiler/pipeline/title_hints.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::pipeline {

void apply_code_patch(uint8_t* at, Endian order, const std::string& code_name, const CodePatch& patch) {
  const uint32_t current = load<uint32_t>(at, order);
  if (patch.original && *patch.original != current)
    throw Error(in_file(patch.where), fmt::format("patch at {:#x} expects instruction {:#010x}, but {} holds {:#010x} there", patch.address,
                                                  *patch.original, code_name, current));
  store<uint32_t>(at, patch.encoding, order);
}

void apply_code_patches(std::vector<uint8_t>& code, uint64_t base, Endian order, const std::string& name,
                        const std::vector<CodePatch>& patches) {
  for (const CodePatch& patch : patches) {
    if (patch.address < base || patch.address + 4 > base + code.size() || (patch.address & 3))
      throw Error(in_file(patch.where), fmt::format("patch address {:#x} is not an instruction of {}'s code [{:#x}, {:#x})", patch.address, name,
                                                    base, base + code.size()));
    apply_code_patch(code.data() + (patch.address - base), order, name, patch);
  }
}

} // namespace kiln::pipeline
