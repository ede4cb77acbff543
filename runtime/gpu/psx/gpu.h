#pragma once
// The PS1 GPU as the CPU and DMA see it: GP0 (drawing and VRAM transfers), GP1 (control), GPUREAD and GPUSTAT.
// Commands execute as soon as their last word arrives (the GPU is infinitely fast; no FIFO timing), so
// GPUSTAT's ready bits only drop while a command's parameters are being received.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "runtime/gpu/psx/display.h"
#include "runtime/gpu/psx/draw_state.h"
#include "runtime/gpu/psx/gp0_command.h"
#include "runtime/gpu/psx/vram.h"

namespace kiln::psx {

/// A GP0 command that has started but not received all its words.
struct PendingCommand {
  Gp0Command command;
  std::string missing; ///< what it still waits for
  std::string describe() const { return command.describe() + ": " + missing; }
};

class Gpu {
public:
  Gpu();

  void write_gp0(uint32_t word);
  void write_gp1(uint32_t word);
  /// GPUREAD: the next two halfwords of a VRAM-to-CPU transfer, or the last GP1(10h) answer.
  uint32_t read_gpuread();
  uint32_t gpustat() const;

  Vram& vram() { return *vram_; }
  const Vram& vram() const { return *vram_; }
  const DrawState& draw_state() const { return draw_; }
  const DisplayState& display() const { return display_; }

  /// The interlace field being scanned out, for whoever models video timing (the default is field 1):
  /// GPUSTAT bit 13 shows it in interlaced mode, and 480-line drawing skips that field's rows.
  void set_interlace_field(bool field) { field_ = field; }

  /// The command still waiting for words (a polyline waits for its terminator), if any.
  std::optional<PendingCommand> pending_command() const;
  /// Cheap form of pending_command().has_value().
  bool command_pending() const { return write_.active || in_polyline_ || !words_.empty(); }
  bool vram_read_pending() const { return read_.active; }

private:
  struct Transfer {
    bool active = false;
    int x = 0, y = 0, width = 0, height = 0;
    int column = 0, row = 0;
    uint32_t halfwords_left() const { return static_cast<uint32_t>((height - row) * width - column); }
    /// Next VRAM position; false when the transfer has ended.
    bool advance();
  };

  void execute(std::span<const uint32_t> words);
  void draw_polygon(const Gp0Command& command, std::span<const uint32_t> words);
  void draw_rectangle(const Gp0Command& command, std::span<const uint32_t> words);
  void polyline_vertex(std::span<const uint32_t> words);
  void fill(std::span<const uint32_t> words);
  void copy(std::span<const uint32_t> words);
  static Transfer start_transfer(std::span<const uint32_t> words);
  void write_halfword(uint16_t value);
  void reset();
  void update_row_skipping();

  std::unique_ptr<Vram> vram_;
  DrawState draw_;
  DisplayState display_;
  /// Words of the command being received (12 at most: a shaded textured quad).
  struct CommandWords {
    std::array<uint32_t, 12> data{};
    size_t count = 0;
    size_t size() const { return count; }
    bool empty() const { return count == 0; }
    void clear() { count = 0; }
    void push_back(uint32_t word) { data[count++] = word; }
    uint32_t operator[](size_t i) const { return data[i]; }
    std::span<const uint32_t> view() const { return {data.data(), count}; }
  };
  CommandWords words_;
  unsigned words_expected_ = 0;
  Transfer write_, read_;
  uint32_t write_words_ = 0;         ///< data words the CPU-to-VRAM transfer has received
  uint8_t write_opcode_ = 0xA0;      ///< the command byte that started it (A0h..BFh)
  bool in_polyline_ = false;
  uint8_t polyline_opcode_ = 0;
  uint32_t previous_vertex_[2] = {}; ///< colour, position of the polyline's last vertex
  bool irq_ = false;
  bool texture_disable_allowed_ = false;
  uint8_t dma_direction_ = 0;
  bool field_ = true;
  uint32_t gpuread_latch_ = 0;
};

} // namespace kiln::psx
