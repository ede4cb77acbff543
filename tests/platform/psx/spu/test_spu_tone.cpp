// A tone through the whole SPU (registers, manual-write upload, key on/off, mixing), compared sample by sample
// with spu_reference.h, which follows psx-spx's formulas without kiln's code.
#include <catch2/catch.hpp>

#include "tests/platform/psx/spu/spu_harness.h"
#include "tests/platform/psx/spu/spu_reference.h"

using namespace spu_test;

namespace {

// One period of a coarse sine in 14 nibbles, twice per 28-sample block.
constexpr int sine14[28] = {0, 3, 5, 7, 7, 5, 3, 0, -3, -5, -7, -7, -5, -3, 0, 3, 5, 7, 7, 5, 3, 0, -3, -5, -7, -7, -5, -3};

/// Two blocks at 1000h: A (shift 2, filter 0, loop start), B (same samples, loop end + repeat): A B A B ...
std::vector<uint8_t> tone_blocks() {
  std::vector<uint8_t> bytes = block(0x02, 0x04, sine14);
  const std::vector<uint8_t> b = block(0x02, 0x03, sine14);
  bytes.insert(bytes.end(), b.begin(), b.end());
  return bytes;
}

void check_tone(const spu_reference::VoiceSetup& setup, unsigned samples) {
  Spu s;
  const std::vector<uint8_t> blocks = tone_blocks();
  s.upload(setup.start, blocks);
  REQUIRE(std::equal(blocks.begin(), blocks.end(), s.m.spu.ram().begin() + setup.start));
  s.write(main_left, static_cast<uint16_t>(setup.main_left));
  s.write(main_right, static_cast<uint16_t>(setup.main_right));
  s.write(voice_register(0, 0x0), static_cast<uint16_t>(setup.volume_left));
  s.write(voice_register(0, 0x2), static_cast<uint16_t>(setup.volume_right));
  s.write(voice_register(0, 0x4), static_cast<uint16_t>(setup.pitch));
  s.write(voice_register(0, 0x6), static_cast<uint16_t>(setup.start / 8));
  s.write(voice_register(0, 0x8), setup.adsr_low);
  s.write(voice_register(0, 0xA), setup.adsr_high);
  s.write(key_on, 0x0001);
  std::vector<kiln::psx::StereoFrame> got = s.run(setup.key_off_at);
  s.write(key_off, 0x0001);
  const auto rest = s.run(samples - setup.key_off_at);
  got.insert(got.end(), rest.begin(), rest.end());

  const auto expected = spu_reference::play(s.m.spu.ram(), setup, samples);
  unsigned audible = 0;
  for (unsigned n = 0; n < samples; ++n) {
    INFO("sample " << n);
    REQUIRE(got[n].left == expected[n].left);
    REQUIRE(got[n].right == expected[n].right);
    audible += got[n].left != 0;
  }
  CHECK(audible > samples / 2); // the comparison is not between two silences
  CHECK(s.m.spu.voice(0).adsr_level == 0); // released to silence by the end
}

} // namespace

TEST_CASE("psx SPU tone at pitch 1000h with exponential attack and release matches the reference", "[psx][spu]") {
  spu_reference::VoiceSetup setup;
  setup.start = 0x1000;
  setup.pitch = 0x1000; // 44100 Hz: one ADPCM sample per output sample, a 14-sample period = 3150 Hz
  // Attack exponential, shift 0Ah, step "+7"; decay shift 4; sustain level 8 (4800h);
  // sustain linear increase at the never-stepping rate (shift 1Fh, step 3); release exponential, shift 8.
  setup.adsr_low = 0x8000 | (0x0A << 10) | (0 << 8) | (4 << 4) | 8;
  setup.adsr_high = (0x1F << 8) | (3 << 6) | 0x20 | 0x08;
  setup.volume_left = 0x3FFF;  // 7FFEh
  setup.volume_right = 0x2000; // 4000h
  setup.main_left = 0x3FFF;
  setup.main_right = 0x3000;
  setup.key_off_at = 6000;
  check_tone(setup, 12000);
}

TEST_CASE("psx SPU tone at pitch 800h with linear attack and release matches the reference", "[psx][spu]") {
  spu_reference::VoiceSetup setup;
  setup.start = 0x2000;
  setup.pitch = 0x0800; // 22050 Hz: interpolation indices 00h and 80h alternate, a 28-sample period = 1575 Hz
  // Attack linear, shift 0Ch, step "+6"; decay shift 2; sustain level 15 (8000h: sustain right after attack);
  // sustain exponential decrease, shift 10h; release linear, shift 0Ah.
  setup.adsr_low = (0x0C << 10) | (1 << 8) | (2 << 4) | 0xF;
  setup.adsr_high = 0x8000 | 0x4000 | (0x10 << 8) | 0x0A;
  setup.volume_left = 0x3FFF;
  setup.volume_right = 0x5000; // bit 14: negative, phase-inverted (-6000h * 2)
  setup.main_left = 0x2000;
  setup.main_right = 0x3FFF;
  setup.key_off_at = 7000;
  check_tone(setup, 9000);
}

TEST_CASE("psx SPU tone has the pitch it was given", "[psx][spu]") {
  // During sustain at a never-stepping rate the envelope is constant, so the output repeats with the waveform's
  // period: 14 samples at pitch 1000h, 28 at pitch 800h; and not with a shorter one.
  for (const auto& [pitch, period] : {std::pair{0x1000, 14u}, std::pair{0x0800, 28u}}) {
    Spu s;
    s.upload(0x1000, tone_blocks());
    s.write(spucnt, spu_on);
    s.write(main_left, 0x3FFF);
    s.write(voice_register(0, 0x0), 0x3FFF);
    s.write(voice_register(0, 0x4), static_cast<uint16_t>(pitch));
    s.write(voice_register(0, 0x6), 0x1000 / 8);
    s.write(voice_register(0, 0x8), 0x000F); // fastest attack, sustain level 15
    s.write(voice_register(0, 0xA), 0x1FC0); // sustain: no steps
    s.write(key_on, 1);
    s.run(200);
    const auto out = s.run(4 * period);
    INFO("pitch " << pitch);
    for (unsigned n = 0; n + period < out.size(); ++n) CHECK(out[n].left == out[n + period].left);
    bool shorter_repeats = true;
    for (unsigned n = 0; n + period / 2 < out.size(); ++n) shorter_repeats &= out[n].left == out[n + period / 2].left;
    CHECK_FALSE(shorter_repeats);
  }
}
