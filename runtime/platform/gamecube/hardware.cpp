// The GameCube's hardware registers (docs/gamecube.md lists each register and what kiln does with it). Sources:
// YAGCD chapter 5 (register layouts), the 750CL UM for DMA_U/DMA_L, Dolphin's documented behaviour for what the
// others leave open (read for behaviour only). An access kiln does not know stops the program naming the guest PC
// and the address; nothing is skipped.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "runtime/base/error.h"
#include "runtime/core/guest_log.h"
#include "runtime/platform/gamecube/machine.h"

namespace kiln::gamecube {
namespace {

using namespace hw;

[[noreturn]] void unknown_register(const Machine& m, uint32_t address, unsigned size, bool write, uint32_t value, const char* why = "") {
  throw Error(fmt::format("gamecube: unknown hardware register access: {}-bit {} {:#010x}{} at guest PC {:#010x}{}{}", size * 8,
                          write ? "write to" : "read of", address, write ? fmt::format(" (value {:#x})", value) : "", m.cpu.pc,
                          *why ? ": " : "", why));
}

template <size_t N>
uint32_t file_read(const std::array<uint8_t, N>& file, uint32_t offset, unsigned size) {
  uint32_t v = 0;
  for (unsigned i = 0; i < size; ++i) v = v << 8 | file[offset + i];
  return v;
}
template <size_t N>
void file_write(std::array<uint8_t, N>& file, uint32_t offset, unsigned size, uint32_t value) {
  for (unsigned i = 0; i < size; ++i) file[offset + i] = static_cast<uint8_t>(value >> (8 * (size - 1 - i)));
}
uint32_t bit(uint32_t v, unsigned n) { return (v >> n) & 1; }

// ---- VI (YAGCD 5.3): 16-bit registers; the beam position at 0x2C/0x2E, display interrupts DI0-DI3 at 0x30 ----
constexpr uint32_t vi_lines = 525;                                  ///< NTSC, both fields
constexpr uint64_t vi_ticks_per_line = clocks::timebase_hz / (60 * vi_lines); ///< 1285: a 60 Hz frame
constexpr uint32_t vi_vcount_at = 0x2C, vi_hcount_at = 0x2E, vi_di_at = 0x30;
constexpr uint32_t vi_di_status = 1u << 31, vi_di_enable = 1u << 28;
uint32_t vi_line(const Hardware& h) { return static_cast<uint32_t>(h.vi_ticks / vi_ticks_per_line) + 1; }

void vi_advance(Hardware& h, uint64_t ticks) {
  const uint64_t frame = vi_ticks_per_line * vi_lines;
  while (ticks) {
    const uint64_t to_next_line = vi_ticks_per_line - h.vi_ticks % vi_ticks_per_line;
    const uint64_t step = std::min(ticks, to_next_line);
    ticks -= step;
    h.vi_ticks = (h.vi_ticks + step) % frame;
    if (step != to_next_line) break;
    const uint32_t line = vi_line(h); // the beam entered this line
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t di = file_read(h.vi, vi_di_at + 4 * i, 4);
      if ((di & vi_di_enable) && ((di >> 16) & 0x3FF) == line) file_write(h.vi, vi_di_at + 4 * i, 4, di | vi_di_status);
    }
  }
}

// ---- DI (YAGCD 5.7): 32-bit registers ----
enum DiRegister { disr, dicvr, dicmdbuf0, dicmdbuf1, dicmdbuf2, dimar, dilength, dicr, diimmbuf, dicfg };
constexpr uint32_t disr_deint = 1u << 2, disr_tcint = 1u << 4, disr_brkint = 1u << 6;
constexpr uint32_t dicvr_open = 1u << 0, dicvr_cvrint = 1u << 2;
constexpr uint32_t dicr_tstart = 1u << 0, dicr_dma = 1u << 1;

void di_error(Machine& m, const std::string& why) {
  rt::guest_log("kiln: gamecube: DI: %s (at guest PC %#010x)\n", why.c_str(), m.cpu.pc);
  m.hw.di[disr] |= disr_deint;
}

void di_command(Machine& m) {
  auto& di = m.hw.di;
  const uint32_t command = di[dicmdbuf0] >> 24;
  const bool dma = di[dicr] & dicr_dma;
  switch (command) {
    case 0xA8: { // read: CMDBUF1 = disc offset / 4, CMDBUF2 = length
      const uint64_t offset = uint64_t{di[dicmdbuf1]} << 2;
      const uint32_t length = dma ? di[dilength] : 4;
      const uint32_t target = di[dimar] & 0x03FFFFE0u;
      if (m.disc_image.empty()) {
        di_error(m, fmt::format("a read of {:#x} bytes at disc offset {:#x} with no disc image (booted from a DOL)", length, offset));
        break;
      }
      if (dma && (target > memory_map::mem1_size || memory_map::mem1_size - target < length))
        throw Error(fmt::format("gamecube: DI DMA of {:#x} bytes to {:#010x} runs past MEM1 (guest PC {:#010x})", length, target, m.cpu.pc));
      std::ifstream in(m.disc_image, std::ios::binary);
      std::vector<uint8_t> bytes(length);
      in.seekg(static_cast<std::streamoff>(offset));
      in.read(reinterpret_cast<char*>(bytes.data()), length);
      if (!in || static_cast<uint32_t>(in.gcount()) != length) {
        di_error(m, fmt::format("a read of {:#x} bytes at disc offset {:#x} runs past the image {}", length, offset, m.disc_image));
        break;
      }
      if (dma) std::memcpy(m.mem1.data() + target, bytes.data(), length);
      else di[diimmbuf] = load<uint32_t>(bytes.data(), Endian::big);
      break;
    }
    case 0xE0: di[diimmbuf] = 0; break; // request error: none
    case 0xAB: case 0xE3: case 0xE4: break; // seek, stop motor, audio buffer configuration: nothing to emulate
    default:
      throw Error(fmt::format("gamecube: DI command {:#04x} (DICMDBUF0 {:#010x}) is not modelled (guest PC {:#010x})", command,
                              di[dicmdbuf0], m.cpu.pc));
  }
  di[dilength] = 0;
  di[dicr] &= ~dicr_tstart;
  di[disr] |= disr_tcint;
}

// ---- SI (YAGCD 5.8): channel buffers, poll, COMCSR, SR, EXILK; the communication buffer at 0x80 ----
constexpr uint32_t si_poll = 12, si_comcsr = 13, si_sr = 14, si_exilk = 15;
constexpr uint32_t comcsr_tcint = 1u << 31, comcsr_tcintmsk = 1u << 30, comcsr_comerr = 1u << 29, comcsr_rdstint = 1u << 28,
                   comcsr_rdstintmsk = 1u << 27, comcsr_tstart = 1u << 0;
constexpr uint8_t si_type_standard_controller[3] = {0x09, 0x00, 0x00};

uint32_t pad_high(const PadState& p) {
  return uint32_t{static_cast<uint16_t>(p.buttons | pad::use_origin)} << 16 | uint32_t{p.stick_x} << 8 | p.stick_y;
}
uint32_t pad_low(const PadState& p) {
  return uint32_t{p.substick_x} << 24 | uint32_t{p.substick_y} << 16 | uint32_t{p.trigger_l} << 8 | p.trigger_r;
}

void si_transfer(Machine& m) {
  Hardware& h = m.hw;
  uint32_t& csr = h.si[si_comcsr];
  const unsigned channel = (csr >> 1) & 3;
  const uint8_t command = h.si_io[0];
  csr &= ~(comcsr_tstart | comcsr_comerr);
  if (!h.pad_connected[channel]) {
    csr |= comcsr_comerr;
    h.si[si_sr] |= 1u << (27 - 8 * channel); // NOREP
  } else if (command == 0x00 || command == 0xFF) { // type (and reset): a standard controller
    std::copy(std::begin(si_type_standard_controller), std::end(si_type_standard_controller), h.si_io.begin());
  } else if (command == 0x41 || command == 0x42) { // origin, recalibrate: the neutral state is the origin
    const PadState origin;
    const uint8_t reply[10] = {0x00, 0x80, origin.stick_x, origin.stick_y, origin.substick_x, origin.substick_y, 0, 0, 0, 0};
    std::copy(std::begin(reply), std::end(reply), h.si_io.begin());
  } else if (command == 0x40) { // poll with the motor command: the state as the channel buffers hold it
    file_write(h.si_io, 0, 4, pad_high(h.pads[channel]));
    file_write(h.si_io, 4, 4, pad_low(h.pads[channel]));
  } else {
    throw Error(fmt::format("gamecube: SI command {:#04x} to channel {} is not modelled (guest PC {:#010x})", command, channel, m.cpu.pc));
  }
  csr |= comcsr_tcint;
}

// ---- EXI (YAGCD 5.9): per channel CSR, MAR, LENGTH, CR, DATA ----
constexpr uint32_t csr_exiint = 1u << 1, csr_tcint = 1u << 3, csr_extint = 1u << 11, csr_ext = 1u << 12;
constexpr uint32_t cr_tstart = 1u << 0, cr_dma = 1u << 1;
/// The IPL device's command words (channel 0, device 1), as Dolphin documents the SDK's use: bit 31 = write;
/// 0x20000000 the RTC counter, 0x20000100 the SRAM, 0x20010000 the UART the IPL's OSReport route writes; a
/// command without bit 29 reads the mask ROM (the IPL, its fonts at 0x1AFF00 and 0x1FCF00) at offset command >> 6.
constexpr uint32_t ipl_write = 1u << 31, ipl_not_rom = 1u << 29, ipl_region_mask = 0x7FFFFF00u;
constexpr uint32_t ipl_rtc = 0x20000000u, ipl_sram = 0x20000100u, ipl_uart = 0x20010000u;

void uart_byte(Machine& m, uint8_t byte) {
  std::fputc(byte, m.uart);
  if (byte == '\n') std::fflush(m.uart);
}

/// One byte through the IPL device in a transfer (`index` counts from the command word's first byte).
uint8_t ipl_byte(Machine& m, ExiChannel& ch, bool write, uint8_t byte) {
  const unsigned index = ch.transferred++;
  if (index < 4) {
    ch.command = ch.command << 8 | byte;
    return 0;
  }
  const unsigned data_index = index - 4;
  const uint32_t region = ch.command & ipl_region_mask;
  const bool device_write = ch.command & ipl_write;
  if (!(ch.command & ipl_not_rom))
    throw Error(fmt::format("gamecube: EXI read of the IPL ROM at offset {:#x} (guest PC {:#010x}): kiln has no IPL image (its fonts "
                            "are at 0x1AFF00 and 0x1FCF00)", ((ch.command & 0x7FFFFFFFu) >> 6) + data_index, m.cpu.pc));
  if (region == ipl_uart) {
    if (device_write && write) uart_byte(m, byte);
    return 0;
  }
  if (region == ipl_rtc && data_index < 4) {
    const unsigned shift = 8 * (3 - data_index);
    if (device_write && write) m.hw.rtc = (m.hw.rtc & ~(0xFFu << shift)) | uint32_t{byte} << shift;
    return static_cast<uint8_t>(m.hw.rtc >> shift);
  }
  if (region == ipl_sram && data_index < m.hw.sram.size()) {
    if (device_write && write) m.hw.sram[data_index] = byte;
    return m.hw.sram[data_index];
  }
  throw Error(fmt::format("gamecube: EXI IPL device command {:#010x} (byte {}) is not modelled (guest PC {:#010x})", ch.command,
                          data_index, m.cpu.pc));
}

/// One byte to or from the device channel `index` selected; absent devices (memory cards, serial port 1, AD16)
/// take writes and answer zero.
uint8_t exi_byte(Machine& m, unsigned index, bool write, uint8_t byte) {
  ExiChannel& ch = m.hw.exi[index];
  if (index == 0 && ch.selected == 2) return ipl_byte(m, ch, write, byte);
  return 0;
}

void exi_transfer(Machine& m, unsigned index) {
  ExiChannel& ch = m.hw.exi[index];
  const unsigned mode = (ch.cr >> 2) & 3; // 0 read, 1 write, 2 read-write
  if (mode == 3) unknown_register(m, exi + 0x14 * index + 0x0C, 4, true, ch.cr, "EXI transfer type 3 is reserved");
  const bool write = mode != 0, read = mode != 1;
  if (ch.cr & cr_dma) {
    const uint32_t address = ch.mar & 0x03FFFFE0u, length = ch.length & 0x03FFFFE0u;
    if (address > memory_map::mem1_size || memory_map::mem1_size - address < length)
      throw Error(fmt::format("gamecube: EXI DMA of {:#x} bytes at {:#010x} runs past MEM1 (guest PC {:#010x})", length, address, m.cpu.pc));
    for (uint32_t i = 0; i < length; ++i) {
      const uint8_t in = exi_byte(m, index, write, m.mem1[address + i]);
      if (read) m.mem1[address + i] = in;
    }
  } else {
    const unsigned count = ((ch.cr >> 4) & 3) + 1;
    uint32_t result = 0;
    for (unsigned i = 0; i < count; ++i) {
      const uint8_t in = exi_byte(m, index, write, static_cast<uint8_t>(ch.data >> (24 - 8 * i)));
      result |= uint32_t{in} << (24 - 8 * i);
    }
    if (read) ch.data = result;
  }
  ch.cr &= ~cr_tstart;
  ch.csr |= csr_tcint;
}

// ---- AI (YAGCD 5.10) ----
constexpr uint32_t aicr_pstat = 1u << 0, aicr_afr = 1u << 1, aicr_aiint = 1u << 3, aicr_aiintvld = 1u << 4, aicr_screset = 1u << 5;

// ---- DSP interface (YAGCD 5.11): 16-bit registers ----
constexpr uint32_t dsp_mailbox_high = 0x00, dsp_mailbox_low = 0x02, cpu_mailbox_high = 0x04, cpu_mailbox_low = 0x06;
constexpr uint32_t dsp_csr = 0x0A, ar_size = 0x12, ar_mode = 0x16, ar_refresh = 0x1A;
constexpr uint32_t ar_dma_mmaddr = 0x20, ar_dma_araddr = 0x24, ar_dma_count = 0x28, ai_dma_start = 0x30, ai_dma_control = 0x36,
                   ai_dma_left = 0x3A;
constexpr uint32_t csr_aidint = 1u << 3, csr_aidintmsk = 1u << 4, csr_arint = 1u << 5, csr_arintmsk = 1u << 6, csr_dspint = 1u << 7,
                   csr_dspintmsk = 1u << 8, csr_reset = 1u << 0;
bool dsp_known(uint32_t offset, unsigned size) {
  const uint32_t end = offset + size;
  auto within = [&](uint32_t a, uint32_t b) { return offset >= a && end <= b; };
  return within(0x00, 0x0C) || within(ar_size, ar_size + 2) || within(ar_mode, ar_mode + 2) || within(ar_refresh, ar_refresh + 2) ||
         within(ar_dma_mmaddr, ar_dma_count + 4) || within(ai_dma_start, ai_dma_left + 2);
}

void aram_dma(Machine& m) {
  auto& d = m.hw.dsp;
  const uint32_t count = file_read(d, ar_dma_count, 4);
  const uint32_t main_address = file_read(d, ar_dma_mmaddr, 4) & 0x03FFFFE0u;
  const uint32_t aram_address = file_read(d, ar_dma_araddr, 4) & 0x00FFFFE0u;
  const uint32_t length = count & 0x7FFFFFE0u;
  const bool to_main = count & 0x80000000u;
  if (main_address > memory_map::mem1_size || memory_map::mem1_size - main_address < length || aram_address > memory_map::aram_size ||
      memory_map::aram_size - aram_address < length)
    throw Error(fmt::format("gamecube: ARAM DMA of {:#x} bytes between MEM1 {:#010x} and ARAM {:#010x} runs past the memory (guest PC {:#010x})",
                            length, main_address, aram_address, m.cpu.pc));
  if (to_main) std::memcpy(m.mem1.data() + main_address, m.aram.data() + aram_address, length);
  else std::memcpy(m.aram.data() + aram_address, m.mem1.data() + main_address, length);
  file_write(d, ar_dma_count, 4, count & 0x80000000u); // nothing left
  file_write(d, dsp_csr, 2, file_read(d, dsp_csr, 2) | csr_arint);
}

uint32_t pi_cause(const Machine& m) {
  const Hardware& h = m.hw;
  uint32_t cause = pi_irq::reset_switch_state;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t di = file_read(h.vi, vi_di_at + 4 * i, 4);
    if ((di & vi_di_status) && (di & vi_di_enable)) cause |= pi_irq::vi;
  }
  const uint32_t s = h.di[disr], c = h.di[dicvr];
  if ((bit(s, 2) && bit(s, 1)) || (bit(s, 4) && bit(s, 3)) || (bit(s, 6) && bit(s, 5)) || (bit(c, 2) && bit(c, 1))) cause |= pi_irq::di;
  const uint32_t si = h.si[si_comcsr];
  if ((bit(si, 31) && bit(si, 30)) || (bit(si, 28) && bit(si, 27))) cause |= pi_irq::si;
  for (const ExiChannel& ch : h.exi)
    if ((bit(ch.csr, 1) && bit(ch.csr, 0)) || (bit(ch.csr, 3) && bit(ch.csr, 2)) || (bit(ch.csr, 11) && bit(ch.csr, 10))) cause |= pi_irq::exi;
  if (bit(h.ai_control, 3) && bit(h.ai_control, 2)) cause |= pi_irq::ai;
  if (m.pe.token_interrupt()) cause |= pi_irq::pe_token;
  if (m.pe.finish_interrupt()) cause |= pi_irq::pe_finish;
  const uint32_t d = file_read(h.dsp, dsp_csr, 2);
  if ((bit(d, 3) && bit(d, 4)) || (bit(d, 5) && bit(d, 6)) || (bit(d, 7) && bit(d, 8))) cause |= pi_irq::dsp;
  return cause;
}

