#pragma once
// GP0 command bytes: what each one is and how many words it takes (psx-spx "GPU Command Summary").
#include <cstdint>
#include <string>

namespace kiln::psx {

enum class Gp0Kind : uint8_t {
  nop,             ///< 00h, 03h..1Eh, E0h, E7h..FFh: takes one word, does nothing
  clear_cache,     ///< 01h
  fill,            ///< 02h: fill a rectangle in VRAM
  interrupt,       ///< 1Fh: raise the GPU IRQ
  polygon,         ///< 20h..3Fh
  line,            ///< 40h..5Fh
  rectangle,       ///< 60h..7Fh
  vram_copy,       ///< 80h..9Fh: VRAM to VRAM
  vram_write,      ///< A0h..BFh: CPU to VRAM (then width*height halfwords of data)
  vram_read,       ///< C0h..DFh: VRAM to CPU
  draw_mode,       ///< E1h
  texture_window,  ///< E2h
  area_top_left,   ///< E3h
  area_bottom_right, ///< E4h
  drawing_offset,  ///< E5h
  mask_setting,    ///< E6h
};

struct Gp0Command {
  uint8_t opcode;
  Gp0Kind kind;
  // Bits of the opcode for drawing commands.
  bool gouraud() const { return (opcode & 0x10) != 0 && kind != Gp0Kind::rectangle; }
  bool quad() const { return kind == Gp0Kind::polygon && (opcode & 0x08) != 0; }
  bool polyline() const { return kind == Gp0Kind::line && (opcode & 0x08) != 0; }
  bool textured() const { return (kind == Gp0Kind::polygon || kind == Gp0Kind::rectangle) && (opcode & 0x04) != 0; }
  bool semi_transparent() const { return (opcode & 0x02) != 0; }
  bool raw_texture() const { return (opcode & 0x01) != 0; }
  /// 0 = variable size (an extra word), else the fixed size 1, 8 or 16.
  int rectangle_size() const;

  /// Words of the command itself (for a polyline: up to its second vertex; for a CPU-to-VRAM write: before the data).
  unsigned word_count() const;
  /// Human name for reports: "GP0(38h) shaded quad".
  std::string describe() const;
};

Gp0Command decode_gp0(uint32_t first_word);

/// A polyline ends at a word whose bits match 5xxx5xxxh where the next vertex would start.
constexpr bool is_polyline_terminator(uint32_t word) { return (word & 0xF000F000) == 0x50005000; }

} // namespace kiln::psx
