#pragma once
// Builds GX command streams byte by byte from the documented command formats (opcode, then big-endian fields),
// independently of kiln's parser: what a game's GX library would place in the FIFO.
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace kiln::gx::test {

class GxStream {
public:
  GxStream& byte(uint8_t value) { bytes.push_back(value); return *this; }
  GxStream& u16(uint16_t value) { return byte(static_cast<uint8_t>(value >> 8)).byte(static_cast<uint8_t>(value)); }
  GxStream& u32(uint32_t value) { return u16(static_cast<uint16_t>(value >> 16)).u16(static_cast<uint16_t>(value)); }
  GxStream& f32(float value) { return u32(std::bit_cast<uint32_t>(value)); }

  GxStream& nop() { return byte(0x00); }
  /// LOAD_CP: 0x08, register, 32-bit value.
  GxStream& cp(uint8_t address, uint32_t value) { return byte(0x08).byte(address).u32(value); }
  /// LOAD_XF: 0x10, (count - 1) << 16 | address, then the words.
  GxStream& xf(uint16_t address, std::initializer_list<uint32_t> words) {
    byte(0x10).u32((static_cast<uint32_t>(words.size() - 1) << 16) | address);
    for (uint32_t w : words) u32(w);
    return *this;
  }
  GxStream& xf_floats(uint16_t address, std::initializer_list<float> values) {
    byte(0x10).u32((static_cast<uint32_t>(values.size() - 1) << 16) | address);
    for (float v : values) f32(v);
    return *this;
  }
  /// LOAD_INDX A-D (array 0-3): index << 16 | (count - 1) << 12 | address.
  GxStream& indexed_xf(uint32_t array, uint16_t index, uint32_t count, uint16_t address) {
    return byte(static_cast<uint8_t>(0x20 + 8 * array)).u32((uint32_t{index} << 16) | ((count - 1) << 12) | address);
  }
  /// CALL_DL: 0x40, address, size.
  GxStream& call_display_list(uint32_t address, uint32_t size) { return byte(0x40).u32(address).u32(size); }
  /// LOAD_BP: 0x61, address << 24 | 24-bit value.
  GxStream& bp(uint8_t address, uint32_t value) { return byte(0x61).u32((uint32_t{address} << 24) | (value & 0xFFFFFF)); }
  /// A primitive header: 0x80 | type << 3 | vat, vertex count; the vertex bytes follow through the writers above.
  GxStream& primitive(uint8_t type, uint8_t vat, uint16_t count) {
    return byte(static_cast<uint8_t>(0x80 | (type << 3) | vat)).u16(count);
  }
  GxStream& pad_to_burst() {
    while (bytes.size() % 32 != 0) nop();
    return *this;
  }

  std::vector<uint8_t> bytes;
};

// Primitive type codes (bits 3-6 of the opcode) as the GX documentation numbers them.
inline constexpr uint8_t quads = 0, triangles = 2, triangle_strip = 3, triangle_fan = 4, lines = 5, line_strip = 6,
                         points = 7;

// VCD_LO attribute fields: position at bit 9, normal 11, colour 0 at 13, colour 1 at 15 (0 none, 1 direct,
// 2 index8, 3 index16); bit 0 position-matrix index, bits 1-8 texture-matrix indices. VCD_HI: 2 bits per texcoord.
inline uint32_t vcd_lo(uint32_t position, uint32_t normal = 0, uint32_t color0 = 0, uint32_t color1 = 0,
                       bool position_matrix = false) {
  return (position << 9) | (normal << 11) | (color0 << 13) | (color1 << 15) | (position_matrix ? 1u : 0u);
}
/// VAT A: position elements (bit 0: 1 = xyz), format (1-3), fraction (4-8); normal elements (9: 1 = NBT), format
/// (10-12); colour 0 format (14-16), colour 1 format (18-20); texcoord 0 elements (21), format (22-24),
/// fraction (25-29); NBT index3 (31).
inline uint32_t vat_a(bool xyz, uint32_t format, uint32_t fraction, uint32_t normal_format = 0, bool nbt = false,
                      uint32_t color0 = 0, uint32_t color1 = 0, bool tex0_st = false, uint32_t tex0_format = 0,
                      uint32_t tex0_fraction = 0, bool index3 = false) {
  return (xyz ? 1u : 0u) | (format << 1) | (fraction << 4) | ((nbt ? 1u : 0u) << 9) | (normal_format << 10) |
         (color0 << 14) | (color1 << 18) | ((tex0_st ? 1u : 0u) << 21) | (tex0_format << 22) | (tex0_fraction << 25) |
         ((index3 ? 1u : 0u) << 31);
}

} // namespace kiln::gx::test
