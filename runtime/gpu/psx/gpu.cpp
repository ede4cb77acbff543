#include "runtime/gpu/psx/gpu.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/gpu/psx/pixel.h"
#include "runtime/gpu/psx/rasterizer.h"

namespace kiln::psx {
namespace {

int32_t coordinate(uint32_t halfword) { return static_cast<int32_t>(sign_extend(halfword & 0xFFFF, 11)); }

Vertex position(uint32_t word, const DrawState& state) {
  Vertex v;
  v.x = coordinate(word) + state.offset_x;
  v.y = coordinate(word >> 16) + state.offset_y;
  return v;
}

void set_colour(Vertex& v, uint32_t word) {
  v.r = static_cast<uint8_t>(word), v.g = static_cast<uint8_t>(word >> 8), v.b = static_cast<uint8_t>(word >> 16);
}

PrimitiveStyle style_of(const Gp0Command& command) {
  PrimitiveStyle style;
  style.gouraud = command.gouraud();
  style.textured = command.textured();
  style.raw_texture = command.raw_texture();
  style.semi_transparent = command.semi_transparent();
  return style;
}

} // namespace

Gpu::Gpu() : vram_(std::make_unique<Vram>()) { reset(); }

void Gpu::reset() {
  words_.clear();
  in_polyline_ = false;
  write_ = {};
  read_ = {};
  irq_ = false;
  dma_direction_ = 0;
  display_ = DisplayState{};
  draw_ = DrawState{};
  field_ = true;
}

bool Gpu::Transfer::advance() {
  if (++column < width) return true;
  column = 0;
  return ++row < height;
}

void Gpu::write_halfword(uint16_t value) {
  const int x = write_.x + write_.column, y = write_.y + write_.row;
  const uint16_t back = vram_->at(x, y);
  if (!(draw_.check_mask && (back & 0x8000))) vram_->set(x, y, static_cast<uint16_t>(value | draw_.mask_or()));
  write_.active = write_.advance();
}

void Gpu::write_gp0(uint32_t word) {
  if (write_.active) {
    ++write_words_;
    write_halfword(static_cast<uint16_t>(word));
    if (write_.active) write_halfword(static_cast<uint16_t>(word >> 16));
    return;
  }
  if (in_polyline_) {
    if (words_.empty() && is_polyline_terminator(word)) {
      in_polyline_ = false;
      return;
    }
    words_.push_back(word);
    if (words_.size() == words_expected_) {
      polyline_vertex(words_.view());
      words_.clear();
    }
    return;
  }
  if (words_.empty()) words_expected_ = decode_gp0(word).word_count();
  words_.push_back(word);
  if (words_.size() == words_expected_) {
    const CommandWords command = words_;
    words_.clear();
    execute(command.view());
  }
}

std::optional<PendingCommand> Gpu::pending_command() const {
  if (write_.active) {
    return PendingCommand{decode_gp0(uint32_t{write_opcode_} << 24), fmt::format("received {} data words, {} halfwords of {}x{} missing",
                                                              write_words_, write_.halfwords_left(), write_.width,
                                                              write_.height)};
  }
  if (in_polyline_) {
    const Gp0Command command = decode_gp0(uint32_t{polyline_opcode_} << 24);
    if (words_.empty()) return PendingCommand{command, "not terminated (no 5xxx5xxxh word after the last vertex)"};
    return PendingCommand{command, fmt::format("last vertex has {} of {} words", words_.size(), words_expected_)};
  }
  if (words_.empty()) return std::nullopt;
  return PendingCommand{decode_gp0(words_[0]), fmt::format("{} of {} words", words_.size(), words_expected_)};
}

void Gpu::update_row_skipping() {
  const bool interlaced_480 = display_.interlaced() && display_.tall();
  draw_.skipped_row_parity =
      interlaced_480 && !draw_.draw_to_display_area ? static_cast<int8_t>((display_.start_y + !field_) & 1) : -1;
}

void Gpu::execute(std::span<const uint32_t> words) {
  const Gp0Command command = decode_gp0(words[0]);
  update_row_skipping();
  switch (command.kind) {
    case Gp0Kind::nop:
    case Gp0Kind::clear_cache: break;
    case Gp0Kind::interrupt: irq_ = true; break;
    case Gp0Kind::fill: fill(words); break;
    case Gp0Kind::polygon: draw_polygon(command, words); break;
    case Gp0Kind::line: {
      in_polyline_ = false;
      const bool gouraud = command.gouraud();
      Vertex from = position(words[1], draw_), to = position(words[gouraud ? 3 : 2], draw_);
      set_colour(from, words[0]);
      set_colour(to, gouraud ? words[2] : words[0]);
      draw_line(*vram_, draw_, style_of(command), from, to);
      if (command.polyline()) {
        in_polyline_ = true;
        polyline_opcode_ = command.opcode;
        previous_vertex_[0] = gouraud ? words[2] : words[0];
        previous_vertex_[1] = words[gouraud ? 3 : 2];
        words_expected_ = gouraud ? 2 : 1;
      }
      break;
    }
    case Gp0Kind::rectangle: draw_rectangle(command, words); break;
    case Gp0Kind::vram_copy: copy(words); break;
    case Gp0Kind::vram_write:
      write_ = start_transfer(words);
      write_words_ = 0;
      write_opcode_ = command.opcode;
      break;
    case Gp0Kind::vram_read: read_ = start_transfer(words); break;
    case Gp0Kind::draw_mode: draw_.apply_draw_mode(words[0], false, texture_disable_allowed_); break;
    case Gp0Kind::texture_window: draw_.apply_texture_window(words[0]); break;
    case Gp0Kind::area_top_left: draw_.apply_area_top_left(words[0]); break;
    case Gp0Kind::area_bottom_right: draw_.apply_area_bottom_right(words[0]); break;
    case Gp0Kind::drawing_offset: draw_.apply_offset(words[0]); break;
    case Gp0Kind::mask_setting: draw_.apply_mask(words[0]); break;
  }
}

void Gpu::draw_polygon(const Gp0Command& command, std::span<const uint32_t> words) {
  const int count = command.quad() ? 4 : 3;
  const bool gouraud = command.gouraud(), textured = command.textured();
  Vertex vertices[4];
  PrimitiveStyle style = style_of(command);
  size_t at = 1;
  for (int i = 0; i < count; ++i) {
    Vertex& v = vertices[i];
    const uint32_t colour = i == 0 ? words[0] : gouraud ? words[at++] : words[0];
    v = position(words[at++], draw_);
    set_colour(v, colour);
    if (textured) {
      const uint32_t texcoord = words[at++];
      v.u = static_cast<uint8_t>(texcoord), v.v = static_cast<uint8_t>(texcoord >> 8);
      if (i == 0) style.clut = static_cast<uint16_t>(texcoord >> 16);
      // The texpage halfword (second vertex) becomes the drawing state for this and later primitives.
      if (i == 1) draw_.apply_draw_mode(texcoord >> 16, true, texture_disable_allowed_);
    }
  }
  draw_triangle(*vram_, draw_, style, vertices[0], vertices[1], vertices[2]);
  if (count == 4) draw_triangle(*vram_, draw_, style, vertices[1], vertices[2], vertices[3]);
}

void Gpu::polyline_vertex(std::span<const uint32_t> words) {
  const Gp0Command command = decode_gp0(uint32_t{polyline_opcode_} << 24);
  const bool gouraud = command.gouraud();
  Vertex from = position(previous_vertex_[1], draw_), to = position(words[gouraud ? 1 : 0], draw_);
  set_colour(from, previous_vertex_[0]);
  set_colour(to, gouraud ? words[0] : previous_vertex_[0]);
  update_row_skipping();
  draw_line(*vram_, draw_, style_of(command), from, to);
  if (gouraud) previous_vertex_[0] = words[0];
  previous_vertex_[1] = words[gouraud ? 1 : 0];
}

void Gpu::draw_rectangle(const Gp0Command& command, std::span<const uint32_t> words) {
  PrimitiveStyle style = style_of(command);
  Vertex corner;
  set_colour(corner, words[0]);
  // The offset is added to the 11-bit coordinate and the sum wraps to 11 bits again.
  corner.x = static_cast<int32_t>(sign_extend(static_cast<uint32_t>(coordinate(words[1]) + draw_.offset_x), 11));
  corner.y = static_cast<int32_t>(sign_extend(static_cast<uint32_t>(coordinate(words[1] >> 16) + draw_.offset_y), 11));
  size_t at = 2;
  if (style.textured) {
    corner.u = static_cast<uint8_t>(words[at]), corner.v = static_cast<uint8_t>(words[at] >> 8);
    style.clut = static_cast<uint16_t>(words[at] >> 16);
    ++at;
  }
  int32_t width = command.rectangle_size(), height = width;
  if (width == 0) {
    width = static_cast<int32_t>(words[at] & 0x3FF);
    height = static_cast<int32_t>(words[at] >> 16 & 0x1FF);
  }
  kiln::psx::draw_rectangle(*vram_, draw_, style, corner, width, height);
}

void Gpu::fill(std::span<const uint32_t> words) {
  // Fills ignore the drawing area, offset and mask settings; x is in units of 16 pixels.
  const uint16_t colour = truncate_colour(words[0]);
  const int x0 = static_cast<int>(words[1] & 0x3F0), y0 = static_cast<int>(words[1] >> 16 & 0x3FF);
  const int width = static_cast<int>(((words[2] & 0x3FF) + 0xF) & ~0xFu);
  const int height = static_cast<int>(words[2] >> 16 & 0x1FF);
  for (int y = 0; y < height; ++y) {
    if (draw_.skips_row((y0 + y) & 511)) continue;
    for (int x = 0; x < width; ++x) vram_->set(x0 + x, y0 + y, colour);
  }
}

void Gpu::copy(std::span<const uint32_t> words) {
  const int src_x = static_cast<int>(words[1] & 0x3FF), src_y = static_cast<int>(words[1] >> 16 & 0x3FF);
  const int dst_x = static_cast<int>(words[2] & 0x3FF), dst_y = static_cast<int>(words[2] >> 16 & 0x3FF);
  const int width = static_cast<int>(((words[3] & 0x3FF) - 1) & 0x3FF) + 1;
  const int height = static_cast<int>(((words[3] >> 16 & 0x1FF) - 1) & 0x1FF) + 1;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      if (draw_.check_mask && (vram_->at(dst_x + x, dst_y + y) & 0x8000)) continue;
      vram_->set(dst_x + x, dst_y + y, static_cast<uint16_t>(vram_->at(src_x + x, src_y + y) | draw_.mask_or()));
    }
  }
}