// ---- PI (YAGCD 5.6): 32-bit registers ----
constexpr uint32_t pi_intsr = 0x00, pi_intmr = 0x04, pi_fifo_base = 0x0C, pi_fifo_end = 0x10, pi_fifo_wp = 0x14, pi_reset = 0x24,
                   pi_revision = 0x2C;
/// PI 0x2C: the Flipper revision a retail console reports (Dolphin's value).
constexpr uint32_t flipper_revision = 0x246500B1u;
constexpr uint32_t fifo_wrapped = 1u << 29;

/// A 32-bit register read with `size` bytes at `offset & 3` (the SDK reads these as words; a narrower access
/// sees the bytes of the big-endian word).
uint32_t part(uint32_t word, uint32_t offset, unsigned size) {
  if (size == 4) return word;
  return (word >> (8 * (4 - size - (offset & 3)))) & ((1u << (8 * size)) - 1);
}

uint32_t word_register_read(Machine& m, uint32_t address) {
  Hardware& h = m.hw;
  const uint32_t base = address & ~0x3FFu, offset = address - base;
  if (base == (pi & ~0x3FFu)) {
    switch (offset) {
      case pi_intsr: return pi_cause(m);
      case pi_intmr: return h.pi_mask;
      case pi_fifo_base: return h.pi_fifo_base;
      case pi_fifo_end: return h.pi_fifo_end;
      case pi_fifo_wp: return h.pi_fifo_write;
      case pi_reset: return 0;
      case pi_revision: return flipper_revision;
      default: break;
    }
  } else if (address >= di && address < di + 0x28) {
    return h.di[(address - di) / 4];
  } else if (address >= si && address < si + 0x40) {
    const uint32_t index = (address - si) / 4;
    if (index < si_poll && index % 3 != 0) { // a channel's input buffer: the pad's state
      const unsigned channel = index / 3;
      if (!h.pad_connected[channel]) return 1u << 31; // ERRSTAT: no response
      return index % 3 == 1 ? pad_high(h.pads[channel]) : pad_low(h.pads[channel]);
    }
    if (index == si_sr) {
      uint32_t sr = h.si[si_sr];
      for (unsigned c = 0; c < 4; ++c) sr |= h.pad_connected[c] ? 1u << (29 - 8 * c) : 1u << (27 - 8 * c); // RDST, NOREP
      return sr;
    }
    return h.si[index];
  } else if (address >= exi && address < exi + 0x3C) {
    const ExiChannel& ch = h.exi[(address - exi) / 0x14];
    switch ((address - exi) % 0x14) {
      case 0x00: return ch.csr; // EXT (bit 12) stays clear: no memory card
      case 0x04: return ch.mar;
      case 0x08: return ch.length;
      case 0x0C: return ch.cr;
      case 0x10: return ch.data;
      default: break;
    }
  } else if (address >= ai && address < ai + 0x10) {
    switch (address - ai) {
      case 0x00: return h.ai_control;
      case 0x04: return h.ai_volume;
      case 0x08: return h.ai_samples;
      case 0x0C: return h.ai_interrupt_timing;
      default: break;
    }
  }
  unknown_register(m, address, 4, false, 0);
}

