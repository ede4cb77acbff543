#pragma once
// Shader Program Headers for simple vertex and pixel programs, built from the open-gpu-doc SPH layout (the bits
// translator/sass/sm5x/sph.cpp reads): word 0 bits 0-4 SphType (1 VTG, 2 PS), 5-9 Version, 10-13 ShaderType
// (1 vertex, 5 pixel); VTG input map from bit 160 (one bit per attribute word), output map from bit 400; PS
// generic inputs from bit 192 (2 bits per component, 2 = perspective), colour target outputs from bit 576 (4 bits
// per target). Shared by the renderer tests and `kiln shaders assemble`.
#include <cstdint>
#include <cstring>
#include <vector>

namespace kiln::sass::sm5x {

inline constexpr size_t kSphBytes = 0x50;

namespace sph_detail {
inline void set_bit(std::vector<uint8_t>& header, unsigned bit) { header[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8)); }
} // namespace sph_detail

/// Vertex SPH: reads generic 0..inputs-1 (xyzw each), writes position and generic 0 (xyzw).
inline std::vector<uint8_t> vertex_header(uint32_t inputs) {
  std::vector<uint8_t> header(kSphBytes, 0);
  const uint32_t word0 = 1u | (3u << 5) | (1u << 10);
  std::memcpy(header.data(), &word0, 4);
  for (uint32_t i = 0; i < 4 * inputs; ++i) sph_detail::set_bit(header, 160 + 0x80 / 4 + i);
  for (uint32_t i = 0; i < 4; ++i) sph_detail::set_bit(header, 400 + 0x70 / 4 + i); // position
  for (uint32_t i = 0; i < 4; ++i) sph_detail::set_bit(header, 400 + 0x80 / 4 + i); // generic 0
  return header;
}

/// Pixel SPH: reads generic 0 (xyzw, perspective), writes colour target 0 (RGBA).
inline std::vector<uint8_t> pixel_header() {
  std::vector<uint8_t> header(kSphBytes, 0);
  const uint32_t word0 = 2u | (3u << 5) | (5u << 10);
  std::memcpy(header.data(), &word0, 4);
  for (uint32_t c = 0; c < 4; ++c) sph_detail::set_bit(header, 192 + 2 * c + 1); // value 2: perspective
  for (uint32_t c = 0; c < 4; ++c) sph_detail::set_bit(header, 576 + c);
  return header;
}

} // namespace kiln::sass::sm5x
