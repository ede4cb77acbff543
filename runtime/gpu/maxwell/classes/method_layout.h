#pragma once
// The shapes the generated class headers (methods_*.h) give methods and fields.
#include <cstdint>

namespace kiln::maxwell {

/// A method array: element i is the method at byte offset `offset + i * stride`. (The headers give no element
/// count; each engine knows how many it implements.)
struct MethodArray {
  uint32_t offset, stride;
  constexpr uint32_t operator[](uint32_t index) const { return offset + index * stride; }
};

/// Bits low .. low + width - 1 of a method's data word.
struct BitField {
  uint32_t low, width;
  constexpr uint32_t mask() const { return width >= 32 ? ~0u : ((1u << width) - 1u); }
  constexpr uint32_t operator()(uint32_t word) const { return (word >> low) & mask(); }
};

} // namespace kiln::maxwell