void word_register_write(Machine& m, uint32_t address, uint32_t v) {
  Hardware& h = m.hw;
  if (address >= pi && address < pi + 0x100) {
    switch (address - pi) {
      case pi_intsr: return; // acknowledges PI's own latched causes (reset switch, error): kiln latches none
      case pi_intmr: h.pi_mask = v; return;
      case pi_fifo_base: h.pi_fifo_base = v & 0x03FFFFE0u; return;
      case pi_fifo_end: h.pi_fifo_end = v & 0x03FFFFE0u; return;
      case pi_fifo_wp: h.pi_fifo_write = v & (0x03FFFFE0u | fifo_wrapped); return;
      case pi_reset: throw ConsoleReset{v};
      default: break;
    }
  } else if (address >= di && address < di + 0x24) {
    const uint32_t index = (address - di) / 4;
    switch (index) {
      case disr: h.di[disr] = (v & 0x2Bu) | (h.di[disr] & ~v & (disr_deint | disr_tcint | disr_brkint)); return;
      case dicvr: h.di[dicvr] = (h.di[dicvr] & dicvr_open) | (v & 2u) | (h.di[dicvr] & ~v & dicvr_cvrint); return;
      case dicr:
        h.di[dicr] = v & 7u;
        if (v & dicr_tstart) di_command(m);
        return;
      default: h.di[index] = v; return;
    }
  } else if (address >= si && address < si + 0x40) {
    const uint32_t index = (address - si) / 4;
    if (index < si_poll && index % 3 != 0) unknown_register(m, address, 4, true, v, "an SI input buffer is read-only");
    if (index == si_comcsr) {
      uint32_t& csr = h.si[si_comcsr];
      csr = (v & ~(comcsr_tcint | comcsr_rdstint | comcsr_comerr)) | (csr & ~v & comcsr_tcint) | (csr & comcsr_rdstint);
      if (v & comcsr_tstart) si_transfer(m);
      return;
    }
    if (index == si_sr) {
      h.si[si_sr] &= ~(v & 0x0F0F0F0Fu); // error bits are cleared by writing 1; WR (bit 31) copies the out buffers at once
      return;
    }
    h.si[index] = v;
    return;
  } else if (address >= exi && address < exi + 0x3C) {
    const unsigned index = (address - exi) / 0x14;
    ExiChannel& ch = h.exi[index];
    switch ((address - exi) % 0x14) {
      case 0x00: {
        const unsigned selected = (v >> 7) & 7;
        if (selected != ch.selected) ch.transferred = 0, ch.command = 0;
        ch.selected = selected;
        const uint32_t acknowledged = v & (csr_exiint | csr_tcint | csr_extint);
        ch.csr = (v & ~(csr_exiint | csr_tcint | csr_extint | csr_ext)) | (ch.csr & ~acknowledged & (csr_exiint | csr_tcint | csr_extint));
        return;
      }
      case 0x04: ch.mar = v & 0x03FFFFE0u; return;
      case 0x08: ch.length = v & 0x03FFFFE0u; return;
      case 0x0C:
        ch.cr = v & 0x3Fu;
        if (v & cr_tstart) exi_transfer(m, index);
        return;
      case 0x10: ch.data = v; return;
      default: break;
    }
  } else if (address >= ai && address < ai + 0x10) {
    switch (address - ai) {
      case 0x00:
        if (v & aicr_screset) h.ai_samples = 0, h.ai_sample_ticks = 0;
        h.ai_control = (v & ~(aicr_aiint | aicr_screset)) | (h.ai_control & ~v & aicr_aiint);
        return;
      case 0x04: h.ai_volume = v; return;
      case 0x08: h.ai_samples = v; return;
      case 0x0C: h.ai_interrupt_timing = v; return;
      default: break;
    }
  }
  unknown_register(m, address, 4, true, v);
}

