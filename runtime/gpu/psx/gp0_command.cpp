#include "runtime/gpu/psx/gp0_command.h"

#include <fmt/format.h>

namespace kiln::psx {

Gp0Command decode_gp0(uint32_t first_word) {
  const auto opcode = static_cast<uint8_t>(first_word >> 24);
  const auto kind = [&] {
    switch (opcode >> 5) {
      case 1: return Gp0Kind::polygon;
      case 2: return Gp0Kind::line;
      case 3: return Gp0Kind::rectangle;
      case 4: return Gp0Kind::vram_copy;
      case 5: return Gp0Kind::vram_write;
      case 6: return Gp0Kind::vram_read;
      default: break;
    }
    switch (opcode) {
      case 0x01: return Gp0Kind::clear_cache;
      case 0x02: return Gp0Kind::fill;
      case 0x1F: return Gp0Kind::interrupt;
      case 0xE1: return Gp0Kind::draw_mode;
      case 0xE2: return Gp0Kind::texture_window;
      case 0xE3: return Gp0Kind::area_top_left;
      case 0xE4: return Gp0Kind::area_bottom_right;
      case 0xE5: return Gp0Kind::drawing_offset;
      case 0xE6: return Gp0Kind::mask_setting;
      default: return Gp0Kind::nop;
    }
  }();
  return Gp0Command{opcode, kind};
}

int Gp0Command::rectangle_size() const {
  static constexpr int sizes[4] = {0, 1, 8, 16};
  return sizes[opcode >> 3 & 3];
}

unsigned Gp0Command::word_count() const {
  switch (kind) {
    case Gp0Kind::fill: return 3;
    case Gp0Kind::polygon: {
      const unsigned vertices = quad() ? 4 : 3;
      // colour word (one per vertex when shaded) + position + texcoord per vertex when textured
      return (gouraud() ? vertices : 1) + vertices * (textured() ? 2 : 1);
    }
    case Gp0Kind::line: return gouraud() ? 4 : 3;
    case Gp0Kind::rectangle: return 2 + (textured() ? 1 : 0) + (rectangle_size() == 0 ? 1 : 0);
    case Gp0Kind::vram_copy: return 4;
    case Gp0Kind::vram_write:
    case Gp0Kind::vram_read: return 3;
    default: return 1;
  }
}

std::string Gp0Command::describe() const {
  const char* what = "no-op";
  switch (kind) {
    case Gp0Kind::nop: break;
    case Gp0Kind::clear_cache: what = "clear cache"; break;
    case Gp0Kind::fill: what = "VRAM fill"; break;
    case Gp0Kind::interrupt: what = "interrupt request"; break;
    case Gp0Kind::polygon: what = quad() ? "quad" : "triangle"; break;
    case Gp0Kind::line: what = polyline() ? "polyline" : "line"; break;
    case Gp0Kind::rectangle: what = "rectangle"; break;
    case Gp0Kind::vram_copy: what = "VRAM-to-VRAM copy"; break;
    case Gp0Kind::vram_write: what = "CPU-to-VRAM transfer"; break;
    case Gp0Kind::vram_read: what = "VRAM-to-CPU transfer"; break;
    case Gp0Kind::draw_mode: what = "draw mode"; break;
    case Gp0Kind::texture_window: what = "texture window"; break;
    case Gp0Kind::area_top_left: what = "drawing area top-left"; break;
    case Gp0Kind::area_bottom_right: what = "drawing area bottom-right"; break;
    case Gp0Kind::drawing_offset: what = "drawing offset"; break;
    case Gp0Kind::mask_setting: what = "mask setting"; break;
  }
  std::string style;
  if (kind == Gp0Kind::polygon || kind == Gp0Kind::line || kind == Gp0Kind::rectangle) {
    if (gouraud()) style += "shaded ";
    if (textured()) style += raw_texture() ? "raw-textured " : "textured ";
    if (semi_transparent()) style += "semi-transparent ";
  }
  return fmt::format("GP0({:02X}h) {}{}", opcode, style, what);
}

} // namespace kiln::psx
