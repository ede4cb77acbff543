#include "runtime/gpu/maxwell/mme/program.h"

#include <algorithm>

#include "runtime/base/hash.h"
#include "runtime/gpu/maxwell/mme/isa.h"

namespace kiln::maxwell::mme {

std::optional<uint32_t> macro_length(std::span<const uint32_t> code, uint32_t start) {
  uint64_t furthest = start;
  for (uint64_t i = start; i < code.size(); ++i) {
    const Instruction in{code[i]};
    if (in.op() == Op::branch) {
      const int64_t target = static_cast<int64_t>(i) + in.immediate();
      if (target > static_cast<int64_t>(furthest)) furthest = static_cast<uint64_t>(target);
      continue;
    }
    if (in.exit() && i >= furthest) {
      const uint64_t end = i + 2; // the exit's delay slot runs too
      if (end > code.size()) return std::nullopt;
      return static_cast<uint32_t>(end - start);
    }
  }
  return std::nullopt;
}

uint64_t macro_hash(std::span<const uint32_t> macro_code) {
  return hash64(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(macro_code.data()), macro_code.size() * 4));
}

} // namespace kiln::maxwell::mme
