#pragma once
// The Sound Processing Unit (psx-spx "Sound Processing Unit (SPU)"): 512 KiB of sound RAM written and read
// through the data port and DMA4, 24 ADPCM voices with pitch, Gaussian interpolation, ADSR and sweepable
// volumes, the noise generator, key on/off and ENDX, the IRQ address, the voice 1/3 and CD capture buffers, and
// the main volume. One stereo frame every 768 CPU cycles (44.1 kHz) goes to an AudioSink.
// Not modelled (reported once when used): reverb, CD-DA/XA and external audio input (silent), the transfer
// types other than "normal", and the delays of register writes (they apply at once).
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <span>
#include <vector>

#include "runtime/platform/psx/spu/audio_sink.h"
#include "runtime/platform/psx/spu/voice.h"

namespace kiln::psx {

class Spu {
public:
  static constexpr uint32_t ram_size = 512 * 1024;
  static constexpr unsigned voice_count = 24;
  static constexpr uint32_t cycles_per_sample = 768;

  Spu();

  /// Registers at 1F801C00h + offset (offset 0..3FFh, halfword aligned).
  uint16_t read16(uint32_t offset);
  void write16(uint32_t offset, uint16_t value);

  /// DMA4, one word (two halfwords, low first) at the transfer address, which advances.
  void dma_write(uint32_t word);
  uint32_t dma_read();

  /// Machine time advances: one frame per 768 cycles; the remainder carries to the next call.
  void advance(uint64_t cpu_cycles);
  /// One 44.1 kHz step (what advance() runs).
  StereoFrame tick();

  void set_sink(AudioSink* sink) { sink_ = sink; }
  /// Called when the SPU raises IRQ9 (the machine sets I_STAT bit 9).
  std::function<void()> on_interrupt;

  std::span<uint8_t> ram() { return {ram_->data(), ram_->size()}; }
  const spu::Voice& voice(unsigned v) const { return voices_[v]; }
  uint32_t endx() const { return endx_; }

private:
  void write_control(uint16_t value);
  void write_transfer_halfword(uint16_t value);
  void flush_fifo();
  void check_irq(uint32_t byte_address, uint32_t length);
  void load_block(spu::Voice& voice);
  void end_block(spu::Voice& voice, unsigned index);
  void step_noise();
  void write_capture(uint32_t base, int16_t sample);
  void key(uint32_t voices, bool on);
  void report_unmodelled(uint32_t offset, uint16_t value);

  std::unique_ptr<std::array<uint8_t, ram_size>> ram_ = std::make_unique<std::array<uint8_t, ram_size>>();
  std::array<uint16_t, 0x200> raw_{}; ///< what was last written to each register (read back where not live)
  std::array<spu::Voice, voice_count> voices_{};
  spu::Volume main_left_, main_right_;
  uint32_t pitch_modulation_ = 0, noise_mode_ = 0, endx_ = 0;
  uint16_t control_ = 0, irq_address_ = 0;
  bool irq_flag_ = false;
  uint32_t transfer_address_ = 0; ///< the internal current address, in bytes
  std::vector<uint16_t> fifo_;
  int32_t noise_timer_ = 0;
  int16_t noise_level_ = 0;
  unsigned capture_position_ = 0; ///< 0..1FFh: which halfword of the four capture buffers is written next
  uint64_t cycles_owed_ = 0;
  AudioSink* sink_ = nullptr;
  std::vector<StereoFrame> batch_;
  std::set<uint32_t> reported_;
};

} // namespace kiln::psx