bool is_word_block(uint32_t address) {
  return (address >= pi && address < pi + 0x100) || (address >= di && address < di + 0x40) || (address >= si && address < si + 0x100) ||
         (address >= exi && address < exi + 0x40) || (address >= ai && address < ai + 0x20);
}

void dsp_write(Machine& m, uint32_t offset, unsigned size, uint32_t v) {
  auto& d = m.hw.dsp;
  if (offset == dsp_csr && size == 2) {
    const uint32_t acknowledged = v & (csr_aidint | csr_arint | csr_dspint);
    const uint32_t old = file_read(d, dsp_csr, 2);
    file_write(d, dsp_csr, 2, ((v & ~(csr_aidint | csr_arint | csr_dspint | csr_reset)) | (old & ~acknowledged & (csr_aidint | csr_arint | csr_dspint))));
    return;
  }
  if (offset >= cpu_mailbox_high && offset < cpu_mailbox_low + 2)
    unknown_register(m, hw::dsp + offset, size, true, v, "the CPU mailbox is written by the DSP");
  file_write(d, offset, size, v);
  if (offset + size == dsp_mailbox_low + 2 && offset <= dsp_mailbox_low) { // the mail is complete when its low half is written
    const uint32_t mail = file_read(d, dsp_mailbox_high, 4);
    m.hw.dsp_mail.push_back(mail);
    file_write(d, dsp_mailbox_high, 2, file_read(d, dsp_mailbox_high, 2) | 0x8000u); // unread: no DSP program runs
    rt::guest_log("kiln: gamecube: mail %#010x to the DSP (no DSP program runs) at guest PC %#010x\n", mail, m.cpu.pc);
  }
  if (offset + size == ar_dma_count + 4 && offset <= ar_dma_count + 2) aram_dma(m);
}

} // namespace

