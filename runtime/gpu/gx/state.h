#pragma once
// The three register banks of the GameCube GPU as the command stream sets them: CP (how vertices are read),
// XF (transform memory and registers) and BP (raster, texture, TEV and pixel-engine registers).
#include <array>
#include <cstdint>

namespace kiln::gx {

// ---- CP: vertex descriptors and arrays (LOAD_CP sub-addresses) -------------------------------------------
namespace cp {
inline constexpr uint32_t matrix_index_a = 0x30;
inline constexpr uint32_t matrix_index_b = 0x40;
inline constexpr uint32_t vcd_lo = 0x50;
inline constexpr uint32_t vcd_hi = 0x60;
inline constexpr uint32_t vat_a = 0x70; // + format (0-7)
inline constexpr uint32_t vat_b = 0x80;
inline constexpr uint32_t vat_c = 0x90;
inline constexpr uint32_t array_base = 0xA0;   // + array (0-15)
inline constexpr uint32_t array_stride = 0xB0; // + array
} // namespace cp

inline constexpr uint32_t vertex_format_count = 8;
inline constexpr uint32_t array_count = 16;
/// Arrays 0-11 feed vertex attributes; 12-15 are the sources of LOAD_INDX A-D.
enum class ArrayIndex : uint32_t { position = 0, normal = 1, color0 = 2, color1 = 3, texcoord0 = 4, xf_a = 12 };

/// How the VCD says an attribute arrives: absent, in the vertex, or as an 8/16-bit index into its array.
enum class AttributeMode : uint8_t { none = 0, direct = 1, index8 = 2, index16 = 3 };
enum class ComponentFormat : uint8_t { u8 = 0, s8 = 1, u16 = 2, s16 = 3, f32 = 4 };
enum class ColorFormat : uint8_t { rgb565 = 0, rgb888 = 1, rgb888x = 2, rgba4444 = 3, rgba6666 = 4, rgba8888 = 5 };

struct CpState {
  uint32_t matrix_index_a = 0, matrix_index_b = 0;
  uint32_t vcd_lo = 0, vcd_hi = 0;
  std::array<uint32_t, vertex_format_count> vat_a{}, vat_b{}, vat_c{};
  std::array<uint32_t, array_count> array_base{}, array_stride{};
  friend bool operator==(const CpState&, const CpState&) = default;

  /// Writes sub-address `address`; false when the address names no CP register.
  bool write(uint32_t address, uint32_t value);
  /// The register at `address`, or nullptr.
  uint32_t* find(uint32_t address);
};

// ---- XF: transform memory and registers (LOAD_XF / LOAD_INDX addresses) ----------------------------------
namespace xf {
inline constexpr uint32_t position_matrices = 0x0000; // 64 rows of 4 floats: matrices of 3 rows
inline constexpr uint32_t position_matrices_end = 0x0100;
inline constexpr uint32_t normal_matrices = 0x0400;   // 32 rows of 3 floats
inline constexpr uint32_t normal_matrices_end = 0x0460;
inline constexpr uint32_t post_matrices = 0x0500;     // 64 rows of 4 floats
inline constexpr uint32_t post_matrices_end = 0x0600;
inline constexpr uint32_t lights = 0x0600;            // 8 lights of 16 words
inline constexpr uint32_t lights_end = 0x0680;
inline constexpr uint32_t memory_size = 0x0680;
inline constexpr uint32_t registers = 0x1000;
inline constexpr uint32_t registers_end = 0x1058;
// Registers, as offsets from `registers`.
inline constexpr uint32_t vertex_spec = 0x08;       // colours bits 0-1, normals 2-3, texcoords 4-7
inline constexpr uint32_t num_colors = 0x09;
inline constexpr uint32_t ambient0 = 0x0A;          // ambient1 = 0x0B (RGBA8, R in the top byte)
inline constexpr uint32_t material0 = 0x0C;         // material1 = 0x0D
inline constexpr uint32_t color0_control = 0x0E;    // color1 0x0F, alpha0 0x10, alpha1 0x11
inline constexpr uint32_t dual_texture_transform = 0x12;
inline constexpr uint32_t matrix_index_a = 0x18;
inline constexpr uint32_t matrix_index_b = 0x19;
inline constexpr uint32_t viewport = 0x1A;          // 6 floats: half width, -half height, z range, x origin,
                                                    // y origin, far z
inline constexpr uint32_t projection = 0x20;        // 6 floats, then the type (0 perspective, 1 orthographic)
inline constexpr uint32_t projection_type = 0x26;
inline constexpr uint32_t num_texgens = 0x3F;
inline constexpr uint32_t texgen = 0x40;            // 8 words
inline constexpr uint32_t post_transform = 0x50;    // 8 words
inline constexpr uint32_t register_count = registers_end - registers;
/// Words per light: 3 unused, colour, cos attenuation A0-A2, distance attenuation K0-K2, position, direction.
inline constexpr uint32_t light_words = 16;
} // namespace xf

/// Whether `address` names XF memory that exists (the gaps between the matrix banks are not backed).
constexpr bool xf_memory_mapped(uint32_t address) {
  return address < xf::position_matrices_end || (address >= xf::normal_matrices && address < xf::normal_matrices_end) ||
         (address >= xf::post_matrices && address < xf::lights_end);
}

struct XfState {
  std::array<uint32_t, xf::memory_size> memory{};
  std::array<uint32_t, xf::register_count> registers{};
  friend bool operator==(const XfState&, const XfState&) = default;

