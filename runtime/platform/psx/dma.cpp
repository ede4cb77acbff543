// DMA (psx-spx "DMA Channels"): a transfer runs to completion as soon as it is started (the CPU is infinitely
// fast and so is the bus). GPU (channel 2): block and linked-list modes to GP0, block mode from GPUREAD;
// SPU (channel 4): words to and from sound RAM at the SPU's transfer address; OTC (channel 6): the
// reverse-linked empty ordering table. Other channels complete without moving data.
#include "runtime/base/log.h"
#include "runtime/platform/psx/io.h"
#include "runtime/platform/psx/machine.h"

namespace kiln::psx {
namespace {

constexpr unsigned gpu_channel = 2, spu_channel = 4, otc_channel = 6;
constexpr uint32_t chcr_from_ram = 1u << 0, chcr_step_back = 1u << 1, chcr_start = 1u << 24, chcr_trigger = 1u << 28;
constexpr uint32_t list_end = 0x800000u;
/// A linked list longer than this is taken to loop forever (the hardware would hang too).
constexpr unsigned max_list_nodes = 1u << 20;

} // namespace

void IoRegisters::write_dicr(uint32_t value) {
  // Bits 0-5 and 15-23 are read/write, flags 24-30 clear when 1 is written, bit 31 is computed.
  uint32_t flags = (dicr & 0x7F000000u) & ~(value & 0x7F000000u);
  dicr = (value & 0x00FF803Fu) | flags;
  const bool master = (dicr >> 23) & 1, forced = (dicr >> 15) & 1;
  const bool signalled = forced || (master && ((dicr >> 16) & (dicr >> 24) & 0x7F));
  if (signalled) dicr |= 0x80000000u;
}

void IoRegisters::finish_dma(unsigned channel) {
  DmaChannel& ch = dma[channel];
  ch.chcr &= ~(chcr_start | chcr_trigger);
  if (dicr & (1u << (16 + channel))) {
    const bool was_signalled = (dicr >> 31) & 1;
    dicr |= 1u << (24 + channel);
    if ((dicr >> 23) & 1) dicr |= 0x80000000u;
    if (!was_signalled && (dicr >> 31)) raise(irq::dma);
  }
}

void IoRegisters::start_dma(Machine& m, unsigned channel) {
  DmaChannel& ch = dma[channel];
  const unsigned sync = (ch.chcr >> 9) & 3;
  if (!(ch.chcr & chcr_start)) return;
  if (sync == 0 && !(ch.chcr & chcr_trigger)) return; // manual mode waits for the trigger bit
  const int step = (ch.chcr & chcr_step_back) ? -4 : 4;
  const uint32_t words = sync == 0 ? ((ch.bcr & 0xFFFF) ? ch.bcr & 0xFFFF : 0x10000)
                                   : (ch.bcr & 0xFFFF) * (ch.bcr >> 16);
  uint32_t address = ch.madr & 0x1FFFFC;

  if (channel == gpu_channel && sync == 2) {
    for (unsigned node = 0;; ++node) {
      if (node == max_list_nodes) {
        log::warning("psx: GPU DMA linked list at {:#08x} does not end after {} nodes; stopped", ch.madr, node);
        break;
      }
      const uint32_t header = m.read32(address);
      for (uint32_t i = 1; i <= header >> 24; ++i) m.gpu.write_gp0(m.read32((address + 4 * i) & 0x1FFFFC));
      if (header & list_end) break;
      address = header & 0x1FFFFC;
    }
    ch.madr = 0x00FFFFFF;
  } else if (channel == gpu_channel) {
    for (uint32_t i = 0; i < words; ++i, address = (address + step) & 0x1FFFFC) {
      if (ch.chcr & chcr_from_ram) m.gpu.write_gp0(m.read32(address));
      else m.write32(address, m.gpu.read_gpuread());
    }
    ch.madr = address;
  } else if (channel == spu_channel && sync != 2) {
    for (uint32_t i = 0; i < words; ++i, address = (address + step) & 0x1FFFFC) {
      if (ch.chcr & chcr_from_ram) m.spu.dma_write(m.read32(address));
      else m.write32(address, m.spu.dma_read());
    }
    ch.madr = address;
  } else if (channel == otc_channel) {
    // Entry i points at the one below it; the last (lowest) entry ends the list.
    for (uint32_t i = 0; i < words; ++i, address = (address - 4) & 0x1FFFFC)
      m.write32(address, i + 1 == words ? 0x00FFFFFFu : (address - 4) & 0x1FFFFC);
  } else {
    log::verbose("psx: DMA channel {} (not modelled) completed without moving data", channel);
  }
  finish_dma(channel);
}

} // namespace kiln::psx
