// The GPU as the CPU sees it: GP0 word counts, GPUSTAT, VRAM transfers and copies, fills, display scan-out,
// and the text word streams of `kiln psx gpu-replay`. Expected values from psx-spx's GPU chapter.
#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "runtime/gpu/psx/display.h"
#include "runtime/gpu/psx/gp0_command.h"
#include "runtime/gpu/psx/replay.h"
#include "tests/gpu/psx/gpu_harness.h"

using kiln::psx::test::GpuHarness;
using kiln::psx::test::rgb;

TEST_CASE("GP0 commands take the documented number of words", "[psx][gpu][gp0]") {
  struct Case { uint8_t opcode; unsigned words; };
  // psx-spx command summary: 1 command/colour word + per vertex (colour when shaded) + position (+ texcoord).
  const Case cases[] = {
      {0x00, 1}, {0x01, 1}, {0x02, 3}, {0x1F, 1},
      {0x20, 4}, {0x22, 4}, {0x24, 7}, {0x28, 5}, {0x2C, 9}, {0x30, 6}, {0x34, 9}, {0x38, 8}, {0x3C, 12},
      {0x40, 3}, {0x48, 3}, {0x50, 4}, {0x58, 4},
      {0x60, 3}, {0x64, 4}, {0x68, 2}, {0x6C, 3}, {0x70, 2}, {0x74, 3}, {0x78, 2}, {0x7C, 3},
      {0x80, 4}, {0xA0, 3}, {0xC0, 3}, {0xE1, 1}, {0xE6, 1}, {0xE7, 1}, {0xFF, 1},
  };
  for (const Case& c : cases) {
    INFO(kiln::psx::decode_gp0(uint32_t{c.opcode} << 24).describe());
    CHECK(kiln::psx::decode_gp0(uint32_t{c.opcode} << 24).word_count() == c.words);
  }
}

TEST_CASE("GPUSTAT after reset and as the settings change", "[psx][gpu][gpustat]") {
  kiln::psx::Gpu gpu;
  gpu.write_gp1(0x00000000);
  // psx-spx: 1480_2000h after GP1(00h): ready for commands and DMA blocks, display off, interlace field bit.
  CHECK(gpu.gpustat() == 0x14802000);
  gpu.write_gp0(0xE1000000 | 0x3FF);             // texpage 15, y 256, mode 3, depth 3, dither, draw to display
  gpu.write_gp0(0xE6000003);                     // mask set and check
  gpu.write_gp1(0x03000000);                     // display on
  gpu.write_gp1(0x0800007F);                     // every display mode bit but "reverse"
  gpu.write_gp1(0x04000002);                     // DMA CPU-to-GPU
  const uint32_t status = gpu.gpustat();
  CHECK((status & 0x7FF) == 0x3FF);
  CHECK((status >> 11 & 3) == 3);
  CHECK((status >> 16 & 0x7F) == 0x7F);
  CHECK((status >> 23 & 1) == 0);
  CHECK((status >> 29 & 3) == 2);
  CHECK((status >> 25 & 1) == 1); // DMA request follows "ready for a DMA block" in that direction
  gpu.write_gp0(0x20000000);      // a triangle's first word: no longer ready for a command, FIFO not empty
  CHECK((gpu.gpustat() >> 26 & 1) == 0);
  CHECK((gpu.gpustat() >> 28 & 1) == 0);
  CHECK((gpu.gpustat() >> 25 & 1) == 0); // DMA direction 2 requests follow bit 28
  gpu.write_gp0(0x1F000000);      // ... (still inside the triangle)
  gpu.write_gp0(0);
  gpu.write_gp0(0);
  gpu.write_gp0(0x1F000000);      // GP0(1Fh): IRQ
  CHECK((gpu.gpustat() >> 24 & 1) == 1);
  gpu.write_gp1(0x02000000);
  CHECK((gpu.gpustat() >> 24 & 1) == 0);
}

