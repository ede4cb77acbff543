#pragma once
// The shapes the generated class headers (methods_*.h, qmd_v*.h) give methods and fields.
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

/// A field of a multi-word structure (a QMD): bits low .. high of the whole structure, MW(high:low) in the headers.
struct QmdField {
  uint32_t high, low;
};

/// An indexed QMD field: element i is MW(high + i * stride : low + i * stride).
struct QmdFieldArray {
  uint32_t high, low, stride;
  constexpr QmdField operator[](uint32_t index) const { return {high + index * stride, low + index * stride}; }
};

} // namespace kiln::maxwell
