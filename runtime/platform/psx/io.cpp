#include "runtime/platform/psx/io.h"

#include "runtime/base/log.h"
#include "runtime/platform/psx/machine.h"

namespace kiln::psx {
namespace {

constexpr uint32_t joy_first = 0x040, joy_last = 0x04F;
constexpr uint32_t reg_i_stat = 0x070, reg_i_mask = 0x074;
constexpr uint32_t dma_first = 0x080, dma_dpcr = 0x0F0, dma_dicr = 0x0F4;
constexpr uint32_t timer_first = 0x100, timer_last = 0x12F;
constexpr uint32_t gpu_gp0 = 0x810, gpu_gp1 = 0x814;
constexpr uint32_t spu_first = 0xC00, spu_last = 0xFFF;

/// Each read of a root counter advances it by this much: no cycle timing, but a program that waits for a
/// counter to move sees it move, the same way in every run.
constexpr uint32_t counter_step_per_read = 16;

} // namespace

void IoRegisters::report_unmodelled(uint32_t address, bool write) {
  if (reported_.insert(address).second)
    log::verbose("psx: {} of the unmodelled I/O address {:#010x} accepted", write ? "write" : "read", address);
}

uint32_t IoRegisters::read(Machine& m, uint32_t address, unsigned size) {
  const uint32_t physical = physical_address(address);
  if (physical >= io_base && physical < io_base + io_size) {
    const uint32_t offset = physical - io_base;
    if (offset >= spu_first && offset <= spu_last) {
      // A 16-bit bus (psx-spx "SPU Bus-Width"): bytes come from their halfword, words are two halfwords.
      const uint32_t spu_offset = (offset - spu_first) & ~1u;
      const uint32_t low = m.spu.read16(spu_offset);
      return size == 4 ? low | uint32_t{m.spu.read16(spu_offset + 2)} << 16 : (offset & 1) ? low >> 8 : low;
    }
    if (offset >= joy_first && offset <= joy_last) return m.sio0.read(offset & ~1u, size);
    const uint32_t word = read_register(m, offset & ~3u);
    return word >> ((offset & 3) * 8);
  }
  if (physical == 0xFFFE0130u) return cache_control_;
  // Expansion region 1 (no ROM cartridge: open bus reads FFh), BIOS ROM (not present with HLE), anything else.
  if (physical >= 0x1F000000u && physical < 0x1F800000u) return 0xFFFFFFFFu;
  report_unmodelled(address, false);
  return 0;
}

void IoRegisters::write(Machine& m, uint32_t address, uint32_t value, unsigned size) {
  const uint32_t physical = physical_address(address);
  if (physical >= io_base && physical < io_base + io_size) {
    const uint32_t offset = physical - io_base;
    if (offset >= spu_first && offset <= spu_last) {
      // 8-bit writes to odd addresses are ignored, to even ones they are 16-bit; words are two halfwords.
      if (size == 1 && (offset & 1)) return;
      const uint32_t spu_offset = offset - spu_first;
      m.spu.write16(spu_offset, static_cast<uint16_t>(value));
      if (size == 4) m.spu.write16(spu_offset + 2, static_cast<uint16_t>(value >> 16));
      return;
    }
    if (offset >= joy_first && offset <= joy_last) {
      m.sio0.write(offset & ~1u, value);
      return;
    }
    write_register(m, offset & ~3u, value << ((offset & 3) * 8), size);
    return;
  }
  if (physical == 0xFFFE0130u) { cache_control_ = value; return; }
  if (physical >= 0x1F802000u && physical < 0x1F803000u) return; // expansion 2 (debug ports): accepted
  report_unmodelled(address, true);
}

uint32_t IoRegisters::read_register(Machine& m, uint32_t offset) {
  switch (offset) {
    case reg_i_stat: {
      // The program looks for an interrupt: unless a line was raised since it last looked, or the controller
      // port is about to raise one, the infinitely fast CPU has reached the next VBLANK.
      m.sio0.access();
      const bool news = (fresh_lines_ & ~irq::vblank) != 0;
      fresh_lines_ = 0;
      if (!(i_stat & irq::vblank) && !news && !m.sio0.busy() && !m.in_callback()) m.vblank();
      return i_stat;
    }
    case reg_i_mask: return i_mask;
    case dma_dpcr: return dpcr;
    case dma_dicr: return dicr;
    case gpu_gp0: return m.gpu.read_gpuread();
    case gpu_gp1: return m.gpu.gpustat();
    default: break;
  }
  if (offset >= dma_first && offset < dma_dpcr) {
    const DmaChannel& ch = dma[(offset - dma_first) >> 4];
    switch (offset & 0xC) {
      case 0x0: return ch.madr;
      case 0x4: return ch.bcr;
      default: return ch.chcr;
    }
  }
  if (offset >= timer_first && offset <= timer_last) {
    RootCounter& t = counters[(offset - timer_first) >> 4];
    switch (offset & 0xC) {
      case 0x0: {
        const uint32_t value = t.value;
        t.value = (t.value + counter_step_per_read) & 0xFFFF;
        if ((t.mode & 0x8) && t.target != 0 && value <= t.target && t.value > t.target) {
          t.value = 0;
          t.mode |= 0x800; // reached target
        }
        return value;
      }
      case 0x4: {
        const uint32_t mode = t.mode;
        t.mode &= ~0x1800u; // the "reached" bits clear when read
        return mode;
      }
      default: return t.target;
    }
  }
  return other_[offset >> 2];
}

void IoRegisters::write_register(Machine& m, uint32_t offset, uint32_t value, unsigned) {
  switch (offset) {
    case reg_i_stat: i_stat &= value; return; // acknowledge: written 0 bits clear
    case reg_i_mask: i_mask = value & 0x7FF; return;
    case dma_dpcr: dpcr = value; return;
    case dma_dicr: write_dicr(value); return;
    case gpu_gp0: m.gpu.write_gp0(value); return;
    case gpu_gp1: m.gpu.write_gp1(value); return;
    default: break;
  }
  if (offset >= dma_first && offset < dma_dpcr) {
    const unsigned channel = (offset - dma_first) >> 4;
    DmaChannel& ch = dma[channel];
    switch (offset & 0xC) {
      case 0x0: ch.madr = value & 0xFFFFFF; return;
      case 0x4: ch.bcr = value; return;
      default:
        ch.chcr = value;
        start_dma(m, channel);
        return;
    }
  }
  if (offset >= timer_first && offset <= timer_last) {
    RootCounter& t = counters[(offset - timer_first) >> 4];
    switch (offset & 0xC) {
      case 0x0: t.value = value & 0xFFFF; return;
      case 0x4: t.mode = (value & 0x3FF) | 0x400; t.value = 0; return; // writing the mode resets the counter
      default: t.target = value & 0xFFFF; return;
    }
  }
  other_[offset >> 2] = value; // memory control and the like: kept, not interpreted
  report_unmodelled(io_base + offset, true);
}

} // namespace kiln::psx
