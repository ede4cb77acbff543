#pragma once
// The pixel engine's CPU-visible side: the draw-done (finish) and token interrupts the command stream raises
// through BP 0x45, 0x47 and 0x48, in stream order, and the PE registers the CPU reads and acknowledges them
// through (YAGCD 5.3 "PE"): 0x0A control/status (bit 0 token interrupt enable, 1 finish enable, 2 token
// interrupt status, 3 finish status; writing 1 to a status bit clears it) and 0x0E the last token (16 bits).
// No platform code: the machine maps the two interrupt lines onto its interrupt controller.
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/gpu/gx/command_processor.h"

namespace kiln::gx {

namespace pe {
inline constexpr uint32_t control = 0x0A;  ///< PE_CTRL / interrupt status, 16 bits
inline constexpr uint32_t token = 0x0E;    ///< PE_TOKEN, 16 bits
inline constexpr uint16_t token_enable = 1u << 0, finish_enable = 1u << 1, token_status = 1u << 2,
                          finish_status = 1u << 3;
/// The BP 0x45 value GXSetDrawDone writes (the low byte 0x02 raises the finish interrupt).
inline constexpr uint32_t draw_done_value = 0x02;
} // namespace pe

class PixelEngine {
public:
  /// Applies draw done, token and token-interrupt events; other events are not the PE's. A draw-done value other
  /// than 0x02 is reported in errors() with the stream offset and raises nothing.
  void consume(const Event& event);

  /// 16-bit register reads and writes at offsets of the PE block; false for an offset this class does not hold.
  bool read16(uint32_t offset, uint16_t& value) const;
  bool write16(uint32_t offset, uint16_t value);

  uint16_t token() const { return token_; }
  bool token_interrupt() const { return (control_ & pe::token_status) && (control_ & pe::token_enable); }
  bool finish_interrupt() const { return (control_ & pe::finish_status) && (control_ & pe::finish_enable); }
  uint64_t finishes() const { return finishes_; }
  const std::vector<std::string>& errors() const { return errors_; }

private:
  uint16_t control_ = 0;
  uint16_t token_ = 0;
  uint64_t finishes_ = 0;
  std::vector<std::string> errors_;
};

} // namespace kiln::gx