TEST_CASE("GP1(10h) reports the drawing settings", "[psx][gpu][gp1]") {
  GpuHarness h;
  h.gp0({0xE2012345, 0xE5000000 | 0x7FDu << 11 | 10u});
  h.gpu.write_gp1(0x10000004);
  CHECK(h.gpu.read_gpuread() == (511u << 10 | 1023u));
  h.gpu.write_gp1(0x10000005);
  CHECK(h.gpu.read_gpuread() == (0x7FDu << 11 | 10u));
  h.gpu.write_gp1(0x10000002);
  CHECK(h.gpu.read_gpuread() == 0x012345); // the 20 bits of GP0(E2h)
  h.gpu.write_gp1(0x10000007);
  CHECK(h.gpu.read_gpuread() == 2);
}

TEST_CASE("VRAM transfers both ways, odd sizes and wrap-around", "[psx][gpu][transfer]") {
  GpuHarness h;
  // 3x1 at (1022, 5): the third pixel wraps to x = 0; the high half of the second data word is dropped.
  h.gp0({0xA0000000, h.xy(1022, 5), 0x00010003, 0x22221111, 0x44443333});
  CHECK_FALSE(h.gpu.pending_command());
  CHECK(h.at(1022, 5) == 0x1111);
  CHECK(h.at(1023, 5) == 0x2222);
  CHECK(h.at(0, 5) == 0x3333);
  CHECK(h.at(1, 5) == 0);
  h.gp0({0xC0000000, h.xy(1022, 5), 0x00010003});
  CHECK((h.gpu.gpustat() >> 27 & 1) == 1);
  CHECK(h.gpu.read_gpuread() == 0x22221111);
  CHECK(h.gpu.read_gpuread() == 0x00003333);
  CHECK((h.gpu.gpustat() >> 27 & 1) == 0);
}

TEST_CASE("VRAM-to-VRAM copies and fills", "[psx][gpu][transfer]") {
  GpuHarness h;
  h.gp0({0xA0000000, h.xy(10, 10), 0x00020002, 0x00020001, 0x00040003});
  h.gp0({0x80000000, h.xy(10, 10), h.xy(100, 200), 0x00020002});
  CHECK(h.at(100, 200) == 1);
  CHECK(h.at(101, 200) == 2);
  CHECK(h.at(100, 201) == 3);
  CHECK(h.at(101, 201) == 4);
  CHECK(h.at(102, 200) == 0);
  // Fill: x rounded down to 16, width rounded up to 16, and wrap at the right edge; ignores the drawing area.
  h.gp0({0xE3000000, 0xE4000000});
  h.fill(1013, 0, 20, 1, 0x0000F8); // x -> 1008, width -> 32: 1008..1023 and 0..15
  CHECK(h.at(1008, 0) == rgb(31, 0, 0));
  CHECK(h.at(15, 0) == rgb(31, 0, 0));
  CHECK(h.at(16, 0) == 0);
  CHECK(h.at(1007, 0) == 0);
}

TEST_CASE("display scan-out: 15-bit channels shifted left by 3, 24-bit as bytes", "[psx][gpu][display]") {
  GpuHarness h;
  h.gpu.write_gp1(0x03000000);
  h.gpu.write_gp1(0x05000000 | 16u << 10 | 64u); // start (64, 16)
  h.gpu.write_gp1(0x08000001);                   // 320 wide (8 clocks per pixel), 15-bit
  CHECK(h.gpu.display().width() == 320);         // (C00h - 200h) / 8 + 2, rounded down to a multiple of 4
  CHECK(h.gpu.display().height() == 240);        // 100h - 10h
  h.put(64, 16, rgb(31, 16, 1));
  auto image = kiln::psx::scan_out(h.gpu.vram(), h.gpu.display());
  CHECK(image.pixels[0] == 248);
  CHECK(image.pixels[1] == 128);
  CHECK(image.pixels[2] == 8);
  h.gpu.write_gp1(0x08000011); // 24-bit
  h.gp0({0xA0000000, h.xy(64, 16), 0x00010003, 0x44332211, 0x00006655});
  image = kiln::psx::scan_out(h.gpu.vram(), h.gpu.display());
  const uint8_t expected[] = {0x11, 0x22, 0x33, 0xFF, 0x44, 0x55, 0x66, 0xFF};
  for (size_t i = 0; i < 8; ++i) CHECK(image.pixels[i] == expected[i]);
  h.gpu.write_gp1(0x03000001); // display off: black
  image = kiln::psx::scan_out(h.gpu.vram(), h.gpu.display());
  CHECK(image.pixels[0] == 0);
}