uint32_t hardware_read(Machine& m, uint32_t address, unsigned size) {
  advance_time(m, clocks::ticks_per_hook);
  check_interrupts(m, m.cpu.pc);
  Hardware& h = m.hw;
  if (address >= cp && address + size <= cp + h.cp.size()) return file_read(h.cp, address - cp, size);
  if (address >= pe && address + size <= pe + h.pe.size()) {
    uint16_t value = 0;
    if (size == 2 && m.pe.read16(address - pe, value)) return value; // interrupt status and token
    return file_read(h.pe, address - pe, size);
  }
  if (address >= mi && address + size <= mi + h.mi.size()) return file_read(h.mi, address - mi, size);
  if (address >= vi && address + size <= vi + h.vi.size()) {
    file_write(h.vi, vi_vcount_at, 2, vi_line(h));
    file_write(h.vi, vi_hcount_at, 2, static_cast<uint32_t>(h.vi_ticks % vi_ticks_per_line * 858 / vi_ticks_per_line) + 1);
    return file_read(h.vi, address - vi, size);
  }
  if (address >= dsp && address + size <= dsp + h.dsp.size() && dsp_known(address - dsp, size)) return file_read(h.dsp, address - dsp, size);
  if (address >= si + 0x80 && address + size <= si + 0x100) return file_read(h.si_io, address - si - 0x80, size);
  if (is_word_block(address)) {
    if (size != 4 && (address & 3) + size > 4) unknown_register(m, address, size, false, 0, "an access across two registers");
    return part(word_register_read(m, address & ~3u), address, size);
  }
  unknown_register(m, address, size, false, 0);
}

