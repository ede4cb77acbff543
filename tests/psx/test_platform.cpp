// runtime/platform/psx: memory map, hardware registers, DMA and BIOS calls, each expectation from psx-spx's
// description of the register or function (derivations next to the checks).
#include <catch2/catch.hpp>

#include <string>

#include "runtime/platform/psx/machine.h"
#include "runtime/platform/psx/run.h"

using kiln::psx::Machine;

namespace {

struct Fixture {
  std::string printed;
  Machine m{Machine::Options{0, {}, {}, [this](std::string_view s) { printed += s; }}};
};

constexpr uint32_t io(uint32_t offset) { return 0x1F801000u + offset; }

} // namespace

TEST_CASE("psx RAM is mirrored through KUSEG KSEG0 KSEG1 and every 2 MiB", "[psx]") {
  Fixture f;
  f.m.write32(0x80001000u, 0x12345678u);
  CHECK(f.m.read32(0x00001000u) == 0x12345678u);
  CHECK(f.m.read32(0xA0001000u) == 0x12345678u);
  CHECK(f.m.read32(0x80201000u) == 0x12345678u); // second 2 MiB mirror
  CHECK(f.m.read32(0x00601000u) == 0x12345678u); // fourth
  CHECK(f.m.read16(0x80001002u) == 0x1234u);
  CHECK(f.m.read8(0x80001001u) == 0x56u);
}

TEST_CASE("psx scratchpad answers through KUSEG and KSEG0 only", "[psx]") {
  Fixture f;
  f.m.write32(0x1F800010u, 0xCAFEF00Du);
  CHECK(f.m.read32(0x9F800010u) == 0xCAFEF00Du);
  CHECK(f.m.read32(0x1F800410u) != 0xCAFEF00Du); // past its 1 KiB
  CHECK(f.m.direct(0xBF800010u) == nullptr);      // not through KSEG1
}

TEST_CASE("psx DMA6 OTC writes the reverse-linked empty ordering table", "[psx]") {
  Fixture f;
  // 4 entries ending at 80000110h: 110h -> 10Ch, 10Ch -> 108h, 108h -> 104h, 104h = FFFFFFh (end).
  f.m.write32(io(0x0F0), 0x08000000u); // DPCR: channel 6 enabled
  f.m.write32(io(0x0E0), 0x80000110u);
  f.m.write32(io(0x0E4), 4);
  f.m.write32(io(0x0E8), 0x11000002u);
  CHECK(f.m.read32(0x80000110u) == 0x0000010Cu);
  CHECK(f.m.read32(0x8000010Cu) == 0x00000108u);
  CHECK(f.m.read32(0x80000108u) == 0x00000104u);
  CHECK(f.m.read32(0x80000104u) == 0x00FFFFFFu);
  CHECK((f.m.read32(io(0x0E8)) & 0x01000000u) == 0); // busy bit clear when done
}

TEST_CASE("psx DMA2 linked list feeds GP0 node by node", "[psx]") {
  Fixture f;
  // Node at 200h: 3 words (a fill of red 0000F8h at (0,0) 16x1), next at 300h; node at 300h: no words, end.
  f.m.write32(0x80000200u, 0x03000300u);
  f.m.write32(0x80000204u, 0x020000F8u);
  f.m.write32(0x80000208u, 0x00000000u);
  f.m.write32(0x8000020Cu, 0x00010010u);
  f.m.write32(0x80000300u, 0x00FFFFFFu);
  f.m.write32(io(0x0A0), 0x80000200u);
  f.m.write32(io(0x0A8), 0x01000401u);
  CHECK(f.m.gpu.vram().at(0, 0) == 0x001F); // red 248 -> 5-bit 31
  CHECK(f.m.gpu.vram().at(15, 0) == 0x001F);
  CHECK(f.m.gpu.vram().at(16, 0) == 0x0000);
  CHECK(f.m.gpu.vram().at(0, 1) == 0x0000);
}

TEST_CASE("psx DMA completion raises the DMA interrupt when DICR enables it", "[psx]") {
  Fixture f;
  f.m.write32(io(0x0F4), (1u << 23) | (1u << 22)); // master enable, channel 6 enable
  f.m.write32(io(0x0E0), 0x80000100u);
  f.m.write32(io(0x0E4), 1);
  f.m.write32(io(0x0E8), 0x11000002u);
  CHECK((f.m.read32(io(0x0F4)) >> 24) == 0xC0u); // flag 6 (bit 30) and the master flag (bit 31)
  CHECK((f.m.io.i_stat & kiln::psx::irq::dma) != 0);
  f.m.write32(io(0x0F4), (1u << 23) | (1u << 22) | (1u << 30)); // acknowledge flag 6
  CHECK((f.m.read32(io(0x0F4)) >> 24) == 0u);
}

