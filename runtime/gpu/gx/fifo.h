#pragma once
// The command FIFO: a ring in guest RAM that the CPU fills in 32-byte gather-pipe bursts and the command
// processor drains. The CP view: base, end (inclusive: a pointer at `end` wraps to `base` on the next burst),
// write and read pointers, their distance, high/low watermarks and a breakpoint. A command that straddles a
// burst stays buffered, unconsumed, until the rest of it arrives.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/gpu/gx/command_processor.h"

namespace kiln::gx {

inline constexpr uint32_t burst_bytes = 32;

struct FifoRegisters {
  uint32_t base = 0;
  uint32_t end = 0;            ///< address of the ring's last burst
  uint32_t write_pointer = 0;
  uint32_t read_pointer = 0;
  uint32_t distance = 0;       ///< bytes written and not yet read
  uint32_t high_watermark = 0;
  uint32_t low_watermark = 0;
  uint32_t breakpoint = 0;
  // CP control: GP read enable, breakpoint enable, overflow/underflow/breakpoint interrupt enables.
  bool read_enable = true;
  bool breakpoint_enable = false;
  bool overflow_interrupt_enable = false;
  bool underflow_interrupt_enable = false;
  bool breakpoint_interrupt_enable = false;
};

struct FifoStatus {
  bool overflow = false;   ///< distance above the high watermark
  bool underflow = false;  ///< distance below the low watermark
  bool breakpoint = false; ///< the read pointer is at the enabled breakpoint (reading stops there)
  bool interrupt = false;  ///< an enabled cause, while reading is enabled
};

class CommandFifo {
public:
  CommandFifo(std::span<uint8_t> ram, CommandProcessor& processor) : ram_(ram), processor_(processor) {}

  /// Places the ring at [base, end] (32-byte aligned, inside RAM) with both pointers at `base`; throws
  /// kiln::Error otherwise.
  void set_ring(uint32_t base, uint32_t end);
  FifoRegisters& registers() { return registers_; }
  const FifoRegisters& registers() const { return registers_; }
  uint32_t capacity() const { return registers_.end - registers_.base + burst_bytes; }

  /// One gather-pipe burst: its bytes land at the write pointer, which advances (or wraps) by 32.
  void write_burst(std::span<const uint8_t, burst_bytes> bytes);
  /// Drains the ring while reading is enabled and the breakpoint is not reached, running every complete command.
  /// When the ring empties the processor's pending batch is flushed.
  void run();
  FifoStatus status() const;

  /// Bytes read from the ring that belong to a command not yet whole.
  size_t pending_bytes() const { return pending_.size(); }
  /// Ring misuse (a burst written over bytes not yet read), with the pointer it happened at.
  const std::vector<std::string>& errors() const { return errors_; }

private:
  uint32_t advance(uint32_t pointer) const { return pointer == registers_.end ? registers_.base : pointer + burst_bytes; }

  std::span<uint8_t> ram_;
  CommandProcessor& processor_;
  FifoRegisters registers_;
  std::vector<uint8_t> pending_;
  uint64_t pending_offset_ = 0; ///< stream offset of pending_[0]
  std::vector<std::string> errors_;
};

} // namespace kiln::gx