TEST_CASE("word streams: parsing and truncated commands", "[psx][gpu][replay]") {
  using kiln::psx::GpuWrite;
  const auto writes = kiln::psx::parse_gpu_words("# comment\n\ngp0 e1000200  # trailing\nGP1 0x03000000\n", "w.txt");
  REQUIRE(writes.size() == 2);
  CHECK(writes[0].port == GpuWrite::Port::gp0);
  CHECK(writes[0].value == 0xE1000200);
  CHECK(writes[0].line == 3);
  CHECK(writes[1].port == GpuWrite::Port::gp1);
  CHECK(writes[1].value == 0x03000000);
  CHECK_THROWS_WITH(kiln::psx::parse_gpu_words("GP0 1\nGP2 5\n", "w.txt"), Catch::Contains("w.txt") &&
                                                                               Catch::Contains("line 2"));
  CHECK_THROWS_WITH(kiln::psx::parse_gpu_words("GP0 12345678 9\n", "w.txt"), Catch::Contains("line 1"));
  CHECK_THROWS_WITH(kiln::psx::parse_gpu_words("GP0 xyz\n", "w.txt"), Catch::Contains("line 1"));
  CHECK_THROWS_WITH(kiln::psx::parse_gpu_words("GP0 123456789\n", "w.txt"), Catch::Contains("line 1"));

  kiln::psx::Gpu gpu;
  const auto truncated = kiln::psx::parse_gpu_words("GP0 E1000000\nGP0 38000000\nGP0 0\nGP0 0\n", "t.txt");
  CHECK_THROWS_WITH(kiln::psx::replay(gpu, truncated, "t.txt"),
                    Catch::Contains("line 2") && Catch::Contains("GP0(38h)") && Catch::Contains("3 of 8 words"));
  kiln::psx::Gpu gpu2;
  const auto short_transfer = kiln::psx::parse_gpu_words("GP0 A3000000\nGP0 0\nGP0 00020002\nGP0 1\n", "t.txt");
  CHECK_THROWS_WITH(kiln::psx::replay(gpu2, short_transfer, "t.txt"),
                    Catch::Contains("line 1") && Catch::Contains("GP0(A3h) CPU-to-VRAM") &&
                        Catch::Contains("2 halfwords of 2x2 missing"));
  kiln::psx::Gpu gpu3;
  const auto open_polyline = kiln::psx::parse_gpu_words("GP0 48000000\nGP0 0\nGP0 00050005\n", "t.txt");
  CHECK_THROWS_WITH(kiln::psx::replay(gpu3, open_polyline, "t.txt"), Catch::Contains("not terminated"));
}

TEST_CASE("VRAM dumps are exactly 1 MiB, little-endian", "[psx][gpu][replay]") {
  kiln::psx::Vram vram;
  vram.set(1, 0, 0xBEEF);
  const auto bytes = kiln::psx::vram_to_bytes(vram);
  REQUIRE(bytes.size() == 1024 * 512 * 2);
  CHECK(bytes[2] == 0xEF);
  CHECK(bytes[3] == 0xBE);
  kiln::psx::Vram loaded;
  kiln::psx::vram_from_bytes(loaded, bytes, "in.bin");
  CHECK(loaded.at(1, 0) == 0xBEEF);
  CHECK_THROWS_WITH(kiln::psx::vram_from_bytes(loaded, std::vector<uint8_t>(10), "in.bin"),
                    Catch::Contains("in.bin") && Catch::Contains("1048576"));
}
