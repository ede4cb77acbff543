#include "runtime/platform/psx/spu/spu.h"

#include <algorithm>

#include "runtime/base/log.h"

namespace kiln::psx {
namespace {

// Register offsets from 1F801C00h (psx-spx "SPU I/O Port Summary").
constexpr uint32_t voice_registers_end = 0x180;
constexpr uint32_t main_volume_left = 0x180, main_volume_right = 0x182;
constexpr uint32_t key_on_low = 0x188, key_on_high = 0x18A, key_off_low = 0x18C, key_off_high = 0x18E;
constexpr uint32_t pitch_mod_low = 0x190, pitch_mod_high = 0x192, noise_low = 0x194, noise_high = 0x196;
constexpr uint32_t echo_low = 0x198, echo_high = 0x19A, endx_low = 0x19C, endx_high = 0x19E;
constexpr uint32_t irq_address = 0x1A4, transfer_address = 0x1A6, transfer_fifo = 0x1A8;
constexpr uint32_t control = 0x1AA, transfer_control = 0x1AC, status = 0x1AE;
constexpr uint32_t current_main_volume_left = 0x1B8, current_main_volume_right = 0x1BA;
constexpr uint32_t current_voice_volume_first = 0x200, current_voice_volume_end = 0x260;

// SPUCNT bits.
constexpr uint16_t control_enable = 1u << 15, control_unmute = 1u << 14, control_reverb = 1u << 7,
                   control_irq_enable = 1u << 6, control_external_inputs = 0xF;
constexpr unsigned transfer_mode_manual_write = 1, transfer_mode_dma_write = 2, transfer_mode_dma_read = 3;
constexpr unsigned transfer_type_normal = 2;
constexpr size_t fifo_capacity = 32; // halfwords

// Capture buffers (psx-spx "SPU Memory layout"): CD left/right, voice 1, voice 3; 200h halfwords each.
constexpr uint32_t capture_cd_left = 0x000, capture_cd_right = 0x400, capture_voice1 = 0x800, capture_voice3 = 0xC00;
constexpr unsigned capture_halfwords = 0x200;

int16_t clamp16(int32_t v) { return static_cast<int16_t>(std::clamp(v, -0x8000, 0x7FFF)); }

} // namespace

Spu::Spu() { fifo_.reserve(fifo_capacity); }

void Spu::report_unmodelled(uint32_t offset, uint16_t value) {
  if (reported_.insert(offset).second)
    log::verbose("psx: SPU register {:#010x} written ({:#06x}): kept, not modelled", 0x1F801C00u + offset, value);
}

uint16_t Spu::read16(uint32_t offset) {
  offset &= 0x3FE;
  if (offset < voice_registers_end) {
    const spu::Voice& v = voices_[offset >> 4];
    switch (offset & 0xF) {
      case 0x0: return v.left.reg;
      case 0x2: return v.right.reg;
      case 0x4: return v.pitch;
      case 0x6: return v.start;
      case 0x8: return v.adsr_low;
      case 0xA: return v.adsr_high;
      case 0xC: return static_cast<uint16_t>(v.adsr_level);
      default: return v.repeat;
    }
  }
  if (offset >= current_voice_volume_first && offset < current_voice_volume_end) {
    const spu::Voice& v = voices_[(offset - current_voice_volume_first) >> 2];
    return static_cast<uint16_t>((offset & 2) ? v.right.level : v.left.level);
  }
  switch (offset) {
    case main_volume_left: return main_left_.reg;
    case main_volume_right: return main_right_.reg;
    case pitch_mod_low: return static_cast<uint16_t>(pitch_modulation_);
    case pitch_mod_high: return static_cast<uint16_t>(pitch_modulation_ >> 16);
    case noise_low: return static_cast<uint16_t>(noise_mode_);
    case noise_high: return static_cast<uint16_t>(noise_mode_ >> 16);
    case endx_low: return static_cast<uint16_t>(endx_);
    case endx_high: return static_cast<uint16_t>(endx_ >> 16);
    case irq_address: return irq_address_;
    case control: return control_;
    case status: {
      const unsigned mode = (control_ >> 4) & 3;
      return static_cast<uint16_t>((control_ & 0x3F) | (irq_flag_ ? 1u << 6 : 0u) | ((control_ >> 5) & 1u) << 7 |
                                   (mode == transfer_mode_dma_write ? 1u << 8 : 0u) |
                                   (mode == transfer_mode_dma_read ? 1u << 9 : 0u) |
                                   ((raw_[transfer_control >> 1] & 0xC) && capture_position_ >= capture_halfwords / 2 ? 1u << 11 : 0u));
    }
    case current_main_volume_left: return static_cast<uint16_t>(main_left_.level);
    case current_main_volume_right: return static_cast<uint16_t>(main_right_.level);
    default: return raw_[offset >> 1];
  }
}

void Spu::write16(uint32_t offset, uint16_t value) {
  offset &= 0x3FE;
  raw_[offset >> 1] = value;
  if (offset < voice_registers_end) {
    spu::Voice& v = voices_[offset >> 4];
    switch (offset & 0xF) {
      case 0x0: v.left.write(value); return;
      case 0x2: v.right.write(value); return;
      case 0x4: v.pitch = value; return;
      case 0x6: v.start = value; return;
      case 0x8: v.adsr_low = value; return;
      case 0xA: v.adsr_high = value; return;
      case 0xC: v.adsr_level = static_cast<int16_t>(value); return;
      default: v.repeat = value; return;
    }
  }
  auto set_half = [&](uint32_t& bits, bool high) {
    bits = high ? (bits & 0xFFFFu) | (uint32_t{value} << 16 & 0xFF0000u) : (bits & ~0xFFFFu) | value;
  };
  switch (offset) {
    case main_volume_left: main_left_.write(value); return;
    case main_volume_right: main_right_.write(value); return;
    case key_on_low: key(value, true); return;
    case key_on_high: key(uint32_t{value} << 16, true); return;
    case key_off_low: key(value, false); return;
    case key_off_high: key(uint32_t{value} << 16, false); return;
    case pitch_mod_low: case pitch_mod_high: set_half(pitch_modulation_, offset == pitch_mod_high); return;
    case noise_low: case noise_high: set_half(noise_mode_, offset == noise_high); return;
    case endx_low: case endx_high: return; // read-only status: the hardware overwrites it at once
    case irq_address: irq_address_ = value; return;
    case transfer_address: transfer_address_ = uint32_t{value} * 8; return;
    case transfer_fifo: write_transfer_halfword(value); return;
    case control: write_control(value); return;
    case transfer_control:
      if (((value >> 1) & 7) != transfer_type_normal && reported_.insert(offset).second)
        log::warning("psx: SPU transfer type {} (1F801DACh = {:#06x}) is not modelled; transfers write halfwords in order",
                     (value >> 1) & 7, value);
      return;
    case status: return; // read-only
    default: break;
  }
  // Everything else is kept for reads and listed once: reverb (EON, 1D84h/1D86h, 1DA2h, 1DC0h..1DFFh), the CD
  // and external input volumes, the internal current volumes, and the unknown and unused registers.
  report_unmodelled(offset, value);
}

void Spu::write_control(uint16_t value) {
  control_ = value;
  if (!(value & control_irq_enable)) irq_flag_ = false; // acknowledge
  if ((value & control_reverb) && (raw_[echo_low >> 1] | raw_[echo_high >> 1]) && reported_.insert(control | 1).second)
    log::warning("psx: SPU reverb enabled (SPUCNT {:#06x}, EON {:#06x}{:04x}); reverb is not modelled, voices play dry", value,
                 raw_[echo_high >> 1], raw_[echo_low >> 1]);
  if (value & control_external_inputs) report_unmodelled(control, value & control_external_inputs); // CD/external audio: silent
  if (((value >> 4) & 3) == transfer_mode_manual_write) flush_fifo();
}

void Spu::write_transfer_halfword(uint16_t value) {
  if (fifo_.size() == fifo_capacity) {
    if (reported_.insert(transfer_fifo).second)
      log::warning("psx: SPU transfer FIFO (1F801DA8h) written past its 32 halfwords; the extra halfwords are dropped");
    return;
  }
  fifo_.push_back(value);
  if (((control_ >> 4) & 3) == transfer_mode_manual_write) flush_fifo();
}

void Spu::flush_fifo() {
  for (uint16_t v : fifo_) {
    check_irq(transfer_address_, 2);
    (*ram_)[transfer_address_] = static_cast<uint8_t>(v);
    (*ram_)[transfer_address_ + 1] = static_cast<uint8_t>(v >> 8);
    transfer_address_ = (transfer_address_ + 2) & (ram_size - 1);
  }
  fifo_.clear();
}

void Spu::dma_write(uint32_t word) {
  if (((control_ >> 4) & 3) != transfer_mode_dma_write && reported_.insert(0x10000).second)
    log::warning("psx: DMA4 to the SPU while SPUCNT's transfer mode is {} (not DMA write); written anyway", (control_ >> 4) & 3);
  for (int half = 0; half < 2; ++half) {
    fifo_.push_back(static_cast<uint16_t>(word >> (16 * half)));
    flush_fifo();
  }
}

uint32_t Spu::dma_read() {
  if (((control_ >> 4) & 3) != transfer_mode_dma_read && reported_.insert(0x10001).second)
    log::warning("psx: DMA4 from the SPU while SPUCNT's transfer mode is {} (not DMA read); read anyway", (control_ >> 4) & 3);
  uint32_t word = 0;
  for (int half = 0; half < 2; ++half) {
    check_irq(transfer_address_, 2);
    word |= uint32_t{(*ram_)[transfer_address_]} << (16 * half) | uint32_t{(*ram_)[transfer_address_ + 1]} << (16 * half + 8);
    transfer_address_ = (transfer_address_ + 2) & (ram_size - 1);
  }
  return word;
}

void Spu::check_irq(uint32_t byte_address, uint32_t length) {
  if (!(control_ & control_enable) || !(control_ & control_irq_enable) || irq_flag_) return;
  const uint32_t target = uint32_t{irq_address_} * 8;
  if (target - byte_address >= length) return;
  irq_flag_ = true;
  if (on_interrupt) on_interrupt();
}

void Spu::key(uint32_t voices, bool on) {
  for (unsigned v = 0; v < voice_count; ++v) {
    if (!(voices & (1u << v))) continue;
    if (on) {
      voices_[v].key_on();
      endx_ &= ~(1u << v);
    } else {
      voices_[v].key_off();
    }
  }
}

void Spu::load_block(spu::Voice& voice) {
  std::array<uint8_t, spu::adpcm_block_bytes> block;
  for (unsigned i = 0; i < block.size(); ++i) block[i] = (*ram_)[(voice.address + i) & (ram_size - 1)];
  check_irq(voice.address, spu::adpcm_block_bytes);
  voice.block_flags = block[1];
  if (voice.block_flags & spu::adpcm_flag::loop_start) voice.repeat = static_cast<uint16_t>(voice.address / 8);
  const auto decoded = spu::decode_adpcm_block(block, voice.history);
  std::copy(decoded.begin(), decoded.end(), voice.samples.begin() + 3);
  voice.block_loaded = true;
}

void Spu::end_block(spu::Voice& voice, unsigned index) {
  std::copy(voice.samples.end() - 3, voice.samples.end(), voice.samples.begin());
  voice.block_loaded = false;
  if (!(voice.block_flags & spu::adpcm_flag::loop_end)) {
    voice.address = (voice.address + spu::adpcm_block_bytes) & (ram_size - 1);
    return;
  }
  endx_ |= 1u << index;
  voice.address = uint32_t{voice.repeat} * 8;
  if (!(voice.block_flags & spu::adpcm_flag::loop_repeat)) { // "End+Mute": release with the envelope at 0
    voice.phase = spu::AdsrPhase::release;
    voice.adsr_level = 0;
    voice.adsr.restart();
  }
}

void Spu::step_noise() {
  // psx-spx "SPU Noise Generator", once per 44.1 kHz step.
  const int step = 4 + ((control_ >> 8) & 3);
  const int shift = (control_ >> 10) & 0xF;
  noise_timer_ -= step;
  const unsigned level = static_cast<uint16_t>(noise_level_);
  const unsigned parity = ((level >> 15) ^ (level >> 12) ^ (level >> 11) ^ (level >> 10) ^ 1u) & 1u;
  if (noise_timer_ < 0) noise_level_ = static_cast<int16_t>(static_cast<uint16_t>(level * 2 + parity));
  if (noise_timer_ < 0) noise_timer_ += 0x20000 >> shift;
  if (noise_timer_ < 0) noise_timer_ += 0x20000 >> shift;
}

void Spu::write_capture(uint32_t base, int16_t sample) {
  const uint32_t at = base + capture_position_ * 2;
  if (raw_[transfer_control >> 1] & 0xC) check_irq(at, 2);
  (*ram_)[at] = static_cast<uint8_t>(sample);
  (*ram_)[at + 1] = static_cast<uint8_t>(static_cast<uint16_t>(sample) >> 8);
}

StereoFrame Spu::tick() {
  if (!(control_ & control_enable)) return {};
  step_noise();
  int32_t left = 0, right = 0;
  int16_t previous_output = 0;
  for (unsigned v = 0; v < voice_count; ++v) {
    spu::Voice& voice = voices_[v];
    if (!voice.block_loaded) load_block(voice);
    const int16_t raw = (noise_mode_ >> v) & 1 ? noise_level_ : voice.interpolated();
    const int16_t output = static_cast<int16_t>((raw * voice.adsr_level) >> 15);
    left += (output * voice.left.level) >> 15;
    right += (output * voice.right.level) >> 15;
    if (v == 1) write_capture(capture_voice1, output);
    if (v == 3) write_capture(capture_voice3, output);

    // psx-spx "Pitch Counter": the step, modulated by the previous voice's output where PMON says so.
    uint32_t step = voice.pitch;
    if (v > 0 && ((pitch_modulation_ >> v) & 1)) {
      const int32_t factor = previous_output + 0x8000;
      step = static_cast<uint32_t>((int32_t{static_cast<int16_t>(voice.pitch)} * factor) >> 15) & 0xFFFF;
    }
    if (step > 0x3FFF) step = 0x4000;
    voice.counter += step;
    if ((voice.counter >> 12) >= spu::adpcm_block_samples) {
      voice.counter -= spu::adpcm_block_samples << 12;
      end_block(voice, v);
    }
    voice.tick_adsr();
    voice.left.tick();
    voice.right.tick();
    previous_output = output;
  }
  write_capture(capture_cd_left, 0); // no CD audio: its capture buffers fill with silence
  write_capture(capture_cd_right, 0);
  capture_position_ = (capture_position_ + 1) % capture_halfwords;

  StereoFrame frame{clamp16((clamp16(left) * main_left_.level) >> 15), clamp16((clamp16(right) * main_right_.level) >> 15)};
  main_left_.tick();
  main_right_.tick();
  if (!(control_ & control_unmute)) return {};
  return frame;
}

void Spu::advance(uint64_t cpu_cycles) {
  cycles_owed_ += cpu_cycles;
  batch_.clear();
  for (; cycles_owed_ >= cycles_per_sample; cycles_owed_ -= cycles_per_sample) batch_.push_back(tick());
  if (sink_ && !batch_.empty()) sink_->push(batch_);
}

} // namespace kiln::psx
