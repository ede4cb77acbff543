#pragma once
// SIO0, the controller and memory card port (psx-spx "Serial Interfaces (SIO)", "Controller and Memory Card
// Overview"): JOY_DATA/STAT/MODE/CTRL/BAUD, /CS per port, the RX FIFO, /ACK (STAT bit 7) and its interrupt
// (STAT bit 9, IRQ7). There are no memory cards: address 81h gets no answer.
//
// Time: the CPU has no cycles, so the port keeps its own clock, advanced by `access_cycles` at every access
// to its registers or to I_STAT. A byte takes 8 bit times ((BAUD * factor) & ~1 cycles each); the controller's
// /ACK pulse starts `ack_delay_cycles` after the byte and lasts `ack_cycles`; IRQ7 comes with its start.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>

#include "runtime/platform/psx/pad/controller.h"

namespace kiln::psx {

class Sio0 {
public:
  static constexpr uint64_t access_cycles = 16;
  static constexpr uint64_t ack_delay_cycles = 128; ///< psx-spx: the kernel ignores /ACK in the first ~100 cycles
  static constexpr uint64_t ack_cycles = 100;       ///< psx-spx: "the LOW duration is circa 100 clock cycles"

  /// Register offsets from 1F801000h.
  static constexpr uint32_t data = 0x040, stat = 0x044, mode = 0x048, ctrl = 0x04A, baud = 0x04E;

  uint32_t read(uint32_t offset, unsigned size);
  void write(uint32_t offset, uint32_t value);
  /// Ports 0 and 1 (psx-spx "port 1" and "port 2"); nullptr: nothing connected.
  void connect(unsigned port, Controller* controller) { ports_[port & 1] = controller; }
  /// A byte is on the wire or an /ACK is still to come: a program polling I_STAT waits for it, not for VBLANK.
  bool busy() const { return transfer_end_.has_value() || ack_start_.has_value(); }
  /// The clock advances by one access (an I_STAT read, for one).
  void access() { advance(access_cycles); }

  std::function<void()> on_interrupt; ///< IRQ7
  unsigned frame = 0;                 ///< VBLANKs so far, for the pad sources

private:
  void advance(uint64_t cycles);
  void start_transfer(uint8_t byte);
  void reset();
  uint64_t byte_cycles() const;

  std::array<Controller*, 2> ports_{};
  uint64_t now_ = 0;
  std::optional<uint64_t> transfer_end_, ack_start_, ack_end_;
  std::optional<uint8_t> queued_tx_;
  uint8_t in_flight_rx_ = 0xFF;
  bool in_flight_ack_ = false;
  std::array<uint8_t, 8> rx_{};
  unsigned rx_count_ = 0;
  bool ack_low_ = false, irq_ = false;
  uint16_t mode_ = 0, ctrl_ = 0, baud_ = 0;
};

} // namespace kiln::psx
