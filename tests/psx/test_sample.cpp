// games/sample-psx, recompiled and interpreted (tests/psx/run_sample.sh ran both, with the pad of sample.pad):
// the printed text, the frames and the sound are checked against values derived by hand from main.c and the
// documented rules, and the two runs must agree on everything (output, BIOS-call trace, final registers,
// RAM/VRAM hashes, frames, sound).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "runtime/base/file_writer.h"
#include "runtime/base/png_image.h"
#include "tests/platform/psx/spu/spu_reference.h"

namespace {

const std::filesystem::path out = KILN_PSX_SAMPLE_OUT;

std::string text(const std::filesystem::path& path) {
  const auto bytes = kiln::read_file(path);
  return std::string(bytes.begin(), bytes.end());
}

struct Rgb {
  int r, g, b;
  bool operator==(const Rgb&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Rgb& c) { return os << "(" << c.r << "," << c.g << "," << c.b << ")"; }

Rgb pixel(const kiln::RgbaImage& image, int x, int y) {
  const uint8_t* p = &image.pixels[(static_cast<size_t>(y) * image.width + x) * 4];
  return {p[0], p[1], p[2]};
}

} // namespace

TEST_CASE("psx sample prints through the BIOS what main.c asks for", "[psx]") {
  // EnterCriticalSection returns 0: crt0 sets only Status.CU2, so IEc and IM2 were clear.
  // RTPS with an identity rotation, no translation, H = 256, z = 512: the UNR division gives H/SZ3 = 0x8000
  // (one half) exactly, so sx = 160 + x/2 and sy = 120 + y/2; nothing saturates, FLAG = 0.
  const std::string expected =
      "kiln psx sample\n"
      "critical section: 0\n"
      "strlen(\"GTE\") = 3, hex 00c0ffee, padded [  -42] [ab  ]\n"
      "heap: ok\n"
      "rtps 0: sx=128 sy=88 sz=512 flag=00000000\n"
      "rtps 1: sx=192 sy=88 sz=512 flag=00000000\n"
      "rtps 2: sx=128 sy=152 sz=512 flag=00000000\n"
      // print_shape(kind, kind + 5) through its jump table: n = 5, 6 * 3 = 18 = 12h, -, 8 - 10, a + 9, 10 * 10, -, kind 7.
      "flat:5 gouraud:12 textured semi:-2 rect:j line:100 polyline unknown:7\n"
      // The pad (sample.pad): nothing, then Right (bit 5: ~0020h), then Right, Down, Cross (~4060h), active low.
      "frame 0 drawn, pad ffff\n"
      "frame 1 drawn, pad ffdf\n"
      "frame 2 drawn, pad bf9f\n"
      "vblank callbacks: 3\n" // the VBLANK event's handler ran once per frame
      "done\n";
  CHECK(text(out / "recompiled-run/stdout.txt") == expected);
  CHECK(text(out / "interpreted-run/stdout.txt") == expected);
  // main returns 7 to the loader.
  CHECK(text(out / "recompiled-run/status.txt") == "7\n");
  CHECK(text(out / "interpreted-run/status.txt") == "7\n");
}

TEST_CASE("psx sample frames hold the pixels its drawing commands define", "[psx]") {
  const Rgb background{0, 0, 32};    // fill 200000h: blue 32 -> 5-bit 4 -> scanned out as 4 << 3
  const Rgb green{0, 248, 0};        // F800h green: 31 << 3
  const Rgb blended{120, 248, 120};  // B/2+F/2 of white (31) over green: (0+31)/2 = 15 -> 120, (31+31)/2 = 31
  const Rgb red{248, 0, 0};
  for (int frame = 0; frame < 3; ++frame) {
    INFO("frame " << frame);
    const auto image = kiln::read_png(out / "recompiled-run" / ("frame00" + std::to_string(frame) + ".png"));
    REQUIRE(image.width == 320);
    REQUIRE(image.height == 240);
    const int left = 16 + 8 * frame; // the rectangles move 8 pixels per frame
    CHECK(pixel(image, 0, 0) == background);
    CHECK(pixel(image, left - 1, 20) == background);
    CHECK(pixel(image, left, 16) == blended);       // semi-transparent half: [left, left+16)
    CHECK(pixel(image, left + 15, 47) == blended);
    CHECK(pixel(image, left + 16, 16) == green);    // opaque half: [left+16, left+32)
    CHECK(pixel(image, left + 31, 47) == green);
    CHECK(pixel(image, left + 32, 30) == background);
    CHECK(pixel(image, left + 20, 48) == background);
    // The GTE-projected triangle (128,88) (192,88) (128,152): inside where (x-128) + (y-88) < 64.
    CHECK(pixel(image, 130, 90) == red);
    CHECK(pixel(image, 150, 100) == red);
    CHECK(pixel(image, 180, 140) == background);
    CHECK(pixel(image, 126, 100) == background);
    // Gouraud quad x in [200,264), y in [16,48): red = 2 * (x - 200) (a gradient of exactly 2 per pixel, +0.5
    // seed, no dithering), 5-bit = red >> 3, scanned out << 3.
    CHECK(pixel(image, 220, 30) == Rgb{40, 0, 0});
    CHECK(pixel(image, 240, 30) == Rgb{80, 0, 0});
    CHECK(pixel(image, 260, 40) == Rgb{120, 0, 0});
    // The 4x4 texture drawn raw at (40,200): texel (u,v) = red u*8+1, green v*8+1, blue 16 (5-bit); beyond it
    // VRAM is 0000h, which is transparent.
    CHECK(pixel(image, 40, 200) == Rgb{8, 8, 128});
    CHECK(pixel(image, 41, 202) == Rgb{72, 136, 128});
    CHECK(pixel(image, 43, 203) == Rgb{200, 200, 128});
    CHECK(pixel(image, 44, 200) == background);
    CHECK(pixel(image, 40, 204) == background);
  }
}

TEST_CASE("psx sample square follows the scripted pad", "[psx]") {
  // The 8x8 yellow square starts at (280,200) and moves 4 pixels per frame per direction held: frame 0 none,
  // frame 1 Right, frame 2 Right and Down.
  const Rgb background{0, 0, 32}, yellow{248, 248, 0};
  const int xs[3] = {280, 284, 288}, ys[3] = {200, 200, 204};
  for (int frame = 0; frame < 3; ++frame) {
    INFO("frame " << frame);
    const auto image = kiln::read_png(out / "recompiled-run" / ("frame00" + std::to_string(frame) + ".png"));
    CHECK(pixel(image, xs[frame], ys[frame]) == yellow);
    CHECK(pixel(image, xs[frame] + 7, ys[frame] + 7) == yellow);
    CHECK(pixel(image, xs[frame] - 1, ys[frame]) == background);
    CHECK(pixel(image, xs[frame] + 8, ys[frame] + 7) == background);
    CHECK(pixel(image, xs[frame], ys[frame] + 8) == background);
  }
}

TEST_CASE("psx sample sound is the tone main.c plays", "[psx]") {
  const std::vector<uint8_t> wav = kiln::read_file(out / "recompiled-run/audio.wav");
  REQUIRE(wav.size() >= 44);
  auto u16 = [&](size_t at) { return static_cast<unsigned>(wav[at] | wav[at + 1] << 8); };
  auto u32 = [&](size_t at) { return u16(at) | u16(at + 2) << 16; };
  CHECK(std::string(wav.begin(), wav.begin() + 4) == "RIFF");
  CHECK(std::string(wav.begin() + 8, wav.begin() + 16) == "WAVEfmt ");
  CHECK(u16(20) == 1);      // PCM
  CHECK(u16(22) == 2);      // stereo
  CHECK(u32(24) == 44100);  // the SPU's rate
  CHECK(u16(34) == 16);     // bits per sample
  CHECK(std::string(wav.begin() + 36, wav.begin() + 40) == "data");
  // Three NTSC frames of 263 * 3413 video clocks at 53.693175 MHz, 33.8688 MHz CPU, 768 cycles per sample:
  // floor(3 * 566203.775 / 768) = 2211 samples.
  const unsigned samples = u32(40) / 4;
  REQUIRE(samples == 2211);
  REQUIRE(wav.size() == 44 + 4 * samples);

  // What main.c sets up: two blocks at 1000h (shift 2, filter 0, a 14-nibble sine twice each; loop start on the
  // first, loop end + repeat on the second), voice 0 at pitch 800h, ADSR from start_tone(), volumes 3FFFh, key
  // on before the first sample, key off before frame 2: after floor(2 * 566203.775 / 768) = 1474 samples.
  std::vector<uint8_t> sound_ram(512 * 1024, 0);
  const int sine14[14] = {0, 3, 5, 7, 7, 5, 3, 0, -3, -5, -7, -7, -5, -3};
  for (int blk = 0; blk < 2; ++blk) {
    uint8_t* b = &sound_ram[0x1000 + 16 * blk];
    b[0] = 0x02;
    b[1] = blk == 0 ? 0x04 : 0x03;
    for (int i = 0; i < 28; ++i) b[2 + i / 2] |= static_cast<uint8_t>((sine14[i % 14] & 0xF) << ((i & 1) * 4));
  }
  spu_reference::VoiceSetup setup;
  setup.start = 0x1000;
  setup.pitch = 0x0800;
  setup.adsr_low = (8 << 10) | (6 << 4) | 10;
  setup.adsr_high = (0x1F << 8) | (3 << 6) | 0x20 | 6;
  setup.volume_left = setup.volume_right = setup.main_left = setup.main_right = 0x3FFF;
  setup.key_off_at = 1474;
  const auto expected = spu_reference::play(sound_ram, setup, samples);
  unsigned audible = 0;
  for (unsigned n = 0; n < samples; ++n) {
    INFO("sample " << n);
    REQUIRE(static_cast<int16_t>(u16(44 + 4 * n)) == expected[n].left);
    REQUIRE(static_cast<int16_t>(u16(46 + 4 * n)) == expected[n].right);
    audible += expected[n].left != 0;
  }
  CHECK(audible > samples / 2);
}

TEST_CASE("psx sample recompiled and interpreted runs agree", "[psx]") {
  for (const char* file : {"stdout.txt", "trace.txt", "state.txt", "vram.bin", "status.txt", "frame000.png", "frame001.png",
                           "frame002.png", "audio.wav"}) {
    INFO(file);
    CHECK(kiln::read_file(out / "recompiled-run" / file) == kiln::read_file(out / "interpreted-run" / file));
  }
  // The trace has one line per BIOS call and per frame: make sure it is not trivially empty.
  CHECK(text(out / "recompiled-run/trace.txt").find("A(3Fh)") != std::string::npos);
  CHECK(text(out / "recompiled-run/trace.txt").find("frame 3 ") != std::string::npos);
}
