#include "runtime/gpu/gx/fifo.h"

#include <cstring>

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::gx {

void CommandFifo::set_ring(uint32_t base, uint32_t end) {
  if (base % burst_bytes != 0 || end % burst_bytes != 0 || end < base || uint64_t{end} + burst_bytes > ram_.size()) {
    throw Error(fmt::format("GX FIFO ring 0x{:08x}..0x{:08x} is not 32-byte aligned inside guest RAM (0x{:x} bytes)",
                            base, end, ram_.size()));
  }
  registers_.base = base;
  registers_.end = end;
  registers_.write_pointer = registers_.read_pointer = base;
  registers_.distance = 0;
}

void CommandFifo::write_burst(std::span<const uint8_t, burst_bytes> bytes) {
  if (registers_.distance >= capacity()) {
    errors_.push_back(fmt::format("GX FIFO overrun: burst written at 0x{:08x} over 0x{:x} unread bytes",
                                  registers_.write_pointer, registers_.distance));
    return; // the bytes not yet read are kept; this burst is lost
  }
  std::memcpy(&ram_[registers_.write_pointer], bytes.data(), burst_bytes);
  registers_.write_pointer = advance(registers_.write_pointer);
  registers_.distance += burst_bytes;
}

void CommandFifo::run() {
  while (registers_.distance > 0 && registers_.read_enable &&
         !(registers_.breakpoint_enable && registers_.read_pointer == registers_.breakpoint)) {
    const uint8_t* burst = &ram_[registers_.read_pointer];
    pending_.insert(pending_.end(), burst, burst + burst_bytes);
    registers_.read_pointer = advance(registers_.read_pointer);
    registers_.distance -= burst_bytes;
    const size_t consumed = processor_.run(pending_, pending_offset_);
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<ptrdiff_t>(consumed));
    pending_offset_ += consumed;
  }
  if (registers_.distance == 0) processor_.flush();
}

FifoStatus CommandFifo::status() const {
  FifoStatus s;
  s.overflow = registers_.distance > registers_.high_watermark;
  s.underflow = registers_.distance < registers_.low_watermark;
  s.breakpoint = registers_.breakpoint_enable && registers_.read_pointer == registers_.breakpoint;
  s.interrupt = registers_.read_enable && ((s.overflow && registers_.overflow_interrupt_enable) ||
                                           (s.underflow && registers_.underflow_interrupt_enable) ||
                                           (s.breakpoint && registers_.breakpoint_interrupt_enable));
  return s;
}

} // namespace kiln::gx