TEST_CASE("psx VBLANK arrives when the program polls I_STAT and is acknowledged by writing 0", "[psx]") {
  Fixture f;
  CHECK(f.m.frames() == 0);
  CHECK((f.m.read32(io(0x070)) & 1u) == 1u); // the poll reaches the next VBLANK
  CHECK(f.m.frames() == 1);
  CHECK((f.m.read32(io(0x070)) & 1u) == 1u); // still pending: no new frame
  CHECK(f.m.frames() == 1);
  f.m.write32(io(0x070), ~1u);
  CHECK((f.m.read32(io(0x070)) & 1u) == 1u);
  CHECK(f.m.frames() == 2);
}

TEST_CASE("psx frame limit stops the program", "[psx]") {
  Machine m{Machine::Options{2, {}, {}, [](std::string_view) {}}};
  m.vblank();
  CHECK_THROWS_AS(m.vblank(), kiln::psx::ProgramStop);
}

TEST_CASE("psx joypad port answers no controller and no memory card", "[psx]") {
  Fixture f;
  f.m.write16(io(0x04A), 0x1003); // select port 1, TX enable
  f.m.write8(io(0x040), 0x01);    // controller address byte
  CHECK((f.m.read16(io(0x044)) & 0x80u) == 0); // no /ACK ever
  CHECK((f.m.read16(io(0x044)) & 0x02u) != 0); // a byte was received ...
  CHECK(f.m.read8(io(0x040)) == 0xFF);         // ... and it is FFh (the line stays high)
  f.m.write8(io(0x040), 0x81);                 // memory card address byte: same answer
  CHECK(f.m.read8(io(0x040)) == 0xFF);
}

TEST_CASE("psx SPU registers read back and SPUSTAT follows SPUCNT", "[psx]") {
  Fixture f;
  f.m.write16(0x1F801C00u, 0x3FFF); // voice 0 volume left
  CHECK(f.m.read16(0x1F801C00u) == 0x3FFF);
  f.m.write16(io(0xDAA), 0xC03F); // SPUCNT: transfer mode 3 (DMA read), CD/external audio bits
  // SPUSTAT: bits 0-5 = SPUCNT bits 0-5, bit 7 = SPUCNT bit 5, bit 9 = DMA read request.
  CHECK(f.m.read16(io(0xDAE)) == (0x003F | 0x0080 | 0x0200));
}

TEST_CASE("psx GPU ports: GP0 draws, GP1 controls, GPUSTAT reads", "[psx]") {
  Fixture f;
  f.m.write32(io(0x814), 0x03000000u); // display on
  CHECK((f.m.read32(io(0x814)) & (1u << 23)) == 0);
  f.m.write32(io(0x810), 0x02001F00u); // fill, green 1Fh... as 24-bit colour 001F00h -> g = 1Fh >> 3 = 3
  f.m.write32(io(0x810), 0x00000000u);
  f.m.write32(io(0x810), 0x00010010u);
  CHECK(f.m.gpu.vram().at(3, 0) == (3u << 5));
}

namespace {

struct CountingSink final : kiln::psx::AudioSink {
  size_t frames = 0;
  void push(std::span<const kiln::psx::StereoFrame> f) override { frames += f.size(); }
};
struct HeldCross final : kiln::psx::PadSource {
  kiln::psx::PadInput poll(unsigned) override { return {kiln::psx::pad_button::cross}; }
};

} // namespace

TEST_CASE("psx run hands the SPU's frames and port 1 to a host's sink and pad", "[psx]") {
  CountingSink sink;
  HeldCross source;
  kiln::psx::RunOptions options;
  options.frames = 2;
  options.tty = [](std::string_view) {};
  options.audio_sink = &sink;
  options.pad_source = &source;
  options.pad_kind = kiln::psx::PadKind::digital;
  const uint8_t text[4] = {};
  uint8_t reply[5] = {};
  kiln::psx::run(kiln::psx::ProgramImage{0x80010000u, 0, 0x80010000u, 0, 0, 0, text}, options, [&](Machine& m) {
    m.write16(io(0x04A), 0x0003); // TX enable, /CS on port 1 (no /ACK interrupt: bytes are read as they come)
    int i = 0;
    for (uint8_t b : {0x01, 0x42, 0x00, 0x00, 0x00}) {
      m.write8(io(0x040), b);
      while (!(m.read16(io(0x044)) & 2)) {
      }
      reply[i++] = m.read8(io(0x040));
    }
    m.vblank();
    m.vblank(); // the frame limit stops the program here
  });
  // Two NTSC frames: floor(2 * 566203.775 / 768) = 1474 samples.
  CHECK(sink.frames == 1474);
  // A digital pad with Cross (bit 14) held: FFh 41h 5Ah, then ~4000h = BFFFh low byte first.
  CHECK(reply[1] == 0x41);
  CHECK(reply[2] == 0x5A);
  CHECK(reply[3] == 0xFF);
  CHECK(reply[4] == 0xBF);
}