void hardware_write(Machine& m, uint32_t address, unsigned size, uint32_t value) {
  advance_time(m, clocks::ticks_per_hook);
  check_interrupts(m, m.cpu.pc);
  Hardware& h = m.hw;
  if (address >= cp && address + size <= cp + h.cp.size()) return file_write(h.cp, address - cp, size, value);
  if (address >= pe && address + size <= pe + h.pe.size()) {
    if (size == 2 && m.pe.write16(address - pe, static_cast<uint16_t>(value))) return;
    return file_write(h.pe, address - pe, size, value);
  }
  if (address >= mi && address + size <= mi + h.mi.size()) return file_write(h.mi, address - mi, size, value);
  if (address >= vi && address + size <= vi + h.vi.size()) {
    if (address - vi >= vi_vcount_at && address - vi < vi_di_at) unknown_register(m, address, size, true, value, "the beam position is read-only");
    return file_write(h.vi, address - vi, size, value);
  }
  if (address >= dsp && address + size <= dsp + h.dsp.size() && dsp_known(address - dsp, size)) return dsp_write(m, address - dsp, size, value);
  if (address >= si + 0x80 && address + size <= si + 0x100) return file_write(h.si_io, address - si - 0x80, size, value);
  if (is_word_block(address)) {
    if (size != 4) unknown_register(m, address, size, true, value, "these registers take 32-bit writes");
    return word_register_write(m, address, value);
  }
  unknown_register(m, address, size, true, value);
}