  uint32_t reg(uint32_t offset) const { return registers[offset]; }
  float memory_float(uint32_t address) const;
  float register_float(uint32_t offset) const;
  /// The word at XF address `address`, or nullptr where nothing is mapped.
  uint32_t* find(uint32_t address);
};

// ---- BP: 256 registers of 24 bits --------------------------------------------------------------------------
namespace bp {
inline constexpr uint32_t gen_mode = 0x00;
inline constexpr uint32_t indirect_matrix = 0x06;   // 3 matrices of 3 words
inline constexpr uint32_t indirect_mask = 0x0F;
inline constexpr uint32_t indirect_command = 0x10;  // 16 stages
inline constexpr uint32_t scissor_top_left = 0x20;
inline constexpr uint32_t scissor_bottom_right = 0x21;
inline constexpr uint32_t line_point_width = 0x22;
inline constexpr uint32_t indirect_ss0 = 0x25;
inline constexpr uint32_t indirect_ss1 = 0x26;
inline constexpr uint32_t indirect_reference = 0x27;
inline constexpr uint32_t tev_order = 0x28;         // 8 words, two stages each
inline constexpr uint32_t texcoord_size = 0x30;     // s/t pairs for 8 coordinates
inline constexpr uint32_t z_mode = 0x40;
inline constexpr uint32_t blend_mode = 0x41;
inline constexpr uint32_t constant_alpha = 0x42;
inline constexpr uint32_t pixel_format = 0x43;
inline constexpr uint32_t field_mask = 0x44;
inline constexpr uint32_t draw_done = 0x45;
inline constexpr uint32_t token = 0x47;
inline constexpr uint32_t token_interrupt = 0x48;
inline constexpr uint32_t copy_source_top_left = 0x49;
inline constexpr uint32_t copy_source_size = 0x4A;
inline constexpr uint32_t copy_destination = 0x4B;
inline constexpr uint32_t copy_stride = 0x4D;
inline constexpr uint32_t copy_y_scale = 0x4E;
inline constexpr uint32_t clear_alpha_red = 0x4F;
inline constexpr uint32_t clear_green_blue = 0x50;
inline constexpr uint32_t clear_z = 0x51;
inline constexpr uint32_t copy_trigger = 0x52;
inline constexpr uint32_t copy_filter0 = 0x53;     // vertical filter weights w0-w3
inline constexpr uint32_t copy_filter1 = 0x54;     // w4-w6
inline constexpr uint32_t clear_bounding_box_0 = 0x55;
inline constexpr uint32_t clear_bounding_box_1 = 0x56;
inline constexpr uint32_t clear_pixel_perf = 0x57;
inline constexpr uint32_t scissor_offset = 0x59;
inline constexpr uint32_t preload_address = 0x60;
inline constexpr uint32_t preload_tmem_even = 0x61;
inline constexpr uint32_t preload_tmem_odd = 0x62;
inline constexpr uint32_t preload_mode = 0x63;      // the preload trigger
inline constexpr uint32_t tlut_source = 0x64;
inline constexpr uint32_t tlut_load = 0x65;         // the TLUT load trigger
inline constexpr uint32_t texture_invalidate = 0x66;
inline constexpr uint32_t tev_color_env = 0xC0;     // + 2 * stage; alpha env at 0xC1 + 2 * stage
inline constexpr uint32_t tev_register_low = 0xE0;  // + 2 * n: red (0-10), alpha (12-22), konst flag (23)
inline constexpr uint32_t tev_register_high = 0xE1; // + 2 * n: blue (0-10), green (12-22), konst flag (23)
inline constexpr uint32_t fog_range = 0xE8;
inline constexpr uint32_t fog_a = 0xEE;
inline constexpr uint32_t fog_b_magnitude = 0xEF;
inline constexpr uint32_t fog_b_exponent = 0xF0;
inline constexpr uint32_t fog_c = 0xF1;
inline constexpr uint32_t fog_color = 0xF2;
inline constexpr uint32_t alpha_compare = 0xF3;
inline constexpr uint32_t z_texture_bias = 0xF4;
inline constexpr uint32_t z_texture_mode = 0xF5;
inline constexpr uint32_t tev_konst_select = 0xF6;  // 8 words
inline constexpr uint32_t mask = 0xFE;
inline constexpr uint32_t register_count = 256;
inline constexpr uint32_t value_mask = 0xFFFFFF;
} // namespace bp

/// BP writes whose effect is an action (a copy, a token, a load): they act on every write, even of the value the
/// register already holds.
bool bp_has_side_effect(uint32_t address);

struct BpState {
  std::array<uint32_t, bp::register_count> registers{};
  uint32_t write_mask = bp::value_mask; ///< the one-shot mask BP 0xFE sets for the next write
  /// BP 0xE0-0xE7 address two banks: bit 23 of a write picks the konst colours instead of the TEV registers.
  /// Index = address - 0xE0 (even: red/alpha, odd: blue/green) for register (PREV, C0-C2) or konst n / 2.
  std::array<uint32_t, 8> tev_registers{}, tev_konst{};
  friend bool operator==(const BpState&, const BpState&) = default;

  uint32_t reg(uint32_t address) const { return registers[address]; }
  struct WriteResult {
    uint32_t old_value = 0;
    uint32_t new_value = 0;
    bool changed = false;
  };
  /// What a write of `value` to `address` would store: the bits the one-shot mask selects are replaced.
  WriteResult masked(uint32_t address, uint32_t value) const;
  /// Stores `new_value`; a write to 0xFE sets the mask for the next write, any other write resets it to all ones.
  void commit(uint32_t address, uint32_t new_value);
};

} // namespace kiln::gx
