#pragma once
// A reference for one SPU voice, written from psx-spx's formulas and independent of kiln's SPU code: ADPCM as
// psx-spx's decode_28_nibbles writes it, the Gaussian interpolation with the few table entries the tests'
// pitches use, the envelope pseudo-code of "Envelope Operation depending on Shift/Step/Mode/Direction", the
// ADSR phases of "1F801C08h+N*10h", fixed volumes and the main volume. Per 44.1 kHz sample, in this order:
// the block at the current address is decoded if it is not yet, the output is taken with the current envelope,
// the pitch counter advances (crossing 28 samples ends the block: loop flags, ENDX), then the envelope steps.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace spu_reference {

/// psx-spx "4-Point Gaussian Interpolation" entries for interpolation index 00h (pitch 1000h: every sample
/// lands on index 0) and 80h (pitch 800h), in hex as the table prints them.
inline int gauss(int entry) {
  static const std::map<int, int> entries = {
      {0x000, -0x001}, {0x0FF, 0x12C7}, {0x100, 0x1307}, {0x1FF, 0x59B3}, // index 00h
      {0x080, 0x01A8}, {0x07F, 0x019C}, {0x17F, 0x3DEF}, {0x180, 0x3E4C}, // index 80h
  };
  const auto it = entries.find(entry);
  if (it == entries.end()) throw std::logic_error("the reference knows only the table entries for index 00h and 80h");
  return it->second;
}

/// psx-spx "decode_28_nibbles" with the SPU's five filters; old/older carry across blocks.
inline std::array<int, 28> decode_block(const uint8_t* block, int& old, int& older) {
  static const int pos[5] = {0, 60, 115, 98, 122}, neg[5] = {0, 0, -52, -55, -60};
  const int range = block[0] & 0x0F;
  const int shift = 12 - (range > 12 ? 9 : range);
  const int filter = (block[0] >> 4) & 7;
  if (filter > 4) throw std::logic_error("the reference decodes filters 0..4");
  std::array<int, 28> out{};
  for (int j = 0; j < 28; ++j) {
    int t = (block[2 + j / 2] >> ((j & 1) * 4)) & 0xF;
    if (t >= 8) t -= 16;
    int s = t * (1 << shift) + (old * pos[filter] + older * neg[filter] + 32) / 64;
    s = std::clamp(s, -0x8000, 0x7FFF);
    out[j] = s;
    older = old;
    old = s;
  }
  return out;
}

/// The envelope pseudo-code, one 44.1 kHz tick.
struct Envelope {
  int counter = 0;
  void tick(int& level, int shift, int step_value, bool exponential, bool decreasing) {
    int step = 7 - step_value;
    if (decreasing) step = ~step;
    step = step << std::max(0, 11 - shift) ; // a left shift of a negative value is a multiplication in C++20
    int increment = shift - 11 > 15 ? 0 : 0x8000 >> std::max(0, shift - 11);
    if (exponential && !decreasing && level > 0x6000) {
      if (shift < 10) step >>= 2;
      else if (shift >= 11) increment >>= 2;
      else {
        step >>= 1;
        increment >>= 1;
      }
    } else if (exponential && decreasing) {
      step = (step * level) >> 15;
    }
    if ((step_value | (shift << 2)) != 0x7F) increment = std::max(increment, 1);
    counter += increment;
    if (!(counter & 0x8000)) return;
    counter = 0;
    level += step;
    level = decreasing ? std::max(level, 0) : std::clamp(level, -0x8000, 0x7FFF);
  }
};

struct VoiceSetup {
  uint32_t start = 0;        ///< byte address of the first block
  int pitch = 0x1000;
  uint16_t adsr_low = 0, adsr_high = 0;
  int volume_left = 0, volume_right = 0; ///< the fixed-volume register values (bit 15 clear)
  int main_left = 0, main_right = 0;     ///< likewise
  unsigned key_off_at = ~0u;              ///< the sample before which Key Off is written
};

struct Frame {
  int left, right;
};

/// Plays one voice from key on for `count` samples over `sound_ram` (512 KiB).
inline std::vector<Frame> play(std::span<const uint8_t> sound_ram, const VoiceSetup& v, unsigned count) {
  enum { attack, decay, sustain, release, off } phase = attack;
  Envelope env;
  int level = 0, old = 0, older = 0;
  uint32_t address = v.start, repeat = 0;
  int counter = 0;
  bool decoded = false;
  uint8_t flags = 0;
  std::vector<int> history(31, 0); // the previous block's last three samples, then this block's 28
  auto fixed = [](int reg) { return static_cast<int16_t>(static_cast<uint16_t>(reg << 1)); };
  std::vector<Frame> out;
  for (unsigned n = 0; n < count; ++n) {
    if (n == v.key_off_at && phase != off) {
      phase = release;
      env = {};
    }
    if (!decoded) {
      const uint8_t* block = &sound_ram[address];
      flags = block[1];
      if (flags & 4) repeat = address;
      const auto samples = decode_block(block, old, older);
      std::copy(samples.begin(), samples.end(), history.begin() + 3);
      decoded = true;
    }
    const int i = counter >> 12, g = (counter >> 4) & 0xFF;
    const int sample = ((gauss(0x0FF - g) * history[i]) >> 15) + ((gauss(0x1FF - g) * history[i + 1]) >> 15) +
                       ((gauss(0x100 + g) * history[i + 2]) >> 15) + ((gauss(0x000 + g) * history[i + 3]) >> 15);
    const int voice_out = (sample * level) >> 15;
    const int left = std::clamp((voice_out * fixed(v.volume_left)) >> 15, -0x8000, 0x7FFF);
    const int right = std::clamp((voice_out * fixed(v.volume_right)) >> 15, -0x8000, 0x7FFF);
    out.push_back({std::clamp((left * fixed(v.main_left)) >> 15, -0x8000, 0x7FFF),
                   std::clamp((right * fixed(v.main_right)) >> 15, -0x8000, 0x7FFF)});

    counter += std::min(v.pitch, 0x4000);
    if ((counter >> 12) >= 28) {
      counter -= 28 << 12;
      std::copy(history.end() - 3, history.end(), history.begin());
      decoded = false;
      if (flags & 1) {
        address = repeat;
        if (!(flags & 2)) {
          phase = release;
          level = 0;
          env = {};
        }
      } else {
        address += 16;
      }
    }

    const int lo = v.adsr_low, hi = v.adsr_high;
    switch (phase) {
      case attack:
        env.tick(level, (lo >> 10) & 0x1F, (lo >> 8) & 3, lo & 0x8000, false);
        if (level >= 0x7FFF) phase = decay, env = {};
        break;
      case decay:
        env.tick(level, (lo >> 4) & 0xF, 0, true, true);
        if (level <= ((lo & 0xF) + 1) * 0x800) phase = sustain, env = {};
        break;
      case sustain: env.tick(level, (hi >> 8) & 0x1F, (hi >> 6) & 3, hi & 0x8000, hi & 0x4000); break;
      case release:
        env.tick(level, hi & 0x1F, 0, hi & 0x20, true);
        if (level <= 0) phase = off;
        break;
      case off: break;
    }
  }
  return out;
}

} // namespace spu_reference