void advance_time(Machine& m, uint64_t ticks) {
  ppc::Cpu& c = m.cpu;
  c.timebase += ticks;
  const uint32_t old = c.spr[ppc::spr::dec];
  c.spr[ppc::spr::dec] = old - static_cast<uint32_t>(ticks);
  if (!(old & 0x80000000u) && (c.spr[ppc::spr::dec] & 0x80000000u)) m.decrementer_pending = true;
  vi_advance(m.hw, ticks);
  Hardware& h = m.hw;
  if (h.ai_control & aicr_pstat) {
    const uint64_t rate = (h.ai_control & aicr_afr) ? 48000 : 32000;
    h.ai_sample_ticks += ticks * rate;
    while (h.ai_sample_ticks >= clocks::timebase_hz) {
      h.ai_sample_ticks -= clocks::timebase_hz;
      ++h.ai_samples;
      if ((h.ai_control & aicr_aiintvld) == 0 && h.ai_samples == h.ai_interrupt_timing) h.ai_control |= aicr_aiint;
    }
  }
}

uint32_t pending_external(const Machine& m) { return pi_cause(m) & m.hw.pi_mask & 0x3FFFu; }

namespace {

/// What the command processor could not run (an unknown opcode, a register it does not know) goes to kiln's log
/// with its stream offset and bytes as it happens; past the stored maximum, once, how many more there were.
void report_gx_diagnostics(Machine& m) {
  const std::vector<gx::Diagnostic>& diagnostics = m.gx->diagnostics();
  for (; m.gx_diagnostics_reported < diagnostics.size(); ++m.gx_diagnostics_reported)
    rt::guest_log("kiln: gamecube: GX FIFO: %s (guest PC %#010x)\n", diagnostics[m.gx_diagnostics_reported].to_string().c_str(), m.cpu.pc);
  if (m.gx->diagnostic_count() > diagnostics.size() && m.gx_diagnostics_reported == diagnostics.size()) {
    rt::guest_log("kiln: gamecube: GX FIFO: more problems than the %zu shown; they are counted, not logged\n", diagnostics.size());
    ++m.gx_diagnostics_reported; // said once
  }
}

} // namespace

