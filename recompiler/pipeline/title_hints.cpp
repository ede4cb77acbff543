#include "recompiler/pipeline/title_hints.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/error.h"

namespace kiln::pipeline {
namespace {

/// One patch's word at `at`, which `code_name` holds at patch.address.
void apply_code_patch(uint8_t* at, Endian order, const std::string& code_name, const CodePatch& patch) {
  const uint32_t current = load<uint32_t>(at, order);
  if (patch.original && *patch.original != current)
    throw Error(in_file(patch.where), fmt::format("patch at {:#x} expects instruction {:#010x}, but {} holds {:#010x} there", patch.address,
                                                  *patch.original, code_name, current));
  store<uint32_t>(at, patch.encoding, order);
}

} // namespace

void apply_code_patches(std::span<const CodeBytes> code, Endian order, const std::string& name, const std::vector<CodePatch>& patches) {
  for (const CodePatch& patch : patches) {
    auto range = std::find_if(code.begin(), code.end(), [&](const CodeBytes& r) {
      return patch.address >= r.address && patch.address + 4 <= r.address + r.bytes.size();
    });
    if (range == code.end() || (patch.address & 3))
      throw Error(in_file(patch.where), fmt::format("patch address {:#x} is not an instruction of an executable segment of {}", patch.address, name));
    apply_code_patch(range->bytes.data() + (patch.address - range->address), order, name, patch);
  }
}

} // namespace kiln::pipeline
