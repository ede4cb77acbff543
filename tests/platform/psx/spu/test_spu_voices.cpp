// Voice behaviour beyond the tone: loop flags, the repeat address and ENDX (psx-spx "Flag Bits", "ENDX"), the
// IRQ address read by a voice, the noise generator, volume sweeps, and the machine's time driving the SPU.
#include <catch2/catch.hpp>

#include "runtime/platform/psx/spu/wav_writer.h"
#include "tests/platform/psx/spu/spu_harness.h"

using namespace spu_test;

namespace {

constexpr int ones[28] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

void start_voice(Spu& s, unsigned v, uint32_t start, uint16_t pitch) {
  s.write(spucnt, spu_on);
  s.write(voice_register(v, 0x4), pitch);
  s.write(voice_register(v, 0x6), static_cast<uint16_t>(start / 8));
  s.write(voice_register(v, 0x8), 0x000F);
  s.write(voice_register(v, 0xA), 0x1FC0);
  s.write(v < 16 ? key_on : key_on + 2, static_cast<uint16_t>(1u << (v & 15)));
}

} // namespace

TEST_CASE("psx SPU one-shot sample ends with ENDX, release and envelope 0", "[psx][spu]") {
  Spu s;
  // Block A at 4000h: no flags; block B at 4010h: loop end without repeat ("End+Mute"); a silent loop at 5000h
  // as the repeat address (written by the program, as psx-spx suggests for one-shot samples).
  std::vector<uint8_t> blocks = block(0x00, 0x00, ones);
  const auto b = block(0x00, 0x01, ones);
  blocks.insert(blocks.end(), b.begin(), b.end());
  s.upload(0x4000, blocks);
  s.upload(0x5000, block(0x00, 0x07, std::span<const int>{}));
  s.write(voice_register(5, 0xE), 0x5000 / 8);
  start_voice(s, 5, 0x4000, 0x1000);
  s.run(55); // 55 samples: still in block B
  CHECK((s.read(endx) & (1u << 5)) == 0);
  CHECK(s.read(voice_register(5, 0xC)) != 0);
  s.run(1); // the 56th sample crosses the end of block B
  CHECK((s.read(endx) & (1u << 5)) != 0);
  CHECK(s.read(voice_register(5, 0xC)) == 0);
  CHECK(s.m.spu.voice(5).address == 0x5000);
  s.write(endx, 0); // ENDX is read-only
  CHECK((s.read(endx) & (1u << 5)) != 0);
  s.write(key_on, 1u << 5); // key on clears it
  CHECK((s.read(endx) & (1u << 5)) == 0);
}

TEST_CASE("psx SPU loop start sets the repeat address and loop end returns to it", "[psx][spu]") {
  Spu s;
  // 6000h: plain; 6010h: loop start; 6020h: loop end + repeat. Plays 6000 6010 6020 6010 6020 ...
  std::vector<uint8_t> blocks = block(0x00, 0x00, ones);
  for (uint8_t flags : {uint8_t{0x04}, uint8_t{0x03}}) {
    const auto b = block(0x00, flags, ones);
    blocks.insert(blocks.end(), b.begin(), b.end());
  }
  s.upload(0x6000, blocks);
  start_voice(s, 17, 0x6000, 0x4000); // 4 samples per tick: 7 ticks per block
  CHECK(s.read(voice_register(17, 0xE)) == 0);
  s.run(7);
  CHECK(s.m.spu.voice(17).address == 0x6010);
  s.run(1); // the block at 6010h is read: its loop-start flag sets the repeat address
  CHECK(s.read(voice_register(17, 0xE)) == 0x6010 / 8);
  s.run(12);
  CHECK((s.read(endx + 2) & (1u << 1)) == 0); // voice 17 is bit 1 of the high halfword
  s.run(1); // end of 6020h
  CHECK((s.read(endx + 2) & (1u << 1)) != 0);
  CHECK(s.m.spu.voice(17).address == 0x6010);
  CHECK(s.m.spu.voice(17).phase == kiln::psx::spu::AdsrPhase::sustain); // repeat: keeps playing
}

TEST_CASE("psx SPU voice reading the IRQ address raises IRQ9", "[psx][spu]") {
  Spu s;
  s.upload(0x7000, block(0x00, 0x00, ones));
  s.upload(0x7010, block(0x00, 0x07, ones));
  s.write(irq_address, 0x7010 / 8);
  start_voice(s, 0, 0x7000, 0x1000);
  s.write(spucnt, spu_on | 0x40);
  s.run(28);
  CHECK((s.m.io.i_stat & kiln::psx::irq::spu) == 0);
  s.run(1); // the block at 7010h is read
  CHECK((s.m.io.i_stat & kiln::psx::irq::spu) != 0);
  CHECK((s.read(spustat) & 0x40) != 0);
}