void gather_pipe_write(Machine& m, unsigned size, uint64_t value) {
  Hardware& h = m.hw;
  for (unsigned i = 0; i < size; ++i) {
    h.gather[h.gather_fill++] = static_cast<uint8_t>(value >> (8 * (size - 1 - i)));
    if (h.gather_fill < h.gather.size()) continue;
    h.gather_fill = 0;
    h.gx_stream.insert(h.gx_stream.end(), h.gather.begin(), h.gather.end());
    // The command processor runs every command the burst completes; a command still straddling waits for the next.
    m.gx_consumed += m.gx->run(std::span(h.gx_stream).subspan(m.gx_consumed), m.gx_consumed);
    for (const gx::Event& event : m.gx->take_events()) {
      if (event.kind == gx::EventKind::draw) ++m.gx_draws;
      else m.pe.consume(event);
    }
    report_gx_diagnostics(m);
    // The burst goes to memory at PI's FIFO write pointer, which wraps from the FIFO's end to its base.
    if (h.pi_fifo_end > h.pi_fifo_base) {
      const uint32_t at = h.pi_fifo_write & 0x03FFFFE0u;
      if (at > memory_map::mem1_size - h.gather.size())
        throw Error(fmt::format("gamecube: the GX FIFO write pointer {:#010x} is outside MEM1 (guest PC {:#010x})", at, m.cpu.pc));
      std::memcpy(m.mem1.data() + at, h.gather.data(), h.gather.size());
      uint32_t next = at + static_cast<uint32_t>(h.gather.size());
      uint32_t wrapped = h.pi_fifo_write & fifo_wrapped;
      if (next >= h.pi_fifo_end) next = h.pi_fifo_base, wrapped = fifo_wrapped;
      h.pi_fifo_write = next | wrapped;
    }
  }
}

void locked_cache_dma(Machine& m) {
  ppc::Cpu& c = m.cpu;
  const uint32_t upper = c.spr[ppc::spr::dma_u], lower = c.spr[ppc::spr::dma_l];
  // 750CL UM "DMA_L": DMA_LEN_U (DMA_U bits 27-31) and DMA_LEN_L (DMA_L bits 28-29) in 32-byte blocks, 0 = 128.
  uint32_t blocks = (upper & 0x1Fu) << 2 | (lower >> 2 & 3u);
  if (blocks == 0) blocks = 128;
  const uint32_t length = blocks * 32, memory = memory_map::physical(upper & ~0x1Fu), cache = lower & ~0x1Fu;
  const bool load = lower & 0x10u; // DMA_LD: memory to the locked cache
  if (!(c.spr[ppc::spr::hid2] & ppc::hid2::lce))
    throw Error(fmt::format("gamecube: locked-cache DMA with HID2[LCE] clear (guest PC {:#010x})", c.pc));
  if (cache < memory_map::locked_cache_base || cache - memory_map::locked_cache_base > memory_map::locked_cache_size - length ||
      memory > memory_map::mem1_size || memory_map::mem1_size - memory < length)
    throw Error(fmt::format("gamecube: locked-cache DMA of {:#x} bytes between {:#010x} and the cache at {:#010x} is outside MEM1 or the "
                            "16 KiB cache (guest PC {:#010x})", length, upper & ~0x1Fu, cache, c.pc));
  uint8_t* cached = m.locked_cache.data() + (cache - memory_map::locked_cache_base);
  if (load) std::memcpy(cached, m.mem1.data() + memory, length);
  else std::memcpy(m.mem1.data() + memory, cached, length);
  c.spr[ppc::spr::dma_l] = lower & ~3u; // T and F clear: done
}

} // namespace kiln::gamecube