Gpu::Transfer Gpu::start_transfer(std::span<const uint32_t> words) {
  Transfer t;
  t.x = static_cast<int>(words[1] & 0x3FF);
  t.y = static_cast<int>(words[1] >> 16 & 0x1FF);
  // A size of 0 means the maximum (1024 or 512).
  t.width = static_cast<int>(((words[2] & 0xFFFF) - 1) & 0x3FF) + 1;
  t.height = static_cast<int>(((words[2] >> 16) - 1) & 0x1FF) + 1;
  t.active = true;
  return t;
}

uint32_t Gpu::read_gpuread() {
  if (!read_.active) return gpuread_latch_;
  uint32_t value = 0;
  for (int half = 0; half < 2 && read_.active; ++half) {
    value |= uint32_t{vram_->at(read_.x + read_.column, read_.y + read_.row)} << (16 * half);
    read_.active = read_.advance();
  }
  gpuread_latch_ = value;
  return value;
}

void Gpu::write_gp1(uint32_t word) {
  const uint32_t value = word & 0xFFFFFF;
  switch (word >> 24 & 0x3F) {
    case 0x00: reset(); break;
    case 0x01:
      words_.clear();
      in_polyline_ = false;
      write_.active = false;
      break;
    case 0x02: irq_ = false; break;
    case 0x03: display_.enabled = (value & 1) == 0; break;
    case 0x04: dma_direction_ = static_cast<uint8_t>(value & 3); break;
    case 0x05:
      display_.start_x = static_cast<uint16_t>(value & 0x3FE); // the low bit is ignored
      display_.start_y = static_cast<uint16_t>(value >> 10 & 0x1FF);
      break;
    case 0x06:
      display_.range_x1 = static_cast<uint16_t>(value & 0xFFF);
      display_.range_x2 = static_cast<uint16_t>(value >> 12 & 0xFFF);
      break;
    case 0x07:
      display_.range_y1 = static_cast<uint16_t>(value & 0x3FF);
      display_.range_y2 = static_cast<uint16_t>(value >> 10 & 0x3FF);
      break;
    case 0x08: display_.mode = static_cast<uint8_t>(value); break;
    case 0x09: texture_disable_allowed_ = (value & 1) != 0; break;
    case 0x10: case 0x11: case 0x12: case 0x13: case 0x14: case 0x15: case 0x16: case 0x17:
    case 0x18: case 0x19: case 0x1A: case 0x1B: case 0x1C: case 0x1D: case 0x1E: case 0x1F:
      switch (value & 0xF) {
        case 2:
          gpuread_latch_ = uint32_t{draw_.window_mask_x} | uint32_t{draw_.window_mask_y} << 5 |
                           uint32_t{draw_.window_offset_x} << 10 | uint32_t{draw_.window_offset_y} << 15;
          break;
        case 3: gpuread_latch_ = static_cast<uint32_t>(draw_.clip_x0 | draw_.clip_y0 << 10); break;
        case 4: gpuread_latch_ = static_cast<uint32_t>(draw_.clip_x1 | draw_.clip_y1 << 10); break;
        case 5: gpuread_latch_ = static_cast<uint32_t>((draw_.offset_x & 0x7FF) | (draw_.offset_y & 0x7FF) << 11); break;
        case 7: gpuread_latch_ = 2; break; // GPU version
        case 8: gpuread_latch_ = 0; break;
        default: break;                    // other indices leave GPUREAD unchanged
      }
      break;
    default: break; // GP1(20h) VRAM size and unused commands do nothing here
  }
}

