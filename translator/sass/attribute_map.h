#pragma once
// NVIDIA's attribute address space (ALD/AST/IPA a[...] byte addresses), shared by the SPH, both SASS front ends,
// the SPIR-V graphics backend and the runtime: one home for the map.
#include <cstdint>

namespace kiln::sass::attribute {

inline constexpr uint32_t layer = 0x64;          ///< render target array index (integer)
inline constexpr uint32_t viewport_index = 0x68; ///< integer
inline constexpr uint32_t point_size = 0x6c;
inline constexpr uint32_t position = 0x70;       ///< x, y, z, w at 0x70..0x7c
inline constexpr uint32_t generic = 0x80;        ///< generic n component c at 0x80 + 16n + 4c
inline constexpr uint32_t generic_count = 32;
inline constexpr uint32_t generic_end = generic + 16 * generic_count; ///< 0x280
inline constexpr uint32_t texture_coordinate = 0x300; ///< fixed-function texture coordinate t at 0x300 + 16t
inline constexpr uint32_t texture_coordinate_end = 0x3a0;

constexpr uint32_t generic_address(uint32_t location, uint32_t component) { return generic + 16 * location + 4 * component; }

} // namespace kiln::sass::attribute