TEST_CASE("psx SPU noise follows psx-spx's generator", "[psx][spu]") {
  Spu s;
  // Noise shift 0Fh, step 3 (7): the timer reloads with 20000h >> 15 = 4. From timer 0, level 0:
  // tick 1: timer -7 < 0, level = 0*2 + parity(1) = 1, timer -3, +4 = 1; tick 2: timer -6, level = 3, timer 2;
  // tick 3: -5, level 7, timer 3; tick 4: -4, level 15, timer 0; tick 5: -7, level 31, timer 1 ...
  // The parity bit (bits 15, 12, 11, 10 of the level, xor 1) stays 1 until bit 10 is set: levels 2^n - 1.
  s.write(spu_register(0x194), 1); // NON: voice 0 plays noise
  s.upload(0x1000, block(0x00, 0x07, std::span<const int>{}));
  s.write(voice_register(0, 0x0), 0x3FFF);   // left 7FFEh
  s.write(main_left, 0x3FFF);
  start_voice(s, 0, 0x1000, 0x1000);
  s.write(voice_register(0, 0x8), 0x7F00);   // attack at the never-stepping rate ...
  s.write(voice_register(0, 0xC), 0x4000);   // ... from envelope 4000h
  s.write(spucnt, spu_on | (0xF << 10) | (3 << 8));
  const auto out = s.run(11);
  int expected_level = 0;
  for (unsigned n = 0; n < out.size(); ++n) {
    expected_level = expected_level * 2 + 1; // 1, 3, 7, ... 7FFh
    const int voice = (expected_level * 0x4000) >> 15;
    const int mixed = (voice * 0x7FFE) >> 15;
    INFO("tick " << n);
    CHECK(out[n].left == (mixed * 0x7FFE) >> 15);
  }
  CHECK(expected_level == 0x7FF);
}

TEST_CASE("psx SPU volume sweep steps the current volume", "[psx][spu]") {
  Spu s;
  s.write(voice_register(3, 0x0), 0x0100);   // fixed: current level 200h
  CHECK(s.read(spu_register(0x200 + 3 * 4)) == 0x0200);
  // Sweep, linear increase, shift 0Bh, step 0: "+7" << max(0, 11-11) every tick (increment 8000h).
  s.write(voice_register(3, 0x0), 0x8000 | (0x0B << 2) | 0);
  s.write(spucnt, spu_on);
  s.run(100);
  CHECK(s.read(spu_register(0x200 + 3 * 4)) == 0x0200 + 700);
  // Linear decrease, shift 0Dh, step 0: "-8" every 8000h >> 2 = 2000h increments, i.e. every 4th tick.
  s.write(voice_register(3, 0x2), 0x0100);
  s.write(voice_register(3, 0x2), 0x8000 | 0x2000 | (0x0D << 2));
  s.run(40);
  CHECK(s.read(spu_register(0x200 + 3 * 4 + 2)) == 0x0200 - 10 * 8);
  // Main volume: exponential decrease, shift 0, step 0: step = (-8 << 11) * level >> 15 each tick.
  s.write(main_right, 0x2000); // 4000h
  s.write(main_right, 0x8000 | 0x4000 | 0x2000);
  s.run(1);
  CHECK(s.read(spu_register(0x1BA)) == 0x4000 + ((-16384 * 0x4000) >> 15));
}

TEST_CASE("psx SPU runs 768 CPU cycles per sample over NTSC frames", "[psx][spu]") {
  Spu s;
  kiln::psx::WavFileSink sink;
  s.m.spu.set_sink(&sink);
  // One frame: 263 * 3413 video clocks at 53.693175 MHz with a 33.8688 MHz CPU = 566203.8 cycles = 737.2 samples.
  s.m.vblank();
  CHECK(sink.frames().size() == 737);
  for (int i = 0; i < 3; ++i) s.m.vblank();
  CHECK(sink.frames().size() == 2948); // floor(4 * 566203.775 / 768) = floor(2948.98)
  // 2264815 cycles so far: 2948 samples use 2264064, 751 are left over for the next one.
  s.m.spu.advance(16);
  CHECK(sink.frames().size() == 2948);
  s.m.spu.advance(1);
  CHECK(sink.frames().size() == 2949);
}

TEST_CASE("psx SPU pitch modulation scales the step by the previous voice's output", "[psx][spu]") {
  Spu s;
  // Voice 0: a DC block (shift 0, filter 0, nibbles 4: every sample 4 << 12 = 16384), envelope held at 4000h.
  const int fours[28] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
  s.upload(0x1000, block(0x00, 0x07, fours));
  start_voice(s, 0, 0x1000, 0x1000);
  s.write(voice_register(0, 0x8), 0x7F00); // attack at the never-stepping rate ...
  s.write(voice_register(0, 0xC), 0x4000); // ... from 4000h
  // Voice 1: pitch 1000h, modulated by voice 0 (PMON bit 1).
  start_voice(s, 1, 0x1000, 0x1000);
  s.write(spu_register(0x190), 0x0002);
  // From the fourth sample on, voice 0 interpolates four 16384s at index 0:
  // (-1*16384 >> 15) + (12C7h*16384 >> 15) + (1307h*16384 >> 15) + (59B3h*16384 >> 15) = -1 + 2403 + 2435 + 11481
  // = 16318; times the envelope: 16318 * 4000h >> 15 = 8159. Voice 1's step: 1000h * (8159 + 8000h) >> 15
  // = 4096 * 40927 >> 15 = 5115 (5115.9).
  s.run(4);
  const uint32_t before = s.m.spu.voice(1).counter;
  s.run(1);
  CHECK(s.m.spu.voice(1).counter - before == 5115);
  s.write(spu_register(0x190), 0); // without PMON: the plain pitch
  const uint32_t plain = s.m.spu.voice(1).counter;
  s.run(1);
  CHECK(s.m.spu.voice(1).counter - plain == 0x1000);
}