uint32_t Gpu::gpustat() const {
  const bool idle = !command_pending();
  // "Write FIFO empty": commands run at once, so only parameters still being collected sit in the FIFO;
  // CPU-to-VRAM data is consumed as it arrives.
  const bool ready_dma = words_.empty() && !in_polyline_;
  uint32_t status = draw_.texpage_bits();
  // Bit 13 is the interlace field, or always 1 when not interlaced.
  const bool field_bit = display_.interlaced() ? field_ : true;
  status |= uint32_t{draw_.set_mask} << 11 | uint32_t{draw_.check_mask} << 12 | uint32_t{field_bit} << 13;
  status |= uint32_t{(display_.mode & 0x80) != 0} << 14 | uint32_t{draw_.texture_disable} << 15;
  status |= uint32_t{(display_.mode & 0x40) != 0} << 16 | uint32_t{display_.mode & 0x3Fu} << 17;
  status |= uint32_t{!display_.enabled} << 23 | uint32_t{irq_} << 24;
  bool dma_request = false;
  switch (dma_direction_) {
    case 1: dma_request = true; break; // the FIFO never fills
    case 2: dma_request = ready_dma; break;
    case 3: dma_request = read_.active; break;
    default: break;
  }
  status |= uint32_t{dma_request} << 25 | uint32_t{idle} << 26 | uint32_t{read_.active} << 27 |
            uint32_t{ready_dma} << 28 | uint32_t{dma_direction_} << 29;
  return status;
}

} // namespace kiln::psx
