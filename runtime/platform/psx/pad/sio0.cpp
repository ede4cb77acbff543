#include "runtime/platform/psx/pad/sio0.h"

#include <algorithm>

namespace kiln::psx {
namespace {

constexpr uint16_t ctrl_tx_enable = 1u << 0, ctrl_select = 1u << 1, ctrl_force_receive = 1u << 2,
                   ctrl_acknowledge = 1u << 4, ctrl_reset = 1u << 6, ctrl_ack_interrupt = 1u << 12,
                   ctrl_port2 = 1u << 13;

} // namespace

uint64_t Sio0::byte_cycles() const {
  const unsigned factor_bits = mode_ & 3;
  const uint64_t factor = factor_bits == 2 ? 16 : factor_bits == 3 ? 64 : 1;
  return 8 * std::max<uint64_t>((baud_ * factor) & ~uint64_t{1}, 1);
}

void Sio0::advance(uint64_t cycles) {
  now_ += cycles;
  if (transfer_end_ && now_ >= *transfer_end_) {
    const uint64_t ended = *transfer_end_;
    transfer_end_.reset();
    if (rx_count_ < rx_.size()) rx_[rx_count_++] = in_flight_rx_;
    else rx_.back() = in_flight_rx_; // a full FIFO: the last entry is overwritten
    if (in_flight_ack_) ack_start_ = ended + ack_delay_cycles;
    if (queued_tx_) {
      const uint8_t next = *queued_tx_;
      queued_tx_.reset();
      start_transfer(next);
    }
  }
  if (ack_start_ && now_ >= *ack_start_) {
    ack_end_ = *ack_start_ + ack_cycles;
    ack_start_.reset();
    ack_low_ = true;
    if ((ctrl_ & ctrl_ack_interrupt) && !irq_) {
      irq_ = true;
      if (on_interrupt) on_interrupt();
    }
  }
  if (ack_end_ && now_ >= *ack_end_) {
    ack_end_.reset();
    ack_low_ = false;
  }
}

void Sio0::start_transfer(uint8_t byte) {
  Controller* device = (ctrl_ & ctrl_select) ? ports_[(ctrl_ & ctrl_port2) ? 1 : 0] : nullptr;
  Controller::Reply reply;
  if (device) reply = device->exchange(byte, frame);
  in_flight_rx_ = reply.byte;
  in_flight_ack_ = reply.ack;
  // Without /CS the byte goes out but nothing is received, unless RXEN forces one reception.
  if (!(ctrl_ & ctrl_select)) {
    if (!(ctrl_ & ctrl_force_receive)) {
      transfer_end_.reset();
      return;
    }
    ctrl_ &= ~ctrl_force_receive;
  }
  transfer_end_ = now_ + byte_cycles();
}

void Sio0::reset() {
  transfer_end_.reset();
  ack_start_.reset();
  ack_end_.reset();
  queued_tx_.reset();
  rx_count_ = 0;
  ack_low_ = irq_ = false;
  mode_ = ctrl_ = baud_ = 0;
  for (Controller* c : ports_)
    if (c) c->deselect();
}

uint32_t Sio0::read(uint32_t offset, unsigned size) {
  advance(access_cycles);
  switch (offset) {
    case data: {
      uint32_t value = 0xFFFFFFFFu;
      for (unsigned i = 0; i < std::min(rx_count_, size); ++i) value = (value & ~(0xFFu << (8 * i))) | uint32_t{rx_[i]} << (8 * i);
      if (rx_count_ > 0) {
        std::copy(rx_.begin() + 1, rx_.end(), rx_.begin());
        --rx_count_;
      }
      return value;
    }
    case stat: {
      const bool tx_idle = !transfer_end_.has_value();
      return 0x1u | (rx_count_ ? 0x2u : 0u) | (tx_idle ? 0x4u : 0u) | (ack_low_ ? 0x80u : 0u) | (irq_ ? 0x200u : 0u);
    }
    case mode: return mode_;
    case ctrl: return ctrl_;
    case baud: return baud_;
    default: return 0;
  }
}

void Sio0::write(uint32_t offset, uint32_t value) {
  advance(access_cycles);
  switch (offset) {
    case data: {
      const uint8_t byte = static_cast<uint8_t>(value);
      if (transfer_end_ || !(ctrl_ & ctrl_tx_enable)) queued_tx_ = byte; // sent when the wire is free and TX enabled
      else start_transfer(byte);
      return;
    }
    case mode: mode_ = static_cast<uint16_t>(value & 0x13F); return;
    case baud: baud_ = static_cast<uint16_t>(value); return;
    case ctrl: {
      if (value & ctrl_reset) {
        reset();
        return;
      }
      const bool was_selected = ctrl_ & ctrl_select, was_port2 = ctrl_ & ctrl_port2;
      ctrl_ = static_cast<uint16_t>(value & ~(ctrl_acknowledge | ctrl_reset));
      if (value & ctrl_acknowledge) irq_ = false;
      const bool selected = ctrl_ & ctrl_select, port2 = ctrl_ & ctrl_port2;
      if (was_selected && (!selected || port2 != was_port2))
        if (Controller* c = ports_[was_port2 ? 1 : 0]) c->deselect();
      if (queued_tx_ && !transfer_end_ && (ctrl_ & ctrl_tx_enable)) {
        const uint8_t next = *queued_tx_;
        queued_tx_.reset();
        start_transfer(next);
      }
      return;
    }
    default: return;
  }
}

} // namespace kiln::psx
